// The services composition root: builds the domain services over one store and one process port, wires the
// plan service to Run admission and settlement, and exposes the HostApi (authentication + one handler per method).
import { switchToSelfReview } from './reviews/switchToSelfReview.js';
import { requireReviewerCapability } from './callerPolicy.js';
import { requireWorkerScope } from './workerScope.js';
import type { Event } from '../../core/events.js';
import type { Caller, Method } from '../../protocol/controlPlane.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Reader } from '../../store/tx.js';
import { runIdOfProcess } from '../turns/turnIds.js';
import type { Store } from '../../store/database.js';
import { stopHookCommand } from '../../agents/stopHook.js';
import { type Disposable, DisposableStore, toDisposable } from '../../core/lifecycle.js';
import { protocolVersion } from '../../protocol/controlPlane.js';
import type { HostApi, MethodHandlers } from '../../protocol/hostApi.js';
import { AgentTargetList } from './agentTargets.js';
import { callerLabel, requireUser } from './callerPolicy.js';
import type { PlanService, ServiceDeps } from './contracts.js';
import type { RunAdmission } from '../runs/runAdmission.js';
import { Dispatcher } from './dispatcher.js';
import { IssueService } from './issueService.js';
import { getCompactPlan, readPlanTask } from './plan/compactSnapshot.js';
import { createPlanService } from './planService.js';
import { RunQueries } from './runQueries.js';
import { activityLine, latestActivity, setupActivityLine } from './runActivity.js';
import { RunLifecycle } from '../runs/runLifecycle.js';
import { SessionService } from './sessionService.js';
import { TaskService } from './taskService.js';
import { AwaitService, type WaitTimer } from './await/awaitService.js';
import { preparationOf } from '../worktrees/treePreparation.js';
import { IntegrationService } from './integrationService.js';
import { FinishService } from './finishService.js';
import { UpdateFromBaseService } from './updateFromBaseService.js';
import { DeveloperGitMoves } from '../delivery/outsideWatch.js';
import { FollowUpService } from './followUps/followUpService.js';
import { StopHookService } from './hook/stopHookService.js';
import { SourceSessionStop } from './sourceSessions/sourceSessionStop.js';
import { WakeService } from '../wakes/wakeService.js';
import { TurnLifecycle } from '../turns/turnLifecycle.js';
import { RunMessageService } from './messages/runMessageService.js';
import { WorktreeManager } from '../worktrees/worktreeManager.js';
import { TreeDiskMeter } from '../worktrees/treeDiskMeter.js';
import { WorktreeService } from './worktreeService.js';
import { createReviewService } from './reviews/reviewService.js';
import { submitReviewerVerdict } from './reviews/reviewerVerdict.js';
import { ApprovalService } from './approvals/approvalService.js';
import { listAgentTurns } from './agents/agentTurnList.js';
import { issueChanges } from './issueChanges.js';
import { Verifications, type VerificationsDeps } from '../checks/verifications.js';
import { setChecks } from './checksService.js';

export interface HostServices extends Disposable {
	api: HostApi;
	/**
	 * Restart reconciliation of Runs, the plan service's local repair, then a dispatch pass; from then on the dispatcher
	 * and the wake loop react to every store commit (before, nothing dispatches). Call once.
	 */
	start(): Promise<void>;
	/** Resolves once dispatch passes, launches, Stops and exit settlements started so far are done (tests, demo). */
	whenIdle(): Promise<void>;
	/** Wake delivery to source sessions and the watchdog (tests drive it with tick()). */
	wakes: WakeService;
	/** An agent session began or ended a bounded wait, or made a call: the attention state may read differently. */
	onDidChangeContacts: Event<void>;
	/** One stall probe of the running Runs now (the timer does it after start(); tests with stallProbeMs 0 call it). */
	checkStalls(): Promise<void>;
}

