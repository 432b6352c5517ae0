// Migration: per-issue task counts kept on write, so a board or `issue list` reads one row per issue instead of
// counting every task. Triggers on `tasks` keep them (they run again when the journal is replayed, so a recovered
// store recounts nothing); `deleted` counts removed rows, which tells a reader's in-memory task cache to rebuild.
// Counts exclude superseded tasks, like the board. Forward-only.
export const migration023 = `
CREATE TABLE issue_task_counts (
  issue_id TEXT PRIMARY KEY,
  not_started INTEGER NOT NULL DEFAULT 0 CHECK (not_started >= 0),
  running INTEGER NOT NULL DEFAULT 0 CHECK (running >= 0),
  pending_acceptance INTEGER NOT NULL DEFAULT 0 CHECK (pending_acceptance >= 0),
  completed INTEGER NOT NULL DEFAULT 0 CHECK (completed >= 0),
  failed INTEGER NOT NULL DEFAULT 0 CHECK (failed >= 0),
  canceled INTEGER NOT NULL DEFAULT 0 CHECK (canceled >= 0),
  deleted INTEGER NOT NULL DEFAULT 0 CHECK (deleted >= 0)
);
INSERT INTO issue_task_counts (issue_id, not_started, running, pending_acceptance, completed, failed, canceled)
  SELECT issue_id,
    sum(status = 'not_started' AND superseded_at = 0), sum(status = 'running' AND superseded_at = 0),
    sum(status = 'pending_acceptance' AND superseded_at = 0), sum(status = 'completed' AND superseded_at = 0),
    sum(status = 'failed' AND superseded_at = 0), sum(status = 'canceled' AND superseded_at = 0)
  FROM tasks GROUP BY issue_id;
CREATE TRIGGER issue_task_counts_insert AFTER INSERT ON tasks BEGIN
  INSERT OR IGNORE INTO issue_task_counts (issue_id) VALUES (NEW.issue_id);
  UPDATE issue_task_counts SET
    not_started = not_started + (NEW.status = 'not_started' AND NEW.superseded_at = 0),
    running = running + (NEW.status = 'running' AND NEW.superseded_at = 0),
    pending_acceptance = pending_acceptance + (NEW.status = 'pending_acceptance' AND NEW.superseded_at = 0),
    completed = completed + (NEW.status = 'completed' AND NEW.superseded_at = 0),
    failed = failed + (NEW.status = 'failed' AND NEW.superseded_at = 0),
    canceled = canceled + (NEW.status = 'canceled' AND NEW.superseded_at = 0)
  WHERE issue_id = NEW.issue_id;
END;
CREATE TRIGGER issue_task_counts_update AFTER UPDATE OF issue_id, status, superseded_at ON tasks
WHEN OLD.issue_id IS NOT NEW.issue_id OR OLD.status IS NOT NEW.status OR (OLD.superseded_at = 0) IS NOT (NEW.superseded_at = 0) BEGIN
  UPDATE issue_task_counts SET
    not_started = not_started - (OLD.status = 'not_started' AND OLD.superseded_at = 0),
    running = running - (OLD.status = 'running' AND OLD.superseded_at = 0),
    pending_acceptance = pending_acceptance - (OLD.status = 'pending_acceptance' AND OLD.superseded_at = 0),
    completed = completed - (OLD.status = 'completed' AND OLD.superseded_at = 0),
    failed = failed - (OLD.status = 'failed' AND OLD.superseded_at = 0),
    canceled = canceled - (OLD.status = 'canceled' AND OLD.superseded_at = 0)
  WHERE issue_id = OLD.issue_id;
  INSERT OR IGNORE INTO issue_task_counts (issue_id) VALUES (NEW.issue_id);
  UPDATE issue_task_counts SET
    not_started = not_started + (NEW.status = 'not_started' AND NEW.superseded_at = 0),
    running = running + (NEW.status = 'running' AND NEW.superseded_at = 0),
    pending_acceptance = pending_acceptance + (NEW.status = 'pending_acceptance' AND NEW.superseded_at = 0),
    completed = completed + (NEW.status = 'completed' AND NEW.superseded_at = 0),
    failed = failed + (NEW.status = 'failed' AND NEW.superseded_at = 0),
    canceled = canceled + (NEW.status = 'canceled' AND NEW.superseded_at = 0)
  WHERE issue_id = NEW.issue_id;
END;
CREATE TRIGGER issue_task_counts_delete AFTER DELETE ON tasks BEGIN
  UPDATE issue_task_counts SET
    not_started = not_started - (OLD.status = 'not_started' AND OLD.superseded_at = 0),
    running = running - (OLD.status = 'running' AND OLD.superseded_at = 0),
    pending_acceptance = pending_acceptance - (OLD.status = 'pending_acceptance' AND OLD.superseded_at = 0),
    completed = completed - (OLD.status = 'completed' AND OLD.superseded_at = 0),
    failed = failed - (OLD.status = 'failed' AND OLD.superseded_at = 0),
    canceled = canceled - (OLD.status = 'canceled' AND OLD.superseded_at = 0),
    deleted = deleted + 1
  WHERE issue_id = OLD.issue_id;
END;
`;
