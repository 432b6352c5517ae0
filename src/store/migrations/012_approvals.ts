// Migration 012 (applied after 014: migrations apply in landing order): approval requests. A tool call
// an agent may not make without asking becomes one row, answered once by the developer (allow once, allow for the
// rest of the task, deny with a message), or closed by the Host when its Run is stopped (canceled) or ends (expired).
// `(run_id, tool_use_id)` is unique when the agent names its tool call, so a request resent after a Host restart
// finds its row. Forward-only; never edit a shipped migration.
export const migration012 = `
CREATE TABLE approvals (
  approval_id TEXT PRIMARY KEY CHECK (length(approval_id) > 0),
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  session_id TEXT NOT NULL,
  tool_use_id TEXT NOT NULL DEFAULT '',
  tool TEXT NOT NULL CHECK (length(tool) > 0),
  input_json TEXT NOT NULL,
  requested_at INTEGER NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('pending','allowed','denied','expired','canceled')),
  answer TEXT NOT NULL DEFAULT '' CHECK (answer IN ('','allow_once','allow_for_task','deny','task_grant')),
  answered_by TEXT NOT NULL DEFAULT '',
  answered_at INTEGER NOT NULL DEFAULT 0,
  message TEXT NOT NULL DEFAULT '',
  updated_input_json TEXT NOT NULL DEFAULT '',
  granted_by_approval_id TEXT NOT NULL DEFAULT '',
  CHECK ((status = 'pending') = (answered_at = 0))
);
CREATE UNIQUE INDEX approvals_tool_use ON approvals(run_id, tool_use_id) WHERE tool_use_id <> '';
CREATE INDEX approvals_issue ON approvals(issue_id, status, requested_at);
CREATE INDEX approvals_run ON approvals(run_id, status);
CREATE INDEX approvals_task_grant ON approvals(task_id, tool, answer);
`;
