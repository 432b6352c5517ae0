// Who may do what. Developer actions need the user credential; an agent token never performs them.
import { rejection } from '../../core/hints.js';
import type { Caller } from '../../protocol/controlPlane.js';

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
