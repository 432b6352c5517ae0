// Host start: local repair only. Restarting is never a resume: nothing here
// unpauses an issue, and a paused issue gets no new active checkpoint (so no new wake).
import { isTerminalExecution } from '../../../core/execution/allowedActions.js';
import { settlementKindFor, settlementKinds } from '../../../core/execution/backlog.js';
import { runCheckpointId, terminalCheckpointId } from '../../../core/ids.js';
import type { Execution } from '../../../core/model.js';
import { executionStatuses } from '../../../core/model.js';
import { archiveRepository } from '../../../store/repositories/archiveRepository.js';
import { checkpointRepository } from '../../../store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import type { Tx } from '../../../store/tx.js';
import { continueArchive } from './archiveExecution.js';
import type { PlanContext } from './planContext.js';
import { recordRunSettlement, settleTerminalBoundary } from './settlePlanRun.js';

/** Settled Runs whose settlement checkpoint is missing get it now (unless the issue is paused: that would wake it). */
function restoreMissingSettlements(tx: Tx, execution: Execution, now: number): Execution {
	const issue = issueRepository.get(tx, execution.issueId);
	if (!issue || issue.dispatchPaused) { return execution; }
	const existing = checkpointRepository.existingIds(tx, execution.executionId);
	let current = execution;
	let restored = false;
	for (const run of runRepository.listByIssue(tx, execution.issueId)) {
		if (settlementKindFor(run.status) === null || existing.has(runCheckpointId(execution.executionId, run.runId))) { continue; }
		current = recordRunSettlement(tx, current, issue, run, now);
		restored = true;
	}
	return restored ? settleTerminalBoundary(tx, current, issue, now) : current;
}

/**
 * The stranded Goal Review recovery: only when the execution is awaiting_main, a settlement checkpoint is active,
 * every active task is terminal and every settled Run has its settlement checkpoint (the core rule checks the
 * last two) — then a superseded terminal singleton is rearmed (queued behind the active checkpoint).
 */
function rearmStrandedTerminal(tx: Tx, execution: Execution, now: number): void {
	if (execution.status !== 'awaiting_main') { return; }
	const active = checkpointRepository.active(tx, execution.executionId);
	if (!active || !settlementKinds.includes(active.kind)) { return; }
	const singleton = checkpointRepository.get(tx, terminalCheckpointId(execution.executionId));
	if (singleton && singleton.status !== 'superseded') { return; }
	const issue = issueRepository.get(tx, execution.issueId);
	if (issue) { settleTerminalBoundary(tx, execution, issue, now); }
}

export async function repairPlans(ctx: PlanContext): Promise<void> {
	const live = executionStatuses.filter((s) => !isTerminalExecution(s));
	const executions = ctx.store.read((r) => executionRepository.listByStatus(r, live).map((e) => e.executionId));
	for (const executionId of executions) {
		try {
			await ctx.store.transaction((tx) => {
				const execution = executionRepository.get(tx, executionId);
				if (!execution || isTerminalExecution(execution.status)) { return; }
				const now = ctx.clock.now();
				const restored = restoreMissingSettlements(tx, execution, now);
				rearmStrandedTerminal(tx, restored, now);
			});
		} catch (e) {
			ctx.log(`repairing execution ${executionId} failed: ${(e as Error).message}`);
		}
	}
	const unfinished = ctx.store.read((r) => archiveRepository.listUnfinished(r).map((op) => op.operationId));
	for (const operationId of unfinished) {
		await continueArchive(ctx, operationId);
	}
}
