// The one fence of a worker token (SECURITY.md, the authority table), applied before every method: the token acts only
// while the Run it was issued for is live (a Stop or the Run's settlement revokes it; a restart does not), and only
// on its own issue (reads of others stay open). The store facts are read here; the rules are callerPolicy.ts's.
import type { Caller, Method } from '../../protocol/controlPlane.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import type { Reader } from '../../store/tx.js';
import { requireLiveRun, requireOwnIssue, type WorkerRunState } from './callerPolicy.js';

function stringField(params: unknown, name: string): string | undefined {
	if (typeof params !== 'object' || params === null) { return undefined; }
	const value = (params as Record<string, unknown>)[name];
	return typeof value === 'string' ? value : undefined;
}

/** The issue a call acts on, from its parameters (an issue, a Run, an approval or a session it names); undefined: none. */
export function targetIssueOf(r: Reader, params: unknown): string | undefined {
	const issueId = stringField(params, 'issueId');
	if (issueId !== undefined) { return issueId; }
	const runId = stringField(params, 'runId');
	if (runId !== undefined) { return runRepository.get(r, runId)?.issueId; }
	const approvalId = stringField(params, 'approvalId');
	if (approvalId !== undefined) { return approvalRepository.get(r, approvalId)?.issueId; }
	const sessionId = stringField(params, 'sessionId');
	const issueOfSession = sessionId === undefined ? '' : (sessionRepository.get(r, sessionId)?.issueId ?? '');
	return issueOfSession === '' ? undefined : issueOfSession;
}

/** Throws when a worker's token may not make this call (its Run ended, or the call acts on another issue). */
export function requireWorkerScope(r: Reader, caller: Caller, method: Method, params: unknown): void {
	if (caller.kind !== 'session' || caller.role !== 'worker') { return; }
	const session = sessionRepository.get(r, caller.sessionId);
	if (!session) { return; }
	if (session.runId !== '') {
		const run = runRepository.get(r, session.runId);
		const state: WorkerRunState = !run || run.status !== 'running' ? 'settled' : session.tokenRevoked === 'stopped' ? 'stopped' : 'live';
		requireLiveRun(caller, method, { runId: session.runId, state });
	}
	// A worker session the developer opened without an issue (`session open --role worker`) has no issue to keep to.
	if (session.issueId === '') { return; }
	requireOwnIssue(caller, method, session.issueId, targetIssueOf(r, params));
}
