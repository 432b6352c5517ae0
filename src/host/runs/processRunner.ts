// RunProcessPort over real processes: each Run gets a detached supervisor (dist/supervisor.js) that owns the
// agent process and writes `.tutti/runs/<runId>/` (see src/supervisor/runFiles.ts). The runner only reads
// those files and the process table, so Runs survive the Host, and a later Host adopts them.
//
// Exit detection never depends on the supervisor's best-effort `run/report`: every launched or adopted Run
// is polled until its exit.json appears, and onExit fires exactly once per Run. A Run whose supervisor and
// agent are both gone without an exit record (e.g. both killed -9) is settled by the runner writing an
// exit.json with `exitCode: null, signal: 'lost'` (plus `spawnError` when no agent was ever recorded), which
// the domain treats as a failure.
//
// A spare supervisor is started after each launch, detached and idle, for the next one: a launch then writes the
// run directory to the spare's stdin instead of spawning and booting a Node process while an agent waits (a wake's
// source Turn starts that much sooner). Without a run directory the spare exits: on dispose, after `spareIdleMs`
// unused, or when the Host dies (its stdin ends).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { adapterFor } from '../../agents/command.js';
import { Emitter } from '../../core/events.js';
import type { Disposable } from '../../core/lifecycle.js';
import { type Clock, systemClock } from '../../core/ports.js';
import { processIsAlive } from '../../supervisor/processTable.js';
import {
	appendEvent, claimLaunch, clientSubmitIdFor, isSafeRunId, readLaunchClaim, readPidRecord, readRunExit, readSupervisorSpec, runFile,
	type SupervisorSpec, writeJsonExclusive, writeJsonVisible,
} from '../../supervisor/runFiles.js';
import type { InterruptResult, RunExit, RunLaunchSpec, RunProcessPort } from '../../core/runs/runProcessPort.js';
import { agentEnvAdditions, agentSearchPath, inheritableEnv } from './agentEnv.js';
import { resolveExecutable, tuttiDirExecutableProblem } from './executablePath.js';
import { ensureCliShim } from './cliShim.js';
import { interruptProcessGroup } from './interruptProcessGroup.js';
import { appendLiveInputEntry, readLiveInputEntries } from './liveInputFiles.js';
import { promptMessageId } from '../../core/runs/liveInput.js';
import { type LogSlice, readLogSlice } from './readLogSlice.js';

export interface ProcessRunnerOptions {
	/** Absolute workspace folder (relative Run cwds resolve against it). */
	workspace: string;
	/** The workspace's `.tutti` directory; Runs live in `<tuttiDir>/runs/<runId>/`. */
	tuttiDir: string;
	/** dist/supervisor.js, or src/supervisor/main.ts with nodeArgs that load tsx. */
	supervisorScript: string;
	/** Arguments for Node before the script, e.g. ['--import', <absolute file URL of tsx>] from source. */
	nodeArgs?: string[];
	/** The Node binary for supervisors and the shim (default process.execPath; Electron runs as Node). */
	nodePath?: string;
	/** dist/cli.js: when given, `<shimDir>/tutti` is written and shimDir put first on every agent's PATH. */
	cliScript?: string;
	/** The Host's private 0700 directory for the shim, outside the workspace (required with cliScript; hostShimDir). */
	shimDir?: string;
	clock?: Clock;
	/** How often watched Runs are checked for their exit record (default 150 ms). */
	pollIntervalMs?: number;
	/** How long SIGINT and then SIGTERM are each given (default 3000 ms). */
	interruptGraceMs?: number;
	/** How long SIGKILL is given before interrupt answers 'still_running' (default 2000 ms). */
	killWaitMs?: number;
	/** How long launch waits for the supervisor to record the agent's start (default 10 s). */
	launchTimeoutMs?: number;
	/** How long an unused spare supervisor is kept (default 5 min; 0: no spares, every launch starts its own). */
	spareIdleMs?: number;
	/** The environment Runs inherit from (default process.env); credentials are withheld (agentEnv.ts). */
	hostEnv?: NodeJS.ProcessEnv;
	/** More Host variable names never to pass to agents. */
	withheldEnv?: string[];
}

interface Watch {
	sinceMs: number;
}

