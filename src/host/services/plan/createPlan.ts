// `plan issue create`: a managed issue, its execution (awaiting_schedule, revision 1) and the active
// initial_schedule checkpoint with its prepared main wake — one transaction, no Run (digest §1.5).
import { executionIdFor, initialCheckpointId } from '../../../core/ids.js';
import { rejection } from '../../../core/hints.js';
import type { Execution, Issue } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { appendCheckpoint, withWatchdogReset } from './checkpointSteps.js';
import type { PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

export async function createPlan(ctx: PlanContext, params: ParsedParams<'plan/create'>, caller: Caller): Promise<Result<'plan/create'>> {
	if (caller.kind !== 'session' || caller.role !== 'source') {
		const who = caller.kind === 'user' ? 'the developer credential' : `a ${caller.role} session`;
		throw rejection('wrong_source_session', `plan issue create must run from a source session (the caller is ${who}); that session becomes the issue's source.`);
	}
	const identity = requestIdentity('create', caller.sessionId, '', params.requestId, {
		title: params.title, content: params.content, autoAccept: params.autoAccept ?? null,
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<Result<'plan/create'>>(tx, identity);
		if (replay) { return replay; }
		const now = ctx.clock.now();
		const issue: Issue = {
			issueId: ctx.ids.next('issue'),
			title: params.title,
			content: params.content,
			status: 'open',
			planningSource: 'tutti',
			sourceSessionId: caller.sessionId,
			dispatchPaused: false,
			autoAcceptDefault: params.autoAccept ?? ctx.config.autoAcceptDefault,
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		};
		issueRepository.insert(tx, issue);
		const executionId = executionIdFor(issue.issueId);
		const fresh: Execution = withWatchdogReset({
			executionId,
			issueId: issue.issueId,
			sourceSessionId: caller.sessionId,
			status: 'awaiting_schedule',
			graphRevision: 1,
			activeCheckpointId: '',
			lastOrchestratorActivityAtUnixMs: now,
			watchdogDueAtUnixMs: 0,
			reviewMode: 'self',
			archiveReason: '',
			completedAtUnixMs: 0,
			archivedAtUnixMs: 0,
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		}, now);
		executionRepository.insert(tx, fresh);
		const { execution, checkpoint } = appendCheckpoint(tx, fresh, issue, {
			checkpointId: initialCheckpointId(executionId),
			kind: 'initial_schedule',
			subjectTaskId: '',
			subjectRunId: '',
			creationReason: 'materialized',
			requiresGoalReview: false,
		}, now);
		executionRepository.update(tx, execution);
		return recordResult(tx, identity, {
			issueId: issue.issueId,
			executionId,
			checkpointId: checkpoint.checkpointId,
			graphRevision: execution.graphRevision,
			sourceSessionId: caller.sessionId,
			replayed: false,
		}, execution.graphRevision, now);
	});
}
