// The on-disk contract of one Run directory `.tutti/runs/<runId>/`, shared by the supervisor (writer) and
// the Host's process runner (reader). Every record is written atomically (tmp + rename; fsync for all but
// spec.json) so a reader never sees a torn file.
//
//   spec.json      what to start (written by the runner before the supervisor starts; 0600; not fsynced)
//   stdin.txt      the task content, fed to the agent's stdin (absent when empty)
//   stdout.log     the agent's stdout (append; the agent writes the file directly)
//   stderr.log     the agent's stderr
//   supervisor.log the supervisor's own stdout/stderr (crash traces)
//   output-order.jsonl  [stdoutBytes, stderrBytes] whenever either grew (sampled; src/supervisor/outputOrder.ts)
//   pid.json       PidRecord, once the agent process exists
//   events.jsonl   RunEvent lines: started | spawn_error | exited (supervisor), lost (runner)
//   exit.json      RunExit, the authoritative end of the Run
//   claim-<n>.json LaunchClaim of launch attempt n: the supervisor that creates it starts the agent; a Host that
//                  creates it first has withdrawn that attempt (a restart that relaunches a Run nothing started)
//   input.jsonl, input-state.jsonl   messages into a running agent (src/core/runs/liveInput.ts), when `liveInput`
import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import * as z from 'zod/mini';
import { type CodexAppServerPlan, codexAppServerPlan } from '../agents/codexAppServerSession.js';
import type { RunExit } from '../core/runs/runProcessPort.js';

export const runFileNames = {
	spec: 'spec.json',
	stdin: 'stdin.txt',
	stdout: 'stdout.log',
	stderr: 'stderr.log',
	supervisorLog: 'supervisor.log',
	pid: 'pid.json',
	events: 'events.jsonl',
	exit: 'exit.json',
} as const;

export type RunFileName = keyof typeof runFileNames;

export function runFile(runDir: string, name: RunFileName): string {
	return join(runDir, runFileNames[name]);
}

/** What the supervisor starts. The agent's environment is the supervisor's own minus `unsetEnv`, plus `env`. */
export interface SupervisorSpec {
	version: 1;
	runId: string;
	/** The executable (or, with `shell`, the command line's first word). */
	file: string;
	args: string[];
	shell: boolean;
	cwd: string;
	env: Record<string, string>;
	unsetEnv: string[];
	/** Whether `stdin.txt` holds the task content; otherwise stdin is /dev/null. */
	hasStdin: boolean;
	/**
	 * `claude-stream-json`: stdin is a pipe the supervisor owns and feeds from `input.jsonl` (the Turn's prompt, then
	 * messages sent while it runs) until the Turn's result (src/supervisor/liveInputPump.ts). `codex-app-server`: the
	 * supervisor speaks JSON-RPC with `codex app-server` over its stdin and stdout, handing it the same entries
	 * (src/supervisor/codexAppServerRun.ts). Absent: as `hasStdin`.
	 */
	liveInput?: 'claude-stream-json' | 'codex-app-server';
	/** With `codex-app-server`: the thread, turn and hook the supervisor asks for (src/agents/codexAppServerSession.ts). */
	codexAppServer?: CodexAppServerPlan;
	launchedAtUnixMs: number;
	/** Which launch of this Run directory it is (absent: 1); its claim file decides who may start it. */
	attempt?: number;
}

/** Who holds a launch attempt: the supervisor starting it, or the Host that withdrew it before any supervisor did. */
export interface LaunchClaim {
	by: 'supervisor' | 'host';
	pid: number;
	atUnixMs: number;
}

export function claimFile(runDir: string, attempt: number): string {
	return join(runDir, `claim-${attempt}.json`);
}

/** The holder of an attempt's claim, or null (none yet, or unreadable). */
export function readLaunchClaim(runDir: string, attempt: number): LaunchClaim | null {
	try {
		const value = JSON.parse(readFileSync(claimFile(runDir, attempt), 'utf8')) as Partial<LaunchClaim>;
		return (value.by === 'supervisor' || value.by === 'host') && typeof value.pid === 'number' && typeof value.atUnixMs === 'number'
			? { by: value.by, pid: value.pid, atUnixMs: value.atUnixMs } : null;
	} catch {
		return null;
	}
}

/**
 * Claims launch attempt `attempt` of the Run directory for `claim`, unless someone did first: created whole (tmp +
 * link) and visible at once, not fsynced — only processes alive at the same time race for it. Returns whether this
 * call won, and the holder.
 */
