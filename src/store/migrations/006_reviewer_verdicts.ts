// Migration: the independent reviewer's Goal Review. Separate from
// `goal_reviews`, which records the DEVELOPER's confirmation. `review_targets` holds the agent target an execution
// with review_mode independent is reviewed by. One review row per activation of the all_tasks_terminal checkpoint
// (`checkpoint_sequence`); its verdict is advisory and written at most once.
// Forward-only; never edit a shipped migration, add the next one.
export const migration006 = `
CREATE TABLE review_targets (
  execution_id TEXT PRIMARY KEY REFERENCES executions(execution_id),
  review_agent_target_id TEXT NOT NULL CHECK (length(review_agent_target_id) > 0)
);
CREATE TABLE reviewer_reviews (
  review_id TEXT PRIMARY KEY,
  execution_id TEXT NOT NULL REFERENCES executions(execution_id),
  checkpoint_id TEXT NOT NULL,
  checkpoint_sequence INTEGER NOT NULL CHECK (checkpoint_sequence >= 1),
  review_agent_target_id TEXT NOT NULL,
  review_session_id TEXT NOT NULL,
  client_submit_id TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('prepared','dispatched','submitted','failed','canceled')),
  verdict TEXT NOT NULL DEFAULT '' CHECK (verdict IN ('','goal_satisfied','more_work_required','inconclusive')),
  summary TEXT NOT NULL DEFAULT '',
  verdict_request_id TEXT NOT NULL DEFAULT '',
  failure_reason TEXT NOT NULL DEFAULT '',
  disagreement_reason TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  updated_at INTEGER NOT NULL,
  UNIQUE (checkpoint_id, checkpoint_sequence)
);
CREATE INDEX reviewer_reviews_by_checkpoint ON reviewer_reviews (checkpoint_id, created_at);
`;
