// Context keys from the store's state, for the commands' `when` clauses: a command shows in the palette only when
// some issue offers it (each key aggregates the Host's own per-issue controls; nothing is re-derived). vscode-free.
import type { WorkspaceState } from './changes/workspaceState.js';

export const workspaceContextKeys = {
	hasIssues: 'tutti:hasIssues',
	hasRunningRuns: 'tutti:hasRunningRuns',
	canPause: 'tutti:canPause',
	canResume: 'tutti:canResume',
	canStop: 'tutti:canStop',
	canStart: 'tutti:canStart',
	canAddTask: 'tutti:canAddTask',
	hasPendingAcceptance: 'tutti:hasPendingAcceptance',
	hasGoalReview: 'tutti:hasGoalReview',
	canFinish: 'tutti:canFinish',
	canFollowUp: 'tutti:canFollowUp',
	canStopSource: 'tutti:canStopSource',
	canSwitchReviewToSelf: 'tutti:canSwitchReviewToSelf',
	canIntegrate: 'tutti:canIntegrate',
	canOpenCombinedChanges: 'tutti:canOpenCombinedChanges',
	hasRunOutput: 'tutti:hasRunOutput',
	/** Some issue needs the developer (the Host's attention state): Next Task Needing You has somewhere to go. */
	needsYou: 'tutti:needsYou',
} as const;

export type WorkspaceContext = Record<(typeof workspaceContextKeys)[keyof typeof workspaceContextKeys], boolean>;

/** Every key's value for this state (all false before the first read). */
export function workspaceContext(state: WorkspaceState | undefined): WorkspaceContext {
	const issues = state?.issues ?? [];
	const some = (f: (c: WorkspaceState['issues'][number]) => boolean): boolean => issues.some(f);
	return {
		[workspaceContextKeys.hasIssues]: issues.length > 0,
		[workspaceContextKeys.hasRunningRuns]: (state?.runningRuns.length ?? 0) > 0,
		[workspaceContextKeys.canPause]: some((i) => i.controls.pause),
		[workspaceContextKeys.canResume]: some((i) => i.controls.resume),
		[workspaceContextKeys.canStop]: some((i) => i.controls.stop),
		[workspaceContextKeys.canStart]: some((i) => i.controls.start),
		[workspaceContextKeys.canAddTask]: some((i) => i.controls.addTask),
		[workspaceContextKeys.hasPendingAcceptance]: some((i) => i.controls.reviewTask),
		[workspaceContextKeys.hasGoalReview]: some((i) => i.controls.confirmGoal),
		[workspaceContextKeys.canFinish]: some((i) => i.controls.finish),
		[workspaceContextKeys.canFollowUp]: some((i) => i.controls.followUp),
		[workspaceContextKeys.canStopSource]: some((i) => i.controls.stopSource),
		[workspaceContextKeys.canSwitchReviewToSelf]: some((i) => i.controls.switchReviewToSelf),
		[workspaceContextKeys.canIntegrate]: some((i) => i.controls.integrate),
		[workspaceContextKeys.canOpenCombinedChanges]: some((i) => i.controls.combinedChanges),
		[workspaceContextKeys.hasRunOutput]: some((i) => i.controls.runOutput),
		[workspaceContextKeys.needsYou]: some((i) => i.attention.state === 'needs_you'),
	};
}
