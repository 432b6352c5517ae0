// The owner window's client: the Host runs in this extension host, so a call is a direct handler call, with the
// same validation the socket server applies (params parsed by the method table, caller from the token).
import { methods, type Caller, type Method, type Params, type ParsedParams, type Result } from '../../protocol/controlPlane.js';
import type { HostApi } from '../../protocol/hostApi.js';
import { ReasonedError } from '../../core/errors.js';
import { type CallOptions, HostCallError, type HostClient, notAvailable } from './hostClient.js';

/** Domain and store errors (one base class) keep their reason; anything else is `internal`. */
function toCallError(error: unknown): HostCallError {
	if (error instanceof HostCallError) {
		return error;
	}
	if (error instanceof ReasonedError) {
		return new HostCallError(error.reasonCode, error.message, error.hint, error.retryable, error.details);
	}
	return new HostCallError('internal', error instanceof Error ? error.message : String(error));
}

type AnyHandler = (params: unknown, caller: Caller) => Promise<unknown>;

export class InProcessClient implements HostClient {
	readonly mode = 'owner' as const;

	constructor(private readonly api: HostApi) {}

	#caller(options: CallOptions | undefined): Caller {
		if (options?.sessionToken === undefined) {
			return { kind: 'user' };
		}
		const caller = this.api.authenticate(options.sessionToken);
		if (caller === null) {
			throw new HostCallError('unauthenticated', 'the session token is unknown to this Host', 'open a new agent terminal (Tutti: New Agent Terminal)');
		}
		return caller;
	}

	async call<M extends Method>(method: M, params: Params<M>, options?: CallOptions): Promise<Result<M>> {
		return (await this.callByName(method, params, options)) as Result<M>;
	}

	has(method: string): boolean {
		return Object.hasOwn(methods, method) && Object.hasOwn(this.api.handlers, method);
	}

	async callByName(method: string, params: unknown, options?: CallOptions): Promise<unknown> {
		if (!this.has(method)) {
			throw notAvailable(method);
		}
		const parsed = methods[method as Method].params.safeParse(params);
		if (!parsed.success) {
			throw new HostCallError('invalid_input', `invalid parameters for ${method}: ${parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}`);
		}
		const handler = this.api.handlers[method as Method] as unknown as AnyHandler;
		try {
			return await handler(parsed.data as ParsedParams<Method>, this.#caller(options));
		} catch (error) {
			throw toCallError(error);
		}
	}
}
