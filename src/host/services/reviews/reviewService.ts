// Developer confirmation: the developer's decisions on task results and at Goal Review, as control-plane
// handlers. Every decision is one store transaction; agents are refused (`forbidden`).
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { confirmGoal, requestGoalChanges } from './goalDecisions.js';
import type { ReviewContext } from './reviewContext.js';
import { acceptTask, requestTaskChanges } from './taskDecisions.js';

export interface ReviewService {
	accept(params: ParsedParams<'review/accept'>, caller: Caller): Promise<Result<'review/accept'>>;
	requestChanges(params: ParsedParams<'review/requestChanges'>, caller: Caller): Promise<Result<'review/requestChanges'>>;
	confirmGoal(params: ParsedParams<'goal/confirm'>, caller: Caller): Promise<Result<'goal/confirm'>>;
	requestGoalChanges(params: ParsedParams<'goal/requestChanges'>, caller: Caller): Promise<Result<'goal/requestChanges'>>;
}

export function createReviewService(ctx: ReviewContext): ReviewService {
	return {
		accept: (params, caller) => acceptTask(ctx, params, caller),
		requestChanges: (params, caller) => requestTaskChanges(ctx, params, caller),
		confirmGoal: (params, caller) => confirmGoal(ctx, params, caller),
		requestGoalChanges: (params, caller) => requestGoalChanges(ctx, params, caller),
	};
}
