// `worktree/remove` (developer): removes a task's worktree unless it has uncommitted changes or a Run of the task
// (or of a task in its rework chain) is still running in it.
import { DomainError } from '../../core/errors.js';
import type { Caller, RunAgentParams, RunAgentResult } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { requireUser } from './callerPolicy.js';
import { loadIssue } from './issueService.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { isInsideTree } from '../worktrees/worktreePaths.js';

export class WorktreeService {
	constructor(private readonly deps: { store: Store; worktrees: WorktreeManager }) {}

	async remove(params: RunAgentParams<'worktree/remove'>, caller: Caller): Promise<RunAgentResult<'worktree/remove'>> {
		requireUser(caller, 'worktree remove', { issueId: params.issueId });
		const tree = this.deps.worktrees.recordOf(params.issueId, params.taskId);
		const busy = this.deps.store.read((r) => {
			loadIssue(r, params.issueId);
			return tree === undefined ? undefined
				: runRepository.listByIssue(r, params.issueId).find((run) => run.status === 'running' && isInsideTree(tree.path, run.executionDirectory));
		});
		if (busy) {
			throw new DomainError('invalid_input', `Run ${busy.runId} is still running in the worktree of task ${params.taskId}; it was not removed.`,
				`Wait for it to end or stop it with \`tutti run stop --run-id ${busy.runId} --as-user\`, then remove the worktree.`,
				{ issueId: params.issueId, taskId: params.taskId, runId: busy.runId });
		}
		const removed = await this.deps.worktrees.remove(params.issueId, params.taskId);
		return { issueId: params.issueId, taskId: params.taskId, path: removed.path, branch: removed.branch, removed: true };
	}
}
