// Migration: a new attempt of a task in its own tree. A rework the developer asked for (changes requested on its
// result, a retry after a failure or a cancellation, an update from its base branch) is a row, pending until a Run is
// admitted for it (run_id '' until then) and bound to that Run afterwards, so the Run's prompt carries the note and
// the task's earlier attempts stay its history. An update from base also keeps what it merges in and the acceptance
// it replaces (restored when the update ends without a result). Forward-only.
export const migration020 = `
CREATE TABLE task_reworks (
  rework_id TEXT PRIMARY KEY,
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('changes_requested','retry','update_from_base')),
  attempt INTEGER NOT NULL CHECK (attempt >= 1),
  note TEXT NOT NULL DEFAULT '',
  from_run_id TEXT NOT NULL DEFAULT '',
  run_id TEXT NOT NULL DEFAULT '',
  requested_at INTEGER NOT NULL,
  merge_into TEXT NOT NULL DEFAULT '',
  merge_commit TEXT NOT NULL DEFAULT '',
  merge_sources_json TEXT NOT NULL DEFAULT '[]',
  prior_accepted_commit TEXT NOT NULL DEFAULT '',
  prior_acceptance_state TEXT NOT NULL DEFAULT '' CHECK (prior_acceptance_state IN ('','agent_claimed','auto_checked','user_accepted')),
  FOREIGN KEY (issue_id, task_id) REFERENCES tasks(issue_id, task_id)
);
CREATE INDEX task_reworks_task ON task_reworks(issue_id, task_id, requested_at);
CREATE UNIQUE INDEX task_reworks_run ON task_reworks(run_id) WHERE run_id <> '';
`;
