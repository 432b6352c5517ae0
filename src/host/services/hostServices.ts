// The services composition root: builds the domain services over one store and one process port, wires the
// plan service to Run admission and settlement, and exposes the HostApi (authentication + one handler per method).
import { switchToSelfReview } from './reviews/switchToSelfReview.js';
import { requireReviewerCapability } from './callerPolicy.js';
import { requireWorkerScope } from './workerScope.js';
import type { Event } from '../../core/events.js';
import type { Caller, Method } from '../../protocol/controlPlane.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import type { Store } from '../../store/database.js';
import { stopHookCommand } from '../../agents/stopHook.js';
import { type Disposable, DisposableStore, toDisposable } from '../../core/lifecycle.js';
import { protocolVersion } from '../../protocol/controlPlane.js';
import type { HostApi, MethodHandlers } from '../../protocol/hostApi.js';
import { listAgentTargets } from './agentTargets.js';
import { callerLabel } from './callerPolicy.js';
import type { PlanService, RunAdmission, ServiceDeps } from './contracts.js';
import { Dispatcher } from './dispatcher.js';
import { IssueService } from './issueService.js';
import { getCompactPlan, readPlanTask } from './plan/compactSnapshot.js';
import { createPlanService } from './planService.js';
import { RunQueries } from './runQueries.js';
import { activityLine, latestActivity } from './runActivity.js';
import { RunService } from './runService.js';
import { SessionService } from './sessionService.js';
import { TaskService } from './taskService.js';
import { AwaitService, type WaitTimer } from './await/awaitService.js';
import { preparationOf } from './worktrees/treePreparation.js';
import { IntegrationService } from './delivery/integrationService.js';
import { DeveloperGitMoves } from './delivery/outsideWatch.js';
import { FollowUpService } from './followUps/followUpService.js';
import { StopHookService } from './hook/stopHookService.js';
import { SourceSessionStop } from './sourceSessions/sourceSessionStop.js';
import { WakeService } from './wakes/wakeService.js';
import { TurnLifecycle } from '../turns/turnLifecycle.js';
import { RunMessageService } from './messages/runMessageService.js';
import { WorktreeManager } from './worktrees/worktreeManager.js';
import { WorktreeService } from './worktrees/worktreeService.js';
import { createReviewService } from './reviews/reviewService.js';
import { submitReviewerVerdict } from './reviews/reviewerVerdict.js';
import { ApprovalService } from './approvals/approvalService.js';
import { isTurnProcessId } from './wakes/turnIds.js';
import { listAgentTurns } from './agents/agentTurnList.js';
import { issueChanges } from './delivery/issueChanges.js';

export interface HostServices extends Disposable {
	api: HostApi;
	/** Restart reconciliation of Runs, the plan service's local repair, then a dispatch pass. Call once. */
	start(): Promise<void>;
	/** Resolves once dispatch passes, launches, Stops and exit settlements started so far are done (tests, demo). */
	whenIdle(): Promise<void>;
	/** Wake delivery to source sessions and the watchdog (tests drive it with tick()). */
	wakes: WakeService;
	/** An agent session began or ended a bounded wait, or made a call: the attention state may read differently. */
	onDidChangeContacts: Event<void>;
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
	/** Real time for the bounded waits (default: wall clock, woken by store commits; tests step it). */
	awaitTimer?: WaitTimer;
	/** What `hello` tells every client about this Host's store now (e.g. that it came with the folder and is paused). */
	notice?: () => string | undefined;
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
	// The plan service observes settlements and the Run service admits for it: bind through a late reference.
	// Refs the developer's own commands move (integrate, finish --remove-worktrees): not a Run's outside change.
	const gitMoves = new DeveloperGitMoves();
	const worktrees = new WorktreeManager(deps.workspace, preparationOf(deps.config), (ref) => { gitMoves.record(ref, '', deps.clock.now()); });
	const late: { plan?: PlanService; dispatcher?: Dispatcher; wakes?: WakeService } = {};
	// One owner of every agent Turn's process (worker Runs, source wakes, reviewer wakes).
	const turns = new TurnLifecycle({ endpoint: deps.endpoint, runs: deps.runs, config: deps.config, log, ...hook, ...mcp });
	const runs = disposables.add(new RunService({
		workspace: deps.workspace,
		worktrees,
		gitMoves,
		endpoint: deps.endpoint,
		store: deps.store,
		clock: deps.clock,
		ids: deps.ids,
		runs: deps.runs,
		config: deps.config,
		turns,
		observer: { onRunSettled: (tx, settled) => { late.plan?.onRunSettled(tx, settled); } },
		log,
		onSettled: () => { late.dispatcher?.trigger(); late.wakes?.trigger(); },
		...hook,
	}));
	const admission: RunAdmission = runs;
	const activePlan: PlanService = (deps.planServiceFactory ?? createPlanService)({ ...deps, admission });
	late.plan = activePlan;
	const activeDispatcher = disposables.add(new Dispatcher({ store: deps.store, config: deps.config, admission, log }));
	late.dispatcher = activeDispatcher;
	const workChanged = (): void => { activeDispatcher.trigger(); late.wakes?.trigger(); };

