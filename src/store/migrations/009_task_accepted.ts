// Migration 9: checkpoint kind `task_accepted` — the developer's acceptance of a task's result, handed to the source
// agent as its next checkpoint (with the developer's note, if any), like `changes_requested` for a request for changes.
//
// SQLite cannot ALTER a CHECK constraint, so `checkpoints` is rebuilt exactly as migration 3 left it (rows, the
// UNIQUE (execution, sequence) constraint, the partial unique index "one active checkpoint per execution" and the
// backlog index), with `wakes` — the only table referencing checkpoints — copied aside and recreated as before.
// Forward-only; never edit a shipped migration.
export const migration009 = `
CREATE TABLE wakes_v9_copy AS SELECT * FROM wakes;
DROP TABLE wakes;

CREATE TABLE checkpoints_v9 (
  checkpoint_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  kind TEXT NOT NULL CHECK (kind IN ('initial_schedule','task_settled','task_failed','task_canceled','watchdog','all_tasks_terminal','changes_requested','goal_changes_requested','task_accepted')),
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
INSERT INTO checkpoints_v9 (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note)
  SELECT checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note FROM checkpoints;
DROP TABLE checkpoints;
ALTER TABLE checkpoints_v9 RENAME TO checkpoints;
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
  FROM wakes_v9_copy;
DROP TABLE wakes_v9_copy;
CREATE INDEX wakes_status ON wakes(status, due_at);
`;