export interface HostServicesOptions {
	/** Diagnostic lines (default: stderr). */
	log?: (line: string) => void;
	/** Replaces the plan service (tests of the generic surface). */
	planServiceFactory?: (deps: ServiceDeps & { admission: RunAdmission }) => PlanService;
	/** Wake-loop timer cadence after start() (default 1000 ms; 0 = none, tests call wakes.tick()). */
	wakeTickMs?: number;
	/** Lease length of a claimed wake (default 60 s). */
	wakeLeaseMs?: number;
	/** Stall probe cadence after start() (default: from the stall times; 0 = none, tests call checkStalls()). */
	stallProbeMs?: number;
	/** Real time for the bounded waits (default: wall clock, woken by store commits; tests step it). */
	awaitTimer?: WaitTimer;
	/** What `hello` tells every client about this Host's store now (e.g. that it came with the folder and is paused). */
	notice?: () => string | undefined;
	/** Told when a check's process started and when its answer was recorded (the bench). */
	onCheckTiming?: VerificationsDeps['onTiming'];
}

/**
 * Every handler first checks the reviewer allowlist (a reviewer token may only read and give its verdict) and the
 * worker fence (a worker token acts on its own issue, while its Run is live), and notes that an agent session is in
 * touch (the attention state reads whether a source agent has seen its checkpoint).
 */
function withCallerPolicy(handlers: MethodHandlers, store: Store, touched: (sessionId: string) => void): MethodHandlers {
	const guarded: Record<string, unknown> = {};
	for (const [method, handler] of Object.entries(handlers) as [Method, (params: unknown, caller: Caller) => Promise<unknown>][]) {
		guarded[method] = async (params: unknown, caller: Caller) => {
			requireReviewerCapability(caller, method);
			if (caller.kind === 'session' && caller.role === 'worker') { store.read((r) => { requireWorkerScope(r, caller, method, params); }); }
			if (caller.kind === 'session') { touched(caller.sessionId); }
			return handler(params, caller);
		};
	}
	return guarded as MethodHandlers;
}

/** A reported process is a Run's Turn or a wake's Turn that the store knows (`run_not_found` otherwise). */
function requireTurnProcess(r: Reader, processId: string): void {
	if (!turnRepository.byProcessId(r, processId)) { runRepository.load(r, runIdOfProcess(processId)); }
}

function stderrLog(line: string): void {
	process.stderr.write(`tutti host: ${line}\n`);
}