export function claimLaunch(runDir: string, attempt: number, claim: LaunchClaim): { won: boolean; holder: LaunchClaim | null } {
	const path = claimFile(runDir, attempt);
	const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(claim)}\n`, { mode: 0o600 });
	try {
		linkSync(tmp, path);
		return { won: true, holder: claim };
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== 'EEXIST') { throw e; }
		return { won: false, holder: readLaunchClaim(runDir, attempt) };
	} finally {
		unlinkSync(tmp);
	}
}

export interface PidRecord {
	supervisorPid: number;
	agentPid: number;
	agentPgid: number;
	startedAtUnixMs: number;
	/** Linux `/proc/<pid>/stat` start times, to tell a live process from a reused pid (null elsewhere). */
	supervisorStartTicks: string | null;
	agentStartTicks: string | null;
}

export type RunEvent =
	| { type: 'started'; agentPid: number; atUnixMs: number }
	| { type: 'spawn_error'; message: string; atUnixMs: number }
	| { type: 'exited'; exitCode: number | null; signal: string | null; atUnixMs: number }
	| { type: 'lost'; message: string; atUnixMs: number };

/** The exact Turn binding of a Run. */
export function clientSubmitIdFor(runId: string): string {
	return `issue-run:${runId}`;
}

/** Run ids become directory names: refuse anything that could escape `.tutti/runs/`. */
export function isSafeRunId(runId: string): boolean {
	return /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/.test(runId) && !runId.includes('..');
}

function fsyncDir(dir: string): void {
	let fd: number | undefined;
	try { fd = openSync(dir, 'r'); fsyncSync(fd); } catch { /* not supported everywhere (e.g. Windows) */ } finally {
		if (fd !== undefined) { closeSync(fd); }
	}
}

function writeTemp(path: string, text: string, mode: number): string {
	const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
	const fd = openSync(tmp, 'w', mode);
	try {
		writeSync(fd, text);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
	return tmp;
}

/** Writes a JSON file atomically and durably (tmp, fsync, rename, fsync of the directory). */
export function writeJsonAtomic(path: string, value: unknown, mode = 0o600): void {
	const tmp = writeTemp(path, `${JSON.stringify(value)}\n`, mode);
	renameSync(tmp, path);
	fsyncDir(dirname(path));
}

/**
 * Writes a JSON file atomically (tmp + rename: a reader never sees it torn) but without waiting for the disk: for
 * spec.json, which only the supervisor about to start reads. After a machine crash no such process is left, and a
 * Run without its spec is still recorded lost from its pid.json and exit.json.
 */
export function writeJsonVisible(path: string, value: unknown, mode = 0o600): void {
	const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
	writeFileSync(tmp, `${JSON.stringify(value)}\n`, { mode });
	renameSync(tmp, path);
}

/** Like writeJsonAtomic, but never replaces an existing file. Returns false when `path` already existed. */
export function writeJsonExclusive(path: string, value: unknown, mode = 0o600): boolean {
	const tmp = writeTemp(path, `${JSON.stringify(value)}\n`, mode);
	try {
		linkSync(tmp, path);
		fsyncDir(dirname(path));
		return true;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'EEXIST') { return false; }
		throw e;
	} finally {
		unlinkSync(tmp);
	}
}

/** Appends one event line and fsyncs it. */
export function appendEvent(runDir: string, event: RunEvent): void {
	const fd = openSync(runFile(runDir, 'events'), 'a', 0o600);
	try {
		writeSync(fd, `${JSON.stringify(event)}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}

/**
 * A Run's end: the `exited` event line and exit.json, as soon as they can be, as durable as ever. The event line and
 * exit.json's temporary file are written and fsynced together (one wait for the disk, not two in a row); exit.json is
 * linked in (never torn, never replacing one already there); then `announce` (the report to the Host, which reads the
 * record from the page cache) runs while the directory entry is fsynced. Returns false when exit.json already existed.
 */
