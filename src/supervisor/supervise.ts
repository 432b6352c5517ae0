// The detached per-Run supervisor: starts the agent in its own process group with stdin from the task
// content and stdout/stderr appended to files, records pid.json and events, and writes exit.json when the
// agent ends. It keeps going while the Host is down; the agent writes its logs directly, so even the
// supervisor's death does not stop the agent's output — except codex app-server, which the supervisor converses
// with over its stdin and stdout (codexAppServerRun.ts): that server ends when its supervisor does.
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFileSync, closeSync, fsyncSync, openSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { RunExit } from '../core/runs/runProcessPort.js';
import { type CodexAppServerRun, runCodexAppServer } from './codexAppServerRun.js';
import { claudeStdinChannel, LiveInputPump } from './liveInputPump.js';
import { OutputOrderRecorder } from './outputOrder.js';
import { processStartTicks } from './processTable.js';
import { reportToHost } from './reportToHost.js';
import {
	appendEvent, claimLaunch, clientSubmitIdFor, readSupervisorSpec, recordExit, runFile, type SupervisorSpec, writeJsonAtomic,
	writeJsonExclusive,
} from './runFiles.js';

export interface SuperviseOptions {
	/** Best-effort Host notification; replaced in tests. */
	report?: (env: Readonly<Record<string, string | undefined>>, runId: string, event: 'started' | 'exited') => Promise<void>;
}

function describeSpawnError(err: unknown, spec: SupervisorSpec): string {
	const e = err as NodeJS.ErrnoException;
	switch (e.code) {
		case 'ENOENT': return `executable not found: ${spec.file} (ENOENT)`;
		case 'EACCES': return `permission denied: ${spec.file} (EACCES)`;
		default: return e.message || String(err);
	}
}

function cwdProblem(cwd: string): string | null {
	try {
		return statSync(cwd).isDirectory() ? null : `working directory is not a directory: ${cwd}`;
	} catch {
		return `working directory does not exist: ${cwd}`;
	}
}

function agentEnvironment(spec: SupervisorSpec): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v !== undefined && !spec.unsetEnv.includes(k)) { env[k] = v; }
	}
	return Object.assign(env, spec.env);
}

function recordSpawnError(runDir: string, runId: string, message: string, startedAtUnixMs: number): void {
	const now = Date.now();
	const exit: RunExit = {
		runId, clientSubmitId: clientSubmitIdFor(runId), exitCode: null, signal: null,
		startedAtUnixMs, endedAtUnixMs: now, spawnError: message,
	};
	appendEvent(runDir, { type: 'spawn_error', message, atUnixMs: now });
	writeJsonExclusive(runFile(runDir, 'exit'), exit);
}

type Stdin = number | 'ignore' | 'pipe';

/** The agent's stdio: stdin per the spec, stdout appended to stdout.log (or a pipe the supervisor reads), stderr to stderr.log. */
function openStdio(runDir: string, stdin: 'spec' | 'pipe' | 'ignore', hasStdin: boolean, stdout: 'file' | 'pipe'): { stdio: [Stdin, number | 'pipe', number]; close: () => void } {
	const fds: number[] = [];
	try {
		const input: Stdin = stdin === 'pipe' ? 'pipe' : stdin === 'spec' && hasStdin ? openSync(runFile(runDir, 'stdin'), 'r') : 'ignore';
		if (typeof input === 'number') { fds.push(input); }
		const out = stdout === 'pipe' ? 'pipe' : openSync(runFile(runDir, 'stdout'), 'a', 0o600);
		if (typeof out === 'number') { fds.push(out); }
		const err = openSync(runFile(runDir, 'stderr'), 'a', 0o600);
		fds.push(err);
		return { stdio: [input, out, err], close: () => { for (const fd of fds) { closeSync(fd); } } };
	} catch (e) {
		for (const fd of fds) { closeSync(fd); }
		throw e;
	}
}

type AgentEnd = { code: number | null; signal: string | null } | { error: unknown };

/** Starts the agent process in its own process group; throws what spawn throws. */
function startAgent(spec: SupervisorSpec, env: Record<string, string>, args: string[], stdio: ReturnType<typeof openStdio>): { child: ChildProcess; ended: Promise<AgentEnd> } {
	let child: ChildProcess;
	try {
		child = spawn(spec.file, args, { cwd: spec.cwd, env, shell: spec.shell, detached: true, stdio: stdio.stdio, windowsHide: true });
	} finally {
		stdio.close();
	}
	const ended = new Promise<AgentEnd>((resolve) => {
		child.once('exit', (code, signal) => resolve({ code, signal }));
		child.once('error', (error) => { if (child.pid === undefined) { resolve({ error }); } });
	});
	return { child, ended };
}

/** pid.json for the agent process (what the Host waits for, and what a Stop signals). */
function recordPid(runDir: string, agentPid: number, startedAtUnixMs: number): void {
	writeJsonAtomic(runFile(runDir, 'pid'), {
		supervisorPid: process.pid,
		agentPid,
		agentPgid: agentPid,
		startedAtUnixMs,
		supervisorStartTicks: processStartTicks(process.pid),
		agentStartTicks: processStartTicks(agentPid),
	});
}

