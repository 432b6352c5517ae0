// Migration: the audit of the developer's explicit switch from independent to self review (
// "switching to self only by explicit audited user action"). Forward-only; never edit a shipped migration.
export const migration007 = `
CREATE TABLE review_mode_switches (
  switch_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  from_mode TEXT NOT NULL CHECK (from_mode IN ('self','independent')),
  to_mode TEXT NOT NULL CHECK (to_mode IN ('self','independent')),
  reason TEXT NOT NULL CHECK (length(reason) > 0),
  requested_by TEXT NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE INDEX review_mode_switches_by_execution ON review_mode_switches (execution_id, created_at);
`;
