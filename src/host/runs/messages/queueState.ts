// Queued messages to a running agent: the queue is an append-only list of entries;
// whether it is paused is DERIVED, never stored: a person's Stop of the Run pauses it until a later Resume entry
// covers that Stop. Messages keep their append order and are never dropped. Pure.

export interface QueuedMessageEntry {
	type: 'message';
	/** Writer-minted id (unique per workspace). */
	messageId: string;
	text: string;
	atUnixMs: number;
}

/** The developer resumed the queue: every person Stop named here stops pausing it. */
export interface QueueResumeEntry {
	type: 'resume';
	eventId: string;
	resumesStopEventIds: string[];
	atUnixMs: number;
}

/** A message was handed to the agent (written by the delivery step, before the Turn's process starts). */
export interface QueueDeliveredEntry {
	type: 'delivered';
	messageId: string;
	atUnixMs: number;
	/** The runner id of the Turn process that carries this message (`<runId>.t<n>`); it is the Run's current process after. */
	turnProcessId?: string;
}

export type QueueEntry = QueuedMessageEntry | QueueResumeEntry | QueueDeliveredEntry;

/** A person Stop of the Run (from the store's stop events). */
export interface PersonStop {
	eventId: string;
	/** Only `person` Stops pause the queue (host stops and evictions do not). */
	reason: string;
}

export interface QueueState {
	/** True while a person's Stop of the Run is not covered by a later Resume. */
	paused: boolean;
	/** The person Stops that pause the queue now (empty when not paused). */
	pausedByStopEventIds: string[];
	/** Messages not delivered yet, in the order they were sent. */
	pending: QueuedMessageEntry[];
	/** Every message ever sent, in order. */
	all: QueuedMessageEntry[];
}

/**
 * `echoed`: messages a running agent replayed after its supervisor wrote them into the Turn (liveInput.ts): delivered
 * as surely as a `delivered` entry, which the Host never has to write for them.
 */
export function deriveQueueState(entries: readonly QueueEntry[], stops: readonly PersonStop[], echoed: ReadonlySet<string> = new Set()): QueueState {
	const resumed = new Set<string>();
	const delivered = new Set<string>(echoed);
	const all: QueuedMessageEntry[] = [];
	const seen = new Set<string>();
	for (const entry of entries) {
		switch (entry.type) {
			case 'message':
				// A duplicate id (a retried append) is the same message: keep the first, never reorder.
				if (!seen.has(entry.messageId)) { seen.add(entry.messageId); all.push(entry); }
				break;
			case 'resume':
				for (const id of entry.resumesStopEventIds) { resumed.add(id); }
				break;
			case 'delivered':
				delivered.add(entry.messageId);
				break;
		}
	}
	const pausedBy = stops.filter((s) => s.reason === 'person' && !resumed.has(s.eventId)).map((s) => s.eventId);
	return {
		paused: pausedBy.length > 0,
		pausedByStopEventIds: pausedBy,
		pending: all.filter((m) => !delivered.has(m.messageId)),
		all,
	};
}

/** The next message to deliver, or null while paused or empty. Delivery takes exactly this one, in order. */
export function nextDeliverable(state: QueueState): QueuedMessageEntry | null {
	if (state.paused) { return null; }
	return state.pending[0] ?? null;
}