export async function recordExit(runDir: string, event: RunEvent, exit: RunExit, announce: () => Promise<unknown>): Promise<boolean> {
	const path = runFile(runDir, 'exit');
	const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
	const events = await open(runFile(runDir, 'events'), 'a', 0o600);
	try {
		const record = await open(tmp, 'w', 0o600);
		try {
			await events.write(`${JSON.stringify(event)}\n`);
			await record.write(`${JSON.stringify(exit)}\n`);
			await Promise.all([events.sync(), record.sync()]);
		} finally {
			await record.close();
		}
	} finally {
		await events.close();
	}
	let linked: boolean;
	try {
		linkSync(tmp, path);
		linked = true;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== 'EEXIST') { unlinkSync(tmp); throw e; }
		linked = false;
	}
	unlinkSync(tmp);
	await Promise.all([announce(), linked ? syncDir(dirname(path)) : undefined]);
	return linked;
}

async function syncDir(dir: string): Promise<void> {
	try {
		const handle = await open(dir, 'r');
		try { await handle.sync(); } finally { await handle.close(); }
	} catch {
		// not supported everywhere (e.g. Windows)
	}
}

function readJson(path: string): unknown {
	try {
		return JSON.parse(readFileSync(path, 'utf8')) as unknown;
	} catch {
		return undefined;
	}
}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);
const isStringOrNull = (v: unknown): v is string | null => v === null || typeof v === 'string';
const isStringRecord = (v: unknown): v is Record<string, string> =>
	isObject(v) && Object.values(v).every((x) => typeof x === 'string');

export function parseSupervisorSpec(v: unknown): SupervisorSpec | null {
	if (!isObject(v) || v.version !== 1) { return null; }
	const ok = typeof v.runId === 'string' && typeof v.file === 'string' && v.file.length > 0
		&& Array.isArray(v.args) && v.args.every((a) => typeof a === 'string')
		&& typeof v.shell === 'boolean' && typeof v.cwd === 'string' && isStringRecord(v.env)
		&& Array.isArray(v.unsetEnv) && v.unsetEnv.every((a) => typeof a === 'string')
		&& typeof v.hasStdin === 'boolean' && isInt(v.launchedAtUnixMs)
		&& (v.liveInput === undefined || v.liveInput === 'claude-stream-json' || (v.liveInput === 'codex-app-server' && z.safeParse(codexAppServerPlan, v.codexAppServer).success))
		&& (v.attempt === undefined || (isInt(v.attempt) && v.attempt >= 1));
	return ok ? (v as unknown as SupervisorSpec) : null;
}

export function parsePidRecord(v: unknown): PidRecord | null {
	if (!isObject(v)) { return null; }
	const ok = isInt(v.supervisorPid) && isInt(v.agentPid) && isInt(v.agentPgid) && isInt(v.startedAtUnixMs)
		&& v.agentPid > 0 && v.agentPgid > 0 && v.supervisorPid > 0
		&& isStringOrNull(v.supervisorStartTicks ?? null) && isStringOrNull(v.agentStartTicks ?? null);
	if (!ok) { return null; }
	return {
		supervisorPid: v.supervisorPid as number,
		agentPid: v.agentPid as number,
		agentPgid: v.agentPgid as number,
		startedAtUnixMs: v.startedAtUnixMs as number,
		supervisorStartTicks: (v.supervisorStartTicks ?? null) as string | null,
		agentStartTicks: (v.agentStartTicks ?? null) as string | null,
	};
}

export function parseRunExit(v: unknown): RunExit | null {
	if (!isObject(v)) { return null; }
	const ok = typeof v.runId === 'string' && typeof v.clientSubmitId === 'string'
		&& (v.exitCode === null || isInt(v.exitCode)) && isStringOrNull(v.signal)
		&& isInt(v.startedAtUnixMs) && isInt(v.endedAtUnixMs)
		&& (v.spawnError === undefined || typeof v.spawnError === 'string');
	if (!ok) { return null; }
	const exit: RunExit = {
		runId: v.runId as string,
		clientSubmitId: v.clientSubmitId as string,
		exitCode: v.exitCode as number | null,
		signal: v.signal as string | null,
		startedAtUnixMs: v.startedAtUnixMs as number,
		endedAtUnixMs: v.endedAtUnixMs as number,
	};
	if (typeof v.spawnError === 'string') { exit.spawnError = v.spawnError; }
	return exit;
}

export function readSupervisorSpec(runDir: string): SupervisorSpec | null {
	return parseSupervisorSpec(readJson(runFile(runDir, 'spec')));
}

export function readPidRecord(runDir: string): PidRecord | null {
	return parsePidRecord(readJson(runFile(runDir, 'pid')));
}

export function readRunExit(runDir: string): RunExit | null {
	return parseRunExit(readJson(runFile(runDir, 'exit')));
}
