// The owner of a wake's delivery to its source session, from a prepared wake to its Turn's settlement. A pass runs
// after every store commit once the Host has started (coalesced; hostServices.ts) and on the timer, which also
// brings due watchdogs and expired leases. Each
// pass: drain the source-session Stop markers, fire due watchdogs, then deliver at most `maxPerPass` wakes, each
// isolated: claim (tx) → start the Turn through the TurnLifecycle, its exit expected from the exit inbox first (or
// find an accepted one again: lost-response recovery) → finalize (tx); when the pause gate lost, cancel the accepted
// Turn and rotate the wake; if the cancellation fails the lease is kept until it expires. The transactional steps and
// their rules are in wakeTurn.ts. A wake Turn's exit settles the Turn and moves its wake to `turn_settled` — the
// checkpoint is NOT resolved. Reviewer wakes (independent Goal Review) go the same way to the reviewer session.
import { type Disposable, DisposableStore, toDisposable } from '../../core/lifecycle.js';
import { listDeliverableWakeIds, listDueWatchdogExecutionIds, listNonRunnableWithOpenWakes } from '../../store/repositories/wakeDeliveryRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { RunExit } from '../../core/runs/runProcessPort.js';
import { TurnLifecycle, type TurnServiceDeps } from '../turns/turnLifecycle.js';
import {
	claimWakeInTx, type DeliveryResult, finalizeWakeInTx, rotateWakeInTx, settleWakeTurnInTx, updateOwnLeaseInTx, type WakeClaim, type WakeTurnContext, wakeTurnTarget,
} from './wakeTurn.js';
import { isTurnProcessId } from '../turns/turnIds.js';
import { fireWatchdog } from '../checkpoints/watchdog.js';

export type { DeliveryResult } from './wakeTurn.js';

export interface WakeServiceDeps extends TurnServiceDeps {
	/** The durable source-session Stop markers, drained first in every pass (before any wake dispatch). */
	stopMarkers?: { drain(): Promise<unknown> };
	/** Lease length of a claimed wake (default 60 s). */
	leaseMs?: number;
	/** At most this many deliveries per pass (default 8). */
	maxPerPass?: number;
	/** Timer cadence of passes after start() (default 1000 ms; 0 = no timer, tests call tick()). */
	tickMs?: number;
	/** Lease owner id (default: minted). */
	owner?: string;
}

const defaultLeaseMs = 60_000;

export class WakeService implements Disposable {
	readonly #d: WakeServiceDeps;
	readonly #owner: string;
	readonly #leaseMs: number;
	readonly #maxPerPass: number;
	readonly #disposables = new DisposableStore();
	/** The Turn lifecycle and exit inbox shared with the Run owner. */
	readonly #turns: TurnLifecycle;
	readonly #ctx: WakeTurnContext;
	readonly #background = new Set<Promise<unknown>>();
	/** Wakes whose launch failed: a commit does not retry them, the next tick does (no hot loop on a failing launch). */
	readonly #retryOnTick = new Set<string>();
	#pass: Promise<void> | undefined;
	#again = false;
	#timer: NodeJS.Timeout | undefined;
	#disposed = false;

	constructor(deps: WakeServiceDeps) {
		this.#d = deps;
		this.#owner = deps.owner ?? deps.ids.next('wake-owner');
		this.#leaseMs = deps.leaseMs ?? defaultLeaseMs;
		this.#maxPerPass = deps.maxPerPass ?? 8;
		this.#turns = deps.turns ?? this.#disposables.add(new TurnLifecycle(deps));
		this.#ctx = { workspace: deps.workspace, owner: this.#owner, leaseMs: this.#leaseMs, turns: this.#turns, log: deps.log };
		this.#disposables.add(toDisposable(() => { if (this.#timer) { clearInterval(this.#timer); } }));
	}

