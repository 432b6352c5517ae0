// Run admission (digest §1.7 item 9): inside the caller's transaction, per task a Run (`running`), its worker
// session, a Turn bound to `issue-run:<runId>`, a `prepared` launch intent, and the task claimed. External launch
// happens only after commit, from the persisted intent.
import { createHash, randomBytes } from 'node:crypto';
import { rejection } from '../../core/hints.js';
import { launchIntentId, runSubmitId } from '../../core/ids.js';
import type { Issue, Run, Task } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { findAgentTarget } from '../services/agentTargets.js';
import type { AdmittedRun } from '../services/contracts.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import { launchModelOf, requireLaunchWithinBudget } from '../usage/issueSpend.js';

export interface AdmissionContext {
	clock: Clock;
	ids: IdSource;
	config: HostConfig;
	/** `.tutti/runs/<runId>` */
	runDir(runId: string): string;
}

/** A token hash no token produces until launch mints the real one (the session cannot authenticate before). */
function unusableTokenHash(): string {
	return createHash('sha256').update(randomBytes(32)).digest('hex');
}

export function admitRunsInTx(ctx: AdmissionContext, tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[] {
	const now = ctx.clock.now();
	const admitted: AdmittedRun[] = [];
	for (const task of tasks) {
		const current = taskRepository.get(tx, issue.issueId, task.taskId);
		const ctxIds = { issueId: issue.issueId, taskId: task.taskId };
		if (!current) { throw rejection('task_not_found', `Issue ${issue.issueId} has no task ${task.taskId}.`, ctxIds); }
		if (current.supersededAtUnixMs > 0) { throw rejection('task_superseded', `Task ${task.taskId} is superseded.`, ctxIds); }
		if (current.status !== 'not_started') {
			throw rejection('task_not_started', `Task ${task.taskId} is ${current.status}; only a not-started task can start a Run.`, ctxIds);
		}
		if (current.agentTargetId.trim() === '') {
			throw rejection('missing_agent_target', `Task ${task.taskId} has no agent target.`, ctxIds);
		}
		const target = findAgentTarget(ctx.config, current.agentTargetId, ctxIds);
		// The budget gate of every worker Run (manual dispatch and managed schedule alike): at or over the budget, or
		// a USD budget this Run's model cannot be counted against, nothing starts (the whole request is refused).
		requireLaunchWithinBudget(tx, issue.issueId, launchModelOf(target, current.model), ctx.config, `run start of task ${current.taskId}`, ctxIds);

		const runId = ctx.ids.next('run');
		const sessionId = ctx.ids.next('session');
		const submitId = runSubmitId(runId);
		sessionRepository.insert(tx, {
			sessionId,
			role: 'worker',
			issueId: issue.issueId,
			taskId: current.taskId,
			runId,
			agentTargetId: current.agentTargetId,
			providerSessionId: '',
			createdAtUnixMs: now,
		}, unusableTokenHash());
		const run: Run = {
			runId,
			issueId: issue.issueId,
			taskId: current.taskId,
			agentTargetId: current.agentTargetId,
			agentSessionId: sessionId,
			status: 'running',
			outcome: null,
			usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
			summary: '',
			errorMessage: '',
			exitCode: null,
			outputDir: ctx.runDir(runId),
			executionDirectory: current.executionDirectory,
			createdAtUnixMs: now,
			startedAtUnixMs: 0,
			completedAtUnixMs: 0,
			updatedAtUnixMs: now,
		};
		runRepository.insert(tx, run);
		turnRepository.insert(tx, {
			turnId: `turn:${runId}`,
			sessionId,
			clientSubmitId: submitId,
			state: 'prepared',
			outcome: null,
			createdAtUnixMs: now,
			settledAtUnixMs: 0,
		});
		launchIntentRepository.insert(tx, {
			launchIntentId: launchIntentId(runId),
			runId,
			clientSubmitId: submitId,
			status: 'prepared',
			leaseOwner: '',
			leaseExpiresAtUnixMs: 0,
			pid: null,
			lastError: '',
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		});
		taskRepository.update(tx, { ...current, status: 'running', latestRunId: runId, updatedAtUnixMs: now });
		admitted.push({ runId, taskId: current.taskId });
	}
	if (admitted.length > 0) {
		const fresh = issueRepository.get(tx, issue.issueId) ?? issue;
		const status = nextIssueStatus(fresh, issueRepository.counts(tx, issue.issueId), true);
		if (status !== fresh.status) { issueRepository.update(tx, { ...fresh, status, updatedAtUnixMs: now }); }
	}
	return admitted;
}
