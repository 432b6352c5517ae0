// Shared helpers of the security tier: file modes, raw socket requests and a "recorder" agent target that writes
// down exactly what it was started with (argv, stdin, environment as the kernel sees it), so tests can check what
// reached an agent process.
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import { dirname, join } from 'node:path';
import { type AgentTarget, type HostHandle, expectOk, runGet, waitFor } from '../integration/harness.js';
import type { RunDto } from '../../src/protocol/dto.js';

/** The permission bits of a path (lstat: a symlink is never followed). */
export function modeOf(path: string): number {
	return lstatSync(path).mode & 0o777;
}

export function octal(mode: number): string {
	return `0${mode.toString(8)}`;
}

/**
 * A `command` target that records its start: `<dir>/<TUTTI_TASK_ID>.json` with argv, stdin, cwd and the
 * environment read from /proc/self/environ (what the kernel gave the process, not what Node thinks).
 */
export function recorderTarget(id: string, dir: string): AgentTarget {
	const script = [
		"const fs = require('node:fs');",
		"const path = require('node:path');",
		"let environ = '';",
		"try { environ = fs.readFileSync('/proc/self/environ', 'latin1'); } catch { environ = Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\0'); }",
		"const stdin = fs.readFileSync(0, 'utf8');",
		'const record = { argv: process.argv.slice(1), execArgv: process.execArgv, stdin, cwd: process.cwd(), environ: environ.split(\'\\0\').filter(Boolean), pid: process.pid };',
		"fs.writeFileSync(path.join(process.env.RECORD_DIR, process.env.TUTTI_TASK_ID + '.json'), JSON.stringify(record));",
	].join('\n');
	return { id, adapter: 'command', argv: [process.execPath, '-e', script, 'fixed-arg'], env: { RECORD_DIR: dir } };
}

export interface StartRecord {
	argv: string[];
	execArgv: string[];
	stdin: string;
	cwd: string;
	/** `NAME=value` entries. */
	environ: string[];
	pid: number;
}

export function recordOf(dir: string, taskId: string): StartRecord | undefined {
	const file = join(dir, `${taskId}.json`);
	return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as StartRecord : undefined;
}

export function envOf(record: StartRecord): Map<string, string> {
	const env = new Map<string, string>();
	for (const entry of record.environ) {
		const at = entry.indexOf('=');
		env.set(entry.slice(0, at), entry.slice(at + 1));
	}
	return env;
}

/** The developer's credential of a Host (the 0600 file next to its socket). */
export function userCredentialOf(host: HostHandle): string {
	return readFileSync(join(dirname(host.socket), 'user.token'), 'utf8').trim();
}

/** Adds a task to a manual issue as the developer and returns its id. */
export async function addManualTask(host: HostHandle, issueId: string, taskId: string, extra: string[] = []): Promise<string> {
	expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', taskId, '--title', `Task ${taskId}`, ...extra, '--json'], { asUser: true }));
	return taskId;
}

/** Waits until the task's latest Run has settled and returns it. */
export async function settledRunOf(host: HostHandle, issueId: string, taskId: string): Promise<RunDto> {
	return waitFor(async () => {
		const list = expectOk<{ runs: RunDto[] }>(await host.cli(['run', 'list', '--issue-id', issueId, '--json'], { asUser: true }));
		const run = list.runs.filter((r) => r.taskId === taskId).at(-1);
		if (!run) { return undefined; }
		const full = await runGet(host, run.runId);
		return ['completed', 'failed', 'canceled'].includes(full.status) ? full : undefined;
	}, { what: `a settled Run of ${taskId}`, timeoutMs: 20_000, intervalMs: 50 });
}

export interface RawReply {
	status: number;
	body: string;
}

/** One POST to a Host's socket with an explicit bearer token (what a client of another workspace could send). */
export function rawPost(socketPath: string, method: string, token: string | undefined, params: unknown): Promise<RawReply> {
	const body = JSON.stringify(params);
	return new Promise((resolve, reject) => {
		const req = http.request({
			socketPath, path: `/v1/${method}`, method: 'POST',
			headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...(token !== undefined ? { authorization: `Bearer ${token}` } : {}) },
		}, (res) => {
			let text = '';
			res.setEncoding('utf8').on('data', (c: string) => { text += c; }).on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
		});
		req.on('error', reject);
		req.end(body);
	});
}

/**
 * A `command` target that records its start like recorderTarget, then stays running until the test writes
 * `<dir>/<TUTTI_TASK_ID>.release` (so its Run is live, with a live worker token, for as long as a test needs).
 */
export function holderTarget(id: string, dir: string): AgentTarget {
	const script = [
		"const fs = require('node:fs');",
		"const path = require('node:path');",
		"const own = (ext) => path.join(process.env.RECORD_DIR, process.env.TUTTI_TASK_ID + ext);",
		"let environ = '';",
		"try { environ = fs.readFileSync('/proc/self/environ', 'latin1'); } catch { environ = Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\0'); }",
		"const record = { argv: process.argv.slice(1), execArgv: process.execArgv, stdin: '', cwd: process.cwd(), environ: environ.split('\\0').filter(Boolean), pid: process.pid };",
		"fs.writeFileSync(own('.json.partial'), JSON.stringify(record));",
		"fs.renameSync(own('.json.partial'), own('.json'));",
		"const started = Date.now();",
		"setInterval(() => { if (fs.existsSync(own('.release')) || Date.now() - started > 600000) { process.exit(0); } }, 25);",
	].join('\n');
	return { id, adapter: 'command', argv: [process.execPath, '-e', script], env: { RECORD_DIR: dir } };
}

/** Lets a holderTarget Run end. */
export function releaseHolder(dir: string, taskId: string): void {
	writeFileSync(join(dir, `${taskId}.release`), '');
}
