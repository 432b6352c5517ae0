// When a prepared worker Run may start its process (the launch is committed before its process starts, and a Stop during launch cancels the exact Turn), pure. The Host asks inside the
// transaction that leases the launch; everything that says no settles the Run canceled before any process exists.
import type { Issue, LaunchIntentStatus, RunStatus } from '../model.js';

export interface RunLaunchFacts {
	/** The Run's launch intent (undefined: none). */
	intentStatus: LaunchIntentStatus | undefined;
	/** undefined: the Run does not exist. */
	runStatus: RunStatus | undefined;
	issue: Pick<Issue, 'status' | 'dispatchPaused'> | undefined;
	taskExists: boolean;
	/** Stop events of the Run (any reason, answered or not). */
	stopEventCount: number;
}

export type RunLaunchDecision =
	/** Nothing to launch; `intentError`: cancel the still-prepared intent with this reason. */
	| { kind: 'skip'; intentError?: string }
	/** Settle the Run canceled with this reason (pending Stops took: they are why it never starts). */
	| { kind: 'cancel'; why: string }
	/** Lease the launch, rotate the session's token and start the process. */
	| { kind: 'lease' };

/** Why an issue's prepared launch must not start (null: it may). */
export function issueLaunchBlocker(issue: Pick<Issue, 'status' | 'dispatchPaused'>): string | null {
	if (issue.status === 'archived') { return 'the issue was archived before this run started'; }
	if (issue.dispatchPaused) { return 'the issue was paused before this run started'; }
	return null;
}

export function decideRunLaunch(f: RunLaunchFacts): RunLaunchDecision {
	if (f.intentStatus !== 'prepared') { return { kind: 'skip' }; }
	if (f.runStatus !== 'running') { return { kind: 'skip', intentError: 'the run ended before its launch' }; }
	if (!f.issue || !f.taskExists) { return { kind: 'cancel', why: 'its issue or task is missing' }; }
	if (f.stopEventCount > 0) { return { kind: 'cancel', why: 'stopped before its process started' }; }
	const blocker = issueLaunchBlocker(f.issue);
	return blocker === null ? { kind: 'lease' } : { kind: 'cancel', why: blocker };
}

/**
 * Host start: a launch left prepared by the previous Host is launched again, unless its issue is paused or archived
 * (or gone): then it settles canceled with this reason. Restart is never a resume.
 */
export function restartLaunchBlocker(issue: Pick<Issue, 'status' | 'dispatchPaused'> | undefined): string | null {
	return issue ? issueLaunchBlocker(issue) : 'the issue was paused before this run started';
}
