// Migration 2: agent sessions as sources. A Turn records the process it runs in (a turn-scoped runner directory,
// one per delivery attempt), and the source activity inbox keeps durable markers (a source-session Stop) that are
// drained before any wake dispatch, also after a restart.
export const migration002 = `
ALTER TABLE turns ADD COLUMN process_id TEXT NOT NULL DEFAULT '';
CREATE INDEX turns_session_state ON turns(session_id, state);
CREATE INDEX turns_process ON turns(process_id);

CREATE TABLE source_activity_inbox (
  mutation_id TEXT PRIMARY KEY,
  session_id TEXT NOT NULL,
  entity_kind TEXT NOT NULL CHECK (entity_kind IN ('stop','message','turn')),
  entity_id TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  drained_at INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX source_activity_inbox_undrained ON source_activity_inbox(drained_at, created_at);
`;
