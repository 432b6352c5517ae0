// Errors → the wire: every error with a reason code (core's ReasonedError: domain and store errors alike) and every
// params refusal of the method table becomes one wire error with its HTTP status (400 invalid input, 401/403/404/
// 409, 500 internal, 503 the store refused).
import { z } from 'zod';
import { DomainError, type ReasonCode, ReasonedError } from '../core/errors.js';
import { rejection } from '../core/hints.js';
import { type Method, type WireError, paramReasons } from '../protocol/controlPlane.js';
import { methodCommands } from './methodCommands.js';

/** Reasons that say the store refused (full disk, damaged, taken by another Host): the request was not handled. */
const storeReasons: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['store_unavailable', 'store_corrupt', 'store_locked']);

export function statusForReason(reasonCode: ReasonCode): number {
	switch (reasonCode) {
		case 'invalid_input':
		case 'invalid_mutation_operation':
			return 400;
		case 'unauthenticated':
			return 401;
		case 'forbidden':
			return 403;
		case 'internal':
			return 500;
		default:
			return storeReasons.has(reasonCode) ? 503 : reasonCode.endsWith('_not_found') ? 404 : 409;
	}
}

export function toWireError(error: ReasonedError): WireError {
	const wire: WireError = { reasonCode: error.reasonCode, message: error.message, hint: error.hint };
	if (error.retryable) {
		wire.retryable = true;
	}
	if (Object.keys(error.details).length > 0) {
		wire.details = error.details;
	}
	return wire;
}

/** What a handler threw, as the reply's status and error; null for an error without a reason code (a bug: internal). */
export function wireReplyFor(method: Method, error: unknown): { status: number; error: WireError } | null {
	if (!(error instanceof ReasonedError)) {
		return null;
	}
	const status = statusForReason(error.reasonCode);
	const wire = toWireError(error);
	if (storeReasons.has(error.reasonCode)) {
		// The store's own words name a file and a cause; the caller also needs to know its request was not handled.
		wire.message = `the Host could not save ${method}: ${firstLine(error.message)}`;
	}
	return { status, error: wire };
}

/**
 * Params the method table refused: `invalid_input` naming the flags, or the param's own reason and message
 * (`paramReasons`: a malformed plan operation is told the operation's shape).
 */
export function paramsRejection(method: Method, error: z.ZodError): DomainError {
	const own = paramReasons[method];
	const issues = error.issues;
	if (own !== undefined && issues.some((issue) => issue.path[0] === own.param)) {
		return rejection(own.reasonCode, `${own.message}\n${z.prettifyError(error)}`, {},
			{ issues: issues.map((issue) => ({ path: issue.path.map(String).join('.'), message: issue.message })) });
	}
	return new DomainError('invalid_input', `invalid parameters for ${method}:\n${z.prettifyError(error)}`, `run \`${methodCommands[method]} --help\` and fix the flags it names`);
}

export function wireError(reasonCode: ReasonCode, message: string, hint: string): WireError {
	return { reasonCode, message, hint };
}

export const internalHint = 'report this exact error; do not inspect or edit the Tutti store';

function firstLine(text: string): string {
	return text.split('\n')[0] ?? '';
}
