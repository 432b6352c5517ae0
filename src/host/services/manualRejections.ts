// Rejections of the generic (manual-issue) task writers. Core's hint table names `tutti plan issue …` commands for
// these reasons (they are managed-execution fences there); on a manual issue the next command is a generic one,
// so these hints name `tutti issue get` / `tutti issue task …` instead.
import { DomainError, type ReasonCode } from '../../core/errors.js';
import { shellQuote } from '../../core/execution/planCommands.js';

type ManualReason = Extract<ReasonCode, 'invalid_task_graph' | 'task_not_found' | 'duplicate_task' | 'task_not_started' | 'task_superseded'>;

function hint(reason: ManualReason, issueId: string): string {
	const get = `tutti issue get --issue-id ${shellQuote(issueId)} --json`;
	switch (reason) {
		case 'invalid_task_graph':
			return `Run \`${get}\` and depend only on existing task ids of this issue, without cycles; remove dependents before deleting a task.`;
		case 'task_not_found':
			return `Run \`${get}\` and use a taskId from its tasks.`;
		case 'duplicate_task':
			return `Pick a taskId that \`${get}\` does not list, or omit --task-id to get a generated one.`;
		case 'task_not_started':
			return `Only not-started tasks can change launch settings or dependencies, or be deleted: add a new task with \`tutti issue task add --issue-id ${shellQuote(issueId)} --title <title>\` instead.`;
		case 'task_superseded':
			return `Run \`${get}\` and use the replacement task named by supersededByTaskId.`;
	}
}

export function manualRejection(reason: ManualReason, message: string, issueId: string, details: Record<string, unknown> = {}): DomainError {
	return new DomainError(reason, message, hint(reason, issueId), { issueId, ...details });
}
