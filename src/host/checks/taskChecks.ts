// Which checks verify a task's result: the union of the workspace's (`checks` in the settings), its agent target's,
// its issue's and its own (`--checks-json`), in that order. A rework keeps the task's own checks: a replacement with
// none of its own takes the nearest ones of the tasks it replaces (an agent's rework never drops a check).
import { type CheckInput, type CheckSpec, normalizeCheck, unionChecks } from '../../core/checks/checks.js';
import type { Task } from '../../core/model.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { verificationRepository } from '../../store/repositories/verificationRepository.js';
import type { Reader } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { reworkChain } from '../worktrees/worktreePaths.js';

function specs(inputs: readonly CheckInput[] | undefined): CheckSpec[] {
	return (inputs ?? []).map(normalizeCheck);
}

/** The checks set on the task itself, or on the nearest task of its rework chain that has any. */
function ownChecks(r: Reader, task: Pick<Task, 'issueId' | 'taskId'>): CheckInput[] {
	const own = verificationRepository.checksOf(r, task.issueId, task.taskId);
	if (own !== undefined) { return own; }
	const supersededBy = new Map(taskRepository.listByIssue(r, task.issueId).map((t) => [t.taskId, t.supersededByTaskId] as const));
	for (const id of reworkChain(task.taskId, supersededBy).slice(1)) {
		const inherited = verificationRepository.checksOf(r, task.issueId, id);
		if (inherited !== undefined) { return inherited; }
	}
	return [];
}

/** The checks a task of `agentTargetId` runs (the workspace's, the target's, the issue's, its own). */
export function checksOfTask(r: Reader, config: Pick<HostConfig, 'checks' | 'agentTargets'>, task: Pick<Task, 'issueId' | 'taskId'>, agentTargetId: string): CheckSpec[] {
	const target = config.agentTargets.find((t) => t.id === agentTargetId);
	return unionChecks([
		specs(config.checks), specs(target?.checks), specs(verificationRepository.checksOf(r, task.issueId, '')), specs(ownChecks(r, task)),
	]);
}

/**
 * The checks of an integration of the issue: the workspace's and the issue's, and every merged task's target and own
 * checks — whatever any of its tasks had to pass, the merge of them has to pass too.
 */
export function checksOfIntegration(r: Reader, config: Pick<HostConfig, 'checks' | 'agentTargets'>, issueId: string, tasks: readonly Pick<Task, 'issueId' | 'taskId' | 'agentTargetId'>[]): CheckSpec[] {
	const perTask = tasks.flatMap((task) => [specs(config.agentTargets.find((t) => t.id === task.agentTargetId)?.checks), specs(ownChecks(r, task))]);
	return unionChecks([specs(config.checks), specs(verificationRepository.checksOf(r, issueId, '')), ...perTask]);
}
