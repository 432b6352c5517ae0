// Migration 3: developer confirmation. New checkpoint kinds `changes_requested` (a developer's request for
// changes on a task) and `goal_changes_requested` (on the goal at Goal Review), each carrying the developer's note;
// the durable review decisions; the Goal Review requests awaiting the developer; the per-issue confirmation setting.
//
// SQLite cannot ALTER a CHECK constraint, so `checkpoints` is rebuilt (rows, the UNIQUE (execution, sequence)
// constraint, the partial unique index "one active checkpoint per execution" and the backlog index preserved).
// Migrations run inside a transaction with foreign keys on, where `PRAGMA foreign_keys` cannot be changed and
// dropping a parent table counts every child row as a violation: so `wakes` (the only table referencing
// checkpoints) is copied aside and recreated exactly as migration 1 defined it, rows and index included.
export const migration003 = `
CREATE TABLE wakes_v3_copy AS SELECT * FROM wakes;
DROP TABLE wakes;

CREATE TABLE checkpoints_v3 (
  checkpoint_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  kind TEXT NOT NULL CHECK (kind IN ('initial_schedule','task_settled','task_failed','task_canceled','watchdog','all_tasks_terminal','changes_requested','goal_changes_requested')),
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
INSERT INTO checkpoints_v3 (checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, note)
  SELECT checkpoint_id, execution_id, kind, status, sequence, graph_revision, subject_task_id, subject_run_id,
  creation_reason, requires_goal_review, created_at, resolved_at, updated_at, '' FROM checkpoints;
DROP TABLE checkpoints;
ALTER TABLE checkpoints_v3 RENAME TO checkpoints;
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
  FROM wakes_v3_copy;
DROP TABLE wakes_v3_copy;
CREATE INDEX wakes_status ON wakes(status, due_at);

-- One row per developer decision on a task's result (never deleted). A Run's result is decided at most once.
CREATE TABLE review_decisions (
  decision_id TEXT PRIMARY KEY,
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_id TEXT NOT NULL,
  run_id TEXT NOT NULL DEFAULT '',
  decision TEXT NOT NULL CHECK (decision IN ('accepted','changes_requested')),
  note TEXT NOT NULL DEFAULT '',
  decided_by TEXT NOT NULL DEFAULT '',
  checkpoint_id TEXT NOT NULL DEFAULT '',
  review_entered_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  CHECK (decision <> 'changes_requested' OR length(trim(note)) > 0),
  UNIQUE (issue_id, task_id, run_id)
);
CREATE INDEX review_decisions_issue ON review_decisions(issue_id, created_at);

-- Goal Review requests: the source agent declared the goal satisfied and the developer's confirmation is awaited.
CREATE TABLE goal_reviews (
  goal_review_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  issue_id TEXT NOT NULL,
  checkpoint_id TEXT NOT NULL,
  graph_revision INTEGER NOT NULL CHECK (graph_revision > 0),
  status TEXT NOT NULL CHECK (status IN ('awaiting_developer','confirmed','changes_requested','canceled')),
  decision TEXT NOT NULL DEFAULT 'goal_satisfied' CHECK (decision IN ('goal_satisfied')),
  disagreement_reason TEXT NOT NULL DEFAULT '',
  note TEXT NOT NULL DEFAULT '',
  reply_checkpoint_id TEXT NOT NULL DEFAULT '',
  requested_at INTEGER NOT NULL,
  decided_at INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  CHECK (status <> 'changes_requested' OR length(trim(note)) > 0)
);
CREATE UNIQUE INDEX goal_reviews_one_awaiting ON goal_reviews(execution_id) WHERE status = 'awaiting_developer';
CREATE INDEX goal_reviews_execution ON goal_reviews(execution_id, requested_at);

-- Per-issue override of the developerConfirmation setting (absent = follow the Host setting).
CREATE TABLE execution_review_settings (
  execution_id TEXT PRIMARY KEY REFERENCES executions(execution_id),
  developer_confirmation INTEGER NOT NULL CHECK (developer_confirmation IN (0,1))
);
`;
