// Runs: admission and launch (RunAdmission), settlement from exit records, person/host Stops with recorded
// answers, restart reconciliation, and the run/* handlers.
//
// Ordering rules (SPEC §8, digest §1.7 items 13–16):
// - transactions are synchronous and never span a process call; process calls happen between commits;
// - launch and interrupt of the same Run are serialized (a Stop that arrives while the process is being started
//   interrupts it once it exists; a Stop before launch cancels the launch, which then never starts a process);
// - a Stop event is durable before the interrupt is sent; while a Stop of a Run is in flight its exit is held and
//   settled in the same transaction that records the Stop's answer, so the outcome is decided when the answer lands;
// - claude/codex Runs start through their adapter with a worker Turn (runs/workerTurn.ts) and settle with the Turn
//   facts of their stdout, read before the settlement transaction; a target with `"isolation":"worktree"` gets its
//   git worktree created between the lease and the launch, outside any transaction (worktrees/worktreeManager.ts).
import { stopHookLaunchArgs } from '../../agents/stopHook.js';
import { join } from 'node:path';
import type { AgentAdapter, TurnFacts } from '../../agents/adapter.js';
import { adapterFor as builtInAdapterFor } from '../../agents/command.js';
import { DomainError } from '../../core/errors.js';
import { rejection } from '../../core/hints.js';
import { runSubmitId } from '../../core/ids.js';
import { type Disposable, DisposableStore } from '../../core/lifecycle.js';
import type { Issue, Run, StopAnswer, Task } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import { answerForInterrupt, mergeStopAnswer, personStopCoversRun } from '../../core/runs/stopRules.js';
import type { Caller, ParsedParams, Result, RunAgentParams, RunAgentResult } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import type { AgentTargetConfig, AgentTurnInput, RunExit, RunLaunchSpec, RunProcessPort } from '../../core/runs/runProcessPort.js';
import { turnLaunchSettings, workerTurnInput } from '../runs/workerTurn.js';
import { requireUser } from './callerPolicy.js';
import type { AdmittedRun, RunAdmission, SettlementObserver } from './contracts.js';
import { resolveRunDirectory } from './executionDirectory.js';
import { reworkChain } from './worktrees/worktreePaths.js';
import { admitRunsInTx } from './runAdmission.js';
import { loadRun } from './runQueries.js';
import { type RunEnding, type SettledRun, type SettlementContext, settleRunInTx } from './runSettlement.js';
import type { SessionService } from './sessionService.js';
import { RunMessageService } from './messages/runMessageService.js';
import { appendQueueEntry, readQueue } from './messages/queueFile.js';
import { deriveQueueState, nextDeliverable } from './messages/queueState.js';
import { currentTurnProcessId, nextTurnProcessId, runIdOfProcess } from './messages/turnProcesses.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { WorktreeManager } from './worktrees/worktreeManager.js';
import { WorktreeService } from './worktrees/worktreeService.js';

export interface RunServiceDeps {
	workspace: string;
	/** TUTTI_IPC_HOOK for agents. */
	endpoint: string;
	store: Store;
	clock: Clock;
	ids: IdSource;
	runs: RunProcessPort;
	config: HostConfig;
	sessions: SessionService;
	/** Managed issues' settlement hook (the plan service), called inside the settlement transaction. */
	observer: SettlementObserver;
	log(line: string): void;
	/** After a settlement committed (the dispatcher is triggered from here). */
	onSettled(settled: SettledRun): void;
	/** The adapter of a target (default: src/agents/command.ts `adapterFor`); tests pass fakes. */
	adapterFor?: (target: AgentTargetConfig) => AgentAdapter;
	/** Git worktrees of isolated tasks (default: one over `workspace`). */
	worktrees?: WorktreeManager;
	/** A new claude session id (default: a random UUID); tests pin it. */
	newProviderSessionId?: () => string;
	/** The shell command of the agents' Stop hook (`<shim> hook stop`); absent: agents get no hook. */
	stopHookCommand?: string;
}

/** How much of a Run's stdout is read for its Turn facts. */
const maxFactsBytes = 32 * 1024 * 1024;

interface HeldExit {
	exit: RunExit;
	facts: TurnFacts | null;
}

