// The detached per-Run supervisor: starts the agent in its own process group with stdin from the task
// content and stdout/stderr appended to files, records pid.json and events, and writes exit.json when the
// agent ends. It keeps going while the Host is down; the agent writes its logs directly, so even the
// supervisor's death does not stop the agent's output.
import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import type { RunExit } from '../core/runs/runProcessPort.js';
import { LiveInputPump } from './liveInputPump.js';
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

function openStdio(runDir: string, spec: SupervisorSpec): { stdio: [number | 'ignore' | 'pipe', number, number]; close: () => void } {
	const fds: number[] = [];
	try {
		const stdin = spec.liveInput !== undefined ? 'pipe' : spec.hasStdin ? openSync(runFile(runDir, 'stdin'), 'r') : 'ignore';
		if (typeof stdin === 'number') { fds.push(stdin); }
		const out = openSync(runFile(runDir, 'stdout'), 'a', 0o600);
		fds.push(out);
		const err = openSync(runFile(runDir, 'stderr'), 'a', 0o600);
		fds.push(err);
		return { stdio: [stdin, out, err], close: () => { for (const fd of fds) { closeSync(fd); } } };
	} catch (e) {
		for (const fd of fds) { closeSync(fd); }
		throw e;
	}
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

	let child: ChildProcess;
	const io = openStdio(runDir, spec);
	try {
		child = spawn(spec.file, spec.args, {
			cwd: spec.cwd,
			env: agentEnvironment(spec),
			shell: spec.shell,
			detached: true,
			stdio: io.stdio,
			windowsHide: true,
		});
	} catch (e) {
		io.close();
		recordSpawnError(runDir, spec.runId, describeSpawnError(e, spec), attemptedAt);
		return 0;
	}
	io.close();

	const ended = new Promise<{ code: number | null; signal: string | null } | { error: unknown }>((resolve) => {
		child.once('exit', (code, signal) => resolve({ code, signal }));
		child.once('error', (error) => { if (child.pid === undefined) { resolve({ error }); } });
	});

	// The agent's stdin stays open, owned by this process, while the Turn runs (liveInputPump.ts).
	const pump = spec.liveInput !== undefined && child.stdin !== null
		? new LiveInputPump({ runDir, stdin: child.stdin, stdoutPath: runFile(runDir, 'stdout') })
		: undefined;

	const agentPid = child.pid;
	if (agentPid !== undefined) {
		writeJsonAtomic(runFile(runDir, 'pid'), {
			supervisorPid: process.pid,
			agentPid,
			agentPgid: agentPid,
			startedAtUnixMs: attemptedAt,
			supervisorStartTicks: processStartTicks(process.pid),
			agentStartTicks: processStartTicks(agentPid),
		});
		// pid.json is what the Host waits for: tell it before the event line's fsync.
		void report(spec.env, spec.runId, 'started').catch(() => undefined);
		appendEvent(runDir, { type: 'started', agentPid, atUnixMs: Date.now() });
		pump?.start();
	}
	const order = agentPid !== undefined ? new OutputOrderRecorder(runDir) : undefined;
	order?.start();

	const end = await ended;
	// The last sizes before the exit record: a reader that sees exit.json sees where the output ended.
	order?.stop();
	// What reached the agent is recorded before the exit record, so whoever sees exit.json sees it too.
	pump?.finish();
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
