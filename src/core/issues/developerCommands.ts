// The developer's own `tutti … --as-user` command lines that Tutti prints in its answers and refusals to the developer
// (never as an agent's step): one place, so every text names the same flags in the same order.
import { shellWord } from '../next/commands.js';

/** How the developer asked to integrate: printed again as it was, so running the printed command repeats the same choice. */
export interface IntegrateOptions {
	acceptedOnly?: boolean;
	into?: string;
	squash?: 'task' | 'issue';
	/** true: to the branch's upstream; a name: to that remote. */
	push?: true | string;
}

export function integrateCommand(issueId: string, options: IntegrateOptions = {}): string {
	const into = options.into !== undefined ? ` --into ${shellWord(options.into)}` : '';
	const squash = options.squash !== undefined ? ` --squash ${options.squash}` : '';
	const push = options.push === true ? ' --push' : options.push !== undefined ? ` --push ${shellWord(options.push)}` : '';
	return `tutti issue integrate --issue-id ${shellWord(issueId)}${into}${options.acceptedOnly === true ? ' --accepted-only' : ''}${squash}${push} --as-user`;
}

export function reviewAcceptCommand(issueId: string, taskId: string): string {
	return `tutti review accept --issue-id ${shellWord(issueId)} --task-id ${shellWord(taskId)} --as-user`;
}

export function retryCommand(issueId: string, taskId: string): string {
	return `tutti task retry --issue-id ${shellWord(issueId)} --task-id ${shellWord(taskId)} --as-user`;
}

export function updateFromBaseCommand(issueId: string, taskId: string, into?: string): string {
	const branch = into !== undefined ? ` --into ${shellWord(into)}` : '';
	return `tutti task update-from-base --issue-id ${shellWord(issueId)} --task-id ${shellWord(taskId)}${branch} --as-user`;
}

/** A read anyone may run: the issue with its tasks and what each needs. */
export function issueGetCommand(issueId: string): string {
	return `tutti issue get --issue-id ${shellWord(issueId)} --json`;
}
