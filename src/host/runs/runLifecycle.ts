// The owner of a worker Run from admission to settlement: it admits Runs, launches their first Turn, starts the
// Turn of each queued message, carries out Stops, takes each Turn's exit from the exit inbox, has the result committed
// and settles the Run; it also marks a silent Run stalled and lifts the mark on its next output (runStalls.ts).
// Every step that touches one Run's process (launch, interrupt, the next queued Turn, a
// settlement retry) runs in that Run's serial chain, `this.#live.serial`, and the Run's current Turn process is kept
// here, not re-read from its queue file. The steps below (runLaunch.ts, queuedTurns.ts, runStops.ts,
// runSettlement.ts, runRecovery.ts) take values and return what happened; no transaction spans a process call.
import type { TurnFacts } from '../../agents/adapter.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { Issue, StopAnswer, Task } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import type { RunExit, RunProcessPort } from '../../core/runs/runProcessPort.js';
import { answerForInterrupt } from '../../core/runs/stopRules.js';
import { turnCompleted } from '../../core/turns/turnOutcome.js';
import type { Store } from '../../store/database.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { reopenChangedParents } from '../delivery/acceptanceChanges.js';
import { DeveloperGitMoves } from '../delivery/outsideWatch.js';
import { RunResultRecorder } from '../delivery/runDelivery.js';
import type { TurnLifecycle } from '../turns/turnLifecycle.js';
import { WorktreeManager } from '../worktrees/worktreeManager.js';
import { RunChains } from './runChains.js';
import { checksOfTask } from '../checks/taskChecks.js';
import { reverifyInTx } from '../checks/verificationStart.js';
import { forwardRunMessages } from './messages/liveDelivery.js';
import { asRunExit, turnProcessAfter } from './messages/turnProcesses.js';
import { prepareQueuedTurn } from './queuedTurns.js';
import { type AdmittedRun, admitRunsInTx, type RunAdmission } from './runAdmission.js';
import { prepareRunLaunch, type RunLaunchContext, startRunTurn, type TurnStarted } from './runLaunch.js';
import { launchedRunningRuns, recoverySteps, runningByLaunch, unansweredStopIds } from './runRecovery.js';
import { type RunEnding, type SettlementContext, SettlementHook, type SettlementObserver, settleRunInTx } from './runSettlement.js';
import { RunStops, type StopResult } from './runStops.js';
import { StallWatch } from './runStalls.js';

/** A settlement the store refused is tried again this often, this many times (two minutes in all). */
const settleRetry = { everyMs: 2_000, attempts: 60 } as const;

export interface RunLifecycleDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	ids: IdSource;
	runs: RunProcessPort;
	config: HostConfig;
	/** The Turn lifecycle and its exit inbox, shared with the wakes. */
	turns: TurnLifecycle;
	log(line: string): void;
	/** Git worktrees of isolated tasks (default: one over `workspace`). */
	worktrees?: WorktreeManager;
	/** The developer's Tutti commands that move refs (default: a ledger of its own; the Host shares one). */
	gitMoves?: DeveloperGitMoves;
	/** A new claude session id (default: a random UUID); tests pin it. */
	newProviderSessionId?: () => string;
	/** How often running Runs are probed for stalls once watched (default: from the stall times; 0: never, tests call checkStalls()). */
	stallProbeMs?: number;
}

export class RunLifecycle implements RunAdmission, Disposable {
	readonly #d: RunLifecycleDeps;
	readonly #ctx: RunLaunchContext;
	readonly #results: RunResultRecorder;
	readonly #stops: RunStops;
	readonly #live: RunChains;
	readonly #settlements = new SettlementHook();
	readonly #stalls: StallWatch;
	#disposed = false;

