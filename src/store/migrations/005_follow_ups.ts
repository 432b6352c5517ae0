// Migration: the developer's follow-up choices after a completed issue. A follow-up is offered by `tutti next-action` once: `consumed_at` records the call that took it.
// Forward-only; never edit a shipped migration, add the next one.
export const migration005 = `
CREATE TABLE issue_follow_ups (
  follow_up_id TEXT PRIMARY KEY,
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  sequence INTEGER NOT NULL CHECK (sequence >= 1),
  text TEXT NOT NULL CHECK (length(text) > 0),
  requested_at INTEGER NOT NULL CHECK (requested_at > 0),
  consumed_at INTEGER NOT NULL DEFAULT 0 CHECK (consumed_at >= 0),
  UNIQUE (issue_id, sequence)
);
`;
