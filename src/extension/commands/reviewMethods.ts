// The developer-confirmation methods (accept / request changes on a task, confirm the goal or request changes at
// Goal Review) arrive with the developer-confirmation feature. Until the protocol has them, the commands say
// "not available in this version" instead of pretending. The first name the protocol knows is used.

export type ReviewAction = 'acceptTask' | 'requestTaskChanges' | 'confirmGoal' | 'requestGoalChanges';

export const reviewMethodCandidates: Readonly<Record<ReviewAction, readonly string[]>> = {
	acceptTask: ['review/accept', 'task/accept'],
	requestTaskChanges: ['review/requestChanges', 'review/request-changes', 'task/requestChanges'],
	confirmGoal: ['goal/confirm', 'review/confirmGoal', 'plan/confirmGoal'],
	requestGoalChanges: ['goal/requestChanges', 'goal/request-changes', 'review/requestGoalChanges'],
};

/** The method for an action in this protocol, or undefined when it has none of the candidates. */
export function reviewMethod(action: ReviewAction, has: (method: string) => boolean): string | undefined {
	return reviewMethodCandidates[action].find(has);
}
