// Stops of a worker Run (SPEC §8, digest §1.7 items 13–16): a Stop event is durable before the interrupt is sent;
// launch and interrupt of the same Run are serialized (a Stop before launch cancels the launch, which then never
// starts a process); while a Stop of a Run is in flight its exit is held and settled in the same transaction that
// records the Stop's answer, so the outcome is decided when the answer lands.
import type { TurnFacts } from '../../agents/adapter.js';
import { rejection } from '../../core/hints.js';
import type { StopAnswer } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import { answerForInterrupt, mergeStopAnswer, personStopCoversRun } from '../../core/runs/stopRules.js';
import type { Store } from '../../store/database.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import type { Tx } from '../../store/tx.js';
import type { RunExit } from '../../core/runs/runProcessPort.js';
import { type SettledRun, type SettlementContext, settleRunInTx } from './runSettlement.js';
import { answerPendingStopsInTx } from './runLaunch.js';
import type { TurnLifecycle } from '../turns/turnLifecycle.js';

export interface StopResult {
	runId: string;
	/** null when a host stop deferred to a person's Stop in force (it writes no event of its own). */
	eventId: string | null;
	answer: StopAnswer;
}

export interface RunStopsDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	turns: TurnLifecycle;
	settlement: SettlementContext;
	/** Runs `fn` in the Run's chain (launch and interrupt of the same Run are serialized). */
	serial<T>(runId: string, fn: () => Promise<T>): Promise<T>;
	/** The runner id of the Run's current Turn process. */
	currentProcess(runId: string): string;
	/** The exit of a later Turn process, as the Run's own exit. */
	runExitOf(runId: string, exit: RunExit): RunExit;
	afterSettle(settled: SettledRun): void;
	/** An exit held while Stops were in flight and not settled by them is handled again once the last one ended. */
	replayExit(exit: RunExit): void;
}

interface HeldExit {
	exit: RunExit;
	facts: TurnFacts | null;
}

export class RunStops {
	readonly #d: RunStopsDeps;
	/** Stops in flight per Run (between their event commit and their answer commit). */
	readonly #inFlight = new Map<string, number>();
	/** Exit records held while a Stop of that Run is in flight. */
	readonly #held = new Map<string, HeldExit>();

	constructor(deps: RunStopsDeps) {
		this.#d = deps;
	}

	/** Whether a Stop of the Run is in flight. */
	stopping(runId: string): boolean {
		return (this.#inFlight.get(runId) ?? 0) > 0;
	}

	/** While a Stop of the Run is in flight, its exit is held (settled with the Stop's answer); false: settle it now. */
	holdExit(runId: string, exit: RunExit, facts: TurnFacts | null): boolean {
		if (!this.stopping(runId)) { return false; }
		this.#held.set(runId, { exit, facts });
		return true;
	}

	/**
	 * Records a Stop event (writer-minted id) durably, then interrupts the Run's process and records the answer.
	 * A Run that is not running gets a `no-effect` event and nothing else changes. A host stop while a person's
	 * Stop covers the Run writes no event of its own (the person's Stop stays the reason).
	 */
	async stop(runId: string, reason: 'person' | 'host'): Promise<StopResult> {
		const eventId = this.#d.ids.next('stop');
		this.#inFlight.set(runId, (this.#inFlight.get(runId) ?? 0) + 1);
		try {
			const recorded = await this.#d.store.transaction((tx) => {
				const run = runRepository.get(tx, runId);
				if (!run) { throw rejection('run_not_found', `Run ${runId} does not exist.`, { runId }); }
				const now = this.#d.clock.now();
				if (run.status !== 'running') {
					runRepository.insertStopEvent(tx, { eventId, runId, reason, requestedAtUnixMs: now, answer: 'no-effect', answeredAtUnixMs: now });
					return 'answered' as const;
				}
				if (reason === 'host' && personStopCoversRun(runRepository.stopEvents(tx, runId), { runId, completedAtUnixMs: 0 })) {
					return 'deferred' as const;
				}
				runRepository.insertStopEvent(tx, { eventId, runId, reason, requestedAtUnixMs: now, answer: null, answeredAtUnixMs: 0 });
				// The stopped Run's worker token stops acting now, not when its process is gone (a next Turn gets a fresh one).
				sessionRepository.revokeToken(tx, run.agentSessionId);
				// Nobody answers a request of a Run being stopped: its agent is told at once (the MCP call ends with a denial).
				const canceled = approvalRepository.closeOpenOfRun(tx, runId, 'canceled', reason === 'person' ? 'The request was canceled: the developer stopped this Run.' : 'The request was canceled: Tutti stopped this Run.', now);
				return canceled > 0 ? 'pending-canceled-a-wait' as const : 'pending' as const;
			});
			if (recorded === 'answered') { return { runId, eventId, answer: 'no-effect' }; }
			const ownEvent = recorded === 'deferred' ? null : eventId;
			return { runId, eventId: ownEvent, answer: await this.#interruptAndAnswer(runId, ownEvent, recorded === 'pending-canceled-a-wait') };
		} finally {
			this.#end(runId);
		}
	}

