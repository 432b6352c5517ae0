// The exact commands the lifecycle hands to agents (no placeholders: every value is filled in).

/** Quotes a value for a POSIX shell when it needs it. */
export function shellWord(value: string): string {
	return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

export function awaitReviewCommand(issueId: string, taskId?: string): string {
	const task = taskId !== undefined && taskId !== '' ? ` --task-id ${shellWord(taskId)}` : '';
	return `tutti await-review --issue-id ${shellWord(issueId)}${task}`;
}

/** The developer's command that raises an issue's USD budget (never one an agent is told to run). */
export function raiseBudgetCommand(issueId: string): string {
	return `tutti issue update --issue-id ${shellWord(issueId)} --budget-usd <usd> --as-user`;
}

export function planAwaitCommand(issueId: string): string {
	return `tutti plan issue await --issue-id ${shellWord(issueId)}`;
}

export function planGetCommand(issueId: string): string {
	return `tutti plan issue get --issue-id ${shellWord(issueId)} --json`;
}

export function nextActionCommand(issueId: string): string {
	return `tutti next-action --issue-id ${shellWord(issueId)}`;
}

export function agentResumeCommand(sessionId: string): string {
	return `tutti agent resume --session-id ${shellWord(sessionId)}`;
}

/** A new managed issue for a follow-up; `requestId` makes a repeated run of the same command a replay. */
export function planIssueCreateCommand(title: string, content: string, requestId: string): string {
	return `tutti plan issue create --title ${shellWord(title)} --content ${shellWord(content)} --request-id ${shellWord(requestId)} --json`;
}
