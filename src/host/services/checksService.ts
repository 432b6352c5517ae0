// `issue/setChecks` (developer): the checks of an issue or of one of its tasks. Checks are the developer's word on
// what verified means, so no agent session sets, changes, drops or skips them.
import { normalizeCheck } from '../../core/checks/checks.js';
import { rejection } from '../../core/hints.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { verificationRepository } from '../../store/repositories/verificationRepository.js';
import { requireUser } from './callerPolicy.js';
import { loadIssue } from './issueService.js';

export async function setChecks(deps: { store: Store; clock: { now(): number } }, params: ParsedParams<'issue/setChecks'>, caller: Caller): Promise<Result<'issue/setChecks'>> {
	requireUser(caller, 'issue checks', { issueId: params.issueId });
	const taskId = params.taskId ?? '';
	await deps.store.transaction((tx) => {
		loadIssue(tx, params.issueId);
		if (taskId !== '' && !taskRepository.get(tx, params.issueId, taskId)) {
			throw rejection('task_not_found', `issue checks: issue ${params.issueId} has no task ${taskId}.`, { issueId: params.issueId, taskId });
		}
		verificationRepository.setChecks(tx, params.issueId, taskId, params.checks, deps.clock.now());
	});
	return { issueId: params.issueId, taskId, checks: params.checks.map(normalizeCheck).map((c) => ({ ...c, argv: [...c.argv] })) };
}
