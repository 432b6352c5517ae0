// The exact `tutti …` command lines Tutti prints to agents (wake prompts, recovery hints, error hints).
// One place, so every text names the same flags in the same order and quotes values the same way.
import { checkpointRequestId } from '../ids.js';

/** POSIX shell quoting: plain when the value is made of safe characters only, else single-quoted. */
export function shellQuote(value: string): string {
	if (value !== '' && /^[A-Za-z0-9_@%+=:,./-]+$/.test(value)) { return value; }
	return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Where a fenced command is aimed: the issue, the active checkpoint (id + sequence) and its graph revision. */
export interface CommandFence {
	issueId: string;
	checkpointId: string;
	checkpointSequence: number;
	graphRevision: number;
}

function fenceFlags(f: CommandFence): string {
	return `--issue-id ${shellQuote(f.issueId)} --checkpoint-id ${shellQuote(f.checkpointId)} --expected-graph-revision ${f.graphRevision}`;
}

function requestFlag(f: CommandFence, command: string): string {
	return `--request-id ${shellQuote(checkpointRequestId(f.checkpointSequence, f.graphRevision, command))}`;
}

export function getCommand(issueId: string): string {
	return `tutti plan issue get --issue-id ${shellQuote(issueId)} --json`;
}

export function resumeCommand(issueId: string): string {
	return `tutti plan issue resume --issue-id ${shellQuote(issueId)} --json`;
}

/** The compatibility resume route for a source session whose command set predates `plan issue resume`. */
export function resumeCompatCommand(issueId: string): string {
	return `tutti issue update --issue-id ${shellQuote(issueId)} --dispatch-paused=false --json`;
}

export function scheduleCommand(f: CommandFence, taskIds: readonly string[]): string {
	return `tutti plan issue schedule ${fenceFlags(f)} --task-ids-json ${shellQuote(JSON.stringify(taskIds))} ${requestFlag(f, 'schedule')} --json`;
}

/** `operations` is serialized as given (key order preserved) so examples read naturally. */
export function mutateCommand(f: CommandFence, operations: readonly unknown[]): string {
	return `tutti plan issue mutate ${fenceFlags(f)} --operations-json ${shellQuote(JSON.stringify(operations))} ${requestFlag(f, 'mutate')} --json`;
}

export function acknowledgeCommand(f: CommandFence): string {
	return `tutti plan issue acknowledge ${fenceFlags(f)} ${requestFlag(f, 'acknowledge')} --json`;
}

export function completeCommand(f: CommandFence): string {
	return `tutti plan issue complete ${fenceFlags(f)} --decision goal_satisfied ${requestFlag(f, 'complete')} --json`;
}

export function stopCommand(f: CommandFence, reason: string): string {
	return `tutti plan issue stop ${fenceFlags(f)} --reason ${shellQuote(reason)} ${requestFlag(f, 'stop')} --json`;
}
