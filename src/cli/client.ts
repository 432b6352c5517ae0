// One control-plane request over the Unix socket, and the retrying call the commands use: while the Host is
// briefly away (a window reload) connection failures are retried with backoff up to a deadline.
import { existsSync } from 'node:fs';
import { type UntrustedPathError, isUntrustedPathError } from '../ipc/ownPaths.js';
import { type HostReply, postToHost, requestWasSent } from '../ipc/postToHost.js';
import { type PeerError, fromUnknownReason, isWireReasonCode } from '../protocol/reasonCodes.js';
import { type CliError, cliError } from './cliError.js';
import { type ResolvedEndpoint, readUserToken } from './discovery.js';

/** Mirrors `maxBodyBytes` in src/protocol/controlPlane.ts (kept as a literal so the CLI never loads zod; tested). */
export const requestBodyCapBytes = 8_388_608;
/** The cap in words, for errors: the same sentence as the Host's. */
export const requestCapText = `the Host's request cap of ${requestBodyCapBytes} bytes (8 MiB, a plan of about 5,000 tasks)`;

export type CallOutcome =
	/** The result as JSON text (parse it only when needed: a 1,000-task snapshot is half a megabyte). */
	| { ok: true; resultJson: string }
	| { ok: false; error: CliError; status?: number };

/** Errors that mean "nothing was sent": safe to retry any command. */
const connectFailures = new Set(['ENOENT', 'ECONNREFUSED', 'EAGAIN', 'ENOTSOCK']);

/** What the server's JSON.stringify({ok:true,result}) always starts with. */
const successPrefix = '{"ok":true,"result":';

/**
 * A reply body → the outcome; anything that is not the protocol's envelope is an `internal` error, and an error whose
 * reason code is not in this version's closed list (a newer Host) is `version_mismatch` keeping the Host's words.
 */
export function interpretReply(reply: HostReply): CallOutcome {
	if (reply.status === 200 && reply.body.startsWith(successPrefix) && reply.body.endsWith('}')) {
		// The Host validated and serialised the result; pass its text through without a parse/stringify round.
		return { ok: true, resultJson: reply.body.slice(successPrefix.length, -1) };
	}
	let value: unknown;
	try {
		value = JSON.parse(reply.body);
	} catch {
		value = undefined;
	}
	const envelope = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
	if (envelope['ok'] === true && 'result' in envelope) {
		return { ok: true, resultJson: JSON.stringify(envelope['result']) };
	}
	const error = envelope['error'] as Record<string, unknown> | undefined;
	if (envelope['ok'] === false && typeof error === 'object' && error !== null
		&& typeof error['reasonCode'] === 'string' && typeof error['message'] === 'string' && typeof error['hint'] === 'string') {
		const peer: PeerError = { reasonCode: error['reasonCode'], message: error['message'], hint: error['hint'] };
		if (typeof error['retryable'] === 'boolean') {
			peer.retryable = error['retryable'];
		}
		if (typeof error['details'] === 'object' && error['details'] !== null && !Array.isArray(error['details'])) {
			peer.details = error['details'] as Record<string, unknown>;
		}
		const wire: CliError = isWireReasonCode(peer.reasonCode) ? { ...peer, reasonCode: peer.reasonCode } : fromUnknownReason(peer);
		return { ok: false, error: wire, status: reply.status };
	}
	return {
		ok: false, status: reply.status,
		error: cliError('internal', `the Host sent a reply that is not a Tutti envelope (HTTP ${reply.status})`,
			'make sure TUTTI_IPC_HOOK names a Tutti Host socket; if it does, report this exact error'),
	};
}

export interface CallOptions {
	/** Re-resolved before every attempt (a restarted Host may have written a new discovery file). */
	resolve: () => ResolvedEndpoint | null;
	method: string;
	/** The params, or a function of the milliseconds left before `deadlineMs` (evaluated for each attempt). */
	params: unknown;
	asUser: boolean;
	/**
	 * A read the developer may make without --as-user: with no session token, the user credential goes with it when it
	 * can be read; when it cannot, the request goes without one (the Host then says unauthenticated, as before).
	 */
	userIfReadable?: boolean;
	sessionToken: string | undefined;
	/** Total time to keep retrying connection failures. */
	connectTimeoutMs: number;
	/** The exact command line to repeat, for hints. */
	sameCommand: string;
	requestTimeoutMs?: number;
	/**
	 * Absolute time (in `now()` terms) by which the call gives up, whatever the Host does: connection retries stop and
	 * a request in flight is abandoned. With it, a missing endpoint is waited for like a Host that is away.
	 */
	deadlineMs?: number;
	sleep?: (ms: number) => Promise<void>;
	now?: () => number;
}

export const noHostHint = 'open the folder in VS Code with Tutti, or run `tutti host --workspace DIR`';

export async function callHost(options: CallOptions): Promise<CallOutcome> {
	try {
		return await callWithRetries(options);
	} catch (error) {
		if (isUntrustedPathError(error)) {
			return { ok: false, error: untrustedEndpoint(error, options.sameCommand) };
		}
		throw error;
	}
}