	constructor(deps: RunLifecycleDeps) {
		this.#d = deps;
		this.#live = new RunChains(deps.runs, deps.log);
		const worktrees = deps.worktrees ?? new WorktreeManager(deps.workspace);
		const settlement: SettlementContext = {
			now: () => deps.clock.now(), log: deps.log, observer: this.#settlements,
			checksOf: (r, run, task) => checksOfTask(r, deps.config, task, run.agentTargetId),
		};
		this.#ctx = {
			workspace: deps.workspace, store: deps.store, clock: deps.clock, turns: deps.turns, runs: deps.runs, worktrees, settlement,
			leaseOwner: deps.ids.next('host'), log: deps.log, ...(deps.newProviderSessionId ? { newProviderSessionId: deps.newProviderSessionId } : {}),
		};
		this.#stops = new RunStops({ store: deps.store, clock: deps.clock, ids: deps.ids, settlement });
		this.#results = new RunResultRecorder({
			workspace: deps.workspace, store: deps.store, clock: deps.clock, worktrees, moves: deps.gitMoves ?? new DeveloperGitMoves(), runDir: (id) => deps.runs.runDir(id),
		}, deps.log);
		// A launch, a Stop or an exit in progress is left alone by the stall probe.
		this.#stalls = new StallWatch({
			store: deps.store, clock: deps.clock, runs: deps.runs, turns: deps.turns, config: deps.config, log: deps.log,
			processOf: (runId) => this.#live.processOf(runId), inFlight: (runId) => this.#live.busy(runId) || this.#stops.stopping(runId),
			...(deps.stallProbeMs !== undefined ? { everyMs: deps.stallProbeMs } : {}),
		});
	}

	/** The plan's settlement hook for managed issues (the plan is built over this admission, so it comes after). */
	observeSettlements(observer: SettlementObserver): Disposable {
		return this.#settlements.observe(observer);
	}

	/** The same hook, for the verifications: a task whose checks ran settles for the plan when they answer. */
	get settlements(): SettlementObserver {
		return this.#settlements;
	}

	// ---- admission and launch ----

	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[] {
		return admitRunsInTx({ clock: this.#d.clock, ids: this.#d.ids, config: this.#d.config, runDir: (id) => this.#d.runs.runDir(id) }, tx, issue, tasks);
	}

	async reopenChangedParents(issueId: string, taskIds: readonly string[]): Promise<string[]> {
		// A reopened result is a new commit: the task's checks run again on it.
		const reverify = (tx: Tx, runId: string, commit: string): void => { reverifyInTx(this.#ctx.settlement, tx, runId, commit, this.#d.clock.now()); };
		return (await reopenChangedParents({ ...this.#ctx, reverify }, issueId, taskIds)).map((c) => {
			this.#d.log(`task ${c.taskId} of issue ${issueId} is pending acceptance again: ${c.reason} (${c.acceptedCommit.slice(0, 10)} → ${c.movedToCommit.slice(0, 10)})`);
			return c.taskId;
		});
	}

	async launch(runIds: readonly string[]): Promise<void> {
		await Promise.all(runIds.map((runId) => this.#live.serial(runId, () => this.#launch(runId))));
	}

	/** In the Run's chain: the launch gate and tree, then the first Turn, its exit expected from the inbox before it starts. */
	async #launch(runId: string): Promise<void> {
		if (this.#disposed) { return; }
		const launch = await prepareRunLaunch(this.#ctx, runId);
		if (launch.kind === 'done') { return; }
		if (launch.kind === 'not_started') {
			// Nothing left for an agent (an update from base that merged cleanly): the merge is the result, recorded first.
			if (launch.ending.kind === 'not_launched' && launch.ending.outcome === 'success') {
				const { recordError } = await this.#results.record(runId);
				if (recordError !== undefined) { return this.#settle(runId, { kind: 'not_launched', outcome: 'failure', message: `its result could not be committed: ${recordError}` }); }
			}
			return this.#settle(runId, launch.ending);
		}
		this.#expect(runId, runId);
		await this.#notStarted(runId, runId, await startRunTurn(this.#ctx, launch));
	}

	/** A Turn that did not start: its exit record (a spawn failure) comes through the inbox; without one, it settles. */
	async #notStarted(runId: string, processId: string, started: TurnStarted): Promise<void> {
		// The exit's handling is not awaited: this runs in the Run's chain, which that handling may enter.
		if (started.kind === 'exited') { void this.#d.turns.lookNow(processId); }
		if (started.kind !== 'not_started') { return; }
		this.#d.turns.forgetExit(processId);
		await this.#settle(runId, started.ending);
	}

	// ---- exits ----

	/** The Run's current Turn process is `processId`: its exit is taken from the inbox, once. */
	#expect(runId: string, processId: string): void {
		this.#live.setProcess(runId, processId);
		this.#d.turns.expectExit(processId, (exit) => this.#live.track(this.#onExit(runId, exit)));
	}

	/** An exit of the Run's current Turn: its usage, then the next queued Turn, or else the result commit and settlement. */
	async #onExit(runId: string, exit: RunExit): Promise<void> {
		try {
			const run = this.#d.store.read((r) => runRepository.get(r, runId));
			const facts = this.#d.turns.facts(exit.runId, run ? this.#d.turns.target(run.agentTargetId) : undefined);
			// What this Turn used counts before anything else starts (a queued Turn, a dependent's Run): the budget sees it.
			if (facts) { await this.#d.store.transaction((tx) => { this.#d.turns.recordUsageInTx(tx, exit.runId, facts, this.#d.clock.now()); }); }
			if (turnCompleted(exit, facts) && await this.#live.serial(runId, () => this.#nextQueuedTurn(runId, exit, facts))) { return; }
			// A worktree Run's result is a commit, made and recorded before it settles (idempotent after a kill -9).
			const { unresolvedPaths: unresolvedMergePaths, recordError } = await this.#results.record(runId);
			const recorded = recordError !== undefined ? { resultRecordError: recordError } : {};
			await this.#settle(runId, { kind: 'exit', exit: asRunExit(runId, exit), facts, unresolvedMergePaths, ...recorded }, exit);
		} catch (e) {
			this.#d.log(`settling run ${runId} failed (it stays running until the next check): ${(e as Error).message}`);
		}
	}

	/** In the Run's chain: the next queued message becomes a new Turn of the same session; false: the Run settles. */
	async #nextQueuedTurn(runId: string, exit: RunExit, facts: TurnFacts | null): Promise<boolean> {
		if (this.#disposed || this.#stops.stopping(runId)) { return false; }
		const processId = turnProcessAfter(exit.runId);
		const turn = await prepareQueuedTurn(this.#ctx, runId, processId, facts);
		if (!turn) { return false; }
		this.#expect(runId, processId);
		const started = await this.#d.turns.start(turn.start);
		// The messages queued behind this one go into the Turn it started, in order.
		if (started.started) { this.#forwardMessages(runId); return true; }
		const message = `could not start the Turn for queued message ${turn.messageId}: ${started.message}`;
		this.#live.track(this.#notStarted(runId, processId, started.exit ? { kind: 'exited' } : { kind: 'not_started', ending: { kind: 'not_launched', outcome: 'failure', message } }));
		return true;
	}

	/** Settles the Run (an exit held while a Stop is in flight settles with its answer); a refused write is retried a while. */
	async #settle(runId: string, ending: RunEnding, exit?: RunExit, attempt = 0): Promise<void> {
		try {
			const facts = ending.kind === 'exit' ? ending.facts ?? null : null;
			const outcome = await this.#d.store.transaction((tx) => {
				if (exit && this.#stops.hold(runId, { exit, facts })) { return 'held'; }
				if (settleRunInTx(this.#ctx.settlement, tx, runId, ending)) { return 'settled'; }
				return runRepository.get(tx, runId)?.status === 'running' ? 'refused' : 'gone';
			});
			if (outcome === 'settled') { this.#live.drop(runId); }
			// An exit the settlement refused (bound to another Turn) is not the Run's: it waits for its own.
			if (outcome === 'refused' && exit) { this.#expect(runId, exit.runId); }
		} catch (e) {
			const retry = !this.#disposed && attempt < settleRetry.attempts;
			this.#d.log(`settling run ${runId} failed${retry ? `; trying again in ${settleRetry.everyMs / 1000} s` : ''}: ${(e as Error).message}`);
			if (retry) {
				setTimeout(() => { this.#live.track(this.#live.serial(runId, () => this.#settle(runId, ending, exit, attempt + 1))); }, settleRetry.everyMs).unref();
			}
		}
	}

	#forwardMessages(runId: string): void {
		forwardRunMessages(this.#ctx, runId, this.#live.processOf(runId));
	}

	// ---- Stops (runStops.ts) ----

	async stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByIssue(r, issueId).filter((run) => run.status === 'running'));
		const failed = (runId: string) => (e: unknown): void => { this.#d.log(`stopping run ${runId} failed: ${(e as Error).message}`); };
		await Promise.all(running.map((run) => this.stopRun(run.runId, reason).catch(failed(run.runId))));
	}

	/** A person's or the Host's Stop: the event is durable before the interrupt, and gets the interrupt's answer. */
	async stopRun(runId: string, reason: 'person' | 'host'): Promise<StopResult> {
		const stop = await this.#stops.record(runId, reason);
		try {
			if (stop.kind === 'answered') { return stop.result; }
			return { runId, eventId: stop.eventId, answer: await this.#interruptAndAnswer(runId, stop.eventId, stop.canceledAWait) };
		} finally {
			this.#endStop(runId);
		}
	}

	/** In the Run's chain: cancel a launch that has not happened, or interrupt the current Turn; then record the answer. */
	async #interruptAndAnswer(runId: string, eventId: string | null, canceledAWait = false): Promise<StopAnswer> {
		const answer = await this.#live.serial(runId, async () => await this.#stops.cancelUnlaunched(runId, eventId)
			?? answerForInterrupt(await this.#d.turns.interrupt(this.#live.processOf(runId)), true, canceledAWait));
		return this.#stops.answer(runId, eventId, answer);
	}

	/** A Stop ended: an exit it held and did not settle (another Stop was still in flight then) is handled again. */
	#endStop(runId: string): void {
		const held = this.#stops.end(runId);
		if (held) { this.#live.track(this.#onExit(runId, held.exit)); }
	}

	// ---- restart and write-failure recovery (runRecovery.ts) ----

	/**
	 * Host start: every running Run is settled from its exit record, re-attached when its process lives, or adopted
	 * so the runner records it lost (→ failure). Prepared launches of unpaused issues are launched; those of paused or
	 * archived issues settle canceled. Nothing here resumes an issue or creates a wake.
	 */
	async reconcile(): Promise<void> {
		const toLaunch: string[] = [];
		// Runs settle concurrently (each on its own chain), so their commits share fsyncs instead of queueing one by one.
		const settling: Promise<void>[] = [];
		for (const step of await recoverySteps(this.#ctx)) {
			if (step.kind === 'launch') { toLaunch.push(step.runId); continue; }
			if (step.kind === 'settle') { settling.push(this.#settle(step.runId, step.ending)); continue; }
			const processId = this.#live.processOf(step.runId);
			this.#expect(step.runId, processId);
			if (this.#d.turns.exitRecord(processId)) { settling.push(this.#d.turns.lookNow(processId)); continue; }
			try {
				// Alive: re-attach and wait for its exit. Dead without a record: the runner records it lost.
				this.#d.turns.adopt(processId);
				// Messages sent before the restart and not handed over yet go into the running Turn now.
				this.#forwardMessages(step.runId);
				// A Stop recorded before the restart but never carried out is carried out now.
				this.#live.track(this.#resumeUnansweredStops(step.runId));
			} catch (e) {
				this.#d.turns.forgetExit(processId);
				settling.push(this.#settle(step.runId, { kind: 'not_launched', outcome: 'failure', message: `the run could not be re-attached: ${(e as Error).message}` }));
			}
		}
		await Promise.all(settling);
		// Each launch asks the budget again: the Runs whose exits were on disk settle first, so their spend counts.
		await this.#live.backgroundSettled();
		if (toLaunch.length > 0) { await this.launch(toLaunch); }
	}

	async #resumeUnansweredStops(runId: string): Promise<void> {
		for (const eventId of this.#d.store.read((r) => unansweredStopIds(r, runId))) {
			this.#stops.begin(runId);
			try {
				await this.#interruptAndAnswer(runId, eventId);
			} catch (e) {
				this.#d.log(`carrying out the unanswered Stop of run ${runId} failed: ${(e as Error).message}`);
			} finally {
				this.#endStop(runId);
			}
		}
	}

	/** What the ended Turns of running Runs (of `issueId`, or all) used counts now: at Host start, and before admissions. */
	countEndedTurns(issueId?: string): Promise<void> {
		const candidates = this.#d.store.read((r) => launchedRunningRuns(r, issueId)).map((run) => ({
			processId: this.#live.processOf(run.runId), target: this.#d.turns.target(run.agentTargetId),
		}));
		return this.#d.turns.countEndedTurns(this.#d.store, candidates, this.#d.clock.now());
	}

	/**
	 * After the store reloaded itself from disk (dropping refused writes): each launched running Run's exit is looked for
	 * again (its settlement may have been refused); a prepared launch not in flight is launched again, gated anew.
	 */
	async recheckRunning(): Promise<void> {
		const { prepared, launched } = this.#d.store.read((r) => runningByLaunch(r));
		for (const runId of launched) {
			const processId = this.#live.processOf(runId);
			this.#expect(runId, processId);
			await this.#d.turns.lookNow(processId);
		}
		const relaunch = prepared.filter((runId) => !this.#live.busy(runId));
		if (relaunch.length > 0) {
			this.#d.log(`launching again after the write failure: ${relaunch.join(', ')}`);
			await this.launch(relaunch);
		}
	}

	// ---- stalls (runStalls.ts) ----

	/** Probes running Runs for stalls from now on, every few seconds (the cadence follows the shortest stall time). */
	watchStalls(): void {
		if (!this.#disposed) { this.#stalls.watch(); }
	}

	/** One stall probe of the running Runs now (joined when one is running); never throws. */
	checkStalls(): Promise<void> {
		return this.#stalls.check();
	}

	isIdle(): boolean {
		return this.#live.isIdle();
	}

	/** Resolves when no launch, interrupt or exit handling of this owner is in flight. */
	whenIdle(): Promise<void> {
		return this.#live.whenIdle();
	}

	dispose(): void {
		this.#disposed = true;
		this.#stalls.dispose();
	}
}
