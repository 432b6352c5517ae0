// The source activity inbox: durable markers about a source session, appended in the same
// transaction as the fact they record and drained later. A `stop` marker (the developer stopped the source session)
// archives every nonterminal execution of that session when drained — before any wake dispatch, also after a restart.
import type { Reader, Row, Tx } from '../tx.js';
import { num, str } from './rowValues.js';

export type InboxEntityKind = 'stop' | 'message' | 'turn';

export interface InboxMarker {
	mutationId: string;
	sessionId: string;
	entityKind: InboxEntityKind;
	entityId: string;
	createdAtUnixMs: number;
	/** 0 = not drained yet. */
	drainedAtUnixMs: number;
}

function markerFromRow(row: Row): InboxMarker {
	return {
		mutationId: str(row, 'mutation_id'),
		sessionId: str(row, 'session_id'),
		entityKind: str(row, 'entity_kind') as InboxEntityKind,
		entityId: str(row, 'entity_id'),
		createdAtUnixMs: num(row, 'created_at'),
		drainedAtUnixMs: num(row, 'drained_at'),
	};
}

export const inboxRepository = {
	get(r: Reader, mutationId: string): InboxMarker | undefined {
		const row = r.get('SELECT * FROM source_activity_inbox WHERE mutation_id = ?', [mutationId]);
		return row ? markerFromRow(row) : undefined;
	},
	/** Markers not drained yet, oldest first. */
	listUndrained(r: Reader): InboxMarker[] {
		return r.all('SELECT * FROM source_activity_inbox WHERE drained_at = 0 ORDER BY created_at, mutation_id').map(markerFromRow);
	},
	/** The session has a Stop marker not drained yet (its executions are about to be archived: no wake may start). */
	hasUndrainedStop(r: Reader, sessionId: string): boolean {
		return r.get("SELECT 1 AS x FROM source_activity_inbox WHERE session_id = ? AND entity_kind = 'stop' AND drained_at = 0 LIMIT 1", [sessionId]) !== undefined;
	},
	insert(tx: Tx, m: InboxMarker): void {
		tx.run(
			'INSERT INTO source_activity_inbox (mutation_id, session_id, entity_kind, entity_id, created_at, drained_at) VALUES (?,?,?,?,?,?)',
			[m.mutationId, m.sessionId, m.entityKind, m.entityId, m.createdAtUnixMs, m.drainedAtUnixMs],
		);
	},
	/** Marks a marker drained once; returns whether it changed now. */
	markDrained(tx: Tx, mutationId: string, atUnixMs: number): boolean {
		return tx.run('UPDATE source_activity_inbox SET drained_at = ? WHERE mutation_id = ? AND drained_at = 0', [atUnixMs, mutationId]) > 0;
	},
};