	get owner(): string { return this.#owner; }

	/**
	 * Host start (before any dispatch): suppress open wakes of non-runnable executions, drain the inbox, reconcile
	 * wake Turns that ran while the Host was down. Restart is never a resume: paused wakes stay prepared, and a lease
	 * of the previous Host is recovered only once it expired. Then one pass, and the timer.
	 */
	async start(): Promise<void> {
		await this.#suppressNonRunnable();
		await this.#d.stopMarkers?.drain();
		await this.#reconcileTurns();
		await this.tick();
		const tickMs = this.#d.tickMs ?? 1000;
		if (tickMs > 0 && !this.#disposed) {
			this.#timer = setInterval(() => { this.#track(this.tick()); }, tickMs);
			this.#timer.unref();
		}
	}

	/** Requests a pass (coalesced), as every commit does; never throws. */
	trigger(): void {
		if (this.#disposed) { return; }
		this.#track(this.#passSoon());
	}

	/**
	 * One pass (or joins the running one and runs another after it): inbox, watchdog, bounded delivery. Unlike a
	 * commit's pass, it also retries wakes whose launch failed.
	 */
	async tick(): Promise<void> {
		this.#retryOnTick.clear();
		return this.#passSoon();
	}

	#passSoon(): Promise<void> {
		if (this.#pass) {
			this.#again = true;
			return this.#pass;
		}
		const run = async (): Promise<void> => {
			do {
				this.#again = false;
				await this.#onePass();
			} while (this.#again && !this.#disposed);
		};
		this.#pass = run().finally(() => { this.#pass = undefined; });
		return this.#pass;
	}

	async #onePass(): Promise<void> {
		if (this.#disposed) { return; }
		try {
			await this.#d.stopMarkers?.drain();
			await this.watchdogPass();
		} catch (e) {
			this.#d.log(`wake pass: ${(e as Error).message}`);
		}
		await this.deliveryPass();
	}

	/** Fires every due watchdog (one transaction per execution). */
	async watchdogPass(): Promise<void> {
		const now = this.#d.clock.now();
		const due = this.#d.store.read((r) => listDueWatchdogExecutionIds(r, now));
		for (const executionId of due) {
			try {
				await this.#d.store.transaction((tx) => fireWatchdog(tx, executionId, this.#d.clock.now()));
			} catch (e) {
				this.#d.log(`watchdog of ${executionId} failed: ${(e as Error).message}`);
			}
		}
	}

	/** Delivers at most `maxPerPass` wakes; each failure is recorded on its wake and isolated from the others. */
	async deliveryPass(): Promise<DeliveryResult[]> {
		const ids = this.#d.store.read((r) => listDeliverableWakeIds(r, this.#d.clock.now(), this.#maxPerPass + this.#retryOnTick.size))
			.filter((id) => !this.#retryOnTick.has(id)).slice(0, this.#maxPerPass);
		const results: DeliveryResult[] = [];
		for (const wakeId of ids) {
			if (this.#disposed) { break; }
			results.push(await this.deliver(wakeId));
		}
		return results;
	}

	/** Delivers one wake (claim → send → finalize). */
	async deliver(wakeId: string): Promise<DeliveryResult> {
		let claim: WakeClaim;
		try {
			claim = await this.#d.store.transaction((tx) => claimWakeInTx(this.#ctx, tx, wakeId, this.#d.clock.now()));
		} catch (e) {
			this.#d.log(`claiming wake ${wakeId} failed: ${(e as Error).message}`);
			return 'failed';
		}
		if (claim.kind === 'skip') { return claim.result; }
		if (claim.kind === 'launch') {
			this.#expect(claim.processId);
			const started = await this.#turns.start(claim.start);
			if (!started.started) {
				this.#turns.forgetExit(claim.processId);
				await this.#recordLaunchFailure(wakeId, started.message);
				return 'launch_failed';
			}
		}
		const final = await this.#d.store.transaction((tx) => finalizeWakeInTx(this.#ctx, tx, wakeId, claim.submitId, claim.processId, this.#d.clock.now()));
		if (final === 'cancel') { return this.#cancelAccepted(wakeId, claim.processId, claim.submitId); }
		if (final === 'stale') {
			// Our lease expired and another owner started the Turn again, or the wake was canceled meanwhile: ours must not run.
			await this.#turns.interrupt(claim.processId);
			return 'skipped';
		}
		if (final === 'rotate') {
			await this.#rotate(wakeId, claim.submitId, 'the issue was paused before the wake was dispatched');
			return 'rotated';
		}
		if (claim.kind === 'recover') {
			// The recovered Turn may have ended before we found it again: then its exit is settled now.
			await this.#attach(claim.processId);
			return final === 'delivered' ? 'recovered' : final;
		}
		return final;
	}

	async #recordLaunchFailure(wakeId: string, message: string): Promise<void> {
		this.#retryOnTick.add(wakeId);
		this.#d.log(`delivering wake ${wakeId} failed (retried with the same identity): ${message}`);
		await this.#d.store.transaction((tx) => {
			updateOwnLeaseInTx(this.#ctx, tx, wakeId, { status: 'prepared', lastError: message, leaseOwner: '', leaseExpiresAtUnixMs: 0 }, this.#d.clock.now());
		});
	}

	/** A pause (or archive) won after the Turn was accepted: cancel that exact Turn, then rotate the wake. */
	async #cancelAccepted(wakeId: string, processId: string, submitId: string): Promise<DeliveryResult> {
		const result = await this.#turns.interrupt(processId);
		if (result === 'still_running') {
			await this.#d.store.transaction((tx) => {
				// Keep the lease until it expires: no overlapping orchestrator Turn may start meanwhile.
				updateOwnLeaseInTx(this.#ctx, tx, wakeId, { lastError: 'canceling the accepted wake Turn failed; the lease is kept until it expires' }, this.#d.clock.now());
			});
			return 'cancel_failed';
		}
		await this.#rotate(wakeId, submitId, 'the issue was paused before the wake was dispatched; its Turn was canceled');
		return 'rotated';
	}

	async #rotate(wakeId: string, submitId: string, reason: string): Promise<void> {
		await this.#d.store.transaction((tx) => { rotateWakeInTx(this.#ctx, tx, wakeId, submitId, reason, this.#d.clock.now()); });
	}

