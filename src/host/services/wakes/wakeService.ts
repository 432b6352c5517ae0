// Durable wake delivery to source sessions (digest §1.7 items 17–25). Each pass: drain the source activity inbox
// (source-session Stops), fire due watchdogs, then deliver at most `maxPerPass` prepared main wakes, each isolated:
//   claim (tx)   — pause gate, runnable execution, active checkpoint, identity verified (fails closed), session not
//                  busy; lease (owner + expiry) and bind the Turn `tutti-execution-wake:<wakeId>` (unique submit id);
//   send         — start the Turn's process through the RunProcessPort (or, when the Turn was already accepted, find
//                  it again by the same submit id: lost-response recovery);
//   finalize(tx) — CAS by the still-live lease owner that re-checks the pause gate → dispatched; when the gate lost,
//                  cancel the accepted Turn, mark the wake canceled and prepare the next sequence with a fresh submit
//                  id (hidden while paused); if the cancellation fails the lease is kept until it expires.
// A wake Turn's exit settles the Turn and moves its wake to `turn_settled` — the checkpoint is NOT resolved.
// Reviewer wakes (independent Goal Review) go the same way to the reviewer session; a reviewer Turn that ends
// without a verdict fails its review, which releases the held main wake.
import { stopHookLaunchArgs } from '../../../agents/stopHook.js';
import { randomUUID } from 'node:crypto';
import { adapterFor } from '../../../agents/command.js';
import { isTerminalExecution } from '../../../core/execution/allowedActions.js';
import { verifyWakeIdentity } from '../../../core/ids.js';
import { type Disposable, DisposableStore, toDisposable } from '../../../core/lifecycle.js';
import type { RunOutcome, Wake } from '../../../core/model.js';
import type { Clock, IdSource } from '../../../core/ports.js';
import type { Store } from '../../../store/database.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { activeReviewerStatuses, reviewerReviewRepository } from '../../../store/repositories/reviewerReviewRepository.js';
import { sessionRepository } from '../../../store/repositories/sessionRepository.js';
import { turnRepository } from '../../../store/repositories/turnRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Tx } from '../../../store/tx.js';
import type { HostConfig } from '../../config.js';
import type { RunExit, RunLaunchSpec, RunProcessPort } from '../../../core/runs/runProcessPort.js';
import { resolveRunDirectory } from '../executionDirectory.js';
import { prepareMainWake } from '../plan/checkpointSteps.js';
import { failReview, reviewerHolds } from '../reviews/independentReview.js';
import { mintToken, tokenHash } from '../sessionService.js';
import { planningPrompt } from '../sourceSessions/skill.js';
import { isTurnProcessId, turnIdFor, turnProcessId } from './turnIds.js';
import { listDeliverableWakeIds, listDueWatchdogExecutionIds, listNonRunnableWithOpenWakes, wakeIdBySubmitId } from './wakeQueries.js';
import { fireWatchdog } from './watchdog.js';

export interface WakeServiceDeps {
	workspace: string;
	/** TUTTI_IPC_HOOK for source agents. */
	endpoint: string;
	store: Store;
	clock: Clock;
	ids: IdSource;
	runs: RunProcessPort;
	config: HostConfig;
	log(line: string): void;
	/** Drains durable source-session Stop markers; runs first in every pass (before any wake dispatch). */
	drainInbox?(): Promise<void>;
	/** Lease length of a claimed wake (default 60 s). */
	leaseMs?: number;
	/** At most this many deliveries per pass (default 8). */
	maxPerPass?: number;
	/** Timer cadence of passes after start() (default 1000 ms; 0 = no timer, tests call tick()). */
	tickMs?: number;
	/** Lease owner id (default: minted). */
	owner?: string;
	/** The shell command of the agents' Stop hook (`<shim> hook stop`); absent: source agents get no hook. */
	stopHookCommand?: string;
}

export type DeliveryResult = 'delivered' | 'recovered' | 'busy' | 'skipped' | 'failed' | 'rotated' | 'cancel_failed' | 'launch_failed';

