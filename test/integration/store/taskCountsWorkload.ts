// Random task writes for the task-count tests, through the real task repository (the paths the Host writes by).
import { acceptanceStates, reworkKinds, type Task, type TaskStatus } from '../../../src/core/model.js';
import { reworkRepository } from '../../../src/store/repositories/reworkRepository.js';
import { taskRepository } from '../../../src/store/repositories/taskRepository.js';
import type { Tx } from '../../../src/store/tx.js';
import { str } from '../../../src/store/repositories/rowValues.js';

export const countIssues = ['ia', 'ib', 'ic'];
const statuses: readonly TaskStatus[] = ['not_started', 'running', 'pending_acceptance', 'completed', 'failed', 'canceled'];

/** A deterministic generator in [0, 1), so a failing sequence can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
	let s = seed >>> 0;
	return () => { s = (Math.imul(s, 1664525) + 1013904223) >>> 0; return s / 2 ** 32; };
}

function pick<T>(rand: () => number, items: readonly T[]): T {
	return items[Math.floor(rand() * items.length)]!;
}

function ensureIssues(tx: Tx): void {
	for (const issueId of countIssues) {
		tx.run(`INSERT OR IGNORE INTO issues (issue_id, title, content, status, planning_source, created_at, updated_at) VALUES (?, 'Counts', '', 'open', 'manual', 1, 1)`, [issueId]);
	}
}

function newTask(issueId: string, taskId: string, status: TaskStatus, at: number): Task {
	return {
		issueId, taskId, title: `Task ${taskId}`, content: '', status, sortIndex: at, agentTargetId: 'sh', modelPlanId: '', model: '',
		permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [], parallelizable: true, autoAccept: false,
		acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: at, updatedAtUnixMs: at,
	};
}

/**
 * One random write: add a task, change a task's status, acceptance, latest Run and dependencies (sometimes with a new
 * attempt asked of it, pending or bound to a Run), supersede one (by a new task), or delete one.
 */
export function randomTaskWrite(tx: Tx, rand: () => number, freshId: string): void {
	ensureIssues(tx);
	const issueId = pick(rand, countIssues);
	const ids = tx.all('SELECT task_id FROM tasks WHERE issue_id = ? ORDER BY task_id', [issueId]).map((row) => str(row, 'task_id'));
	const at = Math.floor(rand() * 1e9) + 1;
	const action = ids.length === 0 ? 0 : Math.floor(rand() * 4);
	if (action === 0) {
		taskRepository.insert(tx, newTask(issueId, freshId, pick(rand, statuses), at));
		return;
	}
	const task = taskRepository.get(tx, issueId, pick(rand, ids))!;
	if (action === 1) {
		const dependencyTaskIds = rand() < 0.5 ? task.dependencyTaskIds : ids.filter((id) => id !== task.taskId && rand() < 0.2).slice(0, 3);
		const latestRunId = rand() < 0.3 ? `run-${freshId}` : task.latestRunId;
		taskRepository.update(tx, { ...task, status: pick(rand, statuses), acceptanceState: pick(rand, acceptanceStates), dependencyTaskIds, latestRunId, updatedAtUnixMs: at });
		if (rand() < 0.2) {
			reworkRepository.insert(tx, {
				reworkId: `rework-${freshId}`, issueId, taskId: task.taskId, kind: pick(rand, reworkKinds), attempt: 2, note: '', fromRunId: '',
				runId: rand() < 0.5 ? '' : `run-${freshId}`, requestedAtUnixMs: at, mergeInto: '', mergeCommit: '', mergeSources: [], priorAcceptedCommit: '', priorAcceptanceState: '',
			});
		}
	} else if (action === 2 && task.supersededAtUnixMs === 0) {
		taskRepository.insert(tx, newTask(issueId, freshId, 'not_started', at));
		taskRepository.update(tx, { ...task, supersededAtUnixMs: at, supersededByTaskId: freshId, updatedAtUnixMs: at });
	} else if (reworkRepository.countOfTask(tx, issueId, task.taskId) === 0) {
		taskRepository.delete(tx, issueId, task.taskId); // as the Host: only a task that never ran again is deleted
	}
}
