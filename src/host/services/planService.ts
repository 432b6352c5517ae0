// Managed execution: `plan issue create|get|schedule|mutate|acknowledge|complete|stop|resume`,
// Run-settlement checkpoints, the ordered backlog, the all_tasks_terminal singleton, pause and archive.
// Each command is one store transaction; the rules are core functions; external work happens after commit.
import type { Caller } from '../../protocol/controlPlane.js';
import type { PlanService, ServiceDeps } from './contracts.js';
import type { RunAdmission } from '../runs/runAdmission.js';
import { acknowledgePlan } from './plan/acknowledgePlan.js';
import { completePlan } from './plan/completePlan.js';
import { createPlan } from './plan/createPlan.js';
import { getCompactPlan } from './plan/compactSnapshot.js';
import { getPlan } from './plan/getPlan.js';
import { mutatePlan } from './plan/mutatePlan.js';
import { pauseAsCaller, resumeAsCaller, setPausedByUser } from './plan/pausePlan.js';
import type { PlanContext } from './plan/planContext.js';
import { repairPlans } from './plan/repairPlans.js';
import { schedulePlan } from './plan/schedulePlan.js';
import { onManagedRunSettled } from './plan/settlePlanRun.js';
import { stopPlan } from './plan/stopPlan.js';

function stderrLog(line: string): void {
	process.stderr.write(`tutti host: ${line}\n`);
}

export function createPlanService(deps: ServiceDeps & { admission: RunAdmission; log?: (line: string) => void }): PlanService {
	const ctx: PlanContext = {
		store: deps.store,
		clock: deps.clock,
		ids: deps.ids,
		config: deps.config,
		admission: deps.admission,
		processes: deps.runs,
		log: deps.log ?? stderrLog,
	};
	return {
		create: (params, caller) => createPlan(ctx, params, caller),
		get: async (params, caller) => getPlan(ctx, params.issueId, caller),
		schedule: (params, caller) => schedulePlan(ctx, params, caller),
		mutate: (params, caller) => mutatePlan({ ...ctx, workspace: deps.workspace }, params, caller),
		acknowledge: (params, caller) => acknowledgePlan(ctx, params, caller),
		complete: (params, caller) => completePlan(ctx, params, caller),
		stop: (params, caller) => stopPlan(ctx, params, caller),
		resume: async (params, caller: Caller) => {
			await resumeAsCaller(ctx, params.issueId, caller);
			return getCompactPlan(ctx, { issueId: params.issueId }, caller);
		},
		pause: async (params, caller: Caller) => {
			await pauseAsCaller(ctx, params.issueId, caller);
			return getCompactPlan(ctx, { issueId: params.issueId }, caller);
		},
		setPausedByUser: (issueId, paused) => setPausedByUser(ctx, issueId, paused),
		repairOnStart: () => repairPlans(ctx),
		onRunSettled: (tx, settled) => { onManagedRunSettled(tx, settled, ctx.clock.now()); },
	};
}
