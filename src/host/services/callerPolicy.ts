// Who may do what. Developer actions need the user credential; an agent token never performs them.
import { rejection } from '../../core/hints.js';
import type { Caller, Method } from '../../protocol/controlPlane.js';

/** Throws `forbidden` unless the caller is the developer (user credential). */
export function requireUser(caller: Caller, action: string, ctx: { issueId?: string; runId?: string } = {}): void {
	if (caller.kind === 'user') { return; }
	throw rejection(
		'forbidden',
		`${action} is a developer action; an agent session (role ${caller.role}) cannot perform it.`,
		ctx,
		{ action, sessionId: caller.sessionId },
	);
}

/** A short description of the caller for `hello` and logs (never a token). */
export function callerLabel(caller: Caller): string {
	return caller.kind === 'user' ? 'user' : `${caller.role}:${caller.sessionId}`;
}

/**
 * The exact capability allowlist of an independent reviewer session: it reads, and it gives
 * its one verdict. Every other method is refused to a reviewer token, whatever its arguments.
 */
export const reviewerMethods: ReadonlySet<Method> = new Set<Method>([
	'hello', 'issue/get', 'issue/list', 'plan/get', 'plan/getCompact', 'plan/getTask', 'run/get', 'run/list', 'run/log', 'run/transcript', 'agent/resume', 'hook/stop', 'goalReview/verdict',
	'issue/changes',
]);

/** Throws `forbidden` when a reviewer session calls a method outside its allowlist. */
export function requireReviewerCapability(caller: Caller, method: Method): void {
	if (caller.kind !== 'session' || caller.role !== 'reviewer' || reviewerMethods.has(method)) { return; }
	throw rejection(
		'forbidden',
		`A reviewer session is read-only: it may read and give its one verdict (\`tutti goal-review verdict\`), not call ${method}.`,
		{},
		{ method, sessionId: caller.sessionId },
	);
}

/**
 * What a worker token may call on any issue (agents may read the whole board); every other method acts on the
 * worker's own issue only (requireOwnIssue).
 */
export const anyIssueReads: ReadonlySet<Method> = new Set<Method>([
	'hello', 'agent/list', 'issue/get', 'issue/list', 'plan/get', 'plan/getCompact', 'plan/getTask', 'run/get', 'run/list',
	'run/log', 'run/transcript', 'run/queue', 'approval/list', 'agent/resume', 'session/state', 'issue/changes', 'turn/list',
]);

/**
 * What a worker's token may still call once its Run has ended or was stopped: the calls of a Run's own end (the Stop
 * hook, the supervisor's exit report, a pending approval's last wait), none of which changes anything else.
 */
export const endOfRunMethods: ReadonlySet<Method> = new Set<Method>(['hook/stop', 'run/report', 'approval/wait']);

/** How the Run a worker token was issued for stands: live, settled, or stopped (a Stop was recorded against it). */
export type WorkerRunState = 'live' | 'settled' | 'stopped';

/** Throws `unauthenticated` when a worker's token is used after its Run ended (save the calls of the Run's own end). */
export function requireLiveRun(caller: Caller, method: Method, run: { runId: string; state: WorkerRunState }): void {
	if (caller.kind !== 'session' || run.state === 'live' || endOfRunMethods.has(method)) { return; }
	const how = run.state === 'stopped' ? 'was stopped' : 'has ended';
	throw rejection(
		'unauthenticated',
		`This worker token was issued for Run ${run.runId}, which ${how}: the token no longer acts (${method} was not performed).`,
		{ runId: run.runId },
		{ runId: run.runId, runState: run.state, sessionId: caller.sessionId },
	);
}

/** Throws `forbidden` when a worker of `ownIssueId` would act (beyond reading) on another issue. */
export function requireOwnIssue(caller: Caller, method: Method, ownIssueId: string, targetIssueId: string | undefined): void {
	if (caller.kind !== 'session' || anyIssueReads.has(method) || targetIssueId === undefined || targetIssueId === ownIssueId) { return; }
	throw rejection(
		'forbidden',
		`A worker acts on its own issue only: this token is a worker of issue ${ownIssueId}, and ${method} would change issue ${targetIssueId} (nothing was changed).`,
		{ issueId: targetIssueId },
		{ method, ownIssueId, issueId: targetIssueId, sessionId: caller.sessionId },
	);
}
