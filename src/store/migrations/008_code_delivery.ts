// Migration: code delivery. A worktree Run's base and result commits (with the files it changed), the commit a
// task's acceptance binds to, and an issue's base branch and integration. Separate tables so that older rows need
// no backfill: a Run without a row simply has no commits. Forward-only; never edit a shipped migration.
export const migration008 = `
CREATE TABLE run_commits (
  run_id TEXT PRIMARY KEY REFERENCES runs(run_id),
  in_worktree INTEGER NOT NULL CHECK (in_worktree IN (0,1)),
  base_commit TEXT NOT NULL,
  result_commit TEXT NOT NULL DEFAULT '',
  changed_files_json TEXT NOT NULL DEFAULT '[]',
  result_recorded_at INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE task_acceptances (
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  accepted_commit TEXT NOT NULL,
  accepted_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, task_id)
);
CREATE TABLE issue_delivery (
  issue_id TEXT PRIMARY KEY REFERENCES issues(issue_id),
  base_commit TEXT NOT NULL,
  base_branch TEXT NOT NULL,
  integrated_commit TEXT NOT NULL DEFAULT '',
  integrated_into TEXT NOT NULL DEFAULT '',
  integrated_at INTEGER NOT NULL DEFAULT 0
);
`;
