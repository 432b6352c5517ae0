// Run admission: inside the caller's transaction, per task a Run (`running`), its worker
// session, a Turn bound to `issue-run:<runId>`, a `prepared` launch intent, the task claimed, and the task's pending
// rework (if any) bound to the Run. External launch happens only after commit, from the persisted intent.
import { createHash, randomBytes } from 'node:crypto';
import { rejection } from '../../core/hints.js';
import { launchIntentId, runSubmitId } from '../../core/ids.js';
import type { Issue, Run, Task } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { findAgentTarget } from '../agentTargetLookup.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import { launchModelOf, requireLaunchWithinBudget } from '../usage/issueSpend.js';

export interface AdmittedRun {
	runId: string;
	taskId: string;
}

/** Run admission and launch, shared by the manual dispatcher and managed `schedule` (implemented by the Run owner). */
export interface RunAdmission {
	/**
	 * Inside the caller's transaction: per task create a Run (`running`), its worker session, a `prepared` launch intent
	 * (`launch-intent:<runId>`, submit id `issue-run:<runId>`) and a Turn bound to that submit id; claim the task
	 * (`not_started → running`, latestRunId). Throws DomainError (e.g. agent_target_not_found / missing_agent_target).
	 */
	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[];
	/**
	 * Before admitting `taskIds` (never inside a transaction): each worktree parent of theirs whose branch moved after
	 * its acceptance goes back to pending_acceptance ("changed after acceptance"), so nothing starts from a stale
	 * acceptance. Returns the ids of the tasks reopened.
	 */
	reopenChangedParents(issueId: string, taskIds: readonly string[]): Promise<string[]>;
	/**
	 * Before admitting (never inside a transaction): what the Turns of running Runs that have ended (their exit record
	 * is on disk) used counts now — of one issue, or of every issue — so admission's budget check does not wait for
	 * the Host to notice those exits.
	 */
	countEndedTurns(issueId?: string): Promise<void>;
	/** After commit only (never inside a transaction): start the admitted Runs from their persisted launch intents. */
	launch(runIds: readonly string[]): Promise<void>;
	/** After commit only: stop every running Run of the issue, recording Stop events with this reason. */
	stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void>;
}

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
		// A new attempt the developer asked for (a rework, a retry, an update from base) is carried out by this Run.
		const rework = reworkRepository.pendingOfTask(tx, issue.issueId, current.taskId);
		if (rework) { reworkRepository.bindRun(tx, rework.reworkId, runId); }
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
