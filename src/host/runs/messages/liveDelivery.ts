// Messages into the running Turn (src/core/runs/liveInput.ts): pending queue messages are handed, in order, to the
// Run's current Turn process while it is alive and its stdin open; its supervisor writes them to the agent and
// records their echo. A message is delivered once echoed (read back from the supervisor's record, so a Host that dies
// between the write and the echo neither loses nor repeats it). What is not handed over in time — stdin closed at
// the Turn's result, a paused queue, a codex Turn — stays queued for the next `--resume` Turn (../queuedTurns.ts).
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../../core/ports.js';
import type { Store } from '../../../store/database.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { promptMessageId } from '../../../core/runs/liveInput.js';
import type { RunProcessPort } from '../../../core/runs/runProcessPort.js';
import { appendLiveInputEntry, readLiveInputEntries, readLiveInputState } from '../liveInputFiles.js';
import { readQueue } from './queueFile.js';
import { deriveQueueState, type PersonStop, type QueueState } from './queueState.js';
import { currentTurnProcessId, turnProcessIds } from './turnProcesses.js';

export type LiveRuns = Pick<RunProcessPort, 'runDir' | 'isAlive'>;

/** What the Turn processes of a Run recorded about its messages. */
export interface LiveDeliveries {
	/** Replayed by the agent: delivered. */
	echoed: Set<string>;
	/** Written to an agent's stdin and not echoed (yet). */
	written: Set<string>;
}

export function liveDeliveries(runs: Pick<RunProcessPort, 'runDir'>, runId: string, processIds: readonly string[]): LiveDeliveries {
	const out: LiveDeliveries = { echoed: new Set(), written: new Set() };
	for (const id of processIds) {
		const state = readLiveInputState(runs.runDir(id));
		for (const m of state.echoed) { if (m !== promptMessageId) { out.echoed.add(m); } }
		for (const m of state.written) { if (m !== promptMessageId) { out.written.add(m); } }
	}
	for (const m of out.echoed) { out.written.delete(m); }
	return out;
}

/** The queue state of a Run with the echoes of its Turn processes counted as deliveries. */
export function runQueueState(runs: Pick<RunProcessPort, 'runDir'>, runId: string, stops: readonly PersonStop[]): QueueState & { live: LiveDeliveries } {
	const entries = readQueue(runs.runDir(runId));
	const live = liveDeliveries(runs, runId, turnProcessIds(runId, entries));
	return { ...deriveQueueState(entries, stops, live.echoed), live };
}

/**
 * Hands every pending message not yet handed to the Run's current Turn process (`processId`, else read from the
 * queue file) to it, in order, when that process takes input now (launched with live input, alive, stdin not closed)
 * and the queue is not paused. Returns the ids handed over. Synchronous, so two calls never interleave.
 */
export function forwardPendingMessages(runs: LiveRuns, runId: string, stops: readonly PersonStop[], now: number, processId?: string): string[] {
	const state = runQueueState(runs, runId, stops);
	if (state.paused || state.pending.length === 0) { return []; }
	const current = processId ?? currentTurnProcessId(runId, readQueue(runs.runDir(runId)));
	const dir = runs.runDir(current);
	const entries = readLiveInputEntries(dir);
	if (entries.length === 0 || readLiveInputState(dir).closed || !runs.isAlive(current)) { return []; }
	const handed = new Set(entries.flatMap((e) => (e.type === 'message' ? [e.messageId] : [])));
	const forwarded: string[] = [];
	for (const m of state.pending) {
		if (handed.has(m.messageId)) { continue; }
		appendLiveInputEntry(dir, { type: 'message', messageId: m.messageId, uuid: randomUUID(), text: m.text, atUnixMs: now });
		forwarded.push(m.messageId);
	}
	return forwarded;
}

/** For the Run's owner, who knows its current Turn process: its Stops read from the store; a failure leaves the messages queued. */
export function forwardRunMessages(ctx: { store: Store; runs: LiveRuns; clock: Clock; log(line: string): void }, runId: string, processId: string): void {
	try {
		const stops = ctx.store.read((r) => runRepository.stopEvents(r, runId));
		forwardPendingMessages(ctx.runs, runId, stops, ctx.clock.now(), processId);
	} catch (e) {
		ctx.log(`handing the queued messages of run ${runId} to its Turn failed (they stay queued): ${(e as Error).message}`);
	}
}
