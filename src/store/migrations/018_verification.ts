// Migration 018: verified, not reported. The developer's checks of an issue and of a task (`--checks-json`; the workspace's
// and the agent targets' live in the settings); each verification of a Run's result — bound to the Run and the exact
// commit it ran at (or the shared folder), with the checks it ran and one row per check that ended (recorded once:
// a check a Host restart interrupted runs again, and its in-flight process is kept so the next Host can end it);
// what the checks said when a task was accepted; how an integration was verified (or skipped by the developer); and
// the checkpoint kind `checks_failed`.
//
// SQLite cannot ALTER a CHECK constraint, so `checkpoints` is rebuilt exactly as migration 9 left it, with `wakes` —
// the only table referencing checkpoints — copied aside and recreated as before. Forward-only; never edit a shipped
// migration.
export const migration018 = `
CREATE TABLE check_settings (
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_id TEXT NOT NULL DEFAULT '',
  checks_json TEXT NOT NULL,
  set_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, task_id)
);

CREATE TABLE verifications (
  verification_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  subject TEXT NOT NULL CHECK (subject IN ('commit','folder')),
  commit_sha TEXT NOT NULL DEFAULT '',
  directory TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running','passed','failed')),
  checks_json TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 1 CHECK (attempts >= 1),
  current_index INTEGER NOT NULL DEFAULT -1,
  current_pid INTEGER NOT NULL DEFAULT 0,
  current_start_ticks TEXT NOT NULL DEFAULT '',
  interruptions_json TEXT NOT NULL DEFAULT '{}',
  problem TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  completed_at INTEGER NOT NULL DEFAULT 0,
  stale_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX verifications_run ON verifications(run_id, created_at);
CREATE INDEX verifications_running ON verifications(status) WHERE status = 'running';
CREATE INDEX verifications_directory ON verifications(directory) WHERE stale_at = 0;

CREATE TABLE check_results (
  verification_id TEXT NOT NULL REFERENCES verifications(verification_id),
  check_index INTEGER NOT NULL CHECK (check_index >= 0),
  name TEXT NOT NULL,
  exit_code INTEGER,
  signal TEXT NOT NULL DEFAULT '',
  timed_out INTEGER NOT NULL DEFAULT 0 CHECK (timed_out IN (0,1)),
  error TEXT NOT NULL DEFAULT '',
  duration_ms INTEGER NOT NULL,
  output_tail TEXT NOT NULL DEFAULT '',
  started_at INTEGER NOT NULL,
  ended_at INTEGER NOT NULL,
  interrupted INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (verification_id, check_index)
);

CREATE TABLE acceptance_checks (
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL,
  checks_status TEXT NOT NULL CHECK (checks_status IN ('passed','failed','running','none','stale')),
  accepted_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, task_id, run_id)
);
ALTER TABLE issue_delivery ADD COLUMN integrated_checks TEXT NOT NULL DEFAULT '';

CREATE TABLE wakes_v16_copy AS SELECT * FROM wakes;
DROP TABLE wakes;

CREATE TABLE checkpoints_v16 (
  checkpoint_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  kind TEXT NOT NULL CHECK (kind IN ('initial_schedule','task_settled','task_failed','task_canceled','watchdog','all_tasks_terminal','changes_requested','goal_changes_requested','task_accepted','checks_failed')),
  status TEXT NOT NULL CHECK (status IN ('pending','active','resolved','superseded','canceled')),
  sequence INTEGER NOT NULL CHECK (sequence > 0),
  graph_revision INTEGER NOT NULL CHECK (graph_revision > 0),
  subject_task_id TEXT NOT NULL DEFAULT '',
  subject_run_id TEXT NOT NULL DEFAULT '',
  creation_reason TEXT NOT NULL DEFAULT '',
  requires_goal_review INTEGER NOT NULL DEFAULT 0 CHECK (requires_goal_review IN (0,1)),
  created_at INTEGER NOT NULL,
  resolved_at INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  UNIQUE (execution_id, sequence)
);
INSERT INTO checkpoints_v16 (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note)
  SELECT checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note FROM checkpoints;
DROP TABLE checkpoints;
ALTER TABLE checkpoints_v16 RENAME TO checkpoints;
CREATE UNIQUE INDEX checkpoints_one_active ON checkpoints(execution_id) WHERE status = 'active';
CREATE INDEX checkpoints_backlog ON checkpoints(execution_id, status, sequence);

CREATE TABLE wakes (
  wake_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  checkpoint_id TEXT NOT NULL REFERENCES checkpoints(checkpoint_id),
  target_kind TEXT NOT NULL CHECK (target_kind IN ('main','reviewer')),
  wake_sequence INTEGER NOT NULL CHECK (wake_sequence > 0),
  client_submit_id TEXT NOT NULL UNIQUE,
  target_session_id TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('prepared','leased','dispatched','turn_settled','acknowledged','failed','canceled')),
  prompt TEXT NOT NULL DEFAULT '',
  due_at INTEGER NOT NULL DEFAULT 0,
  attempt_count INTEGER NOT NULL DEFAULT 0,
  lease_owner TEXT NOT NULL DEFAULT '',
  lease_expires_at INTEGER NOT NULL DEFAULT 0,
  dispatched_at INTEGER NOT NULL DEFAULT 0,
  turn_settled_at INTEGER NOT NULL DEFAULT 0,
  acknowledged_at INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (execution_id, checkpoint_id, target_kind, wake_sequence)
);
INSERT INTO wakes (wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, target_session_id, status, prompt,
  due_at, attempt_count, lease_owner, lease_expires_at, dispatched_at, turn_settled_at, acknowledged_at, last_error, created_at, updated_at)
  SELECT wake_id, execution_id, checkpoint_id, target_kind, wake_sequence, client_submit_id, target_session_id, status, prompt,
  due_at, attempt_count, lease_owner, lease_expires_at, dispatched_at, turn_settled_at, acknowledged_at, last_error, created_at, updated_at
  FROM wakes_v16_copy;
DROP TABLE wakes_v16_copy;
CREATE INDEX wakes_status ON wakes(status, due_at);
`;
