// Migration: stalled is not failed. `run_stalls` holds each stall mark of a running Run — the last activity seen before
// it, when it was marked, and when and why it was lifted (the agent's activity, or the Run's settlement); history stays,
// one row per stall of a Run. A partial index serves the marks in force, which every attention read looks up. And the
// checkpoint kind `run_stalled`, the stall handed to a managed issue's source agent: SQLite cannot ALTER a CHECK
// constraint, so `checkpoints` is rebuilt as migration 9 left it (rows, constraints, indexes), with `wakes` — the only
// table referencing checkpoints — copied aside and recreated as before. Its kinds keep `checks_failed`, which the
// verification migration (018) allows. Forward-only; never edit a shipped migration.
export const migration019 = `
CREATE TABLE run_stalls (
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  episode INTEGER NOT NULL CHECK (episode > 0),
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  last_activity_at INTEGER NOT NULL,
  marked_at INTEGER NOT NULL,
  cleared_at INTEGER NOT NULL DEFAULT 0,
  cleared_by TEXT NOT NULL DEFAULT '' CHECK (cleared_by IN ('','activity','settled')),
  PRIMARY KEY (run_id, episode)
);
CREATE INDEX run_stalls_in_force ON run_stalls(issue_id) WHERE cleared_at = 0;

CREATE TABLE wakes_run_stalls_copy AS SELECT * FROM wakes;
DROP TABLE wakes;

CREATE TABLE checkpoints_run_stalls (
  checkpoint_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  kind TEXT NOT NULL CHECK (kind IN ('initial_schedule','task_settled','task_failed','task_canceled','watchdog','all_tasks_terminal','changes_requested','goal_changes_requested','task_accepted','checks_failed','run_stalled')),
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
INSERT INTO checkpoints_run_stalls (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note)
  SELECT checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note FROM checkpoints;
DROP TABLE checkpoints;
ALTER TABLE checkpoints_run_stalls RENAME TO checkpoints;
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
  FROM wakes_run_stalls_copy;
DROP TABLE wakes_run_stalls_copy;
CREATE INDEX wakes_status ON wakes(status, due_at);
`;