async function callWithRetries(options: CallOptions): Promise<CallOutcome> {
	const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
	const now = options.now ?? Date.now;
	const callDeadline = options.deadlineMs ?? Infinity;
	const connectDeadline = Math.min(now() + options.connectTimeoutMs, callDeadline);
	const bodyFor = (): string => JSON.stringify(typeof options.params === 'function'
		? (options.params as (remainingMs: number) => unknown)(callDeadline - now())
		: options.params);
	const firstBytes = Buffer.byteLength(bodyFor());
	if (firstBytes > requestBodyCapBytes) {
		return { ok: false, error: cliError('invalid_input', `the request is ${firstBytes} bytes, over ${requestCapText}`, 'send less: split large --operations-json or --content into several commands') };
	}
	let endpoint = options.resolve();
	if (endpoint === null && options.deadlineMs === undefined) {
		return { ok: false, error: noEndpoint() };
	}
	let delay = 100;
	for (;;) {
		let code = 'ENOENT';
		if (endpoint !== null) {
			let token = options.sessionToken;
			if (!options.asUser && options.userIfReadable === true && token === undefined) {
				token = readUserToken(endpoint.userTokenPath) ?? undefined;
			}
			if (options.asUser) {
				// Re-read every attempt: a restarted Host writes a new credential. Without a socket either, the
				// connect below fails with ENOENT and is retried like any other absence of the Host.
				token = readUserToken(endpoint.userTokenPath) ?? undefined;
				if (token === undefined && existsSync(endpoint.socketPath)) {
					return {
						ok: false, error: cliError('unauthenticated', `--as-user needs the user credential ${endpoint.userTokenPath}, which is missing or unreadable`,
							'run the command as the user who runs the Host (the credential is only readable by that user)'),
					};
				}
			}
			const timeoutMs = Math.max(1, Math.min(options.requestTimeoutMs ?? 120_000, callDeadline - now()));
			try {
				return interpretReply(await postToHost({ socketPath: endpoint.socketPath, method: options.method, body: bodyFor(), token, timeoutMs }));
			} catch (error) {
				if (isUntrustedPathError(error)) {
					throw error;
				}
				code = (error as NodeJS.ErrnoException).code ?? '';
				// A connection closed before the Host read the request is retried like a connect failure: the Host reads
				// a body whole before it acts, so nothing took effect. Anything else ends the call here.
				if (!connectFailures.has(code) && !(closedUnread.has(code) && !requestWasSent(error))) {
					return { ok: false, error: brokenExchange(error as NodeJS.ErrnoException, options.sameCommand) };
				}
			}
		}
		if (now() + delay > connectDeadline) {
			if (endpoint === null) {
				return { ok: false, error: noEndpoint() };
			}
			const waited = options.connectTimeoutMs >= 1000 ? `${Math.round(options.connectTimeoutMs / 1000)} s` : `${options.connectTimeoutMs} ms`;
			const unreachable = connectFailures.has(code);
			const failure = unreachable ? `cannot reach the Tutti Host at ${endpoint.socketPath} (${code}) after ${waited}`
				: `the Tutti Host at ${endpoint.socketPath} closed the connection before it read the request (${code}), on every attempt for ${waited}`;
			const next = unreachable ? `when the Host is back (${noHostHint}), run` : 'the Host may be busy with other connections; run';
			return {
				ok: false, error: cliError('host_unavailable', `${failure}; ${nothingSent}`,
					`${next} the same command again: \`${options.sameCommand}\``, true),
			};
		}
		await sleep(delay);
		delay = Math.min(delay * 2, 1000);
		endpoint = options.resolve() ?? endpoint;
	}
}

/** Codes of a connection the Host closed; unread (not requestWasSent) they mean it never read the request. */
const closedUnread = new Set(['EPIPE', 'ECONNRESET']);

/** A failure after connecting: whether it may have taken effect depends on whether the Host can have read it all. */
function brokenExchange(error: NodeJS.ErrnoException, sameCommand: string): CliError {
	const what = error.code || error.message;
	if (!requestWasSent(error)) {
		return cliError('host_unavailable', `the request did not reach the Host whole (${what}); ${nothingSent}`,
			`run the same command again: \`${sameCommand}\``, true);
	}
	return cliError('host_unavailable', `the connection to the Host broke before it answered (${what}); the command may or may not have taken effect`,
		`check the state (for example \`tutti plan issue get --issue-id ISSUE --json\`), then run the same command again if needed: \`${sameCommand}\``, true);
}

/** Said of every failure before the Host read the request. */
const nothingSent = 'nothing was sent; it did not take effect';

function untrustedEndpoint(error: UntrustedPathError, sameCommand: string): CliError {
	return cliError('host_unavailable', `${error.message}; ${nothingSent}`,
		'a Tutti Host keeps its discovery files, socket and credential private to its user, so this path is not one of your Hosts\'; '
		+ `do not use it: set XDG_RUNTIME_DIR to a directory only you can write (or remove the path if it is yours), then run the same command again: \`${sameCommand}\``);
}

function noEndpoint(): CliError {
	return cliError('host_unavailable', 'no Tutti Host is running for this folder (TUTTI_IPC_HOOK is not set and no discovery file matches)', noHostHint);
}
