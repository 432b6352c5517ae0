// `plan issue create`: a managed issue, its execution (awaiting_schedule, revision 1) and the active
// initial_schedule checkpoint with its prepared main wake — one transaction, no Run.
// With `sourceTargetId` (developer only) Tutti also creates the source session, bound to that agent target and the
// issue, in the same transaction; the wake loop then delivers the initial_schedule wake to it as its first Turn.
// With `reviewTargetId` the execution's review_mode is independent: an independent reviewer on that target gives
// an advisory verdict at Goal Review (reviews/independentReview.ts).
import { executionIdFor, initialCheckpointId } from '../../../core/ids.js';
import { rejection } from '../../../core/hints.js';
import type { Execution, Issue } from '../../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { reviewRepository } from '../../../store/repositories/reviewRepository.js';
import { reviewerReviewRepository } from '../../../store/repositories/reviewerReviewRepository.js';
import { sessionRepository } from '../../../store/repositories/sessionRepository.js';
import { usageRepository } from '../../../store/repositories/usageRepository.js';
import { findAgentTarget } from '../../agentTargetLookup.js';
import { requireAgentIssueControl } from '../launchGrants.js';
import { newIssueBudget } from '../../usage/issueSpend.js';
import { mintToken, tokenHash } from '../../turns/sessionTokens.js';
import { appendCheckpoint, withWatchdogReset } from '../../checkpoints/checkpointSteps.js';
import type { PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

export async function createPlan(ctx: PlanContext, params: ParsedParams<'plan/create'>, caller: Caller): Promise<Result<'plan/create'>> {
	const managedSource = params.sourceTargetId !== undefined && caller.kind === 'user';
	if (!managedSource && (caller.kind !== 'session' || caller.role !== 'source')) {
		const who = caller.kind === 'user' ? 'the developer credential' : `a ${caller.role} session`;
		throw rejection('wrong_source_session', `plan issue create must run from a source session (the caller is ${who}), and that session becomes the issue's source; or the developer runs it with --source-target <id> --as-user so Tutti starts the source session.`);
	}
	if (params.sourceTargetId !== undefined && caller.kind !== 'user') {
		throw rejection('forbidden', 'plan issue create --source-target is a developer action (--as-user): Tutti starts the source session itself.');
	}
	if (params.sourceTargetId !== undefined) { findAgentTarget(ctx.config, params.sourceTargetId); }
	if (params.reviewTargetId !== undefined) { findAgentTarget(ctx.config, params.reviewTargetId); }
	requireAgentIssueControl(caller, ctx.config, params, 'plan issue create');
	const budget = newIssueBudget(params, ctx.config.defaultBudgetUsd, caller, 'plan issue create');
	const callerSession = caller.kind === 'session' ? caller.sessionId : '';
	const identity = requestIdentity('create', callerSession, '', params.requestId, {
		title: params.title, content: params.content, autoAccept: params.autoAccept ?? null, sourceTargetId: params.sourceTargetId ?? null,
		developerConfirmation: params.developerConfirmation, // absent: dropped from the digest (older requests replay)
		reviewTargetId: params.reviewTargetId, // absent: dropped from the digest
		budgetUsd: params.budgetUsd, budgetTokens: params.budgetTokens, // absent: dropped from the digest
	});
	return ctx.store.transaction((tx) => {
		const replay = replayOf<Result<'plan/create'>>(tx, identity);
		if (replay) { return replay; }
		const now = ctx.clock.now();
		const sourceSessionId = params.sourceTargetId !== undefined ? ctx.ids.next('session') : callerSession;
		const issue: Issue = {
			issueId: ctx.ids.next('issue'),
			title: params.title,
			content: params.content,
			status: 'open',
			planningSource: 'tutti',
			sourceSessionId,
			dispatchPaused: false,
			autoAcceptDefault: params.autoAccept ?? ctx.config.autoAcceptDefault,
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		};
		issueRepository.insert(tx, issue);
		usageRepository.setBudget(tx, issue.issueId, budget, now);
		if (params.sourceTargetId !== undefined) {
			// A managed source session: Tutti starts its Turns (the wake loop); its token is minted per Turn.
			sessionRepository.insert(tx, {
				sessionId: sourceSessionId, role: 'source', issueId: issue.issueId, taskId: '', runId: '',
				agentTargetId: params.sourceTargetId, providerSessionId: '', createdAtUnixMs: now,
			}, tokenHash(mintToken()));
		}
		const executionId = executionIdFor(issue.issueId);
		const fresh: Execution = withWatchdogReset({
			executionId,
			issueId: issue.issueId,
			sourceSessionId,
			status: 'awaiting_schedule',
			graphRevision: 1,
			activeCheckpointId: '',
			lastOrchestratorActivityAtUnixMs: now,
			watchdogDueAtUnixMs: 0,
			reviewMode: params.reviewTargetId !== undefined ? 'independent' : 'self',
			archiveReason: '',
			completedAtUnixMs: 0,
			archivedAtUnixMs: 0,
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		}, now);
		executionRepository.insert(tx, fresh);
		if (params.developerConfirmation !== undefined) { reviewRepository.setDeveloperConfirmation(tx, executionId, params.developerConfirmation); }
		if (params.reviewTargetId !== undefined) { reviewerReviewRepository.setReviewTarget(tx, executionId, params.reviewTargetId); }
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
			sourceSessionId,
			replayed: false,
		}, execution.graphRevision, now);
	});
}
