// Store rows for the await/hook tests: a managed issue with its execution (under the id the Host derives) and tasks,
// written directly.
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import { executionIdFor } from '../../../../src/core/ids.js';
import type { Execution, Task } from '../../../../src/core/model.js';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import type { ServiceHarness } from '../services/serviceHarness.js';

export interface Fixture {
	issueId: string;
	source: { caller: Caller; sessionId: string; token: string };
}

export async function managedFixture(h: ServiceHarness, issueId = 'iss-1'): Promise<Fixture> {
	await h.managedIssue(issueId, 'src');
	const now = h.clock.now();
	const execution: Execution = {
		executionId: executionIdFor(issueId), issueId, sourceSessionId: 'src', status: 'running', graphRevision: 1, activeCheckpointId: '',
		lastOrchestratorActivityAtUnixMs: now, watchdogDueAtUnixMs: 0, reviewMode: 'self', archiveReason: '',
		completedAtUnixMs: 0, archivedAtUnixMs: 0, createdAtUnixMs: now, updatedAtUnixMs: now,
	};
	await h.store.transaction((tx) => executionRepository.insert(tx, execution));
	const opened = await h.call('session/open', { role: 'source', issueId });
	const caller = h.services.api.authenticate(opened.token);
	if (caller === null) { throw new Error('no caller'); }
	return { issueId, source: { caller, sessionId: opened.sessionId, token: opened.token } };
}

export function taskRow(issueId: string, taskId: string, status: Task['status'], updatedAtUnixMs: number): Task {
	return {
		issueId, taskId, title: taskId, content: '', status, sortIndex: 0, dependencyTaskIds: [], parallelizable: true, autoAccept: false,
		acceptanceState: status === 'pending_acceptance' ? 'agent_claimed' : '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '',
		createdAtUnixMs: updatedAtUnixMs, updatedAtUnixMs, agentTargetId: 'ok', modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '',
	};
}

export async function putTask(h: ServiceHarness, task: Task): Promise<void> {
	await h.store.transaction((tx) => {
		if (taskRepository.get(tx, task.issueId, task.taskId)) { taskRepository.update(tx, task); } else { taskRepository.insert(tx, task); }
	});
}

export async function setExecution(h: ServiceHarness, issueId: string, change: Partial<Execution>): Promise<void> {
	await h.store.transaction((tx) => {
		const e = executionRepository.getByIssue(tx, issueId);
		if (!e) { throw new Error('no execution'); }
		executionRepository.update(tx, { ...e, ...change });
	});
}
