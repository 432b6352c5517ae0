// Migration: the developer's Finish after a completed issue, and the Stop hook's block budget per agent session
//. Forward-only; never edit a shipped migration, add the next one.
export const migration004 = `
CREATE TABLE issue_finishes (
  issue_id TEXT PRIMARY KEY REFERENCES issues(issue_id),
  finished_at INTEGER NOT NULL CHECK (finished_at > 0)
);
CREATE TABLE stop_hook_budgets (
  session_id TEXT PRIMARY KEY,
  observed_command TEXT NOT NULL CHECK (length(observed_command) > 0),
  blocks INTEGER NOT NULL CHECK (blocks >= 0),
  first_blocked_at INTEGER NOT NULL,
  released_at INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL
);
`;
