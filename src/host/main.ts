// Entry of dist/host.js: `tutti host --workspace DIR` loads this bundle and calls runHostCommand; it also runs on
// its own (`node dist/host.js --workspace DIR`). Prints exactly one JSON line on stdout: the ready line, or the
// startup error. SIGTERM/SIGINT close the Host cleanly (exit 0). A saved change of `.tutti/config.json` is applied
// by restarting the Host in this process (configReload.ts).
import { type ReasonCode, ReasonedError } from '../core/errors.js';
import type { WireError } from '../protocol/controlPlane.js';
import { ConfigFollowingHost } from './configReload.js';

export interface HostCommandOptions {
	workspace: string;
	env: Readonly<Record<string, string | undefined>>;
	stdout: (text: string) => void;
	stderr: (text: string) => void;
}

/** Runs the Host until SIGTERM/SIGINT; resolves with the process exit code. */
export async function runHostCommand(options: HostCommandOptions): Promise<number> {
	// Signals are taken from the start: one during start-up stops the Host right after it is up.
	let stopRequested: number | undefined;
	let requestStop = (exitCode: number): void => { stopRequested ??= exitCode; };
	const onSignal = (): void => requestStop(0);
	const onUncaught = (error: unknown): void => {
		options.stderr(`tutti host: uncaught exception, shutting down: ${describe(error)}\n`);
		requestStop(1);
	};
	const onRejection = (reason: unknown): void => options.stderr(`tutti host: unhandled rejection (kept running): ${describe(reason)}\n`);
	process.on('SIGTERM', onSignal);
	process.on('SIGINT', onSignal);
	process.on('uncaughtException', onUncaught);
	process.on('unhandledRejection', onRejection);
	const detach = (): void => {
		process.off('SIGTERM', onSignal);
		process.off('SIGINT', onSignal);
		process.off('uncaughtException', onUncaught);
		process.off('unhandledRejection', onRejection);
	};
	const log = (line: string): void => options.stderr(`${line}\n`);
	let following: ConfigFollowingHost;
	try {
		following = await ConfigFollowingHost.start({
			start: { workspace: options.workspace, env: { ...options.env }, log },
			log,
			onLost: (error) => {
				options.stderr(`tutti host: no Host is running any more, shutting down: ${describe(error)}\n`);
				requestStop(1);
			},
		});
	} catch (error) {
		detach();
		const wire = startupError(error);
		options.stdout(`${JSON.stringify({ error: wire })}\n`);
		options.stderr(`error: ${wire.message}\nhint: ${wire.hint}\n`);
		return 1;
	}
	const host = following.current;
	const notice = host.startPause?.message;
	options.stdout(`${JSON.stringify({ ready: true, socket: host.socketPath, pid: host.pid, workspace: host.workspace, ...(notice !== undefined ? { notice } : {}) })}\n`);
	const code = await new Promise<number>((resolve) => {
		let stopping = false;
		requestStop = (exitCode: number): void => {
			if (stopping) {
				process.exit(1); // a second signal while closing: give up on a clean close
			}
			stopping = true;
			following.close().then(() => resolve(exitCode), (error: unknown) => {
				options.stderr(`tutti host: closing failed: ${describe(error)}\n`);
				resolve(1);
			});
		};
		if (stopRequested !== undefined) {
			requestStop(stopRequested);
		}
	});
	detach();
	// Everything is closed; do not let a stray timer keep a stopped Host alive.
	setTimeout(() => process.exit(code), 1000).unref();
	return code;
}

/** At start a store failure is about starting the Host, not about a request: these hints say how to start it. */
const startupHints: Partial<Record<ReasonCode, string>> = {
	store_locked: 'another Host already serves this workspace: use it (the CLI finds it), or stop that process first',
	store_corrupt: 'move the named file aside (or restore a backup), then run `tutti host --workspace DIR` again; never edit the store by hand',
	store_unavailable: 'report this exact error; then run `tutti host --workspace DIR` again',
};

/** The startup failure as a wire error: domain and store errors carry their reason; anything else is internal. */
function startupError(error: unknown): WireError {
	if (error instanceof ReasonedError) {
		return { reasonCode: error.reasonCode, message: error.message, hint: startupHints[error.reasonCode] ?? error.hint };
	}
	process.stderr.write(`tutti host: ${describe(error)}\n`);
	return { reasonCode: 'internal', message: error instanceof Error ? error.message : String(error), hint: 'report this exact error; then run `tutti host --workspace DIR` again' };
}

function describe(error: unknown): string {
	return error instanceof Error ? (error.stack ?? error.message) : String(error);
}

function parseArgs(argv: readonly string[]): string | null {
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i]!;
		if (arg === '--workspace' && argv[i + 1] !== undefined) {
			return argv[i + 1]!;
		}
		if (arg.startsWith('--workspace=')) {
			return arg.slice('--workspace='.length);
		}
	}
	return null;
}

if (require.main === module) {
	const workspace = parseArgs(process.argv.slice(2));
	if (workspace === null) {
		process.stdout.write(`${JSON.stringify({ error: { reasonCode: 'invalid_input', message: 'missing --workspace DIR', hint: 'run `node dist/host.js --workspace DIR`' } })}\n`);
		process.exitCode = 2;
	} else {
		void runHostCommand({
			workspace,
			env: process.env,
			stdout: (text) => { process.stdout.write(text); },
			stderr: (text) => { process.stderr.write(text); },
		}).then((code) => { process.exitCode = code; });
	}
}
