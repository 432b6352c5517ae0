// `tutti goal-review switch-to-self`: only an explicit, audited developer action turns an
// independent execution back to self review. It cancels the open reviewer review (its reviewer wake with it, so the
// held main wake is delivered) and records who switched, when and why.
import { rejection } from '../../../core/hints.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { reviewModeSwitchRepository } from '../../../store/repositories/reviewModeSwitchRepository.js';
import { requireUser } from '../callerPolicy.js';
import { findManaged } from '../plan/planContext.js';
import { cancelActiveReviews } from '../../checkpoints/independentReview.js';
import type { ReviewContext } from './reviewContext.js';

export async function switchToSelfReview(ctx: Pick<ReviewContext, 'store' | 'clock'>, params: ParsedParams<'goalReview/switchToSelf'>, caller: Caller): Promise<Result<'goalReview/switchToSelf'>> {
	requireUser(caller, 'goal-review switch-to-self', { issueId: params.issueId });
	const reason = params.reason.trim();
	if (reason === '') { throw rejection('invalid_input', 'goal-review switch-to-self: --reason must not be empty (it is recorded for audit).', { issueId: params.issueId }); }
	const now = ctx.clock.now();
	return ctx.store.transaction((tx) => {
		const managed = findManaged(tx, params.issueId);
		if (!managed) { throw rejection('execution_not_found', `Issue ${params.issueId} is not a managed issue.`, { issueId: params.issueId }); }
		const { execution } = managed;
		const switchId = `${execution.executionId}:review-mode:${now}`;
		if (execution.reviewMode === 'self') {
			return { issueId: params.issueId, executionId: execution.executionId, reviewMode: 'self', switchId: '', changed: false };
		}
		if (execution.activeCheckpointId !== '') {
			cancelActiveReviews(tx, execution.activeCheckpointId, now, `switched_to_self: ${reason}`);
		}
		executionRepository.update(tx, { ...execution, reviewMode: 'self', updatedAtUnixMs: now });
		reviewModeSwitchRepository.insert(tx, {
			switchId, executionId: execution.executionId, fromMode: 'independent', toMode: 'self', reason, requestedBy: 'user', createdAtUnixMs: now,
		});
		return { issueId: params.issueId, executionId: execution.executionId, reviewMode: 'self', switchId, changed: true };
	});
}