	/** A wake Turn's process ended: settle the Turn; a dispatched wake becomes turn_settled (checkpoint untouched). */
	async onTurnExit(exit: RunExit): Promise<void> {
		// Read before the settlement transaction (file reads never happen inside one).
		const facts = this.#turns.facts(exit.runId, this.#d.store.read((r) => wakeTurnTarget(r, this.#turns, exit.runId)));
		try {
			await this.#d.store.transaction((tx) => {
				const now = this.#d.clock.now();
				this.#turns.recordUsageInTx(tx, exit.runId, facts, now);
				settleWakeTurnInTx(tx, exit, facts, now);
			});
		} catch (e) {
			this.#d.log(`settling wake Turn ${exit.runId} failed: ${(e as Error).message}`);
		}
	}

	/** Startup: every still-open wake of a completed, archived or orphaned execution is suppressed (stored canceled). */
	async #suppressNonRunnable(): Promise<void> {
		const ids = this.#d.store.read((r) => listNonRunnableWithOpenWakes(r));
		for (const executionId of ids) {
			await this.#d.store.transaction((tx) => {
				wakeRepository.cancelOpenOfExecution(tx, executionId, this.#d.clock.now(), 'the execution is not runnable');
			});
		}
	}

	/** Host start, before any request is answered: what wake Turns that ended while the Host was down used counts now. */
	countEndedTurns(): Promise<void> {
		const candidates = this.#d.store.read((r) => turnRepository.listRunningWithProcess(r)
			.filter((turn) => isTurnProcessId(turn.processId ?? ''))
			.map((turn) => ({ processId: turn.processId ?? '', target: wakeTurnTarget(r, this.#turns, turn.processId ?? '') })));
		return this.#turns.countEndedTurns(this.#d.store, candidates, this.#d.clock.now());
	}

	/** Startup: wake Turns still running in the store are settled from their exit record, or re-attached. */
	async #reconcileTurns(): Promise<void> {
		const running = this.#d.store.read((r) => turnRepository.listRunningWithProcess(r));
		for (const turn of running) {
			const processId = turn.processId ?? '';
			if (isTurnProcessId(processId)) { await this.#attach(processId); }
		}
	}

	/** The wake Turn's exit is taken from the exit inbox, once (the Run owner takes its own the same way). */
	#expect(processId: string): void {
		this.#turns.expectExit(processId, (exit) => this.#track(this.onTurnExit(exit)));
	}

	/** A wake Turn started earlier: settled now from its exit record, or re-attached so its exit comes later. */
	async #attach(processId: string): Promise<void> {
		this.#expect(processId);
		if (this.#turns.exitRecord(processId)) { return this.#turns.lookNow(processId); }
		try { this.#turns.adopt(processId); } catch (e) { this.#d.log(`re-attaching wake Turn ${processId} failed: ${(e as Error).message}`); }
	}

	#track(p: Promise<unknown>): Promise<void> {
		const guarded = p.then(() => undefined, (e: unknown) => { this.#d.log(`wake service: ${(e as Error).message}`); });
		this.#background.add(guarded);
		void guarded.finally(() => { this.#background.delete(guarded); });
		return guarded;
	}

	isIdle(): boolean {
		return this.#background.size === 0 && this.#pass === undefined;
	}

	async whenIdle(): Promise<void> {
		while (this.#background.size > 0 || this.#pass) {
			await Promise.allSettled([...this.#background, this.#pass]);
		}
	}

	dispose(): void {
		this.#disposed = true;
		this.#disposables.dispose();
	}
}
