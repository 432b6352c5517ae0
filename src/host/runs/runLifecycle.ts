// Runs: admission and launch (RunAdmission), settlement from exit records, person/host Stops with recorded
// answers, restart reconciliation, and the run/stop and run/report handlers (queued messages and worktrees have
// their own services: messages/runMessageService.ts, worktrees/worktreeService.ts). The Turns themselves — the first one, the Turns of queued
// messages, their Stops — go through src/host/turns (runTurns.ts, runStops.ts and the TurnLifecycle); this service
// keeps the per-Run chain that serializes launch and interrupt of the same Run, and routes exits to settlement.
// Transactions are synchronous and never span a process call; Turn facts are read before the settlement transaction.
import type { TurnFacts } from '../../agents/adapter.js';
import { runSubmitId } from '../../core/ids.js';
import { type Disposable, DisposableStore } from '../../core/lifecycle.js';
import type { Issue, Task } from '../../core/model.js';
import { restartLaunchBlocker } from '../../core/turns/launchGate.js';
import { turnCompleted } from '../../core/turns/turnOutcome.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import type { Tx } from '../../store/tx.js';
import type { RunExit } from '../../core/runs/runProcessPort.js';
import { RunStops, type StopResult } from './runStops.js';
import { launchWorkerRun, type QueuedTurnContext, startQueuedTurn } from './runLaunch.js';
import { TurnLifecycle, type TurnServiceDeps } from '../turns/turnLifecycle.js';
import { requireUser } from '../services/callerPolicy.js';
import type { AdmittedRun, RunAdmission, SettlementObserver } from '../services/contracts.js';
import { forwardPendingMessages } from './messages/liveDelivery.js';
import { readQueue } from './messages/queueFile.js';
import { currentTurnProcessId, runIdOfProcess } from './messages/turnProcesses.js';
import { admitRunsInTx } from './runAdmission.js';
import { loadRun } from '../services/runQueries.js';
import { reopenChangedParents } from '../delivery/acceptanceChanges.js';
import { DeveloperGitMoves } from '../delivery/outsideWatch.js';
import { RunResultRecorder } from '../delivery/runDelivery.js';
import { type RunEnding, type SettledRun, settleRunInTx } from './runSettlement.js';
import { WorktreeManager } from '../worktrees/worktreeManager.js';

/** A settlement the store refused is tried again this often, this many times (two minutes in all). */
const settleRetry = { everyMs: 2_000, attempts: 60 } as const;
export type { StopResult } from './runStops.js';

export interface RunServiceDeps extends TurnServiceDeps {
	/** Managed issues' settlement hook, called inside the settlement transaction (or given later: observeSettlements). */
	observer?: SettlementObserver;
	/** After a settlement committed. */
	onSettled?(settled: SettledRun): void;
	/** Git worktrees of isolated tasks (default: one over `workspace`). */
	worktrees?: WorktreeManager;
	/** A new claude session id (default: a random UUID); tests pin it. */
	newProviderSessionId?: () => string;
	/** The developer's Tutti commands that move refs (default: a ledger of its own; the Host shares one). */
	gitMoves?: DeveloperGitMoves;
}

export class RunService implements RunAdmission, Disposable {
	readonly #d: RunServiceDeps;
	readonly #disposables = new DisposableStore();
	/** Per-Run chain serializing launch and interrupt of the same Run. */
	readonly #chains = new Map<string, Promise<unknown>>();
	readonly #turns: TurnLifecycle;
	readonly #ctx: QueuedTurnContext;
	readonly #stops: RunStops;
	readonly #results: RunResultRecorder;
	/** Background work (exit handling, follow-up settlements) for whenIdle(). */
	readonly #background = new Set<Promise<unknown>>();
	#observer: SettlementObserver | undefined;
	#disposed = false;

