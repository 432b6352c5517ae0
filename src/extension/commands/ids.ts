// Every command id the extension contributes (package.json `contributes.commands` must list exactly these).
// The palette runs them without arguments (they ask); the board and the issue panel pass the arguments noted
// here, so every surface runs the same handler (src/extension/commands/registerCommands.ts):
//   issue commands:    (issueId) | ({ issueId }) | (board element)   stopIssue(issueId, { confirmed: true }) skips its dialog
//   stopRun, openRunOutput: (runId) | ({ runId })
//   acceptTask:        (issueId, taskId) | ({ issueId, taskId })
//   requestChanges:    (issueId, taskId, note?) on a task; (issueId, undefined, note) on the goal at Goal Review
//   confirmGoal:       (issueId)
//   integrateIssue:    (issueId)
//   openTaskTree:      (issueId, tree) — a terminal in a task's tree, a path relative to the workspace inside .tutti/worktrees/
//   openTaskChanges:   (issueId, taskId)
//   answerApproval:    (approvalId, 'allow' | 'allowForTask' | 'deny', message?) — the palette asks which and how
//   newIssue:          () opens the New Issue form; ({ mode: 'manual' | 'managed', title, content?, agentTargetId?: string | null, autoAccept? }) creates directly
//   addTask:           (issueId) opens the issue panel's task form; ({ issueId, title, content?, dependencyTaskIds?, agentTargetId? }) adds directly
//   editTask:          (issueId, taskId) opens the task form on that task; (issueId, taskId, { title?, content?, dependencyTaskIds?, agentTargetId? }) updates directly
//   deleteTask:        (issueId, taskId) asks to confirm; (issueId, taskId, { confirmed: true }) does not
//   retryTask:         (issueId, taskId) runs a failed or canceled task again; (issueId, taskId, fields) after editing it
//   updateTaskFromBase: (issueId, taskId) merges its base branch into an accepted task's tree in a new Run
//   nextTaskNeedingYou: () opens the next task (or issue) the Host says needs the developer, after the one shown
//   startIssue: (issueId)   stopSourceSession: (issueId) asks, (issueId, { confirmed: true }) does not   switchReviewToSelf: (issueId, reason?)
//   sendRunMessage:    (runId, text?)   resumeRunQueue: (runId)
//   addAgent:          () asks; ({ adapter, path, id?, model?, allowedTools? }) writes directly
//   newAgentTerminal:  ({ issueId?, agentTargetId? })
//   showAgentTerminal: (issueId)
//   exportIssue:       ({ issueId, format: 'json' | 'markdown', uri? })
//   addReviewComment:  (vscode.CommentReply), deleteReviewComment: (the comment): the diff's comment buttons
//   diffAcceptTask, diffRequestChanges*: () — the task of the active diff editor (its title bar's buttons)
//   openIssueChanges:  (issueId): the whole issue as one multi-file diff
// The parsing is in commandArgs.ts.
export const commandIds = {
	startInFolder: 'tutti.startInFolder',
	newIssue: 'tutti.newIssue',
	openIssue: 'tutti.openIssue',
	pauseIssue: 'tutti.pauseIssue',
	resumeIssue: 'tutti.resumeIssue',
	stopIssue: 'tutti.stopIssue',
	stopRun: 'tutti.stopRun',
	acceptTask: 'tutti.acceptTask',
	requestChanges: 'tutti.requestChanges',
	confirmGoal: 'tutti.confirmGoal',
	finishIssue: 'tutti.finishIssue',
	integrateIssue: 'tutti.integrateIssue',
	followUpIssue: 'tutti.followUpIssue',
	openTaskChanges: 'tutti.openTaskChanges',
	answerApproval: 'tutti.answerApproval',
	newAgentTerminal: 'tutti.newAgentTerminal',
	showAgentTerminal: 'tutti.showAgentTerminal',
	openRunOutput: 'tutti.openRunOutput',
	showStoreLocation: 'tutti.showStoreLocation',
	exportIssue: 'tutti.exportIssue',
	refreshBoard: 'tutti.refreshBoard',
	addReviewComment: 'tutti.review.addComment',
	deleteReviewComment: 'tutti.review.deleteComment',
	addAgent: 'tutti.addAgent',
	addTask: 'tutti.addTask',
	startIssue: 'tutti.startIssue',
	stopSourceSession: 'tutti.stopSourceSession',
	switchReviewToSelf: 'tutti.switchReviewToSelf',
	sendRunMessage: 'tutti.sendRunMessage',
	resumeRunQueue: 'tutti.resumeRunQueue',
	openIssueChanges: 'tutti.openIssueChanges',
	diffAcceptTask: 'tutti.diff.acceptTask',
	// One Request Changes per comment count, so the title bar's button says how many comments go with it
	// (src/extension/review/reviewDiffTabs.ts names them).
	diffRequestChanges: 'tutti.diff.requestChanges',
	diffRequestChanges1: 'tutti.diff.requestChanges1',
	diffRequestChanges2: 'tutti.diff.requestChanges2',
	diffRequestChanges3: 'tutti.diff.requestChanges3',
	diffRequestChanges4: 'tutti.diff.requestChanges4',
	diffRequestChanges5: 'tutti.diff.requestChanges5',
	diffRequestChanges6: 'tutti.diff.requestChanges6',
	diffRequestChanges7: 'tutti.diff.requestChanges7',
	diffRequestChanges8: 'tutti.diff.requestChanges8',
	diffRequestChanges9: 'tutti.diff.requestChanges9',
	diffRequestChangesMany: 'tutti.diff.requestChangesMany',
	editTask: 'tutti.editTask',
	deleteTask: 'tutti.deleteTask',
	nextTaskNeedingYou: 'tutti.nextTaskNeedingYou',
	retryTask: 'tutti.retryTask',
	updateTaskFromBase: 'tutti.updateTaskFromBase',
	openTaskTree: 'tutti.openTaskTree',
} as const;
export type CommandId = (typeof commandIds)[keyof typeof commandIds];
