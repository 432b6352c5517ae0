// A headless `tutti host` on a fresh workspace, plus a direct socket client for fast set-up (thousands of calls
// without a process each). Timed calls always go through the real CLI (dist/cli.js) as whole processes.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { userTokenPathForSocket } from '../../src/ipc/endpointPaths.js';

export const repoRoot = resolve(__dirname, '..', '..');
export const cliScript = join(repoRoot, 'dist', 'cli.js');

export interface BenchHost {
	readonly socket: string;
	readonly pid: number;
	readonly workspace: string;
	/** The user credential (what `--as-user` reads). */
	readonly userToken: string;
	/** Environment for CLI processes aimed at this Host (no NODE_EXTRA_CA_CERTS). */
	readonly env: NodeJS.ProcessEnv;
	/** POST /v1/<method> with a token; resolves the result or rejects with the wire error. */
	call<T>(method: string, params: unknown, token?: string): Promise<T>;
	stop(): Promise<void>;
}

export function postJson(socketPath: string, method: string, params: unknown, token: string): Promise<unknown> {
	const body = JSON.stringify(params);
	return new Promise((done, fail) => {
		const req = http.request({ socketPath, path: `/v1/${method}`, method: 'POST', headers: {
			'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${token}`,
		} }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { ok: boolean; result?: unknown; error?: unknown };
				if (reply.ok) { done(reply.result); } else { fail(new Error(`${method}: ${JSON.stringify(reply.error)}`)); }
			});
			res.on('error', fail);
		});
		req.on('error', fail);
		req.end(body);
	});
}

/**
 * `nodeArgs` go before the CLI script (for example a preload module for memory probes); `prepare` fills the
 * workspace before the Host starts (a git repository: the Host reads whether it is one when it starts).
 */
export async function startBenchHost(config: Record<string, unknown>, nodeArgs: readonly string[] = [], prepare?: (workspace: string) => void): Promise<BenchHost> {
	const base = mkdtempSync(join(tmpdir(), 'tutti-bench-host-'));
	const workspace = join(base, 'ws');
	mkdirSync(join(workspace, '.tutti'), { recursive: true });
	writeFileSync(join(workspace, '.tutti', 'config.json'), JSON.stringify(config));
	prepare?.(workspace);
	const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: join(base, 'run') };
	delete env['NODE_EXTRA_CA_CERTS'];
	delete env['NODE_OPTIONS'];
	const host = spawn(process.execPath, [...nodeArgs, cliScript, 'host', '--workspace', workspace], { env, stdio: ['ignore', 'pipe', 'inherit'] });
	const exited = new Promise<void>((r) => host.once('exit', () => r()));
	const stop = async (): Promise<void> => {
		if (host.exitCode === null && host.signalCode === null) {
			host.kill('SIGTERM');
		}
		await exited;
		rmSync(base, { recursive: true, force: true });
	};
	try {
		const socket = await new Promise<string>((ready, fail) => {
			let text = '';
			host.stdout.setEncoding('utf8').on('data', (chunk: string) => {
				text += chunk;
				const line = text.split('\n')[0];
				if (text.includes('\n') && line !== undefined) {
					const parsed = JSON.parse(line) as { ready?: boolean; socket?: string };
					if (parsed.ready && parsed.socket) { ready(parsed.socket); } else { fail(new Error(`the Host did not start: ${line}`)); }
				}
			});
			host.once('exit', (code) => fail(new Error(`the Host exited (${code})`)));
		});
		const userToken = readFileSync(userTokenPathForSocket(socket), 'utf8').trim();
		return {
			socket, pid: host.pid ?? 0, workspace, userToken,
			env: { ...env, TUTTI_IPC_HOOK: socket, PATH: `${join(repoRoot, 'node_modules', '.bin')}:${env['PATH'] ?? ''}` },
			call: <T>(method: string, params: unknown, token?: string): Promise<T> => postJson(socket, method, params, token ?? userToken) as Promise<T>,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

/** VmRSS and VmHWM (peak) of a process, in bytes (Linux /proc); undefined elsewhere. */
export function processMemory(pid: number): { rss: number; peak: number } | undefined {
	try {
		const status = readFileSync(`/proc/${pid}/status`, 'utf8');
		const kb = (key: string): number => Number(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 'NaN') * 1024;
		return { rss: kb('VmRSS'), peak: kb('VmHWM') };
	} catch {
		return undefined;
	}
}
