// Migration 011 (schema version 13: it landed after 014 and 012): what every agent Turn used and cost, and issue budgets. `turn_usage` has one row per Turn process
// (a worker Run's Turns, a source session's wake Turns, a reviewer's Turn), keyed by its runner id so a Turn is
// counted once whatever replays its exit (a restart, the runner's event and the supervisor's report). `cost_usd` is
// NULL when the Turn used tokens and its model has no known price. `issue_budgets` holds an issue's limits
// (NULL: none of that kind). Forward-only; never edit a shipped migration.
export const migration011 = `
CREATE TABLE turn_usage (
  process_id TEXT PRIMARY KEY CHECK (length(process_id) > 0),
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  run_id TEXT NOT NULL DEFAULT '',
  role TEXT NOT NULL CHECK (role IN ('source','worker','reviewer')),
  model TEXT NOT NULL DEFAULT '',
  input_tokens INTEGER NOT NULL DEFAULT 0 CHECK (input_tokens >= 0),
  output_tokens INTEGER NOT NULL DEFAULT 0 CHECK (output_tokens >= 0),
  cache_read_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_read_tokens >= 0),
  cache_write_tokens INTEGER NOT NULL DEFAULT 0 CHECK (cache_write_tokens >= 0),
  cost_usd REAL CHECK (cost_usd IS NULL OR cost_usd >= 0),
  cost_source TEXT NOT NULL CHECK (cost_source IN ('agent','prices','unknown')),
  recorded_at INTEGER NOT NULL
);
CREATE INDEX turn_usage_issue ON turn_usage(issue_id);
CREATE INDEX turn_usage_run ON turn_usage(run_id);

CREATE TABLE issue_budgets (
  issue_id TEXT PRIMARY KEY REFERENCES issues(issue_id),
  budget_usd REAL CHECK (budget_usd IS NULL OR budget_usd >= 0),
  budget_tokens INTEGER CHECK (budget_tokens IS NULL OR budget_tokens >= 0),
  updated_at INTEGER NOT NULL
);
`;