	constructor(deps: RunServiceDeps) {
		this.#d = deps;
		this.#observer = deps.observer;
		const observer: SettlementObserver = {
			onRunSettled: (tx, settled) => {
				// Loud, and rolled back (the settlement is tried again): a managed Run never settles unobserved.
				if (!this.#observer) { throw new Error(`run ${settled.run.runId} of a managed issue settled before its plan observed settlements`); }
				this.#observer.onRunSettled(tx, settled);
			},
		};
		const settlement = { now: () => deps.clock.now(), observer, log: deps.log };
		this.#turns = deps.turns ?? new TurnLifecycle(deps);
		const worktrees = deps.worktrees ?? new WorktreeManager(deps.workspace);
		this.#results = new RunResultRecorder({
			workspace: deps.workspace, store: deps.store, clock: deps.clock, worktrees,
			moves: deps.gitMoves ?? new DeveloperGitMoves(), runDir: (runId) => deps.runs.runDir(runId),
		}, deps.log);
		this.#ctx = {
			workspace: deps.workspace, store: deps.store, clock: deps.clock, turns: this.#turns, worktrees, settlement,
			leaseOwner: deps.ids.next('host'), log: deps.log,
			...(deps.newProviderSessionId ? { newProviderSessionId: deps.newProviderSessionId } : {}),
			settle: (runId, ending) => this.#settle(runId, ending),
			afterSettle: (settled) => { this.#afterSettle(settled); },
			onExit: (exit) => this.#onExit(exit),
			runDir: (runId) => deps.runs.runDir(runId),
			runExitOf: (runId, exit) => this.#runExitOf(runId, exit),
			track: (p) => { this.#track(p); },
			forwardMessages: (runId) => { this.#forwardMessages(runId); },
		};
		this.#stops = new RunStops({
			store: deps.store, clock: deps.clock, ids: deps.ids, turns: this.#turns, settlement,
			serial: (runId, fn) => this.#serial(runId, fn),
			currentProcess: (runId) => this.#currentProcess(runId),
			runExitOf: (runId, exit) => this.#runExitOf(runId, exit),
			afterSettle: (settled) => { this.#afterSettle(settled); },
			replayExit: (exit) => { this.#track(this.#onExit(exit)); },
		});
		this.#disposables.add(this.#turns.onExit((exit) => { this.#track(this.#onExit(exit)); }));
	}

	/** The plan's settlement hook for managed issues: it is built over this service's admission, so it comes after. */
	observeSettlements(observer: SettlementObserver): Disposable {
		this.#observer = observer;
		return { dispose: () => { if (this.#observer === observer) { this.#observer = undefined; } } };
	}

	// ---- RunAdmission ----

	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[] {
		return admitRunsInTx({ clock: this.#d.clock, ids: this.#d.ids, config: this.#d.config, runDir: (id) => this.#d.runs.runDir(id) }, tx, issue, tasks);
	}

	async reopenChangedParents(issueId: string, taskIds: readonly string[]): Promise<string[]> {
		const changes = await reopenChangedParents(this.#ctx, issueId, taskIds);
		for (const c of changes) { this.#d.log(`task ${c.taskId} of issue ${issueId} is pending acceptance again: ${c.reason} (${c.acceptedCommit.slice(0, 10)} → ${c.movedToCommit.slice(0, 10)})`); }
		return changes.map((c) => c.taskId);
	}

	async launch(runIds: readonly string[]): Promise<void> {
		await Promise.all(runIds.map((runId) => this.#serial(runId, async () => {
			if (!this.#disposed) { await launchWorkerRun(this.#ctx, runId); }
		})));
	}

	async stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByIssue(r, issueId).filter((run) => run.status === 'running'));
		await Promise.all(running.map((run) => this.stopRun(run.runId, reason).catch((e: unknown) => {
			this.#d.log(`stopping run ${run.runId} failed: ${(e as Error).message}`);
		})));
	}

	/** A person's or the Host's Stop of a Run (runStops.ts): the event is durable before the interrupt. */
	stopRun(runId: string, reason: 'person' | 'host'): Promise<StopResult> {
		return this.#stops.stop(runId, reason);
	}

	// ---- exits and settlement ----

	/** The Turn facts of a still-running claude/codex Run's Turn process (read before the settlement transaction). */
	#turnFacts(runId: string, processId: string): TurnFacts | null {
		const run = this.#d.store.read((r) => runRepository.get(r, runId));
		if (!run || run.status !== 'running') { return null; }
		return this.#turns.facts(processId, this.#turns.target(run.agentTargetId));
	}

	async #onExit(exit: RunExit): Promise<void> {
		const runId = runIdOfProcess(exit.runId);
		try {
			if (this.#currentProcess(runId) !== exit.runId) {
				this.#d.log(`ignored the exit of ${exit.runId}: it is not the current Turn process of run ${runId}`);
				return;
			}
			const facts = this.#turnFacts(runId, exit.runId);
			// What this Turn used counts before anything else starts (a queued Turn, a dependent's Run): the budget sees it.
			if (facts) { await this.#d.store.transaction((tx) => { this.#turns.recordUsageInTx(tx, exit.runId, facts, this.#d.clock.now()); }); }
			if (!this.#disposed && turnCompleted(exit, facts)) {
				// The next queued message goes to the same agent session, inside the Run's chain.
				const delivered = await this.#serial(runId, () => (this.#disposed || this.#stops.stopping(runId)
					? Promise.resolve(false) : startQueuedTurn(this.#ctx, runId, exit, facts)));
				// The same exit is seen twice (the runner's event and the supervisor's run/report): when the other
				// handling already started the next Turn, this exit is no longer the Run's and settles nothing.
				if (delivered || this.#currentProcess(runId) !== exit.runId) { return; }
			}
			// A worktree Run's result is a commit, made and recorded before it settles (idempotent after a kill -9).
			const { unresolvedPaths, recordError } = await this.#results.record(runId);
			const settled = await this.#d.store.transaction((tx) => (this.#stops.holdExit(runId, exit, facts)
				? null : settleRunInTx(this.#ctx.settlement, tx, runId, {
					kind: 'exit', exit: this.#runExitOf(runId, exit), facts, unresolvedMergePaths: unresolvedPaths,
					...(recordError !== undefined ? { resultRecordError: recordError } : {}),
				})));
			if (settled) { this.#afterSettle(settled); }
		} catch (e) {
			this.#d.log(`settling run ${runId} failed (it stays running until the next check): ${(e as Error).message}`);
		}
	}

	/** The runner id of the Run's current Turn process (the Run id until a queued message started another Turn). */
	#currentProcess(runId: string): string {
		try {
			return currentTurnProcessId(runId, readQueue(this.#d.runs.runDir(runId)));
		} catch (e) {
			this.#d.log(`reading the Turns of run ${runId} failed: ${(e as Error).message}`);
			return runId;
		}
	}

	/**
	 * The exit of a later Turn process, as the Run's exit: the process `<runId>.t<n>` is bound to `issue-run:<runId>.t<n>`
	 * by its supervisor; when it is the Run's current Turn, that binding is the Run's own. Anything else passes unchanged
	 * (and settlement refuses it).
	 */
	#runExitOf(runId: string, exit: RunExit): RunExit {
		if (exit.runId === runId || exit.clientSubmitId !== runSubmitId(exit.runId) || this.#currentProcess(runId) !== exit.runId) { return exit; }
		return { ...exit, runId, clientSubmitId: runSubmitId(runId) };
	}

	/**
	 * Settles a Run that ended without an exit to read (refused before launch, …). The store may refuse the write for
	 * a while (a full disk): then it is tried again every few seconds, for a bounded time, so the Run is not left
	 * "running" with nothing behind it.
	 */
	async #settle(runId: string, ending: RunEnding, attempt = 0): Promise<void> {
		try {
			const settled = await this.#d.store.transaction((tx) => settleRunInTx(this.#ctx.settlement, tx, runId, ending));
			if (settled) { this.#afterSettle(settled); }
		} catch (e) {
			const retry = !this.#disposed && attempt < settleRetry.attempts;
			this.#d.log(`settling run ${runId} failed${retry ? `; trying again in ${settleRetry.everyMs / 1000} s` : ''}: ${(e as Error).message}`);
			if (retry) {
				setTimeout(() => { void this.#serial(runId, () => this.#settle(runId, ending, attempt + 1)); }, settleRetry.everyMs).unref();
			}
		}
	}

	/** Pending messages of a Run into its running Turn, when it takes input (liveDelivery.ts); a failure leaves them queued. */
	#forwardMessages(runId: string): void {
		try {
			const stops = this.#d.store.read((r) => runRepository.stopEvents(r, runId));
			forwardPendingMessages(this.#d.runs, runId, stops, this.#d.clock.now());
		} catch (e) {
			this.#d.log(`handing the queued messages of run ${runId} to its Turn failed (they stay queued): ${(e as Error).message}`);
		}
	}

	#afterSettle(settled: SettledRun): void {
		try {
			this.#d.onSettled?.(settled);
		} catch (e) {
			this.#d.log(`after settling run ${settled.run.runId}: ${(e as Error).message}`);
		}
	}

	// ---- restart reconciliation ----

	/**
	 * Host start: every running Run is settled from its exit record, re-attached when its process lives, or adopted
	 * so the runner records it lost (→ failure). Prepared launches of unpaused issues are launched; those of paused
	 * or archived issues settle canceled. Nothing here resumes an issue or creates a wake.
	 */
	async reconcile(): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByStatus(r, 'running').map((run) => ({
			run, intent: launchIntentRepository.byRun(r, run.runId), issue: issueRepository.get(r, run.issueId),
		})));
		const toLaunch: string[] = [];
		for (const { run, intent, issue } of running) {
			let intentStatus = intent?.status;
			// The earlier Host died while launching it, before any supervisor started its agent: it is launched again,
			// as a prepared launch is (at most once: the withdrawn attempt can never start).
			if (intentStatus === 'leased' && this.#turns.withdrawUnstarted(run.runId)) {
				await this.#d.store.transaction((tx) => {
					launchIntentRepository.transition(tx, run.runId, ['leased'], 'prepared', this.#d.clock.now(), { lastError: 'its launch was cut by a Host restart; launched again' });
				});
				this.#d.log(`run ${run.runId}: its launch was cut by the Host's restart before the agent started; launching it again`);
				intentStatus = 'prepared';
			}
			if (intentStatus === 'prepared') {
				const blocker = restartLaunchBlocker(issue);
				if (blocker === null) { toLaunch.push(run.runId); } else { await this.#settle(run.runId, { kind: 'not_launched', outcome: 'cancellation', message: blocker }); }
				continue;
			}
			const processId = this.#currentProcess(run.runId);
			const exit = this.#turns.exitRecord(processId);
			if (exit) {
				await this.#onExit(exit);
				continue;
			}
			try {
				// Alive: re-attach and wait for its exit. Dead without a record: the runner records it lost.
				this.#turns.adopt(processId);
				// Messages sent before the restart and not handed over yet go into the running Turn now.
				this.#forwardMessages(run.runId);
				// A Stop recorded before the restart but never carried out is carried out now.
				this.#track(this.#stops.resumeUnanswered(run.runId).catch((e: unknown) => {
					this.#d.log(`carrying out the unanswered Stop of run ${run.runId} failed: ${(e as Error).message}`);
				}));
			} catch (e) {
				await this.#settle(run.runId, { kind: 'not_launched', outcome: 'failure', message: `the run could not be re-attached: ${(e as Error).message}` });
			}
		}
		// Each launch asks the budget again (runTurns.ts): the Runs above settled first, so their spend counts.
		if (toLaunch.length > 0) { await this.launch(toLaunch); }
	}

	/**
	 * What the Turns of running Runs (of `issueId`, or all) that have ended used counts against their issues now (the
	 * transaction's body runs when this is called): at Host start before any request is answered (Runs that ended
	 * while the Host was down), and before every admission (an exit the Host has not handled yet), so no launch is
	 * admitted on a spend that misses them. Their settlement follows as usual; usage is recorded once per Turn process.
	 */
	countEndedTurns(issueId?: string): Promise<void> {
		const candidates = this.#d.store.read((r) => (issueId === undefined ? runRepository.listByStatus(r, 'running')
			: runRepository.listByIssue(r, issueId).filter((run) => run.status === 'running'))
			.filter((run) => launchIntentRepository.byRun(r, run.runId)?.status !== 'prepared')
			.map((run) => ({ processId: this.#currentProcess(run.runId), target: this.#turns.target(run.agentTargetId) })));
		return this.#turns.countEndedTurns(this.#d.store, candidates, this.#d.clock.now());
	}

	/**
	 * After the store reloaded itself from disk (a write failure dropped refused writes): a Run whose settlement was
	 * refused is still running in the store while its process has exited; settle each such Run from its exit record.
	 * Live Runs stay watched by the runner. A prepared launch with no launch in flight is one whose launch gate was
	 * refused by the write failure (its lease never saved): it is launched again, and the gate decides anew.
	 */
	async recheckRunning(): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByStatus(r, 'running').map((run) => ({
			runId: run.runId, prepared: launchIntentRepository.byRun(r, run.runId)?.status === 'prepared',
		})));
		const relaunch: string[] = [];
		for (const { runId, prepared } of running) {
			if (prepared) {
				if (!this.#chains.has(runId)) { relaunch.push(runId); }
				continue;
			}
			const exit = this.#turns.exitRecord(this.#currentProcess(runId));
			if (exit) { await this.#onExit(exit); }
		}
		if (relaunch.length > 0) {
			this.#d.log(`launching again after the write failure: ${relaunch.join(', ')}`);
			await this.launch(relaunch);
		}
	}

	// ---- handlers ----

	/** `run/stop` (developer): a person's Stop. */
	async stop(params: ParsedParams<'run/stop'>, caller: Caller): Promise<Result<'run/stop'>> {
		requireUser(caller, 'run stop', { runId: params.runId });
		const result = await this.stopRun(params.runId, 'person');
		return { runId: result.runId, eventId: result.eventId ?? '', answer: result.answer };
	}

	/** `run/report` from a Run's supervisor: check its exit record now instead of at the next poll. */
	async report(params: ParsedParams<'run/report'>): Promise<Result<'run/report'>> {
		const run = this.#d.store.read((r) => loadRun(r, runIdOfProcess(params.runId)));
		// A launch waiting for this process to start stops waiting now.
		if (params.event === 'started') { this.#turns.checkNow(params.runId); }
		if (run.status === 'running') {
			const exit = this.#turns.exitRecord(this.#currentProcess(run.runId));
			if (exit) { await this.#onExit(exit); }
		}
		return { ok: true };
	}

	// ---- plumbing ----

	#serial<T>(runId: string, fn: () => Promise<T>): Promise<T> {
		const previous = this.#chains.get(runId) ?? Promise.resolve();
		const next = previous.then(fn, fn);
		const tail = next.then(() => undefined, () => undefined);
		this.#chains.set(runId, tail);
		void tail.then(() => { if (this.#chains.get(runId) === tail) { this.#chains.delete(runId); } });
		return next;
	}

	#track(p: Promise<unknown>): void {
		this.#background.add(p);
		const remove = (): void => { this.#background.delete(p); };
		p.then(remove, remove);
	}

	isIdle(): boolean {
		return this.#background.size === 0 && this.#chains.size === 0;
	}

	/** Resolves when no launch, interrupt or exit handling of this service is in flight. */
	async whenIdle(): Promise<void> {
		while (this.#background.size > 0 || this.#chains.size > 0) {
			await Promise.allSettled([...this.#background, ...this.#chains.values()]);
		}
	}

	dispose(): void {
		this.#disposed = true;
		this.#disposables.dispose();
	}
}
