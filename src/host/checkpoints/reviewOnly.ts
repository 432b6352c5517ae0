// Reads what src/core/execution/reviewOwed.ts decides from the store: the tasks in review when the developer's
// decision is the only step owed on an execution ([] when the source agent or a Run can still move).
import { reviewOnlyOwed } from '../../core/execution/reviewOwed.js';
import type { Execution } from '../../core/model.js';
import { checkpointRepository } from '../../store/repositories/checkpointRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader } from '../../store/tx.js';

export function reviewOnlyTaskIds(r: Reader, execution: Execution): string[] {
	const open = checkpointRepository.listOpen(r, execution.executionId);
	const active = open.find((c) => c.status === 'active');
	return reviewOnlyOwed({
		executionStatus: execution.status,
		activeCheckpoint: active ? { kind: active.kind, subjectTaskId: active.subjectTaskId } : null,
		hasPendingCheckpoint: open.some((c) => c.status === 'pending'),
		tasks: taskRepository.listByIssue(r, execution.issueId).map((t) => ({
			taskId: t.taskId, status: t.status, superseded: t.supersededAtUnixMs > 0, dependencyTaskIds: t.dependencyTaskIds,
		})),
	});
}
