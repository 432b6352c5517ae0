// Migration: acceptance changed after the fact. A task whose branch moved after its acceptance (someone committed in
// its tree) goes back to pending_acceptance; each such reopening is a row: the Run whose result was accepted, the
// commit the acceptance was bound to, the commit the branch had moved to, and why ("changed after acceptance").
// Forward-only; never edit a shipped migration.
export const migration014 = `
CREATE TABLE task_acceptance_changes (
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  accepted_commit TEXT NOT NULL,
  moved_to_commit TEXT NOT NULL,
  reason TEXT NOT NULL,
  changed_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, task_id, run_id, moved_to_commit)
);
`;
