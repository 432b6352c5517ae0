// Migration: delivery. Finish records whether the developer finished with accepted work not integrated ("not
// integrated"; 0 for Finishes recorded before this migration); every integration is kept as history (which accepted
// commit of each task it took, whether it squashed, and its push to a remote); and the disk each issue's worktrees
// use, as last measured (a measurement, replaced by the next one). Forward-only; never edit a shipped migration.
export const migration017 = `
ALTER TABLE issue_finishes ADD COLUMN without_integrating INTEGER NOT NULL DEFAULT 0 CHECK (without_integrating IN (0,1));
CREATE TABLE integrations (
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  sequence INTEGER NOT NULL CHECK (sequence > 0),
  into_branch TEXT NOT NULL,
  previous_commit TEXT NOT NULL,
  integrated_commit TEXT NOT NULL,
  squash TEXT NOT NULL CHECK (squash IN ('none','task','issue')),
  task_commits_json TEXT NOT NULL DEFAULT '{}',
  push_remote TEXT NOT NULL DEFAULT '',
  push_state TEXT NOT NULL DEFAULT '' CHECK (push_state IN ('','pushed','failed')),
  push_error TEXT NOT NULL DEFAULT '',
  integrated_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, sequence)
);
CREATE TABLE worktree_disk (
  issue_id TEXT PRIMARY KEY,
  bytes INTEGER NOT NULL CHECK (bytes >= 0),
  trees INTEGER NOT NULL CHECK (trees >= 0),
  measured_at INTEGER NOT NULL
);
`;
