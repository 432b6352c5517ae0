// What the control-plane server needs from the Host: authentication and one handler per method (types only:
// the server depends on this contract, the Host implements it).
import type { Caller, Method, ParsedParams, Result } from './controlPlane.js';

export type MethodHandlers = {
	[M in Method]: (params: ParsedParams<M>, caller: Caller) => Promise<Result<M>>;
};

export interface HostApi {
	readonly workspace: string;
	/** The caller for a bearer token, or null when the token is unknown (never guesses). */
	authenticate(token: string | undefined): Caller | null;
	readonly handlers: MethodHandlers;
}
