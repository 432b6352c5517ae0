// The services composition root: builds the domain services over one store and one process port, wires the
// plan service to Run admission and settlement, and exposes the HostApi (authentication + one handler per method).
import { type Disposable, DisposableStore, toDisposable } from '../../core/lifecycle.js';
import { protocolVersion } from '../../protocol/controlPlane.js';
import type { HostApi, MethodHandlers } from '../api.js';
import { listAgentTargets } from './agentTargets.js';
import { callerLabel } from './callerPolicy.js';
import type { PlanService, RunAdmission, ServiceDeps } from './contracts.js';
import { Dispatcher } from './dispatcher.js';
import { IssueService } from './issueService.js';
import { createPlanService } from './planService.js';
import { RunQueries } from './runQueries.js';
import { RunService } from './runService.js';
import { SessionService } from './sessionService.js';
import { TaskService } from './taskService.js';

export interface HostServices extends Disposable {
	api: HostApi;
	/** Restart reconciliation of Runs, the plan service's local repair, then a dispatch pass. Call once. */
	start(): Promise<void>;
	/** Resolves once dispatch passes, launches, Stops and exit settlements started so far are done (tests, demo). */
	whenIdle(): Promise<void>;
}

export interface HostServicesOptions {
	/** Diagnostic lines (default: stderr). */
	log?: (line: string) => void;
	/** Replaces the plan service (tests of the generic surface). */
	planServiceFactory?: (deps: ServiceDeps & { admission: RunAdmission }) => PlanService;
}

function stderrLog(line: string): void {
	process.stderr.write(`tutti host: ${line}\n`);
}

export function createHostServices(deps: ServiceDeps & HostServicesOptions): HostServices {
	const disposables = new DisposableStore();
	const log = deps.log ?? stderrLog;
	const sessions = new SessionService({ store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, userCredential: deps.userCredential });

	// The plan service observes settlements and the Run service admits for it: bind through a late reference.
	const late: { plan?: PlanService; dispatcher?: Dispatcher } = {};
	const runs = disposables.add(new RunService({
		workspace: deps.workspace,
		endpoint: deps.endpoint,
		store: deps.store,
		clock: deps.clock,
		ids: deps.ids,
		runs: deps.runs,
		config: deps.config,
		sessions,
		observer: { onRunSettled: (tx, settled) => { late.plan?.onRunSettled(tx, settled); } },
		log,
		onSettled: () => { late.dispatcher?.trigger(); },
	}));
	const admission: RunAdmission = runs;
	const activePlan: PlanService = (deps.planServiceFactory ?? createPlanService)({ ...deps, admission });
	late.plan = activePlan;
	const activeDispatcher = disposables.add(new Dispatcher({ store: deps.store, config: deps.config, admission, log }));
	late.dispatcher = activeDispatcher;
	const workChanged = (): void => { activeDispatcher.trigger(); };

	const issues = new IssueService({
		store: deps.store, clock: deps.clock, ids: deps.ids, plan: activePlan, workChanged,
		stopRunsOfIssue: (issueId, reason) => runs.stopRunsOfIssue(issueId, reason),
	});
	const runQueries = new RunQueries({ store: deps.store, clock: deps.clock, runs: deps.runs });
	const tasks = new TaskService({ store: deps.store, clock: deps.clock, ids: deps.ids, config: deps.config, workspace: deps.workspace, workChanged });

	const handlers: MethodHandlers = {
		'hello': async (_params, caller) => ({ protocol: protocolVersion, workspace: deps.workspace, pid: process.pid, caller: callerLabel(caller) }),
		'session/open': (params, caller) => sessions.open(params, caller),
		'agent/list': async () => ({ agentTargets: listAgentTargets(deps.config, deps.workspace) }),
		'issue/create': (params, caller) => issues.create(params, caller),
		'issue/get': (params) => issues.get(params),
		'issue/list': () => issues.list(),
		'issue/update': (params, caller) => issues.update(params, caller),
		'issue/pause': (params, caller) => issues.pause(params, caller),
		'issue/resume': (params, caller) => issues.resume(params, caller),
		'issue/stop': (params, caller) => issues.stop(params, caller),
		'task/add': (params) => tasks.add(params),
		'task/update': (params) => tasks.update(params),
		'task/delete': (params) => tasks.delete(params),
		'plan/create': (params, caller) => activePlan.create(params, caller),
		'plan/get': (params, caller) => activePlan.get(params, caller),
		'plan/schedule': (params, caller) => activePlan.schedule(params, caller),
		'plan/mutate': (params, caller) => activePlan.mutate(params, caller),
		'plan/acknowledge': (params, caller) => activePlan.acknowledge(params, caller),
		'plan/complete': (params, caller) => activePlan.complete(params, caller),
		'plan/stop': (params, caller) => activePlan.stop(params, caller),
		'plan/resume': (params, caller) => activePlan.resume(params, caller),
		'run/get': (params) => runQueries.get(params),
		'run/list': (params) => runQueries.list(params),
		'run/stop': (params, caller) => runs.stop(params, caller),
		'run/log': (params) => runQueries.log(params),
		'run/report': (params) => runs.report(params),
	};

	const api: HostApi = {
		workspace: deps.workspace,
		authenticate: (token) => sessions.authenticate(token),
		handlers,
	};

	let started = false;
	disposables.add(toDisposable(() => { const p = activePlan as Partial<Disposable>; p.dispose?.(); }));

	return {
		api,
		async start(): Promise<void> {
			if (started) { return; }
			started = true;
			await runs.reconcile();
			await activePlan.repairOnStart();
			activeDispatcher.trigger();
		},
		async whenIdle(): Promise<void> {
			do {
				await activeDispatcher.whenIdle();
				await runs.whenIdle();
			} while (!runs.isIdle() || !activeDispatcher.isIdle());
		},
		dispose(): void {
			disposables.dispose();
		},
	};
}