type Claim =
	| { kind: 'skip'; result: DeliveryResult }
	| { kind: 'launch'; spec: RunLaunchSpec; processId: string; submitId: string }
	| { kind: 'recover'; processId: string; submitId: string };

const defaultLeaseMs = 60_000;
const maxFactsBytes = 4 * 1024 * 1024;

export class WakeService implements Disposable {
	readonly #d: WakeServiceDeps;
	readonly #owner: string;
	readonly #leaseMs: number;
	readonly #maxPerPass: number;
	readonly #disposables = new DisposableStore();
	readonly #background = new Set<Promise<unknown>>();
	#pass: Promise<void> | undefined;
	#again = false;
	#timer: NodeJS.Timeout | undefined;
	#disposed = false;

	constructor(deps: WakeServiceDeps) {
		this.#d = deps;
		this.#owner = deps.owner ?? deps.ids.next('wake-owner');
		this.#leaseMs = deps.leaseMs ?? defaultLeaseMs;
		this.#maxPerPass = deps.maxPerPass ?? 8;
		this.#disposables.add(deps.runs.onExit((exit) => {
			if (isTurnProcessId(exit.runId)) { this.#track(this.onTurnExit(exit)); }
		}));
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
		if (this.#d.drainInbox) { await this.#d.drainInbox(); }
		await this.#reconcileTurns();
		await this.tick();
		const tickMs = this.#d.tickMs ?? 1000;
		if (tickMs > 0 && !this.#disposed) {
			this.#timer = setInterval(() => { this.trigger(); }, tickMs);
			this.#timer.unref();
		}
	}

	/** Requests a pass (coalesced); never throws. */
	trigger(): void {
		if (this.#disposed) { return; }
		this.#track(this.tick());
	}

	/** One pass (or joins the running one and runs another after it): inbox, watchdog, bounded delivery. */
	async tick(): Promise<void> {
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
			if (this.#d.drainInbox) { await this.#d.drainInbox(); }
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
		const ids = this.#d.store.read((r) => listDeliverableWakeIds(r, this.#d.clock.now(), this.#maxPerPass));
		const results: DeliveryResult[] = [];
		for (const wakeId of ids) {
			if (this.#disposed) { break; }
			results.push(await this.deliver(wakeId));
		}
		return results;
	}

	/** Delivers one wake (claim → send → finalize). */
	async deliver(wakeId: string): Promise<DeliveryResult> {
		let claim: Claim;
		try {
			claim = await this.#d.store.transaction((tx) => this.#claim(tx, wakeId));
		} catch (e) {
			this.#d.log(`claiming wake ${wakeId} failed: ${(e as Error).message}`);
			return 'failed';
		}
		if (claim.kind === 'skip') { return claim.result; }
		if (claim.kind === 'launch') {
			try {
				await this.#d.runs.launch(claim.spec);
			} catch (e) {
				await this.#recordLaunchFailure(wakeId, (e as Error).message);
				return 'launch_failed';
			}
		}
		const final = await this.#d.store.transaction((tx) => this.#finalize(tx, wakeId, claim.submitId, claim.processId));
		if (final === 'cancel') { return this.#cancelAccepted(wakeId, claim.processId, claim.submitId); }
		if (final === 'stale') {
			// Our lease expired and another owner started the Turn again: our process must not run alongside it.
			await this.#d.runs.interrupt(claim.processId);
			return 'skipped';
		}
		if (final === 'rotate') {
			await this.#d.store.transaction((tx) => { this.#rotate(tx, wakeId, claim.submitId, 'the issue was paused before the wake was dispatched'); });
			return 'rotated';
		}
		if (claim.kind === 'recover') {
			// The recovered Turn may have ended before we found it again: its exit is settled now (it fires no event).
			let exit: RunExit | null = null;
			try { exit = this.#d.runs.exitRecord(claim.processId); } catch { exit = null; }
			if (exit) { await this.onTurnExit(exit); } else { this.#adopt(claim.processId); }
			return final === 'delivered' ? 'recovered' : final;
		}
		return final;
	}

	#claim(tx: Tx, wakeId: string): Claim {
		const now = this.#d.clock.now();
		const wake = wakeRepository.get(tx, wakeId);
		if (!wake) { return { kind: 'skip', result: 'skipped' }; }
		const claimable = wake.status === 'prepared' || (wake.status === 'leased' && wake.leaseExpiresAtUnixMs <= now);
		if (!claimable) { return { kind: 'skip', result: 'skipped' }; }
		const execution = executionRepository.get(tx, wake.executionId);
		const issue = execution ? issueRepository.get(tx, execution.issueId) : undefined;
		if (!execution || !issue || isTerminalExecution(execution.status)) { return { kind: 'skip', result: 'skipped' }; }
		if (issue.dispatchPaused) { return { kind: 'skip', result: 'skipped' }; }
		// The independent reviewer: its wake goes to its own reviewer session while its review is open; meanwhile
		// the checkpoint's main wake is held (stays prepared).
		const review = wake.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, wake.clientSubmitId) : undefined;
		if (wake.targetKind === 'reviewer' && (!review || !activeReviewerStatuses.includes(review.status))) { return { kind: 'skip', result: 'skipped' }; }
		if (wake.targetKind === 'main' && reviewerHolds(tx, wake.checkpointId)) { return { kind: 'skip', result: 'skipped' }; }
		const problem = review
			? (review.reviewSessionId === wake.targetSessionId && review.checkpointId === wake.checkpointId ? null : 'the reviewer wake does not match its review')
			: verifyWakeIdentity(wake, { executionId: execution.executionId, targetSessionId: execution.sourceSessionId });
		if (problem !== null) {
			wakeRepository.update(tx, { ...wake, status: 'failed', lastError: `identity mismatch: ${problem}`, leaseOwner: '', leaseExpiresAtUnixMs: 0, updatedAtUnixMs: now });
			this.#d.log(`wake ${wakeId} failed closed: ${problem}`);
			return { kind: 'skip', result: 'failed' };
		}
		const checkpoint = checkpointRepository.get(tx, wake.checkpointId);
		if (!checkpoint || checkpoint.status !== 'active' || execution.activeCheckpointId !== checkpoint.checkpointId) {
			wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: 'its checkpoint is not active any more', leaseOwner: '', leaseExpiresAtUnixMs: 0, updatedAtUnixMs: now });
			return { kind: 'skip', result: 'skipped' };
		}
		const session = sessionRepository.get(tx, wake.targetSessionId);
		const target = session ? this.#d.config.agentTargets.find((t) => t.id === session.agentTargetId) : undefined;
		if (!session || !target) {
			const lastError = session ? `the source session's agent target '${session.agentTargetId}' is not configured` : 'the source session does not exist';
			if (wake.lastError !== lastError) { wakeRepository.update(tx, { ...wake, lastError, updatedAtUnixMs: now }); }
			return { kind: 'skip', result: 'skipped' };
		}
		const busy = turnRepository.openOfSession(tx, session.sessionId).some((t) => t.clientSubmitId !== wake.clientSubmitId);
		if (busy) { return { kind: 'skip', result: 'busy' }; }

		const existing = turnRepository.bySubmitId(tx, wake.clientSubmitId);
		if (existing && existing.sessionId !== session.sessionId) {
			wakeRepository.update(tx, { ...wake, status: 'failed', lastError: `its submit id is bound to a Turn of session ${existing.sessionId}`, updatedAtUnixMs: now });
			return { kind: 'skip', result: 'failed' };
		}
		if (existing && existing.state === 'settled') {
			// The Turn ran and settled, but the wake never recorded it (lost projection).
			wakeRepository.update(tx, { ...wake, status: 'turn_settled', turnSettledAtUnixMs: existing.settledAtUnixMs || now, leaseOwner: '', leaseExpiresAtUnixMs: 0, updatedAtUnixMs: now });
			return { kind: 'skip', result: 'recovered' };
		}
		const leased: Wake = {
			...wake, status: 'leased', leaseOwner: this.#owner, leaseExpiresAtUnixMs: now + this.#leaseMs, attemptCount: wake.attemptCount + 1, updatedAtUnixMs: now,
		};
		wakeRepository.update(tx, leased);
		if (review && review.status === 'prepared') { reviewerReviewRepository.update(tx, { ...review, status: 'dispatched', updatedAtUnixMs: now }); }
		if (existing && existing.processId && this.#accepted(existing.processId)) {
			// Lost response: the Turn with this submit id was accepted; never start it twice.
			return { kind: 'recover', processId: existing.processId, submitId: wake.clientSubmitId };
		}
		const turnId = turnIdFor(wake.clientSubmitId);
		const processId = turnProcessId(turnId, leased.attemptCount);
		const first = turnRepository.countOfSession(tx, session.sessionId) === 0;
		if (existing) {
			turnRepository.setProcessId(tx, wake.clientSubmitId, processId);
		} else {
			turnRepository.insert(tx, {
				turnId, sessionId: session.sessionId, clientSubmitId: wake.clientSubmitId, state: 'prepared', outcome: null,
				createdAtUnixMs: now, settledAtUnixMs: 0, processId,
			});
		}
		const token = mintToken();
		sessionRepository.updateTokenHash(tx, session.sessionId, tokenHash(token));
		const where = resolveRunDirectory(this.#d.workspace, target.cwd ?? '');
		const prompt = first && !review ? planningPrompt({ wakePrompt: wake.prompt, issueTitle: issue.title, issueContent: issue.content }) : wake.prompt;
		const spec: RunLaunchSpec = {
			runId: processId,
			issueId: issue.issueId,
			taskId: '',
			target,
			cwd: 'error' in where ? this.#d.workspace : where.cwd,
			stdinText: prompt,
			env: {
				TUTTI_IPC_HOOK: this.#d.endpoint,
				TUTTI_SESSION_TOKEN: token,
				TUTTI_SESSION_ID: session.sessionId,
				TUTTI_ISSUE_ID: issue.issueId,
			},
			turn: {
				prompt,
				// Later Turns continue the provider session recorded from the Turn facts; claude's first gets a known id.
				...(session.providerSessionId ? { resumeProviderSessionId: session.providerSessionId }
					: target.adapter === 'claude' ? { newProviderSessionId: randomUUID() } : {}),
				...(this.#d.stopHookCommand !== undefined && !review ? { extraArgs: stopHookLaunchArgs(target.adapter, this.#d.stopHookCommand) } : {}),
			},
		};
		return { kind: 'launch', spec, processId, submitId: wake.clientSubmitId };
	}

	/** Whether a Turn's process was started (it is alive or left an exit record). */
	#accepted(processId: string): boolean {
		try {
			if (this.#d.runs.isAlive(processId)) { return true; }
			const exit = this.#d.runs.exitRecord(processId);
			return exit !== null && !exit.spawnError;
		} catch {
			return false;
		}
	}

	async #recordLaunchFailure(wakeId: string, message: string): Promise<void> {
		this.#d.log(`delivering wake ${wakeId} failed (retried with the same identity): ${message}`);
		await this.#d.store.transaction((tx) => {
			const wake = wakeRepository.get(tx, wakeId);
			if (!wake || wake.status !== 'leased' || wake.leaseOwner !== this.#owner) { return; }
			wakeRepository.update(tx, { ...wake, status: 'prepared', lastError: message, leaseOwner: '', leaseExpiresAtUnixMs: 0, updatedAtUnixMs: this.#d.clock.now() });
		});
	}

	/** The final dispatch CAS: only the still-live lease owner, and only while the pause gate is open. */
	#finalize(tx: Tx, wakeId: string, submitId: string, processId: string): DeliveryResult | 'cancel' | 'rotate' | 'stale' {
		const now = this.#d.clock.now();
		const wake = wakeRepository.get(tx, wakeId);
		const turn = turnRepository.bySubmitId(tx, submitId);
		const ownTurn = turn !== undefined && turn.processId === processId;
		if (!ownTurn) { return 'stale'; }
		if (turn.state === 'prepared') { turnRepository.markRunning(tx, submitId); }
		const turnSettled = turn.state === 'settled';
		if (!wake || wake.status !== 'leased' || wake.leaseOwner !== this.#owner) {
			// Resolved by a command meanwhile (acknowledged), or recovered by another owner: nothing to finalize.
			return wake?.status === 'acknowledged' || wake?.status === 'turn_settled' ? 'delivered' : 'skipped';
		}
		const execution = executionRepository.get(tx, wake.executionId);
		const issue = execution ? issueRepository.get(tx, execution.issueId) : undefined;
		const checkpoint = checkpointRepository.get(tx, wake.checkpointId);
		const gateOpen = wake.leaseExpiresAtUnixMs > now && !!execution && !!issue && !issue.dispatchPaused
			&& !isTerminalExecution(execution.status) && checkpoint?.status === 'active';
		if (!gateOpen) { return turnSettled ? 'rotate' : 'cancel'; }
		wakeRepository.update(tx, {
			...wake,
			status: turnSettled ? 'turn_settled' : 'dispatched',
			dispatchedAtUnixMs: now,
			turnSettledAtUnixMs: turnSettled ? turn.settledAtUnixMs || now : 0,
			leaseOwner: '', leaseExpiresAtUnixMs: 0, lastError: '', updatedAtUnixMs: now,
		});
		return 'delivered';
	}

	/** A pause (or archive) won after the Turn was accepted: cancel that exact Turn, then rotate the wake. */
	async #cancelAccepted(wakeId: string, processId: string, submitId: string): Promise<DeliveryResult> {
		const result = await this.#d.runs.interrupt(processId);
		if (result === 'still_running') {
			await this.#d.store.transaction((tx) => {
				const wake = wakeRepository.get(tx, wakeId);
				if (!wake || wake.status !== 'leased' || wake.leaseOwner !== this.#owner) { return; }
				// Keep the lease until it expires: no overlapping orchestrator Turn may start meanwhile.
				wakeRepository.update(tx, { ...wake, lastError: 'canceling the accepted wake Turn failed; the lease is kept until it expires', updatedAtUnixMs: this.#d.clock.now() });
			});
			return 'cancel_failed';
		}
		await this.#d.store.transaction((tx) => { this.#rotate(tx, wakeId, submitId, 'the issue was paused before the wake was dispatched; its Turn was canceled'); });
		return 'rotated';
	}

	/**
	 * Atomically: the leased wake is canceled, its Turn settled canceled, and — while its checkpoint is still active
	 * in a non-terminal execution — the next sequence is prepared with a fresh submit id (hidden while paused).
	 */
	#rotate(tx: Tx, wakeId: string, submitId: string, reason: string): void {
		const now = this.#d.clock.now();
		const wake = wakeRepository.get(tx, wakeId);
		if (!wake || wake.status !== 'leased' || wake.leaseOwner !== this.#owner) { return; }
		wakeRepository.update(tx, { ...wake, status: 'canceled', lastError: reason, leaseOwner: '', leaseExpiresAtUnixMs: 0, updatedAtUnixMs: now });
		turnRepository.settle(tx, submitId, 'cancellation', now);
		const execution = executionRepository.get(tx, wake.executionId);
		const issue = execution ? issueRepository.get(tx, execution.issueId) : undefined;
		const review = wake.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, submitId) : undefined;
		if (review) {
			// The reviewer's Turn was canceled before dispatch: the review fails and control returns to main.
			failReview(tx, review, 'reviewer_not_dispatched', now);
			return;
		}
		const checkpoint = checkpointRepository.get(tx, wake.checkpointId);
		if (!execution || !issue || isTerminalExecution(execution.status) || checkpoint?.status !== 'active') { return; }
		prepareMainWake(tx, execution, issue, checkpoint, now);
	}

	/** A wake Turn's process ended: settle the Turn; a dispatched wake becomes turn_settled (checkpoint untouched). */
	async onTurnExit(exit: RunExit): Promise<void> {
		const facts = this.#readFacts(exit.runId);
		try {
			await this.#d.store.transaction((tx) => {
				const turn = turnRepository.byProcessId(tx, exit.runId);
				if (!turn || turn.state === 'settled') { return; }
				const now = this.#d.clock.now();
				const outcome: RunOutcome = exit.spawnError || exit.signal === 'lost' ? 'failure'
					: exit.signal ? 'cancellation' : exit.exitCode === 0 ? 'success' : 'failure';
				turnRepository.settle(tx, turn.clientSubmitId, outcome, now);
				if (facts?.providerSessionId) { sessionRepository.updateProviderSessionId(tx, turn.sessionId, facts.providerSessionId); }
				const wake = wakeRepository.get(tx, wakeIdBySubmitId(tx, turn.clientSubmitId) ?? '');
				if (wake && wake.status === 'dispatched') {
					wakeRepository.update(tx, { ...wake, status: 'turn_settled', turnSettledAtUnixMs: now, updatedAtUnixMs: now });
				}
				// A reviewer Turn that ended without its verdict fails the review (fail closed); control returns to main.
				const review = wake?.targetKind === 'reviewer' ? reviewerReviewRepository.bySubmitId(tx, turn.clientSubmitId) : undefined;
				if (review) { failReview(tx, review, `reviewer_turn_ended_without_verdict (${outcome})`, now); }
			});
		} catch (e) {
			this.#d.log(`settling wake Turn ${exit.runId} failed: ${(e as Error).message}`);
		}
		this.trigger();
	}

	#readFacts(processId: string): { providerSessionId: string } | null {
		try {
			const turn = this.#d.store.read((r) => turnRepository.byProcessId(r, processId));
			const session = turn ? this.#d.store.read((r) => sessionRepository.get(r, turn.sessionId)) : undefined;
			const target = session ? this.#d.config.agentTargets.find((t) => t.id === session.agentTargetId) : undefined;
			if (!target) { return null; }
			const adapter = adapterFor(target);
			if (!adapter.parseTurnFacts) { return null; }
			const stdout = this.#d.runs.readLog(processId, 'stdout', 0, maxFactsBytes).data;
			return adapter.parseTurnFacts(stdout);
		} catch (e) {
			this.#d.log(`reading the facts of wake Turn ${processId} failed: ${(e as Error).message}`);
			return null;
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

	/** Startup: wake Turns still running in the store are settled from their exit record, or re-attached. */
	async #reconcileTurns(): Promise<void> {
		const running = this.#d.store.read((r) => turnRepository.listRunningWithProcess(r));
		for (const turn of running) {
			const processId = turn.processId ?? '';
			if (!isTurnProcessId(processId)) { continue; }
			let exit: RunExit | null = null;
			try { exit = this.#d.runs.exitRecord(processId); } catch { exit = null; }
			if (exit) {
				await this.onTurnExit(exit);
			} else {
				this.#adopt(processId);
			}
		}
	}

	#adopt(processId: string): void {
		try { this.#d.runs.adopt(processId); } catch (e) { this.#d.log(`re-attaching wake Turn ${processId} failed: ${(e as Error).message}`); }
	}

	/** Interrupts every running Turn of a session (source-session Stop); returns the runner ids interrupted. */
	async interruptSessionTurns(sessionId: string): Promise<string[]> {
		const open = this.#d.store.read((r) => turnRepository.openOfSession(r, sessionId));
		const ids = open.map((t) => t.processId ?? '').filter((id) => isTurnProcessId(id));
		await Promise.all(ids.map((id) => this.#d.runs.interrupt(id)));
		return ids;
	}

	#track(p: Promise<unknown>): void {
		const guarded = p.catch((e: unknown) => { this.#d.log(`wake service: ${(e as Error).message}`); });
		this.#background.add(guarded);
		void guarded.finally(() => { this.#background.delete(guarded); });
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