export interface StopResult {
	runId: string;
	/** null when a host stop deferred to a person's Stop in force (it writes no event of its own). */
	eventId: string | null;
	answer: StopAnswer;
}

/** How long a launch lease is held (a lease older than this on restart belongs to a dead Host). */
const launchLeaseMs = 60_000;

type LaunchGate =
	| { kind: 'skip' }
	| { kind: 'settled'; settled: SettledRun | null }
	| { kind: 'launch'; run: Run; task: Task; token: string };

export class RunService implements RunAdmission, Disposable {
	readonly #d: RunServiceDeps;
	readonly #settlement: SettlementContext;
	readonly #disposables = new DisposableStore();
	/** Per-Run chain serializing launch and interrupt of the same Run. */
	readonly #chains = new Map<string, Promise<unknown>>();
	/** Stops in flight per Run (between their event commit and their answer commit). */
	readonly #stopsInFlight = new Map<string, number>();
	/** Exit records held while a Stop of that Run is in flight. */
	readonly #heldExits = new Map<string, HeldExit>();
	readonly #adapterFor: (target: AgentTargetConfig) => AgentAdapter;
	readonly #worktrees: WorktreeManager;
	readonly #messages: RunMessageService;
	readonly #worktreeService: WorktreeService;
	/** Background work (exit handling, follow-up settlements) for whenIdle(). */
	readonly #background = new Set<Promise<unknown>>();
	readonly #leaseOwner: string;
	#disposed = false;

	constructor(deps: RunServiceDeps) {
		this.#d = deps;
		this.#settlement = { now: () => deps.clock.now(), observer: deps.observer, log: deps.log };
		this.#leaseOwner = deps.ids.next('host');
		this.#adapterFor = deps.adapterFor ?? builtInAdapterFor;
		this.#worktrees = deps.worktrees ?? new WorktreeManager(deps.workspace);
		this.#messages = new RunMessageService({ store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs, config: deps.config });
		this.#worktreeService = new WorktreeService({ store: deps.store, worktrees: this.#worktrees });
		this.#disposables.add(deps.runs.onExit((exit) => { this.#track(this.#onExit(exit)); }));
	}

