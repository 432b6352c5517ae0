// Migration 10: what changed since an agent last read its plan. Every task row carries `change_revision`, the
// issue's task change counter at its last write (the highest value + 1, set by the task repository), and
// `plan_reads` remembers per source session and issue the counter value its last `plan issue get` answered, so the
// compact snapshot lists only the tasks changed since. Rows written before this migration count as revision 1.
// Forward-only; never edit a shipped migration.
export const migration010 = `
ALTER TABLE tasks ADD COLUMN change_revision INTEGER NOT NULL DEFAULT 0 CHECK (change_revision >= 0);
UPDATE tasks SET change_revision = 1;
CREATE INDEX tasks_change_revision ON tasks(issue_id, change_revision);

CREATE TABLE plan_reads (
  session_id TEXT NOT NULL CHECK (length(session_id) > 0),
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_revision INTEGER NOT NULL CHECK (task_revision >= 0),
  read_at INTEGER NOT NULL,
  PRIMARY KEY (session_id, issue_id)
);
`;