	/**
	 * Host start: Stops recorded before a restart whose answer never was (the Host went down between the event and
	 * the interrupt, or during it) are carried out now, so a durable Stop is never left without effect while its
	 * Run keeps running. Each unanswered event of the Run gets its answer; the Run settles as the rules decide.
	 */
	async resumeUnanswered(runId: string): Promise<void> {
		const unanswered = this.#d.store.read((r) => runRepository.stopEvents(r, runId).filter((e) => e.answer === null).map((e) => e.eventId));
		for (const eventId of unanswered) {
			this.#inFlight.set(runId, (this.#inFlight.get(runId) ?? 0) + 1);
			try {
				await this.#interruptAndAnswer(runId, eventId);
			} finally {
				this.#end(runId);
			}
		}
	}

	/** Interrupts the Run in its chain and records the answer on `eventId` (null: a deferred host stop), settling a held exit. */
	async #interruptAndAnswer(runId: string, eventId: string | null, canceledAWait = false): Promise<StopAnswer> {
		const answer = await this.#d.serial(runId, () => this.#interruptStep(runId, eventId, canceledAWait));
		const { merged, settled } = await this.#d.store.transaction((tx) => {
			let result: StopAnswer = answer;
			if (eventId !== null) {
				const stored = runRepository.stopEvents(tx, runId).find((e) => e.eventId === eventId);
				result = mergeStopAnswer(stored?.answer ?? null, answer) ?? answer;
				if (stored && stored.answer !== result) { runRepository.answerStopEvent(tx, eventId, result, this.#d.clock.now()); }
			}
			return { merged: result, settled: this.#settleHeldExit(tx, runId) };
		});
		if (settled) { this.#d.afterSettle(settled); }
		return merged;
	}

	/** Inside the Run's chain: cancel a launch that has not happened, or interrupt the process. */
	async #interruptStep(runId: string, eventId: string | null, canceledAWait = false): Promise<StopAnswer> {
		const early = await this.#d.store.transaction((tx) => {
			const run = runRepository.get(tx, runId);
			if (!run || run.status !== 'running') {
				const stored = eventId === null ? undefined : runRepository.stopEvents(tx, runId).find((e) => e.eventId === eventId);
				return { answer: stored?.answer ?? 'no-effect', settled: null };
			}
			if (launchIntentRepository.byRun(tx, runId)?.status === 'prepared') {
				answerPendingStopsInTx(tx, runId, 'took', this.#d.clock.now());
				const settled = settleRunInTx(this.#d.settlement, tx, runId, {
					kind: 'not_launched', outcome: 'cancellation', message: 'stopped before its process started',
				});
				return { answer: 'took' as StopAnswer, settled };
			}
			return null;
		});
		if (early) {
			if (early.settled) { this.#d.afterSettle(early.settled); }
			return early.answer;
		}
		const result = await this.#d.turns.interrupt(this.#d.currentProcess(runId));
		return answerForInterrupt(result, true, canceledAWait);
	}

	#end(runId: string): void {
		const left = (this.#inFlight.get(runId) ?? 1) - 1;
		if (left > 0) { this.#inFlight.set(runId, left); return; }
		this.#inFlight.delete(runId);
		const held = this.#held.get(runId);
		if (held) {
			this.#held.delete(runId);
			this.#d.replayExit(held.exit);
		}
	}

	/** Settles a held exit inside `tx` when only our own Stop of the Run is still in flight. */
	#settleHeldExit(tx: Tx, runId: string): SettledRun | null {
		const held = this.#held.get(runId);
		if (!held || (this.#inFlight.get(runId) ?? 0) > 1) { return null; }
		this.#held.delete(runId);
		return settleRunInTx(this.#d.settlement, tx, runId, { kind: 'exit', exit: this.#d.runExitOf(runId, held.exit), facts: held.facts });
	}
}
