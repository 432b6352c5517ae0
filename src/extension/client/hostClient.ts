// How the extension talks to the Host, whether it runs in this window (owner) or in another one (viewer):
// one typed call per control-plane method, as the developer unless a session token is given.
import { type ReasonCode, ReasonedError } from '../../core/errors.js';
import type { Method, Params, Result } from '../../protocol/controlPlane.js';

export type ClientMode = 'owner' | 'viewer';

export interface CallOptions {
	/** Call as this agent session (its bearer token) instead of as the developer. */
	readonly sessionToken?: string;
}

export interface HostClient {
	readonly mode: ClientMode;
	call<M extends Method>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>>;
	/** Whether this version's protocol has the method (later features are looked up by name). */
	has(method: string): boolean;
	/** A method looked up by name: rejects with `version_mismatch` when this version's protocol lacks it. */
	callByName(method: string, params: unknown, options?: CallOptions): Promise<unknown>;
}

/** A failed call: the Host's reason code, message and hint (the same words the CLI prints). */
export class HostCallError extends ReasonedError {
	constructor(
		readonly reasonCode: ReasonCode,
		message: string,
		readonly hint: string = '',
		readonly retryable = false,
		readonly details: Record<string, unknown> = {},
	) {
		super(message);
		this.name = 'HostCallError';
	}
}

/** The method is not in this version's protocol (an older owner window, or a newer caller). */
export function notAvailable(method: string): HostCallError {
	return new HostCallError('version_mismatch', `"${method}" is not available in this version of Tutti.`,
		'update the Tutti extension in every window, then reload them so they all run the same version');
}

/** What to show the developer for any error from a call. */
export function describeError(error: unknown): string {
	if (error instanceof HostCallError) {
		return error.hint ? `${error.message} (${error.hint})` : error.message;
	}
	return error instanceof Error ? error.message : String(error);
}