/** A supervisor already started and waiting on its stdin for the run directory of the next launch. */
interface Spare {
	child: ChildProcess;
	idle: NodeJS.Timeout;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

function tail(path: string, max = 2000): string {
	try {
		const text = readFileSync(path, 'utf8');
		return text.length > max ? `…${text.slice(-max)}` : text;
	} catch {
		return '';
	}
}

export class ProcessRunner implements RunProcessPort {
	readonly #o: Required<Omit<ProcessRunnerOptions, 'cliScript' | 'shimDir'>> & Pick<ProcessRunnerOptions, 'cliScript' | 'shimDir'>;
	readonly #runsDir: string;
	readonly #exits = new Emitter<RunExit>();
	readonly #watched = new Map<string, Watch>();
	readonly #fired = new Set<string>();
	#timer: NodeJS.Timeout | undefined;
	#spare: Spare | undefined;
	/** Launches waiting for their agent's start, woken early by checkNow (the supervisor's `started` report). */
	readonly #starting = new Map<string, () => void>();
	#disposed = false;

	constructor(options: ProcessRunnerOptions) {
		if (options.cliScript !== undefined && options.shimDir === undefined) {
			throw new Error('ProcessRunner: a cliScript needs a shimDir (a private directory outside the workspace) for the `tutti` shim');
		}
		this.#o = {
			workspace: resolve(options.workspace),
			tuttiDir: resolve(options.tuttiDir),
			supervisorScript: resolve(options.supervisorScript),
			nodeArgs: options.nodeArgs ?? [],
			nodePath: options.nodePath ?? process.execPath,
			cliScript: options.cliScript,
			shimDir: options.shimDir === undefined ? undefined : resolve(options.shimDir),
			clock: options.clock ?? systemClock,
			pollIntervalMs: options.pollIntervalMs ?? 150,
			interruptGraceMs: options.interruptGraceMs ?? 3000,
			killWaitMs: options.killWaitMs ?? 2000,
			launchTimeoutMs: options.launchTimeoutMs ?? 10_000,
			spareIdleMs: options.spareIdleMs ?? 300_000,
			hostEnv: options.hostEnv ?? process.env,
			withheldEnv: options.withheldEnv ?? [],
		};
		this.#runsDir = join(this.#o.tuttiDir, 'runs');
	}

