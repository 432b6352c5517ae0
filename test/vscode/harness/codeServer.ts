// One code-server process per run: 127.0.0.1 on a free port, no auth, isolated user-data and extensions dirs,
// all of its state (XDG_*, TMPDIR) inside the run folder.
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import type { HarnessManifest } from './manifest.js';
import { killProcessTree, killProcessTreeNow } from './processTree.js';
import { HarnessTimeoutError, pollFor, withTimeout } from './waitFor.js';

export interface CodeServerDirs {
	readonly runDir: string;
	readonly userDataDir: string;
	readonly extensionsDir: string;
	readonly configFile: string;
	readonly logFile: string;
}

export interface CodeServer {
	readonly url: string;
	readonly host: string;
	readonly pid: number;
	readonly logFile: string;
	stop(): Promise<void>;
	/** SIGKILL now, for process 'exit' handlers. */
	killNow(): void;
}

/** Variables that would make code-server or the extension host misbehave when inherited. */
const inheritedButHarmful = [/^VSCODE_/, /^CODE_SERVER_/, /^ELECTRON_/, /^NODE_OPTIONS$/, /^PASSWORD$/, /^HASHED_PASSWORD$/, /^GITHUB_TOKEN$/, /^TUTTI_IPC_HOOK$/];

export function codeServerDirs(runDir: string): CodeServerDirs {
	return {
		runDir,
		userDataDir: join(runDir, 'data'),
		extensionsDir: join(runDir, 'extensions'),
		configFile: join(runDir, 'code-server.yaml'),
		logFile: join(runDir, 'code-server.log'),
	};
}

/** The environment code-server (and so the extension host) runs with. */
export function codeServerEnv(runDir: string, extra: Readonly<Record<string, string>>): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [key, value] of Object.entries(process.env)) {
		if (value !== undefined && !inheritedButHarmful.some((pattern) => pattern.test(key))) {
			env[key] = value;
		}
	}
	for (const name of ['config', 'data', 'cache', 'state', 'tmp']) {
		mkdirSync(join(runDir, 'xdg', name), { recursive: true });
	}
	return {
		...env,
		XDG_CONFIG_HOME: join(runDir, 'xdg', 'config'),
		XDG_DATA_HOME: join(runDir, 'xdg', 'data'),
		XDG_CACHE_HOME: join(runDir, 'xdg', 'cache'),
		// Tutti's record of the stores this machine created or opened (src/host/knownStores.ts): one per VS Code run.
		XDG_STATE_HOME: join(runDir, 'xdg', 'state'),
		TMPDIR: join(runDir, 'xdg', 'tmp'),
		...extra,
	};
}

export function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = createServer();
		server.once('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			const port = typeof address === 'object' && address ? address.port : 0;
			server.close(() => (port ? resolve(port) : reject(new Error('no free port'))));
		});
	});
}

function tail(file: string, lines = 30): string {
	try {
		return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
	} catch {
		return '(no log)';
	}
}

function commonArgs(dirs: CodeServerDirs): string[] {
	return ['--config', dirs.configFile, '--user-data-dir', dirs.userDataDir, '--extensions-dir', dirs.extensionsDir];
}

function waitForExit(child: ChildProcess): Promise<number> {
	return new Promise((resolve) => child.once('exit', (code, sig) => resolve(code ?? (sig ? 128 : 1))));
}

/** `code-server --install-extension file.vsix` into the run's extensions dir (before the server starts). */
export async function installVsix(manifest: HarnessManifest, dirs: CodeServerDirs, env: Record<string, string>, vsixPath: string, timeoutMs: number): Promise<void> {
	writeFileSync(dirs.configFile, 'auth: none\ncert: false\n');
	const out = openSync(dirs.logFile, 'a');
	const child = spawn(manifest.node24, [manifest.codeServerEntry, ...commonArgs(dirs), '--install-extension', vsixPath], { env, stdio: ['ignore', out, out] });
	closeSync(out);
	try {
		const code = await withTimeout(`code-server --install-extension ${vsixPath}`, timeoutMs, waitForExit(child));
		if (code !== 0) {
			throw new Error(`code-server --install-extension ${vsixPath} exited with ${code}:\n${tail(dirs.logFile)}`);
		}
	} finally {
		if (child.pid !== undefined && child.exitCode === null) {
			await killProcessTree(child.pid);
		}
	}
}

async function startOnce(manifest: HarnessManifest, dirs: CodeServerDirs, env: Record<string, string>, workspacePath: string, timeoutMs: number): Promise<CodeServer> {
	const port = await freePort();
	const host = `127.0.0.1:${port}`;
	writeFileSync(dirs.configFile, `bind-addr: ${host}\nauth: none\ncert: false\n`);
	const out = openSync(dirs.logFile, 'a');
	const args = [
		manifest.codeServerEntry,
		...commonArgs(dirs),
		'--bind-addr', host,
		'--auth', 'none',
		'--disable-telemetry',
		'--disable-update-check',
		'--disable-workspace-trust',
		'--ignore-last-opened',
		// Without it the workbench ignores the `payload` query (extensionDevelopmentPath / extensionTestsPath).
		'--vscode-option', 'enable-smoke-test-driver',
		workspacePath,
	];
	const child = spawn(manifest.node24, args, { env, stdio: ['ignore', out, out] });
	closeSync(out);
	const pid = child.pid;
	if (pid === undefined) {
		throw new Error(`could not start code-server (${manifest.node24})`);
	}
	let exited: number | undefined;
	child.once('exit', (code) => (exited = code ?? 1));
	const url = `http://${host}`;
	const server: CodeServer = {
		url,
		host,
		pid,
		logFile: dirs.logFile,
		stop: () => killProcessTree(pid),
		killNow: () => killProcessTreeNow(pid),
	};
	try {
		await pollFor(`code-server to answer ${url}/healthz`, timeoutMs, async () => {
			if (exited !== undefined) {
				throw new CodeServerExitedError(exited, tail(dirs.logFile));
			}
			const response = await fetch(`${url}/healthz`);
			return response.ok ? true : undefined;
		});
	} catch (error) {
		await server.stop();
		if (error instanceof HarnessTimeoutError && exited !== undefined) {
			throw new CodeServerExitedError(exited, tail(dirs.logFile));
		}
		throw error instanceof HarnessTimeoutError ? new Error(`${error.message}\n${tail(dirs.logFile)}`) : error;
	}
	return server;
}

class CodeServerExitedError extends Error {
	constructor(readonly exitCode: number, readonly logTail: string) {
		super(`code-server exited with ${exitCode} before it answered:\n${logTail}`);
	}
}

/** Starts code-server; retries on a port taken between choosing it and binding it. */
export async function startCodeServer(manifest: HarnessManifest, dirs: CodeServerDirs, env: Record<string, string>, workspacePath: string, timeoutMs: number): Promise<CodeServer> {
	for (let attempt = 1; ; attempt++) {
		try {
			return await startOnce(manifest, dirs, env, workspacePath, timeoutMs);
		} catch (error) {
			if (attempt < 3 && error instanceof CodeServerExitedError && /EADDRINUSE/.test(error.logTail)) {
				continue;
			}
			throw error;
		}
	}
}
