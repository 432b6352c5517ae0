// DomainError → the wire error and its HTTP status (400 invalid input, 401/403/404/409, 500 internal).
import { DomainError, type ReasonCode } from '../core/errors.js';
import type { WireError } from '../protocol/controlPlane.js';

export function statusForReason(reasonCode: string): number {
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
			return reasonCode.endsWith('_not_found') ? 404 : 409;
	}
}

export function toWireError(error: DomainError): WireError {
	const wire: WireError = { reasonCode: error.reasonCode, message: error.message, hint: error.hint };
	if (error.retryable) {
		wire.retryable = true;
	}
	if (Object.keys(error.details).length > 0) {
		wire.details = error.details;
	}
	return wire;
}

export function wireError(reasonCode: ReasonCode, message: string, hint: string): WireError {
	return { reasonCode, message, hint };
}

export const internalHint = 'report this exact error; do not inspect or edit the Tutti store';
