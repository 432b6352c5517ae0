// Stops of a worker Run: a Stop event (writer-minted id) is durable before the interrupt, and its answer is recorded
// on it; a Stop before launch cancels the launch, which then never starts a process. While a Stop of a Run is in
// flight its exit is held and settled in the transaction that records the Stop's answer, so the outcome is decided
// when the answer lands. The interrupt itself runs in the Run's chain, in its owner (runLifecycle.ts).
import type { TurnFacts } from '../../agents/adapter.js';
import { rejection } from '../../core/hints.js';
import type { StopAnswer } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import type { RunExit } from '../../core/runs/runProcessPort.js';
import { mergeStopAnswer, personStopCoversRun } from '../../core/runs/stopRules.js';
import type { Store } from '../../store/database.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import type { Tx } from '../../store/tx.js';
import { asRunExit } from './messages/turnProcesses.js';
import { type SettlementContext, settleRunInTx } from './runSettlement.js';

export interface StopResult {
	runId: string;
	/** null when a host stop deferred to a person's Stop in force (it writes no event of its own). */
	eventId: string | null;
	answer: StopAnswer;
}

/** An exit that arrived while a Stop of its Run was in flight. */
export interface HeldExit {
	exit: RunExit;
	facts: TurnFacts | null;
}

/** A recorded Stop: answered at once (the Run was not running), or waiting for its interrupt (`eventId` null: deferred). */
export type RecordedStop = { kind: 'answered'; result: StopResult } | { kind: 'pending'; eventId: string | null; canceledAWait: boolean };

export interface RunStopsDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	settlement: SettlementContext;
}

/** Unanswered Stops of a Run that never started took effect: they are why it never starts. */
export function answerPendingStopsInTx(tx: Tx, runId: string, answer: StopAnswer, now: number): void {
	for (const e of runRepository.stopEvents(tx, runId)) {
		if (e.answer === null) { runRepository.answerStopEvent(tx, e.eventId, answer, now); }
	}
}

export class RunStops {
	readonly #d: RunStopsDeps;
	/** Stops in flight per Run (between their event and the end of their answer). */
	readonly #inFlight = new Map<string, number>();
	/** Exits held while a Stop of that Run is in flight. */
	readonly #held = new Map<string, HeldExit>();

	constructor(deps: RunStopsDeps) {
		this.#d = deps;
	}

	stopping(runId: string): boolean {
		return (this.#inFlight.get(runId) ?? 0) > 0;
	}

	/** While a Stop of the Run is in flight its exit is held (settled with the Stop's answer); false: settle it now. */
	hold(runId: string, held: HeldExit): boolean {
		if (!this.stopping(runId)) { return false; }
		this.#held.set(runId, held);
		return true;
	}

	/** A Stop of the Run is in flight from now until end(). */
	begin(runId: string): void {
		this.#inFlight.set(runId, (this.#inFlight.get(runId) ?? 0) + 1);
	}

	/**
	 * Begins a Stop and records its event durably. A Run that is not running gets a `no-effect` event and nothing else
	 * changes; a host stop while a person's Stop covers the Run writes no event of its own (the person's stays the reason).
	 */
	async record(runId: string, reason: 'person' | 'host'): Promise<RecordedStop> {
		const eventId = this.#d.ids.next('stop');
		this.begin(runId);
		try {
			return await this.#d.store.transaction((tx): RecordedStop => {
				const run = runRepository.get(tx, runId);
				if (!run) { throw rejection('run_not_found', `Run ${runId} does not exist.`, { runId }); }
				const now = this.#d.clock.now();
				if (run.status !== 'running') {
					runRepository.insertStopEvent(tx, { eventId, runId, reason, requestedAtUnixMs: now, answer: 'no-effect', answeredAtUnixMs: now });
					return { kind: 'answered', result: { runId, eventId, answer: 'no-effect' } };
				}
				if (reason === 'host' && personStopCoversRun(runRepository.stopEvents(tx, runId), { runId, completedAtUnixMs: 0 })) {
					return { kind: 'pending', eventId: null, canceledAWait: false };
				}
				runRepository.insertStopEvent(tx, { eventId, runId, reason, requestedAtUnixMs: now, answer: null, answeredAtUnixMs: 0 });
				// The stopped Run's worker token stops acting now, not when its process is gone (a next Turn gets a fresh one).
				sessionRepository.revokeToken(tx, run.agentSessionId);
				// Nobody answers a request of a Run being stopped: its agent is told at once (the MCP call ends with a denial).
				const canceled = approvalRepository.closeOpenOfRun(tx, runId, 'canceled', reason === 'person' ? 'The request was canceled: the developer stopped this Run.' : 'The request was canceled: Tutti stopped this Run.', now);
				return { kind: 'pending', eventId, canceledAWait: canceled > 0 };
			});
		} catch (e) {
			this.end(runId);
			throw e;
		}
	}

	/** In the Run's chain, before any interrupt: a launch that has not happened is canceled instead ('took'); null: interrupt. */
	async cancelUnlaunched(runId: string, eventId: string | null): Promise<StopAnswer | null> {
		return this.#d.store.transaction((tx) => {
			const run = runRepository.get(tx, runId);
			if (!run || run.status !== 'running') {
				const stored = eventId === null ? undefined : runRepository.stopEvents(tx, runId).find((e) => e.eventId === eventId);
				return stored?.answer ?? 'no-effect';
			}
			if (launchIntentRepository.byRun(tx, runId)?.status !== 'prepared') { return null; }
			answerPendingStopsInTx(tx, runId, 'took', this.#d.clock.now());
			settleRunInTx(this.#d.settlement, tx, runId, { kind: 'not_launched', outcome: 'cancellation', message: 'stopped before its process started' });
			return 'took';
		});
	}

	/**
	 * Records the interrupt's answer on `eventId` (null: a deferred host stop) — a later answer never overwrites one that
	 * took — and, when no other Stop of the Run is in flight, settles the exit held meanwhile in the same transaction.
	 */
	answer(runId: string, eventId: string | null, answer: StopAnswer): Promise<StopAnswer> {
		return this.#d.store.transaction((tx) => {
			let merged: StopAnswer = answer;
			if (eventId !== null) {
				const stored = runRepository.stopEvents(tx, runId).find((e) => e.eventId === eventId);
				merged = mergeStopAnswer(stored?.answer ?? null, answer) ?? answer;
				if (stored && stored.answer !== merged) { runRepository.answerStopEvent(tx, eventId, merged, this.#d.clock.now()); }
			}
			const held = this.#held.get(runId);
			if (held && (this.#inFlight.get(runId) ?? 0) <= 1) {
				this.#held.delete(runId);
				settleRunInTx(this.#d.settlement, tx, runId, { kind: 'exit', exit: asRunExit(runId, held.exit), facts: held.facts });
			}
			return merged;
		});
	}

	/** The Stop ended. When it was the last one in flight, an exit it held and did not settle is handed back. */
	end(runId: string): HeldExit | undefined {
		const left = (this.#inFlight.get(runId) ?? 1) - 1;
		if (left > 0) { this.#inFlight.set(runId, left); return undefined; }
		this.#inFlight.delete(runId);
		const held = this.#held.get(runId);
		this.#held.delete(runId);
		return held;
	}
}