	// ---- RunAdmission ----

	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[] {
		return admitRunsInTx({ clock: this.#d.clock, ids: this.#d.ids, config: this.#d.config, runDir: (id) => this.#d.runs.runDir(id) }, tx, issue, tasks);
	}

	async launch(runIds: readonly string[]): Promise<void> {
		await Promise.all(runIds.map((runId) => this.#serial(runId, () => this.#launchOne(runId))));
	}

	async stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByIssue(r, issueId).filter((run) => run.status === 'running'));
		await Promise.all(running.map((run) => this.stopRun(run.runId, reason).catch((e: unknown) => {
			this.#d.log(`stopping run ${run.runId} failed: ${(e as Error).message}`);
		})));
	}

	// ---- Stop ----

	/**
	 * Records a Stop event (writer-minted id) durably, then interrupts the Run's process and records the answer.
	 * A Run that is not running gets a `no-effect` event and nothing else changes. A host stop while a person's
	 * Stop covers the Run writes no event of its own (the person's Stop stays the reason).
	 */
	async stopRun(runId: string, reason: 'person' | 'host'): Promise<StopResult> {
		const eventId = this.#d.ids.next('stop');
		this.#stopsInFlight.set(runId, (this.#stopsInFlight.get(runId) ?? 0) + 1);
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
				return 'pending' as const;
			});
			if (recorded === 'answered') { return { runId, eventId, answer: 'no-effect' }; }
			const ownEvent = recorded === 'pending' ? eventId : null;
			const answer = await this.#serial(runId, () => this.#interruptStep(runId, ownEvent));
			const { merged, settled } = await this.#d.store.transaction((tx) => {
				let result: StopAnswer = answer;
				if (ownEvent !== null) {
					const stored = runRepository.stopEvents(tx, runId).find((e) => e.eventId === ownEvent);
					result = mergeStopAnswer(stored?.answer ?? null, answer) ?? answer;
					if (stored && stored.answer !== result) { runRepository.answerStopEvent(tx, ownEvent, result, this.#d.clock.now()); }
				}
				return { merged: result, settled: this.#settleHeldExit(tx, runId, 1) };
			});
			if (settled) { this.#afterSettle(settled); }
			return { runId, eventId: ownEvent, answer: merged };
		} finally {
			this.#endStop(runId);
		}
	}

	/** Inside the Run's chain: cancel a launch that has not happened, or interrupt the process. */
	async #interruptStep(runId: string, eventId: string | null): Promise<StopAnswer> {
		const early = await this.#d.store.transaction((tx) => {
			const run = runRepository.get(tx, runId);
			if (!run || run.status !== 'running') {
				const stored = eventId === null ? undefined : runRepository.stopEvents(tx, runId).find((e) => e.eventId === eventId);
				return { answer: stored?.answer ?? 'no-effect', settled: null };
			}
			if (launchIntentRepository.byRun(tx, runId)?.status === 'prepared') {
				this.#answerPendingStops(tx, runId, 'took');
				const settled = settleRunInTx(this.#settlement, tx, runId, {
					kind: 'not_launched', outcome: 'cancellation', message: 'stopped before its process started',
				});
				return { answer: 'took' as StopAnswer, settled };
			}
			return null;
		});
		if (early) {
			if (early.settled) { this.#afterSettle(early.settled); }
			return early.answer;
		}
		const result = await this.#d.runs.interrupt(this.#currentProcess(runId));
		return answerForInterrupt(result, true);
	}

	#endStop(runId: string): void {
		const left = (this.#stopsInFlight.get(runId) ?? 1) - 1;
		if (left > 0) { this.#stopsInFlight.set(runId, left); return; }
		this.#stopsInFlight.delete(runId);
		const held = this.#heldExits.get(runId);
		if (held) {
			this.#heldExits.delete(runId);
			this.#track(this.#onExit(held.exit));
		}
	}

	/** Settles a held exit inside `tx` when only `ownStops` Stops of the Run are still in flight (ours). */
	#settleHeldExit(tx: Tx, runId: string, ownStops: number): SettledRun | null {
		const held = this.#heldExits.get(runId);
		if (!held || (this.#stopsInFlight.get(runId) ?? 0) > ownStops) { return null; }
		this.#heldExits.delete(runId);
		return settleRunInTx(this.#settlement, tx, runId, { kind: 'exit', exit: this.#runExitOf(runId, held.exit), facts: held.facts });
	}

	/** Unanswered person Stops of a Run that never started took effect: they are why it never starts. */
	#answerPendingStops(tx: Tx, runId: string, answer: StopAnswer): void {
		const now = this.#d.clock.now();
		for (const e of runRepository.stopEvents(tx, runId)) {
			if (e.answer === null) { runRepository.answerStopEvent(tx, e.eventId, answer, now); }
		}
	}

	// ---- exits and settlement ----

	/**
	 * The Turn facts of a claude/codex Run, read from its captured stdout before the settlement transaction
	 * (file reads never happen inside one). Null for command targets and when nothing can be read.
	 */
	#turnFacts(runId: string, processId: string = runId): TurnFacts | null {
		try {
			const run = this.#d.store.read((r) => runRepository.get(r, runId));
			if (!run || run.status !== 'running') { return null; }
			const target = this.#d.config.agentTargets.find((t) => t.id === run.agentTargetId);
			if (!target || target.adapter === 'command') { return null; }
			const adapter = this.#adapterFor(target);
			if (!adapter.parseTurnFacts) { return null; }
			let text = '';
			let offset = 0;
			for (;;) {
				const slice = this.#d.runs.readLog(processId, 'stdout', offset, 1_048_576);
				text += slice.data;
				if (slice.nextOffset <= offset || slice.nextOffset >= slice.size || slice.nextOffset >= maxFactsBytes) { break; }
				offset = slice.nextOffset;
			}
			return adapter.parseTurnFacts(text);
		} catch (e) {
			this.#d.log(`reading the Turn facts of run ${runId} failed (it settles from its exit alone): ${(e as Error).message}`);
			return null;
		}
	}

	async #onExit(exit: RunExit): Promise<void> {
		const runId = runIdOfProcess(exit.runId);
		try {
			if (this.#currentProcess(runId) !== exit.runId) {
				this.#d.log(`ignored the exit of ${exit.runId}: it is not the current Turn process of run ${runId}`);
				return;
			}
			const facts = this.#turnFacts(runId, exit.runId);
			if (this.#mayDeliver(exit, facts)) {
				const delivered = await this.#serial(runId, () => this.#deliverNext(runId, exit, facts));
				if (delivered) { return; }
				// The same exit can arrive twice (the runner's event and the supervisor's run/report): while this one
				// waited, the other may have handed a queued message to a next Turn, which is now the Run's process.
				if (this.#currentProcess(runId) !== exit.runId) { return; }
			}
			const settled = await this.#d.store.transaction((tx) => {
				if ((this.#stopsInFlight.get(runId) ?? 0) > 0) {
					this.#heldExits.set(runId, { exit, facts });
					return null;
				}
				return settleRunInTx(this.#settlement, tx, runId, { kind: 'exit', exit: this.#runExitOf(runId, exit), facts });
			});
			if (settled) { this.#afterSettle(settled); }
		} catch (e) {
			this.#d.log(`settling run ${runId} failed (it stays running until the next check): ${(e as Error).message}`);
		}
	}

	// ---- queued messages: the next Turn of the same session ----

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

	/** A Turn that completed (exit 0, a successful result) may hand the Run's next queued message to the agent. */
	#mayDeliver(exit: RunExit, facts: TurnFacts | null): boolean {
		return !this.#disposed && exit.exitCode === 0 && exit.signal === null && !exit.spawnError && facts?.result?.ok === true;
	}

	/**
	 * Inside the Run's chain (a Stop's interrupt waits for it and then targets the new process): when the Run is still
	 * running, no Stop is in flight or unanswered, no host Stop was made and the queue has a deliverable message, record
	 * the message as delivered (durable, naming the new Turn process) and start that Turn with `--resume`. False: the
	 * Run settles as usual.
	 */
	async #deliverNext(runId: string, exit: RunExit, facts: TurnFacts | null): Promise<boolean> {
		if (this.#disposed || (this.#stopsInFlight.get(runId) ?? 0) > 0) { return false; }
		const dir = this.#d.runs.runDir(runId);
		const entries = readQueue(dir);
		if (currentTurnProcessId(runId, entries) !== exit.runId) { return false; }
		const gate = this.#d.store.read((r) => {
			const run = runRepository.get(r, runId);
			if (!run || run.status !== 'running') { return null; }
			const stops = runRepository.stopEvents(r, runId);
			if (stops.some((e) => e.answer === null || e.reason !== 'person')) { return null; }
			const task = taskRepository.get(r, run.issueId, run.taskId);
			const session = sessionRepository.get(r, run.agentSessionId);
			return task ? { run, task, stops, providerSessionId: session?.providerSessionId ?? '' } : null;
		});
		if (!gate) { return false; }
		const { run, task } = gate;
		const target = this.#d.config.agentTargets.find((t) => t.id === run.agentTargetId);
		if (!target || target.adapter === 'command') { return false; }
		const next = nextDeliverable(deriveQueueState(entries, gate.stops));
		if (!next) { return false; }
		const providerSessionId = facts?.providerSessionId || gate.providerSessionId;
		if (providerSessionId === '') {
			this.#d.log(`run ${runId}: no provider session id to resume, so queued message ${next.messageId} stays queued and the Run settles`);
			return false;
		}
		const directory = target.isolation === 'worktree' ? run.executionDirectory : (target.cwd ?? task.executionDirectory);
		const where = resolveRunDirectory(this.#d.workspace, directory);
		if ('error' in where) {
			this.#d.log(`run ${runId}: cannot start the next Turn (${where.error}); the Run settles`);
			return false;
		}
		const token = await this.#d.store.transaction((tx) => {
			if (facts && facts.providerSessionId !== '') { sessionRepository.updateProviderSessionId(tx, run.agentSessionId, facts.providerSessionId); }
			return this.#d.sessions.rotateToken(tx, run.agentSessionId);
		});
		const processId = nextTurnProcessId(runId, entries);
		const turn: AgentTurnInput = { prompt: next.text, resumeProviderSessionId: providerSessionId, ...turnLaunchSettings(task, target) };
		if (this.#d.stopHookCommand !== undefined) { turn.extraArgs = stopHookLaunchArgs(target.adapter, this.#d.stopHookCommand); }
		// Durable before the process starts: after a restart the Run's current process is this one (at most once).
		appendQueueEntry(dir, { type: 'delivered', messageId: next.messageId, atUnixMs: this.#d.clock.now(), turnProcessId: processId });
		const spec: RunLaunchSpec = {
			runId: processId, issueId: run.issueId, taskId: run.taskId, target, cwd: where.cwd, stdinText: '', turn,
			env: this.#workerEnv(run, runId, token),
		};
		try {
			await this.#d.runs.launch(spec);
		} catch (e) {
			const failed = this.#exitRecordOrNull(processId);
			// Outside the chain's own settlement path: settle directly (never re-enter the chain from here).
			this.#track(this.#settle(runId, failed
				? { kind: 'exit', exit: this.#runExitOf(runId, failed), facts: null }
				: { kind: 'not_launched', outcome: 'failure', message: `could not start the Turn for queued message ${next.messageId}: ${(e as Error).message}` }));
		}
		return true;
	}

	async #settle(runId: string, ending: RunEnding): Promise<void> {
		try {
			const settled = await this.#d.store.transaction((tx) => settleRunInTx(this.#settlement, tx, runId, ending));
			if (settled) { this.#afterSettle(settled); }
		} catch (e) {
			this.#d.log(`settling run ${runId} failed: ${(e as Error).message}`);
		}
	}

	#afterSettle(settled: SettledRun): void {
		try {
			this.#d.onSettled(settled);
		} catch (e) {
			this.#d.log(`after settling run ${settled.run.runId}: ${(e as Error).message}`);
		}
	}

	// ---- launch ----

	async #launchOne(runId: string): Promise<void> {
		if (this.#disposed) { return; }
		let gate: LaunchGate;
		try {
			gate = await this.#d.store.transaction((tx) => this.#leaseLaunch(tx, runId));
		} catch (e) {
			this.#d.log(`launching run ${runId} failed before start: ${(e as Error).message}`);
			return;
		}
		if (gate.kind === 'skip') { return; }
		if (gate.kind === 'settled') {
			if (gate.settled) { this.#afterSettle(gate.settled); }
			return;
		}
		const { run, task, token } = gate;
		const target = this.#d.config.agentTargets.find((t) => t.id === run.agentTargetId);
		if (!target) {
			await this.#settle(runId, { kind: 'not_launched', outcome: 'failure', message: `agent target '${run.agentTargetId}' is not configured any more` });
			return;
		}
		let directory = target.cwd ?? task.executionDirectory;
		if (target.isolation === 'worktree') {
			// Outside any transaction: git may take a while. A Stop of this Run waits in the Run's chain meanwhile.
			try {
				const supersededBy = this.#d.store.read((r) => new Map(taskRepository.listByIssue(r, run.issueId).map((t) => [t.taskId, t.supersededByTaskId] as const)));
				const tree = await this.#worktrees.ensure(run.issueId, reworkChain(run.taskId, supersededBy), target.id);
				directory = join(tree.relativePath, directory);
			} catch (e) {
				const why = e instanceof DomainError ? `${e.message} ${e.hint}` : (e as Error).message;
				await this.#settle(runId, { kind: 'not_launched', outcome: 'failure', message: `cannot start the agent: ${why}` });
				return;
			}
		}
		const where = resolveRunDirectory(this.#d.workspace, directory);
		if ('error' in where) {
			await this.#settle(runId, { kind: 'not_launched', outcome: 'failure', message: `cannot start the agent: ${where.error}` });
			return;
		}
		const structured = target.adapter !== 'command';
		const turn = structured
			? workerTurnInput(task, target, { issueId: run.issueId, taskId: run.taskId, runId }, this.#d.newProviderSessionId)
			: undefined;
		if (turn && this.#d.stopHookCommand !== undefined) { turn.extraArgs = stopHookLaunchArgs(target.adapter, this.#d.stopHookCommand); }
		const recordDirectory = target.isolation === 'worktree' && directory !== run.executionDirectory;
		if (recordDirectory || turn?.newProviderSessionId !== undefined) {
			// Where the Run works (a resume goes back there) and the claude session id known before the stream.
			try {
				await this.#d.store.transaction((tx) => {
					const current = runRepository.get(tx, runId);
					if (current && recordDirectory) {
						runRepository.update(tx, { ...current, executionDirectory: directory, updatedAtUnixMs: this.#d.clock.now() });
					}
					if (turn?.newProviderSessionId !== undefined) {
						tx.run('UPDATE agent_sessions SET provider_session_id = ? WHERE session_id = ?', [turn.newProviderSessionId, run.agentSessionId]);
					}
				});
			} catch (e) {
				this.#d.log(`recording where run ${runId} works failed: ${(e as Error).message}`);
			}
		}
		const spec: RunLaunchSpec = {
			runId,
			issueId: run.issueId,
			taskId: run.taskId,
			target,
			cwd: where.cwd,
			// claude/codex read their prompt from the Turn (stdin is /dev/null); command targets read the task on stdin.
			stdinText: structured ? '' : task.content,
			...(turn !== undefined ? { turn } : {}),
			env: this.#workerEnv(run, runId, token),
		};
		try {
			await this.#d.runs.launch(spec);
		} catch (e) {
			const exit = this.#exitRecordOrNull(runId);
			if (exit) {
				await this.#onExit(exit);
			} else {
				await this.#settle(runId, { kind: 'not_launched', outcome: 'failure', message: `could not start the agent: ${(e as Error).message}` });
			}
			return;
		}
		try {
			await this.#d.store.transaction((tx) => {
				const now = this.#d.clock.now();
				launchIntentRepository.transition(tx, runId, ['leased'], 'dispatched', now);
				const current = runRepository.get(tx, runId);
				if (current && current.status === 'running' && current.startedAtUnixMs === 0) {
					runRepository.update(tx, { ...current, startedAtUnixMs: now, updatedAtUnixMs: now });
				}
			});
		} catch (e) {
			this.#d.log(`recording the start of run ${runId} failed: ${(e as Error).message}`);
		}
	}

	/** The launch gate (inside a transaction): revalidate the Run, its Stops and its issue, then lease and mint a token. */
	#leaseLaunch(tx: Tx, runId: string): LaunchGate {
		const now = this.#d.clock.now();
		const intent = launchIntentRepository.byRun(tx, runId);
		if (!intent || intent.status !== 'prepared') { return { kind: 'skip' }; }
		const run = runRepository.get(tx, runId);
		if (!run || run.status !== 'running') {
			launchIntentRepository.transition(tx, runId, ['prepared'], 'canceled', now, { lastError: 'the run ended before its launch' });
			return { kind: 'skip' };
		}
		const issue = issueRepository.get(tx, run.issueId);
		const task = taskRepository.get(tx, run.issueId, run.taskId);
		const why = !issue || !task ? 'its issue or task is missing'
			: runRepository.stopEvents(tx, runId).length > 0 ? 'stopped before its process started'
				: issue.status === 'archived' ? 'the issue was archived before this run started'
					: issue.dispatchPaused ? 'the issue was paused before this run started'
						: null;
		if (why !== null || !task) {
			this.#answerPendingStops(tx, runId, 'took');
			const settled = settleRunInTx(this.#settlement, tx, runId, { kind: 'not_launched', outcome: 'cancellation', message: why ?? '' });
			return { kind: 'settled', settled };
		}
		launchIntentRepository.transition(tx, runId, ['prepared'], 'leased', now, { lease: { owner: this.#leaseOwner, expiresAtUnixMs: now + launchLeaseMs } });
		const token = this.#d.sessions.rotateToken(tx, run.agentSessionId);
		turnRepository.markRunning(tx, runSubmitId(runId));
		return { kind: 'launch', run, task, token };
	}

	/** What every worker process gets (its Turns included): the Host's socket, its own token and ids; never the user credential. */
	#workerEnv(run: Run, runId: string, token: string): Record<string, string> {
		return {
			TUTTI_IPC_HOOK: this.#d.endpoint,
			TUTTI_SESSION_TOKEN: token,
			TUTTI_SESSION_ID: run.agentSessionId,
			TUTTI_ISSUE_ID: run.issueId,
			TUTTI_TASK_ID: run.taskId,
			TUTTI_RUN_ID: runId,
		};
	}

	#exitRecordOrNull(runId: string): RunExit | null {
		try {
			return this.#d.runs.exitRecord(runId);
		} catch {
			return null;
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
			run,
			intent: launchIntentRepository.byRun(r, run.runId),
			issue: issueRepository.get(r, run.issueId),
		})));
		const toLaunch: string[] = [];
		for (const { run, intent, issue } of running) {
			if (intent?.status === 'prepared') {
				if (!issue || issue.dispatchPaused || issue.status === 'archived') {
					await this.#settle(run.runId, {
						kind: 'not_launched', outcome: 'cancellation',
						message: issue?.status === 'archived' ? 'the issue was archived before this run started' : 'the issue was paused before this run started',
					});
				} else {
					toLaunch.push(run.runId);
				}
				continue;
			}
			const processId = this.#currentProcess(run.runId);
			const exit = this.#exitRecordOrNull(processId);
			if (exit) {
				await this.#onExit(exit);
				continue;
			}
			try {
				// Alive: re-attach and wait for its exit. Dead without a record: the runner records it lost.
				this.#d.runs.adopt(processId);
			} catch (e) {
				await this.#settle(run.runId, { kind: 'not_launched', outcome: 'failure', message: `the run could not be re-attached: ${(e as Error).message}` });
			}
		}
		if (toLaunch.length > 0) { await this.launch(toLaunch); }
	}

	/**
	 * After the store reloaded itself from disk (a write failure dropped refused writes): a Run whose settlement was
	 * refused is still running in the store while its process has exited; settle each such Run from its exit record.
	 * Live Runs stay watched by the runner; prepared launches are left to the launch in flight.
	 */
	async recheckRunning(): Promise<void> {
		const running = this.#d.store.read((r) => runRepository.listByStatus(r, 'running').map((run) => run.runId));
		for (const runId of running) {
			const exit = this.#exitRecordOrNull(this.#currentProcess(runId));
			if (exit) { await this.#onExit(exit); }
		}
	}

	// ---- handlers ----

	/** `run/stop` (developer): a person's Stop. */
	async stop(params: ParsedParams<'run/stop'>, caller: Caller): Promise<Result<'run/stop'>> {
		requireUser(caller, 'run stop', { runId: params.runId });
		const result = await this.stopRun(params.runId, 'person');
		return { runId: result.runId, eventId: result.eventId ?? '', answer: result.answer };
	}

	/** `run/send` (developer): queue a message for a claude/codex Run. */
	send(params: RunAgentParams<'run/send'>, caller: Caller): Promise<RunAgentResult<'run/send'>> {
		return this.#messages.send(params, caller);
	}

	/** `run/queue`: the Run's queued messages and whether a person's Stop pauses them. */
	queue(params: RunAgentParams<'run/queue'>): Promise<RunAgentResult<'run/queue'>> {
		return this.#messages.queue(params);
	}

	/** `run/resume-queue` (developer): Resume after a person's Stop paused the queue. */
	resumeQueue(params: RunAgentParams<'run/resume-queue'>, caller: Caller): Promise<RunAgentResult<'run/resume-queue'>> {
		return this.#messages.resumeQueue(params, caller);
	}

	/** `worktree/remove` (developer). */
	removeWorktree(params: RunAgentParams<'worktree/remove'>, caller: Caller): Promise<RunAgentResult<'worktree/remove'>> {
		return this.#worktreeService.remove(params, caller);
	}

	/** `run/report` from a Run's supervisor: check its exit record now instead of at the next poll. */
	async report(params: ParsedParams<'run/report'>): Promise<Result<'run/report'>> {
		const run = this.#d.store.read((r) => loadRun(r, runIdOfProcess(params.runId)));
		if (run.status === 'running') {
			const exit = this.#exitRecordOrNull(this.#currentProcess(run.runId));
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
