// The CLI's error contract: `{"error":{reasonCode,message,hint,retryable?}}` on stdout with --json, "error: …\nhint: …"
// on stderr without it; exit 2 for invalid input (or HTTP 400), 1 for everything else. Every reasonCode it prints is
// one of the closed list (src/protocol/reasonCodes.ts), whatever the Host sent.
import type { WireError } from '../protocol/controlPlane.js';
import type { WireReasonCode } from '../protocol/reasonCodes.js';

export type CliError = WireError;

/** Mirrors `invalidInputReasons` in src/core/errors.ts (the CLI may not import core; a unit test checks they agree). */
export const invalidInputReasonCodes: ReadonlySet<WireReasonCode> = new Set<WireReasonCode>(['invalid_input', 'invalid_mutation_operation']);

export type ExitCode = 0 | 1 | 2;

export function exitCodeFor(error: CliError, httpStatus?: number): ExitCode {
	return httpStatus === 400 || invalidInputReasonCodes.has(error.reasonCode) ? 2 : 1;
}

export function cliError(reasonCode: WireReasonCode, message: string, hint: string, retryable?: boolean): CliError {
	return retryable ? { reasonCode, message, hint, retryable } : { reasonCode, message, hint };
}

/** The one JSON line printed on stdout with --json. Only the contract's fields, in a stable order. */
export function errorEnvelope(error: CliError): string {
	const out: CliError = { reasonCode: error.reasonCode, message: error.message, hint: error.hint };
	if (error.retryable !== undefined) {
		out.retryable = error.retryable;
	}
	if (error.details !== undefined) {
		out.details = error.details;
	}
	return `${JSON.stringify({ error: out })}\n`;
}

/** What a person sees on stderr. */
export function humanError(error: CliError): string {
	const retry = error.retryable ? ' (retryable)' : '';
	return `error: ${error.message}${retry}\nhint: ${error.hint}\n`;
}
