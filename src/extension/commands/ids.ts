// Every command id the extension contributes (package.json `contributes.commands` must list exactly these).
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
	newAgentTerminal: 'tutti.newAgentTerminal',
	openRunOutput: 'tutti.openRunOutput',
	showStoreLocation: 'tutti.showStoreLocation',
	exportIssue: 'tutti.exportIssue',
	refreshBoard: 'tutti.refreshBoard',
} as const;
export type CommandId = (typeof commandIds)[keyof typeof commandIds];