export function createHostServices(deps: ServiceDeps & HostServicesOptions): HostServices {
	const disposables = new DisposableStore();
	const log = deps.log ?? stderrLog;
	const sessions = new SessionService({ store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, userCredential: deps.userCredential });

	// Agents Tutti launches get a Stop hook through launch flags only; it runs the Host's own `tutti` shim (in the
	// Host's private directory: never a file a repository could put in the workspace).
	const hook = deps.cliShim !== '' ? { stopHookCommand: stopHookCommand([deps.cliShim]) } : {};
	// claude workers ask the developer about tool calls outside allowedTools through `tutti mcp` (the same shim).
	const mcp = deps.cliShim !== '' ? { mcpCommand: deps.cliShim } : {};
	// Refs the developer's own commands move (integrate, finish --remove-worktrees): not a Run's outside change.
	const gitMoves = new DeveloperGitMoves();
	const worktrees = new WorktreeManager(deps.workspace, preparationOf(deps.config), (ref) => { gitMoves.record(ref, '', deps.clock.now()); }, {
		...(deps.config.maxParallelSetups !== undefined ? { maxParallelSetups: deps.config.maxParallelSetups } : {}),
		...(deps.config.worktreeShareCacheMaxMb !== undefined ? { shareCacheMaxMb: deps.config.worktreeShareCacheMaxMb } : {}),
	});
	// One owner of every agent Turn's process and of the one exit inbox (worker Runs, source wakes, reviewer wakes).
	const turns = disposables.add(new TurnLifecycle({ endpoint: deps.endpoint, runs: deps.runs, config: deps.config, log, ...hook, ...mcp }));
	// The owner of every worker Run, from admission to settlement.
	const runs = disposables.add(new RunLifecycle({
		workspace: deps.workspace, store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs, config: deps.config, turns, log, worktrees, gitMoves,
		...(deps.stallProbeMs !== undefined ? { stallProbeMs: deps.stallProbeMs } : {}),
	}));
	// The owner of every verification: the checks of a Run's reported success, and the task's settlement on their answer.
	const verifications = disposables.add(new Verifications({
		workspace: deps.workspace, store: deps.store, clock: deps.clock, observer: runs.settlements, runDir: (id) => deps.runs.runDir(id), log,
		...(deps.onCheckTiming ? { onTiming: deps.onCheckTiming } : {}),
	}));
	const admission: RunAdmission = runs;
	// The plan admits through the Run owner and observes its settlements (inside each settlement's transaction).
	const activePlan: PlanService = (deps.planServiceFactory ?? createPlanService)({ ...deps, admission });
	disposables.add(runs.observeSettlements(activePlan));
	const activeDispatcher = disposables.add(new Dispatcher({ store: deps.store, config: deps.config, admission, log }));

	const archiveContext = { store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, admission, processes: turns, log };
	const sourceStop = new SourceSessionStop({ plan: archiveContext });
	const wakes: WakeService = disposables.add(new WakeService({
		workspace: deps.workspace, endpoint: deps.endpoint, store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs,
		config: deps.config, turns, log, stopMarkers: sourceStop,
		...(deps.wakeTickMs !== undefined ? { tickMs: deps.wakeTickMs } : {}),
		...(deps.wakeLeaseMs !== undefined ? { leaseMs: deps.wakeLeaseMs } : {}),
		...hook,
	}));

	const awaiting = new AwaitService({ store: deps.store, clock: deps.clock, ...(deps.awaitTimer ? { timer: deps.awaitTimer } : {}) });
	// The board's disk per issue: measured in the background when the issue list finds it missing or old.
	const treeDisk = new TreeDiskMeter({ store: deps.store, clock: deps.clock, treesOnDisk: (issueId) => worktrees.treesOnDisk(issueId), log });
	const issues = new IssueService({
		store: deps.store, clock: deps.clock, ids: deps.ids, plan: activePlan, autoAcceptDefault: deps.config.autoAcceptDefault,
		defaultBudgetUsd: deps.config.defaultBudgetUsd, pricing: deps.config,
		stopRunsOfIssue: (issueId, reason) => runs.stopRunsOfIssue(issueId, reason), contacts: awaiting.heartbeats,
		runActivity: (runId) => setupActivityLine(worktrees.setupProgress(runId), Date.now()) ?? activityLine(latestActivity(deps.runs, runId)),
	});
	const runQueries = new RunQueries({
		store: deps.store, clock: deps.clock, runs: deps.runs,
		targetOf: (id) => turns.target(id), worktrees,
	});
	const agentTargets = new AgentTargetList({ config: deps.config, workspace: deps.workspace });
	const runMessages = new RunMessageService({ store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs, config: deps.config });
	const worktreeService = new WorktreeService({ store: deps.store, worktrees });
	const reviews = createReviewService({ store: deps.store, clock: deps.clock, config: deps.config });
	const tasks = new TaskService({ store: deps.store, clock: deps.clock, config: deps.config, workspace: deps.workspace });

	const approvals = new ApprovalService({ store: deps.store, clock: deps.clock, ids: deps.ids, log, ...(deps.awaitTimer ? { timer: deps.awaitTimer } : {}) });
	const followUps = new FollowUpService({ store: deps.store, clock: deps.clock });
	const finishing = new FinishService({ workspace: deps.workspace, store: deps.store, clock: deps.clock, worktrees });
	const integration = new IntegrationService({ workspace: deps.workspace, store: deps.store, clock: deps.clock, config: deps.config, worktrees, gitMoves, runHooks: deps.config.integrateRunsHooks === true });
	const updates = new UpdateFromBaseService({ workspace: deps.workspace, store: deps.store, clock: deps.clock, config: deps.config, worktrees, admission, log });
	const stopHook = new StopHookService({ store: deps.store, clock: deps.clock, log });
	/** A decision made while no agent is waiting names the exact command that hands the source session back. */
	const withHandBack = async <T extends { issueId: string }>(result: T): Promise<T & { handBackCommand?: string }> => {
		const sourceSessionId = deps.store.read((r) => issueRepository.get(r, result.issueId)?.sourceSessionId ?? '');
		if (sourceSessionId === '') { return result; }
		try {
			const state = await awaiting.sessionState({ sessionId: sourceSessionId }, { kind: 'user' });
			return state.activity === 'waiting' ? result : { ...result, handBackCommand: state.handBackCommand };
		} catch {
			return result;
		}
	};
	const handlers: MethodHandlers = {
		'hello': async (_params, caller) => {
			const notice = deps.notice?.();
			return { protocol: protocolVersion, workspace: deps.workspace, pid: process.pid, caller: callerLabel(caller), ...(notice !== undefined ? { notice } : {}) };
		},
		'session/open': (params, caller) => sessions.open(params, caller),
		'session/stop': (params, caller) => sourceStop.stop(params, caller),
		'agent/list': async () => ({ agentTargets: await agentTargets.list() }),
		'issue/create': (params, caller) => issues.create(params, caller),
		'issue/get': (params) => issues.get(params),
		'issue/list': async () => {
			const listed = await issues.list();
			treeDisk.requestStale(listed.issues);
			return listed;
		},
		'issue/update': (params, caller) => issues.update(params, caller),
		'issue/setChecks': (params, caller) => setChecks(deps, params, caller),
		'issue/pause': (params, caller) => issues.pause(params, caller),
		'issue/resume': (params, caller) => issues.resume(params, caller),
		'issue/stop': (params, caller) => issues.stop(params, caller),
		'task/add': (params, caller) => tasks.add(params, caller),
		'task/update': (params, caller) => tasks.update(params, caller),
		'task/delete': (params) => tasks.delete(params),
		'plan/create': (params, caller) => activePlan.create(params, caller),
		'plan/get': (params, caller) => activePlan.get(params, caller),
		'plan/getCompact': (params, caller) => getCompactPlan({ store: deps.store, clock: deps.clock, log, config: deps.config }, params, caller),
		'plan/getTask': async (params, caller) => deps.store.read((r) => readPlanTask(r, params, caller)),
		'plan/schedule': (params, caller) => activePlan.schedule(params, caller),
		'plan/mutate': (params, caller) => activePlan.mutate(params, caller),
		'plan/acknowledge': (params, caller) => activePlan.acknowledge(params, caller),
		'plan/complete': (params, caller) => activePlan.complete(params, caller),
		'plan/stop': (params, caller) => activePlan.stop(params, caller),
		'plan/resume': (params, caller) => activePlan.resume(params, caller),
		'plan/pause': (params, caller) => activePlan.pause(params, caller),
		'review/accept': async (params, caller) => withHandBack(await reviews.accept(params, caller)),
		'review/requestChanges': async (params, caller) => withHandBack(await reviews.requestChanges(params, caller)),
		'goal/confirm': async (params, caller) => withHandBack(await reviews.confirmGoal(params, caller)),
		'goal/requestChanges': async (params, caller) => withHandBack(await reviews.requestGoalChanges(params, caller)),
		'goalReview/verdict': (params, caller) => submitReviewerVerdict({ store: deps.store, clock: deps.clock }, params, caller),
		'goalReview/switchToSelf': (params, caller) => switchToSelfReview({ store: deps.store, clock: deps.clock }, params, caller),
		'run/get': (params) => runQueries.get(params),
		'run/list': (params) => runQueries.list(params),
		'run/stop': async (params, caller) => {
			requireUser(caller, 'run stop', { runId: params.runId });
			const stopped = await runs.stopRun(params.runId, 'person');
			return { runId: stopped.runId, eventId: stopped.eventId ?? '', answer: stopped.answer };
		},
		'run/log': (params) => runQueries.log(params),
		'run/transcript': (params) => runQueries.transcript(params),
		// A supervisor's report only asks the exit inbox to look now (and a launch waiting for the start stops waiting).
		'run/report': async (params) => {
			deps.store.read((r) => { requireTurnProcess(r, params.runId); });
			await turns.lookNow(params.runId);
			return { ok: true };
		},
		'run/send': (params, caller) => runMessages.send(params, caller),
		'run/queue': (params) => runMessages.queue(params),
		'run/resume-queue': (params, caller) => runMessages.resumeQueue(params, caller),
		'worktree/remove': (params, caller) => worktreeService.remove(params, caller),
		'issue/integrate': (params, caller) => integration.integrate(params, caller),
		'issue/changes': (params) => issueChanges({ workspace: deps.workspace, store: deps.store }, params),
		'turn/list': async () => listAgentTurns({ store: deps.store, clock: deps.clock, runs: deps.runs, contacts: awaiting.heartbeats, pricing: deps.config }),
		'task/retry': (params, caller) => tasks.retry(params, caller),
		'task/updateFromBase': (params, caller) => updates.update(params, caller),
		'await/review': (params, caller) => awaiting.review(params, caller),
		'await/checkpoint': (params, caller) => awaiting.checkpoint(params, caller),
		'await/next-action': (params, caller) => awaiting.nextAction(params, caller),
		'agent/resume': (params, caller) => awaiting.resume(params, caller),
		'session/state': (params, caller) => awaiting.sessionState(params, caller),
		'issue/finish': (params, caller) => finishing.finish(params, caller),
		'worktree/prune': (params, caller) => finishing.prune(params, caller),
		'issue/followUp': (params, caller) => followUps.record(params, caller),
		'hook/stop': (_params, caller) => stopHook.stop(caller),
		'approval/request': (params, caller) => approvals.request(params, caller),
		'approval/wait': (params, caller) => approvals.wait(params, caller),
		'approval/list': (params) => approvals.list(params),
		'approval/answer': (params, caller) => approvals.answer(params, caller),
		'question/answer': (params, caller) => approvals.answerQuestion(params, caller),
	};

	const api: HostApi = {
		workspace: deps.workspace,
		authenticate: (token) => sessions.authenticate(token),
		handlers: withCallerPolicy(handlers, deps.store, (sessionId) => { awaiting.heartbeats.touch(sessionId, deps.clock.now()); }),
	};

	let started = false;
	disposables.add(toDisposable(() => { const p = activePlan as Partial<Disposable>; p.dispose?.(); }));
	// The store accepts writes again after a write failure (it reloaded from disk): redo what could not be saved. The
	// reload counts as a commit, so dispatch and wakes run again by themselves.
	disposables.add(deps.store.onDidResumeWrites(({ seq }) => {
		log(`the store accepts writes again after a write failure (at transaction ${seq}); rechecking Runs`);
		void runs.recheckRunning().catch((e: unknown) => { log(`rechecking Runs after the store reload failed: ${(e as Error).message}`); });
	}));

	return {
		api,
		wakes,
		onDidChangeContacts: awaiting.heartbeats.onDidChange,
		checkStalls: () => runs.checkStalls(),
		async start(): Promise<void> {
			if (started) { return; }
			started = true;
			// First, before any await (the socket may listen already, but no request is answered before this
			// returns): Turns that ended while the Host was down count against their issues' budgets.
			await Promise.all([runs.countEndedTurns(), wakes.countEndedTurns()]);
			await runs.reconcile();
			// Source-session Stop markers are drained before repair and before any wake dispatch (restart is never a resume).
			await sourceStop.drain();
			await activePlan.repairOnStart();
			// Checks a Host left running: their process ended, and they run on (paused issues wait for their resume).
			await verifications.start();
			// From here on the dispatcher, the wake loop and the verifications react to every store commit, so no write path
			// needs a trigger of its own; before, nothing of the recovering Host's writes (or of an arrival pause) dispatches anything.
			disposables.add(deps.store.onDidCommit(() => { activeDispatcher.trigger(); wakes.trigger(); verifications.trigger(); }));
			activeDispatcher.trigger();
			// Running Runs are probed for stalls from here on (after reconciliation: every Run has its current Turn).
			runs.watchStalls();
			await wakes.start();
		},
		async whenIdle(): Promise<void> {
			do {
				await activeDispatcher.whenIdle();
				await runs.whenIdle();
				await verifications.whenIdle();
				await wakes.whenIdle();
				await treeDisk.whenIdle();
			} while (!runs.isIdle() || !activeDispatcher.isIdle() || !verifications.isIdle() || !wakes.isIdle());
		},
		dispose(): void {
			treeDisk.dispose();
			disposables.dispose();
		},
	};
}