	runDir(runId: string): string {
		if (!isSafeRunId(runId)) { throw new Error(`Not a valid run id for a directory name: '${runId}'.`); }
		return join(this.#runsDir, runId);
	}

	async launch(spec: RunLaunchSpec): Promise<void> {
		if (this.#disposed) { throw new Error('The process runner is disposed; the Host is shutting down.'); }
		const command = adapterFor(spec.target).commandFor(spec);
		const dir = this.runDir(spec.runId);
		mkdirSync(this.#runsDir, { recursive: true, mode: 0o700 });
		try {
			mkdirSync(dir, { mode: 0o700 });
		} catch (e) {
			if ((e as NodeJS.ErrnoException).code !== 'EEXIST') { throw e; }
			if (existsSync(runFile(dir, 'pid')) || existsSync(runFile(dir, 'exit'))) {
				throw new Error(`Run ${spec.runId} was already launched (${dir}); adopt it instead.`);
			}
		}
		// A directory whose earlier launch was withdrawn (withdrawUnstarted) is launched again as its next attempt.
		const attempt = (readSupervisorSpec(dir)?.attempt ?? 0) + 1;
		const shimDir = this.#o.cliScript !== undefined && this.#o.shimDir !== undefined
			? ensureCliShim(this.#o.shimDir, this.#o.nodePath, this.#o.nodeArgs, resolve(this.#o.cliScript))
			: undefined;
		const cwd = isAbsolute(spec.cwd) ? spec.cwd : resolve(this.#o.workspace, spec.cwd);
		const envInput = { hostEnv: this.#o.hostEnv, targetEnv: command.env, runEnv: spec.env, tuttiDir: this.#o.tuttiDir, ...(shimDir !== undefined ? { shimDir } : {}) };
		// Resolved before the shim directory goes in front, on the PATH the agent gets (a shell target's shell looks
		// it up on that same PATH, whose only addition is the private shim directory).
		const file = command.shell ? command.file : resolveExecutable(command.file, agentSearchPath(envInput).entries);
		const refused = command.shell ? null : tuttiDirExecutableProblem(file, cwd, this.#o.tuttiDir);
		if (refused !== null) { this.#recordLaunchFailure(spec.runId, dir, refused); }
		const hasStdin = command.stdin === 'spec' && spec.stdinText.length > 0;
		if (hasStdin) { writeFileSync(runFile(dir, 'stdin'), spec.stdinText, { mode: 0o600 }); }
		const live = command.stdin === 'live';
		if (live) {
			// The Turn's prompt is the first message its supervisor writes to the agent's stdin.
			appendLiveInputEntry(dir, { type: 'message', messageId: promptMessageId, uuid: randomUUID(), text: command.livePrompt ?? spec.stdinText, atUnixMs: this.#o.clock.now() });
		}
		const supervisorSpec: SupervisorSpec = {
			version: 1,
			runId: spec.runId,
			file,
			args: command.args,
			shell: command.shell,
			cwd,
			env: agentEnvAdditions(envInput),
			unsetEnv: ['ELECTRON_RUN_AS_NODE'],
			hasStdin,
			...(live && command.appServer === undefined ? { liveInput: 'claude-stream-json' as const } : {}),
			...(live && command.appServer !== undefined ? { liveInput: 'codex-app-server' as const, codexAppServer: command.appServer } : {}),
			launchedAtUnixMs: this.#o.clock.now(),
			attempt,
		};
		writeJsonVisible(runFile(dir, 'spec'), supervisorSpec);

		const child = this.#takeSpare(dir) ?? this.#startSupervisor([dir], dir, runFile(dir, 'supervisorLog'));
		await this.#awaitStart(spec.runId, dir, child, attempt);
		this.#watch(spec.runId);
		this.#prepareSpare();
	}

	/** The pid of the spare supervisor waiting for the next launch, if there is one (diagnostics and tests). */
	spareSupervisorPid(): number | undefined {
		return this.#spare?.child.pid;
	}

	/** A detached supervisor (`args` after the script) with stdout and stderr appended to `logFile`, or stdin a pipe (a spare). */
	#startSupervisor(args: string[], cwd: string, logFile: string | null): ChildProcess {
		const supervisorEnv = inheritableEnv(this.#o.hostEnv, this.#o.withheldEnv);
		if (process.versions.electron !== undefined) { supervisorEnv.ELECTRON_RUN_AS_NODE = '1'; }
		const logFd = logFile === null ? null : openSync(logFile, 'a', 0o600);
		try {
			const child = spawn(this.#o.nodePath, [...this.#o.nodeArgs, this.#o.supervisorScript, ...args], {
				cwd,
				env: supervisorEnv,
				detached: true,
				stdio: logFd === null ? ['pipe', 'ignore', 'ignore'] : ['ignore', logFd, logFd],
				windowsHide: true,
			});
			child.unref();
			return child;
		} finally {
			if (logFd !== null) { closeSync(logFd); }
		}
	}

	/** Hands `dir` to the spare supervisor, if one is still alive; the caller then watches it like a fresh one. */
	#takeSpare(dir: string): ChildProcess | undefined {
		const spare = this.#spare;
		this.#spare = undefined;
		if (spare === undefined) { return undefined; }
		clearTimeout(spare.idle);
		if (spare.child.exitCode !== null || spare.child.signalCode !== null || spare.child.stdin === null || spare.child.stdin.destroyed) { return undefined; }
		spare.child.stdin.end(`${dir}\n`);
		return spare.child;
	}

	/** Starts the spare for the next launch (none while disposed, when spares are off, or when one is waiting). */
	#prepareSpare(): void {
		if (this.#disposed || this.#spare !== undefined || this.#o.spareIdleMs <= 0) { return; }
		let child: ChildProcess;
		try {
			mkdirSync(this.#runsDir, { recursive: true, mode: 0o700 });
			child = this.#startSupervisor(['--spare'], this.#runsDir, null);
		} catch {
			return; // the next launch starts its own supervisor
		}
		child.on('error', () => undefined);
		child.stdin?.on('error', () => undefined);
		(child.stdin as { unref?: () => void } | null)?.unref?.();
		const idle = setTimeout(() => this.#retireSpare(), this.#o.spareIdleMs);
		idle.unref();
		this.#spare = { child, idle };
		child.once('exit', () => { if (this.#spare?.child === child) { this.#retireSpare(); } });
	}

	/** Ends the waiting spare, which has no Run: its stdin ends without a run directory, and SIGTERM in case it does not read it. */
	#retireSpare(): void {
		const spare = this.#spare;
		this.#spare = undefined;
		if (spare === undefined) { return; }
		clearTimeout(spare.idle);
		spare.child.stdin?.end();
		if (spare.child.exitCode === null && spare.child.signalCode === null) { spare.child.kill('SIGTERM'); }
	}

	/**
	 * A launch that no supervisor has started — its Host died before handing it over — withdrawn so that it can be
	 * launched again: true when no agent of it can ever start (no spec was written, or the Host now holds the
	 * current attempt's claim), false when a supervisor claimed it (it starts the agent or records why not: adopt it).
	 */
	withdrawUnstarted(runId: string): boolean {
		const dir = this.runDir(runId);
		if (existsSync(runFile(dir, 'pid')) || existsSync(runFile(dir, 'exit'))) { return false; }
		const spec = readSupervisorSpec(dir);
		if (spec === null) { return !existsSync(runFile(dir, 'spec')); }
		const { won, holder } = claimLaunch(dir, spec.attempt ?? 1, { by: 'host', pid: process.pid, atUnixMs: this.#o.clock.now() });
		return won || holder?.by === 'host';
	}

	/** Resolves once pid.json or exit.json exists; otherwise records a spawn failure and rejects. */
	async #awaitStart(runId: string, dir: string, child: ChildProcess, attempt: number): Promise<void> {
		let startError: Error | undefined;
		let exited: { code: number | null; signal: string | null } | undefined;
		child.once('error', (e) => { startError = e; });
		child.once('exit', (code, signal) => { exited = { code, signal }; });
		const deadline = Date.now() + this.#o.launchTimeoutMs;
		for (;;) {
			if (existsSync(runFile(dir, 'pid')) || existsSync(runFile(dir, 'exit'))) { return; }
			let problem: string | undefined;
			if (startError !== undefined) {
				problem = `could not start the run supervisor with ${this.#o.nodePath}: ${startError.message}`;
			} else if (exited !== undefined && !this.#claimedByAnother(dir, attempt, child.pid)) {
				problem = `the run supervisor exited (${exited.signal ?? `code ${String(exited.code)}`}) before starting the agent`;
			} else if (Date.now() > deadline) {
				problem = `the run supervisor did not start the agent within ${this.#o.launchTimeoutMs} ms`;
				if (child.pid !== undefined) { try { process.kill(child.pid, 'SIGKILL'); } catch { /* already gone */ } }
				await sleep(50);
				const late = readPidRecord(dir);
				if (late !== null) { await interruptProcessGroup(late, { graceMs: 0, killWaitMs: 500, checkEveryMs: 25 }); }
			}
			if (problem !== undefined) {
				const log = tail(runFile(dir, 'supervisorLog')).trim();
				this.#recordLaunchFailure(runId, dir, `${problem}${log ? `; supervisor.log: ${log}` : ''}`);
			}
			await new Promise<void>((wake) => {
				const timer = setTimeout(wake, 20);
				this.#starting.set(runId, () => { clearTimeout(timer); wake(); });
			});
			this.#starting.delete(runId);
		}
	}

	/** Records a launch that never started an agent (a spawn error in events and exit.json), then throws it. */
	#recordLaunchFailure(runId: string, dir: string, problem: string): never {
		const message = `Run ${runId}: ${problem}`;
		const now = this.#o.clock.now();
		appendEvent(dir, { type: 'spawn_error', message, atUnixMs: now });
		writeJsonExclusive(runFile(dir, 'exit'), {
			runId, clientSubmitId: clientSubmitIdFor(runId), exitCode: null, signal: null,
			startedAtUnixMs: now, endedAtUnixMs: now, spawnError: message,
		} satisfies RunExit);
		throw new Error(message);
	}

	/** Whether a live supervisor other than `ownPid` holds the attempt's claim (it starts the agent; wait for it). */
	#claimedByAnother(dir: string, attempt: number, ownPid: number | undefined): boolean {
		const holder = readLaunchClaim(dir, attempt);
		return holder !== null && holder.by === 'supervisor' && holder.pid !== ownPid && processIsAlive(holder.pid, null);
	}

	async interrupt(runId: string): Promise<InterruptResult> {
		try {
			const dir = this.runDir(runId);
			const pid = readPidRecord(dir);
			if (pid === null) { return 'not_running'; }
			// Nothing more goes into an interrupted Turn: its supervisor closes the agent's stdin (codex app-server: it
			// interrupts the turn, then closes the server's stdin, and is given the first grace period to do so).
			const live = readLiveInputEntries(dir).length > 0;
			if (live) { appendLiveInputEntry(dir, { type: 'close', atUnixMs: this.#o.clock.now() }); }
			const result = await interruptProcessGroup(pid, {
				graceMs: this.#o.interruptGraceMs,
				killWaitMs: this.#o.killWaitMs,
				checkEveryMs: Math.max(10, Math.min(50, this.#o.pollIntervalMs)),
			}, live && readSupervisorSpec(dir)?.liveInput === 'codex-app-server' ? 'none' : 'signal');
			this.checkNow(runId);
			return result;
		} catch {
			return 'still_running';
		}
	}

	exitRecord(runId: string): RunExit | null {
		return readRunExit(this.runDir(runId));
	}

	isAlive(runId: string): boolean {
		const pid = readPidRecord(this.runDir(runId));
		if (pid === null) { return false; }
		return processIsAlive(pid.supervisorPid, pid.supervisorStartTicks) || processIsAlive(pid.agentPid, pid.agentStartTicks);
	}

	onExit(listener: (exit: RunExit) => void): Disposable {
		return this.#exits.event(listener);
	}

	adopt(runId: string): void {
		this.runDir(runId); // validates the id
		if (this.#disposed || this.#fired.has(runId)) { return; }
		this.#watch(runId);
		setImmediate(() => this.checkNow(runId));
	}

	outputProbe(runId: string): { bytes: number; writtenAtUnixMs: number } {
		const dir = this.runDir(runId);
		let bytes = 0;
		let writtenAtUnixMs = 0;
		for (const stream of ['stdout', 'stderr'] as const) {
			// A stat, never a read: the stall probe runs over every running Run.
			const stat = statSync(runFile(dir, stream), { throwIfNoEntry: false });
			if (stat === undefined) { continue; }
			bytes += stat.size;
			writtenAtUnixMs = Math.max(writtenAtUnixMs, Math.floor(stat.mtimeMs));
		}
		return { bytes, writtenAtUnixMs };
	}

	readLog(runId: string, stream: 'stdout' | 'stderr', offset: number, maxBytes: number): LogSlice {
		return readLogSlice(runFile(this.runDir(runId), stream), offset, maxBytes);
	}

	/** Checks watched Runs now (all, or one) instead of at the next poll; e.g. when a `run/report` arrives. */
	checkNow(runId?: string): void {
		if (this.#disposed) { return; }
		if (runId !== undefined) { this.#starting.get(runId)?.(); }
		const ids = runId !== undefined ? [runId] : [...this.#watched.keys()];
		for (const id of ids) {
			const watch = this.#watched.get(id);
			if (watch === undefined) { continue; }
			try {
				this.#check(id, watch);
			} catch {
				// An unreadable Run directory is retried at the next poll.
			}
		}
	}

	/** Run ids currently watched (launched or adopted, no exit seen yet). */
	watchedRunIds(): string[] {
		return [...this.#watched.keys()];
	}

	dispose(): void {
		this.#disposed = true;
		this.#retireSpare();
		if (this.#timer !== undefined) { clearInterval(this.#timer); this.#timer = undefined; }
		this.#watched.clear();
		this.#exits.dispose();
	}

	#watch(runId: string): void {
		if (this.#disposed || this.#fired.has(runId) || this.#watched.has(runId)) { return; }
		this.#watched.set(runId, { sinceMs: Date.now() });
		if (this.#timer === undefined) {
			this.#timer = setInterval(() => this.checkNow(), this.#o.pollIntervalMs);
			this.#timer.unref();
		}
	}

	#check(runId: string, watch: Watch): void {
		const dir = this.runDir(runId);
		// Liveness first, then the record: a supervisor found gone wrote its exit.json before dying, if ever.
		const alive = this.isAlive(runId);
		const exit = readRunExit(dir);
		if (exit !== null) { this.#fire(runId, exit); return; }
		if (alive) { return; }
		const pid = readPidRecord(dir);
		if (pid === null && Date.now() - watch.sinceMs < this.#o.launchTimeoutMs) {
			return; // adopted while its supervisor may still be starting
		}
		this.#recordLost(runId, dir, pid === null);
	}

	#recordLost(runId: string, dir: string, neverStarted: boolean): void {
		const spec = readSupervisorSpec(dir);
		const pid = readPidRecord(dir);
		const now = this.#o.clock.now();
		const message = neverStarted
			? 'the run supervisor ended without starting the agent or recording an exit'
			: 'the run supervisor and its agent ended without recording an exit (killed or crashed)';
		const lost: RunExit = {
			runId,
			clientSubmitId: clientSubmitIdFor(runId),
			exitCode: null,
			signal: 'lost',
			startedAtUnixMs: pid?.startedAtUnixMs ?? spec?.launchedAtUnixMs ?? now,
			endedAtUnixMs: now,
		};
		if (neverStarted) { lost.spawnError = message; }
		mkdirSync(dir, { recursive: true, mode: 0o700 }); // a Run adopted before it was ever launched
		appendEvent(dir, { type: 'lost', message, atUnixMs: now });
		const written = writeJsonExclusive(runFile(dir, 'exit'), lost);
		this.#fire(runId, written ? lost : readRunExit(dir) ?? lost);
	}

	#fire(runId: string, exit: RunExit): void {
		if (this.#fired.has(runId)) { return; }
		this.#fired.add(runId);
		this.#watched.delete(runId);
		if (this.#watched.size === 0 && this.#timer !== undefined) {
			clearInterval(this.#timer);
			this.#timer = undefined;
		}
		this.#exits.fire(exit);
	}
}
