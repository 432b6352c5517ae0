// Migration 1: the whole initial schema. Forward-only; never edit a shipped migration, add the next one.
// Every enum has a CHECK; ids, times and random values are always bound parameters (deterministic replay).
export const migration001 = `
CREATE TABLE issues (
  issue_id TEXT PRIMARY KEY,
  title TEXT NOT NULL CHECK (length(title) > 0),
  content TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('open','in_progress','completed','archived')),
  planning_source TEXT NOT NULL CHECK (planning_source IN ('manual','tutti')),
  source_session_id TEXT NOT NULL DEFAULT '',
  dispatch_paused INTEGER NOT NULL DEFAULT 0 CHECK (dispatch_paused IN (0,1)),
  auto_accept_default INTEGER NOT NULL DEFAULT 1 CHECK (auto_accept_default IN (0,1)),
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE tasks (
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_id TEXT NOT NULL CHECK (length(task_id) > 0),
  title TEXT NOT NULL CHECK (length(title) > 0),
  content TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('not_started','running','pending_acceptance','completed','failed','canceled')),
  sort_index INTEGER NOT NULL DEFAULT 0,
  agent_target_id TEXT NOT NULL DEFAULT '',
  model_plan_id TEXT NOT NULL DEFAULT '',
  model TEXT NOT NULL DEFAULT '',
  permission_mode_id TEXT NOT NULL DEFAULT '',
  reasoning_effort TEXT NOT NULL DEFAULT '',
  execution_directory TEXT NOT NULL DEFAULT '',
  parallelizable INTEGER NOT NULL DEFAULT 1 CHECK (parallelizable IN (0,1)),
  auto_accept INTEGER NOT NULL DEFAULT 1 CHECK (auto_accept IN (0,1)),
  acceptance_state TEXT NOT NULL DEFAULT '' CHECK (acceptance_state IN ('','agent_claimed','auto_checked','user_accepted')),
  latest_run_id TEXT NOT NULL DEFAULT '',
  superseded_at INTEGER NOT NULL DEFAULT 0 CHECK (superseded_at >= 0),
  superseded_by_task_id TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (issue_id, task_id)
);
CREATE INDEX tasks_issue_status ON tasks(issue_id, status, superseded_at);
CREATE INDEX tasks_status_sort ON tasks(status, superseded_at, issue_id, sort_index);

CREATE TABLE task_dependencies (
  issue_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  depends_on_task_id TEXT NOT NULL,
  position INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (issue_id, task_id, depends_on_task_id),
  FOREIGN KEY (issue_id, task_id) REFERENCES tasks(issue_id, task_id)
);
CREATE INDEX task_dependencies_reverse ON task_dependencies(issue_id, depends_on_task_id);

CREATE TABLE agent_sessions (
  session_id TEXT PRIMARY KEY,
  role TEXT NOT NULL CHECK (role IN ('source','worker','reviewer')),
  token_sha256 TEXT NOT NULL UNIQUE CHECK (length(token_sha256) = 64),
  issue_id TEXT NOT NULL DEFAULT '',
  task_id TEXT NOT NULL DEFAULT '',
  run_id TEXT NOT NULL DEFAULT '',
  agent_target_id TEXT NOT NULL DEFAULT '',
  provider_session_id TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL
);

CREATE TABLE runs (
  run_id TEXT PRIMARY KEY,
  issue_id TEXT NOT NULL REFERENCES issues(issue_id),
  task_id TEXT NOT NULL,
  agent_target_id TEXT NOT NULL DEFAULT '',
  agent_session_id TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN ('not_started','running','pending_acceptance','completed','failed','canceled')),
  outcome TEXT CHECK (outcome IS NULL OR outcome IN ('success','failure','cancellation')),
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cache_read_tokens INTEGER NOT NULL DEFAULT 0,
  cache_write_tokens INTEGER NOT NULL DEFAULT 0,
  summary TEXT NOT NULL DEFAULT '',
  error_message TEXT NOT NULL DEFAULT '',
  exit_code INTEGER,
  output_dir TEXT NOT NULL DEFAULT '',
  execution_directory TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  started_at INTEGER NOT NULL DEFAULT 0,
  completed_at INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  FOREIGN KEY (issue_id, task_id) REFERENCES tasks(issue_id, task_id)
);
CREATE INDEX runs_task ON runs(issue_id, task_id, created_at);
CREATE INDEX runs_status ON runs(status);

CREATE TABLE turns (
  turn_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  client_submit_id TEXT NOT NULL UNIQUE,
  state TEXT NOT NULL CHECK (state IN ('prepared','running','settled')),
  outcome TEXT CHECK (outcome IS NULL OR outcome IN ('success','failure','cancellation')),
  created_at INTEGER NOT NULL,
  settled_at INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE launch_intents (
  launch_intent_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE REFERENCES runs(run_id),
  client_submit_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('prepared','leased','dispatched','failed','canceled')),
  lease_owner TEXT NOT NULL DEFAULT '',
  lease_expires_at INTEGER NOT NULL DEFAULT 0,
  pid INTEGER,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);

CREATE TABLE stop_events (
  event_id TEXT PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs(run_id),
  reason TEXT NOT NULL CHECK (reason IN ('person','host','evict')),
  requested_at INTEGER NOT NULL,
  answer TEXT CHECK (answer IS NULL OR answer IN ('took','end-owed','declined','interrupt-unconfirmed','no-effect')),
  answered_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX stop_events_run ON stop_events(run_id, requested_at);

CREATE TABLE executions (
  execution_id TEXT PRIMARY KEY,
  issue_id TEXT NOT NULL UNIQUE REFERENCES issues(issue_id),
  source_session_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('awaiting_schedule','running','awaiting_main','pending_goal_review','orphaned_source','completed','archiving','archived')),
  graph_revision INTEGER NOT NULL CHECK (graph_revision > 0),
  active_checkpoint_id TEXT NOT NULL DEFAULT '',
  last_orchestrator_activity_at INTEGER NOT NULL DEFAULT 0,
  watchdog_due_at INTEGER NOT NULL DEFAULT 0,
  review_mode TEXT NOT NULL DEFAULT 'self' CHECK (review_mode IN ('self','independent')),
  archive_reason TEXT NOT NULL DEFAULT '',
  completed_at INTEGER NOT NULL DEFAULT 0,
  archived_at INTEGER NOT NULL DEFAULT 0,
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL
);
CREATE INDEX executions_source ON executions(source_session_id, status, updated_at);

CREATE TABLE checkpoints (
  checkpoint_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  kind TEXT NOT NULL CHECK (kind IN ('initial_schedule','task_settled','task_failed','task_canceled','watchdog','all_tasks_terminal')),
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
  UNIQUE (execution_id, sequence)
);
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
CREATE INDEX wakes_status ON wakes(status, due_at);

CREATE TABLE plan_mutations (
  source_session_id TEXT NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('create','schedule','mutate','acknowledge','complete','stop')),
  issue_id TEXT NOT NULL,
  request_id TEXT NOT NULL,
  input_sha256 TEXT NOT NULL CHECK (length(input_sha256) = 64),
  checkpoint_id TEXT NOT NULL DEFAULT '',
  expected_graph_revision INTEGER NOT NULL DEFAULT 0,
  result_graph_revision INTEGER NOT NULL DEFAULT 0,
  result_json TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  PRIMARY KEY (source_session_id, kind, issue_id, request_id)
);

CREATE TABLE archive_operations (
  operation_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  request_id TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('requested','canceling_runs','archiving','completed','failed')),
  requested_by TEXT NOT NULL DEFAULT '',
  reason TEXT NOT NULL DEFAULT '',
  attempt_count INTEGER NOT NULL DEFAULT 0,
  last_error TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (execution_id, request_id)
);
`;