	const archiveContext = { store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, admission, processes: turns, log };
	const sourceStop = new SourceSessionStop({
		plan: archiveContext,
		interruptSessionTurns: (sessionId) => wakes.interruptSessionTurns(sessionId),
		afterStop: () => { wakes.trigger(); },
	});
	const wakes: WakeService = disposables.add(new WakeService({
		workspace: deps.workspace, endpoint: deps.endpoint, store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs,
		config: deps.config, turns, log, drainInbox: async () => { await sourceStop.drain(); },
		...(deps.wakeTickMs !== undefined ? { tickMs: deps.wakeTickMs } : {}),
		...(deps.wakeLeaseMs !== undefined ? { leaseMs: deps.wakeLeaseMs } : {}),
		...hook,
	}));
	late.wakes = wakes;
	/** A plan command may have prepared a wake (or unpaused one): run a wake pass after it. */
	const thenWake = <T>(p: Promise<T>): Promise<T> => p.finally(() => { wakes.trigger(); });

	const awaiting = new AwaitService({ store: deps.store, clock: deps.clock, ...(deps.awaitTimer ? { timer: deps.awaitTimer } : {}) });
	const issues = new IssueService({
		store: deps.store, clock: deps.clock, ids: deps.ids, plan: activePlan, workChanged, autoAcceptDefault: deps.config.autoAcceptDefault,
		defaultBudgetUsd: deps.config.defaultBudgetUsd, pricing: deps.config,
		stopRunsOfIssue: (issueId, reason) => runs.stopRunsOfIssue(issueId, reason), contacts: awaiting.heartbeats,
		runActivity: (runId) => activityLine(latestActivity(deps.runs, runId)),
	});
	const runQueries = new RunQueries({
		store: deps.store, clock: deps.clock, runs: deps.runs,
		adapterOf: (id) => turns.target(id)?.adapter,
	});
	const runMessages = new RunMessageService({ store: deps.store, clock: deps.clock, ids: deps.ids, runs: deps.runs, config: deps.config });
	const worktreeService = new WorktreeService({ store: deps.store, worktrees });
	const reviews = createReviewService({ store: deps.store, clock: deps.clock, config: deps.config, workChanged });
	const tasks = new TaskService({ store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, workspace: deps.workspace, workChanged });