/** Supervises one Run to its end. Resolves with the supervisor's own exit code. */
export async function supervise(runDir: string, options: SuperviseOptions = {}): Promise<number> {
	const report = options.report ?? reportToHost;
	const spec = readSupervisorSpec(runDir);
	const attemptedAt = Date.now();
	if (spec === null) {
		recordSpawnError(runDir, basename(runDir), 'supervisor: spec.json is missing or invalid', attemptedAt);
		return 1;
	}
	// Only the claimant of this launch attempt starts it (or records why it could not): a Host that restarted before any
	// supervisor claimed it has withdrawn it to launch it again, and a second supervisor handed the same attempt
	// leaves it to the first. Nothing is written then.
	if (!claimLaunch(runDir, spec.attempt ?? 1, { by: 'supervisor', pid: process.pid, atUnixMs: attemptedAt }).won) {
		return 0;
	}
	const badCwd = cwdProblem(spec.cwd);
	if (badCwd !== null) {
		recordSpawnError(runDir, spec.runId, badCwd, attemptedAt);
		return 0;
	}

	const env = agentEnvironment(spec);
	const appServer = spec.liveInput === 'codex-app-server' ? spec.codexAppServer : undefined;
	let agent: { child: ChildProcess; ended: Promise<AgentEnd> };
	try {
		agent = startAgent(spec, env, spec.args, openStdio(runDir, spec.liveInput !== undefined ? 'pipe' : 'spec', spec.hasStdin, appServer !== undefined ? 'pipe' : 'file'));
	} catch (e) {
		recordSpawnError(runDir, spec.runId, describeSpawnError(e, spec), attemptedAt);
		return 0;
	}

	// The agent's stdin stays open, owned by this process, while the Turn runs (liveInputPump.ts): Claude Code's stream-json
	// lines, or codex app-server's JSON-RPC (codexAppServerRun.ts, which also keeps the server's stdout as stdout.log).
	let pump: LiveInputPump | undefined;
	let codex: CodexAppServerRun | undefined;
	let stdoutFd: number | undefined;
	if (appServer !== undefined && agent.child.stdin !== null && agent.child.stdout !== null) {
		stdoutFd = openSync(runFile(runDir, 'stdout'), 'a', 0o600);
		codex = runCodexAppServer({ runDir, plan: appServer, child: agent.child as ChildProcess & { stdin: Writable; stdout: Readable }, stdoutFd, env });
		pump = codex.pump;
	} else if (spec.liveInput !== undefined && agent.child.stdin !== null) {
		pump = new LiveInputPump({ runDir, channel: claudeStdinChannel(agent.child.stdin, runFile(runDir, 'stdout')) });
	}

	if (agent.child.pid !== undefined) {
		recordPid(runDir, agent.child.pid, attemptedAt);
		// pid.json is what the Host waits for: tell it before the event line's fsync.
		void report(spec.env, spec.runId, 'started').catch(() => undefined);
		appendEvent(runDir, { type: 'started', agentPid: agent.child.pid, atUnixMs: Date.now() });
		if (codex === undefined) { pump?.start(); }
	}
	const order = agent.child.pid !== undefined ? new OutputOrderRecorder(runDir) : undefined;
	order?.start();

	if (codex !== undefined && agent.child.pid !== undefined && await codex.done === 'unavailable') {
		// This Codex has no app-server: the same Turn runs as `codex exec` (stdin /dev/null, its JSONL into stdout.log).
		await agent.ended;
		closeSync(stdoutFd!);
		stdoutFd = undefined;
		pump?.finish(); // input closed: messages sent meanwhile wait for the next Turn, as exec's do
		pump = undefined;
		appendFileSync(runFile(runDir, 'stderr'), `tutti: ${spec.file} has no \`app-server\`; this Turn runs as \`codex exec\` instead.\n`, { mode: 0o600 });
		try {
			agent = startAgent(spec, env, appServer!.execFallbackArgs, openStdio(runDir, 'ignore', false, 'file'));
		} catch (e) {
			recordSpawnError(runDir, spec.runId, describeSpawnError(e, spec), attemptedAt);
			return 0;
		}
		if (agent.child.pid !== undefined) { recordPid(runDir, agent.child.pid, attemptedAt); }
	}

	const end = await agent.ended;
	// What reached the agent is recorded before the exit record, so whoever sees exit.json sees it too.
	pump?.finish();
	if (stdoutFd !== undefined) { fsyncSync(stdoutFd); closeSync(stdoutFd); }
	// The last sizes before the exit record: a reader that sees exit.json sees where the output ended.
	order?.stop();
	if ('error' in end) {
		recordSpawnError(runDir, spec.runId, describeSpawnError(end.error, spec), attemptedAt);
		return 0;
	}
	const endedAtUnixMs = Date.now();
	const exit: RunExit = {
		runId: spec.runId,
		clientSubmitId: clientSubmitIdFor(spec.runId),
		exitCode: end.code,
		signal: end.signal,
		startedAtUnixMs: attemptedAt,
		endedAtUnixMs,
	};
	// The event first: exit.json is the last, authoritative record, so whoever sees it sees a complete run dir.
	await recordExit(runDir, { type: 'exited', exitCode: end.code, signal: end.signal, atUnixMs: endedAtUnixMs }, exit,
		() => report(spec.env, spec.runId, 'exited').catch(() => undefined));
	return 0;
}
