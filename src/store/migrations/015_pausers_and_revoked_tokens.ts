// Migration: who paused an issue, and worker tokens revoked by a Stop. `issues.paused_by` names the principal whose
// pause holds dispatch ('developer' | 'source' | 'agent'; '' while dispatch runs): a developer's pause or stop is
// lifted only by the developer. Issues already paused when this runs were paused by the developer (no agent could
// pause before), so they keep the developer's pause. `agent_sessions.token_revoked` is 'stopped' once a Stop was
// recorded against the session's running Run (its token no longer acts; the next Turn's fresh token clears it).
// Forward-only; never edit a shipped migration.
export const migration015 = `
ALTER TABLE issues ADD COLUMN paused_by TEXT NOT NULL DEFAULT '';
UPDATE issues SET paused_by = 'developer' WHERE dispatch_paused = 1;
ALTER TABLE agent_sessions ADD COLUMN token_revoked TEXT NOT NULL DEFAULT '';
`;