	const approvals = new ApprovalService({ store: deps.store, clock: deps.clock, ids: deps.ids, log, ...(deps.awaitTimer ? { timer: deps.awaitTimer } : {}) });
	const followUps = new FollowUpService({ store: deps.store, clock: deps.clock });
	const integration = new IntegrationService({ workspace: deps.workspace, store: deps.store, clock: deps.clock, worktrees, gitMoves, runHooks: deps.config.integrateRunsHooks === true });
	const stopHook = new StopHookService({ store: deps.store, clock: deps.clock, log });
	/** A decision made while no agent is waiting names the exact command that hands the source session back (SPEC §7). */
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
		'agent/list': async () => ({ agentTargets: listAgentTargets(deps.config, deps.workspace) }),
		'issue/create': (params, caller) => issues.create(params, caller),
		'issue/get': (params) => issues.get(params),
		'issue/list': () => issues.list(),
		'issue/update': (params, caller) => issues.update(params, caller),
		'issue/pause': (params, caller) => issues.pause(params, caller),
		'issue/resume': (params, caller) => thenWake(issues.resume(params, caller)),
		'issue/stop': (params, caller) => issues.stop(params, caller),
		'task/add': (params, caller) => tasks.add(params, caller),
		'task/update': (params, caller) => tasks.update(params, caller),
		'task/delete': (params) => tasks.delete(params),
		'plan/create': (params, caller) => thenWake(activePlan.create(params, caller)),
		'plan/get': (params, caller) => activePlan.get(params, caller),
		'plan/getCompact': (params, caller) => getCompactPlan({ store: deps.store, clock: deps.clock, log, config: deps.config }, params, caller),
		'plan/getTask': async (params, caller) => deps.store.read((r) => readPlanTask(r, params, caller)),
		'plan/schedule': (params, caller) => thenWake(activePlan.schedule(params, caller)),
		'plan/mutate': (params, caller) => thenWake(activePlan.mutate(params, caller)),
		'plan/acknowledge': (params, caller) => thenWake(activePlan.acknowledge(params, caller)),
		'plan/complete': (params, caller) => thenWake(activePlan.complete(params, caller)),
		'plan/stop': (params, caller) => thenWake(activePlan.stop(params, caller)),
		'plan/resume': (params, caller) => thenWake(activePlan.resume(params, caller)),
		'plan/pause': (params, caller) => activePlan.pause(params, caller),
		'review/accept': async (params, caller) => withHandBack(await reviews.accept(params, caller)),
		'review/requestChanges': async (params, caller) => withHandBack(await reviews.requestChanges(params, caller)),
		'goal/confirm': async (params, caller) => withHandBack(await reviews.confirmGoal(params, caller)),
		'goal/requestChanges': async (params, caller) => withHandBack(await reviews.requestGoalChanges(params, caller)),
		'goalReview/verdict': (params, caller) => thenWake(submitReviewerVerdict({ store: deps.store, clock: deps.clock }, params, caller)),
		'goalReview/switchToSelf': (params, caller) => thenWake(switchToSelfReview({ store: deps.store, clock: deps.clock }, params, caller)),
		'run/get': (params) => runQueries.get(params),
		'run/list': (params) => runQueries.list(params),
		'run/stop': (params, caller) => runs.stop(params, caller),
		'run/log': (params) => runQueries.log(params),
		'run/transcript': (params) => runQueries.transcript(params),
		'run/report': async (params) => {
			if (!isTurnProcessId(params.runId)) { return runs.report(params); }
			wakes.report(params.runId);
			return { ok: true };
		},
		'run/send': (params, caller) => runMessages.send(params, caller),
		'run/queue': (params) => runMessages.queue(params),
		'run/resume-queue': (params, caller) => runMessages.resumeQueue(params, caller),
		'worktree/remove': (params, caller) => worktreeService.remove(params, caller),
		'issue/integrate': (params, caller) => integration.integrate(params, caller),
		'issue/changes': (params) => issueChanges({ workspace: deps.workspace, store: deps.store }, params),
		'turn/list': async () => listAgentTurns({ store: deps.store, clock: deps.clock, runs: deps.runs, contacts: awaiting.heartbeats, pricing: deps.config }),
		'await/review': (params, caller) => awaiting.review(params, caller),
		'await/checkpoint': (params, caller) => awaiting.checkpoint(params, caller),
		'await/next-action': (params, caller) => awaiting.nextAction(params, caller),
		'agent/resume': (params, caller) => awaiting.resume(params, caller),
		'session/state': (params, caller) => awaiting.sessionState(params, caller),
		'issue/finish': async (params, caller) => {
			const finished = await awaiting.finish(params, caller);
			return params.removeWorktrees === true ? { ...finished, removedWorktrees: await integration.removeWorktrees(params.issueId) } : finished;
		},
		'issue/followUp': (params, caller) => followUps.record(params, caller),
		'hook/stop': (_params, caller) => stopHook.stop(caller),
		'approval/request': (params, caller) => approvals.request(params, caller),
		'approval/wait': (params, caller) => approvals.wait(params, caller),
		'approval/list': (params) => approvals.list(params),
		'approval/answer': (params, caller) => approvals.answer(params, caller),
	};

	const api: HostApi = {
		workspace: deps.workspace,
		authenticate: (token) => sessions.authenticate(token),
		handlers: withCallerPolicy(handlers, deps.store, (sessionId) => { awaiting.heartbeats.touch(sessionId, deps.clock.now()); }),
	};

	let started = false;
	disposables.add(toDisposable(() => { const p = activePlan as Partial<Disposable>; p.dispose?.(); }));
	// The store accepts writes again after a write failure (it reloaded from disk): redo what could not be saved.
	disposables.add(deps.store.onDidResumeWrites(({ seq }) => {
		log(`the store accepts writes again after a write failure (at transaction ${seq}); rechecking Runs, dispatch and wakes`);
		void runs.recheckRunning()
			.catch((e: unknown) => { log(`rechecking Runs after the store reload failed: ${(e as Error).message}`); })
			.finally(() => { activeDispatcher.trigger(); wakes.trigger(); });
	}));

	return {
		api,
		wakes,
		onDidChangeContacts: awaiting.heartbeats.onDidChange,
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
			activeDispatcher.trigger();
			await wakes.start();
		},
		async whenIdle(): Promise<void> {
			do {
				await activeDispatcher.whenIdle();
				await runs.whenIdle();
				await wakes.whenIdle();
			} while (!runs.isIdle() || !activeDispatcher.isIdle() || !wakes.isIdle());
		},
		dispose(): void {
			disposables.dispose();
		},
	};
}
