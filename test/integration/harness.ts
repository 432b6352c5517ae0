// Black-box harness: the real Host (`node dist/cli.js host`) and the real `tutti` CLI as child processes.
// Everything goes through dist/, so `npm run build` must have run (npm test does it before the tests).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { gateFile, gateIssueDir, gateStartedFile, releaseAllName, writeGate } from '../../scripts/workers/gate.js';
export { methods } from '../../src/protocol/controlPlane.js';
export { waitFor, type WaitOptions } from '../waitFor.js';
import { waitFor } from '../waitFor.js';
import { errorOf, parseJsonOutput, type CliError } from '../../scripts/workers/tuttiCli.js';
import { methods, type Result } from '../../src/protocol/controlPlane.js';
import { killAllRuns } from './runs/runTestKit.js';
import { configAppliedLine } from '../../src/host/configReload.js';
import type { PlanSnapshotDto, PlanTaskDto, RunDto } from '../../src/protocol/dto.js';

export const repoRoot = resolve(__dirname, '..', '..');
export const cliJs = join(repoRoot, 'dist', 'cli.js');
/** The demo bundle also runs the worker programs (`node dist/demo.js worker <name>`). */
export const demoJs = join(repoRoot, 'dist', 'demo.js');

const readyTimeoutMs = 20_000;
const stopTimeoutMs = 10_000;
const killExitTimeoutMs = 60_000;

export interface AgentTarget {
	id: string;
	adapter: 'command';
	argv: string[];
	cwd?: string;
	env?: Record<string, string>;
	isolation?: 'none' | 'worktree';
	worktreeSetup?: string[];
	worktreeShare?: { paths: string[]; key: string[] }[];
}

export interface HostConfig {
	agentTargets: AgentTarget[];
	maxParallelRuns?: number;
}

/** Fails with a clear message when the bundles the black-box tests drive are missing. */
export function requireDist(): void {
	for (const file of [cliJs, demoJs]) {
		if (!existsSync(file)) {
			throw new Error(`${file} is missing: run \`npm run build\` before the integration tests (npm test builds first)`);
		}
	}
}

/**
 * The targets every conformance Host gets. `gate` waits until the test opens the task's gate file (see openGate)
 * and exits with the code written there; it doubles as the "sleeping command" for Stop tests.
 */
export function standardTargets(gateDir: string): AgentTarget[] {
	const node = process.execPath;
	return [
		{ id: 'ok', adapter: 'command', argv: [node, '-e', 'process.exit(0)'] },
		{ id: 'fail', adapter: 'command', argv: [node, '-e', 'process.stderr.write("boom\\n"); process.exit(3)'] },
		{ id: 'gate', adapter: 'command', argv: [node, demoJs, 'worker', 'gate'], env: { TUTTI_GATE_DIR: gateDir } },
		{ id: 'gate2', adapter: 'command', argv: [node, demoJs, 'worker', 'gate'], env: { TUTTI_GATE_DIR: gateDir } },
	];
}

/** Child environment: ours minus any TUTTI_* of the caller and the CA bundle (local sockets only), plus `extra`. */
function childEnv(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env };
	for (const name of Object.keys(env)) {
		if (name.startsWith('TUTTI_')) {
			delete env[name];
		}
	}
	delete env.NODE_EXTRA_CA_CERTS;
	for (const [name, value] of Object.entries(extra)) {
		if (value === undefined) {
			delete env[name];
		} else {
			env[name] = value;
		}
	}
	return env;
}

/**
 * The machine-local record of known stores (src/host/knownStores.ts) for every Host this test process starts: one
 * temporary XDG_STATE_HOME, so tests never write into the developer's own ~/.local/state, and a store one test's
 * Host created is known to every later Host of this process (as it would be on the developer's machine).
 */
let stateHome: string | undefined;
export function testStateHome(): string {
	if (stateHome === undefined) {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-it-state-'));
		stateHome = dir;
		process.on('exit', () => { rmSync(dir, { recursive: true, force: true }); });
	}
	return stateHome;
}

const liveHosts = new Set<ChildProcess>();
process.on('exit', () => {
	for (const child of liveHosts) {
		try {
			child.kill('SIGKILL');
		} catch {
			// already gone
		}
	}
});

function waitExit(child: ChildProcess, timeoutMs: number): Promise<boolean> {
	if (child.exitCode !== null || child.signalCode !== null) {
		return Promise.resolve(true);
	}
	return new Promise((resolveExit) => {
		const timer = setTimeout(() => resolveExit(false), timeoutMs);
		child.once('exit', () => {
			clearTimeout(timer);
			resolveExit(true);
		});
	});
}

export interface CliOptions {
	/** TUTTI_SESSION_TOKEN for the call. */
	token?: string;
	/** Appends `--as-user` (the developer's credential). */
	asUser?: boolean;
	cwd?: string;
	env?: Record<string, string | undefined>;
	input?: string;
}

export interface CliResult {
	code: number;
	stdout: string;
	stderr: string;
	/** The JSON document on stdout (undefined when there is none). */
	json: unknown;
	/** The error of a `{"error":{…}}` envelope. */
	error: CliError | undefined;
	args: string[];
}

/** A running (or stopped) Host on one workspace; restart() brings it back on the same workspace. */
export class HostHandle {
	socket = '';
	pid = 0;
	/** The `notice` of the Host's ready line (e.g. that its store came with the folder), undefined when none. */
	notice: string | undefined;
	/** Everything the Host wrote to stderr since its last start (for failure messages). */
	stderr = '';
	/** Extra environment of the Host process (e.g. shorter control-plane limits for a test). */
	hostEnv: Record<string, string> = {};
	/** Every line the Host wrote to stderr since this handle was made, each start opened by a `--- Host start` line (for diagnosing a failure found after many restarts). */
	readonly stderrLines: string[] = [];
	#starts = 0;
	#child: ChildProcess | undefined;
	readonly #issues = new Set<string>();

	constructor(
		readonly base: string,
		readonly workspace: string,
		readonly runtimeDir: string,
		readonly gateDir: string,
	) {}

	get running(): boolean {
		return this.#child !== undefined && this.#child.exitCode === null && this.#child.signalCode === null;
	}

	async start(): Promise<void> {
		if (this.running) {
			throw new Error('the Host is already running');
		}
		const child = spawn(process.execPath, [cliJs, 'host', '--workspace', this.workspace], {
			cwd: this.workspace,
			env: childEnv({ ...this.hostEnv, XDG_RUNTIME_DIR: this.runtimeDir, XDG_STATE_HOME: testStateHome() }),
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		this.#child = child;
		liveHosts.add(child);
		child.on('exit', () => liveHosts.delete(child));
		this.stderr = '';
		this.stderrLines.push(`--- Host start ${++this.#starts} (pid ${child.pid ?? '?'}) at ${new Date().toISOString()}`);
		createInterface({ input: child.stderr! }).on('line', (line) => { this.stderrLines.push(line); });
		child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { this.stderr += chunk; });
		const ready = await new Promise<{ socket: string; pid: number; notice: string | undefined }>((resolveReady, reject) => {
			const timer = setTimeout(() => {
				child.kill('SIGKILL');
				reject(new Error(`the Host printed no ready line within ${readyTimeoutMs / 1000}s; stderr:\n${this.stderr}`));
			}, readyTimeoutMs);
			let stdout = '';
			const onExit = (code: number | null, signal: string | null): void => {
				clearTimeout(timer);
				// Let the last stdout/stderr chunks arrive before describing the failure.
				setTimeout(() => reject(new Error(`the Host exited before it was ready (code ${code}, signal ${signal}); stdout:\n${stdout}stderr:\n${this.stderr}`)), 50);
			};
			child.once('exit', onExit);
			createInterface({ input: child.stdout! }).on('line', (line) => {
				stdout += `${line}\n`;
				const parsed = parseJsonOutput(line) as { ready?: unknown; socket?: unknown; pid?: unknown; notice?: unknown } | undefined;
				if (parsed?.ready === true && typeof parsed.socket === 'string') {
					clearTimeout(timer);
					child.off('exit', onExit);
					resolveReady({
						socket: parsed.socket, pid: typeof parsed.pid === 'number' ? parsed.pid : child.pid ?? 0,
						notice: typeof parsed.notice === 'string' ? parsed.notice : undefined,
					});
				}
			});
		});
		this.socket = ready.socket;
		this.pid = ready.pid;
		this.notice = ready.notice;
	}

	/** SIGTERM (clean shutdown); escalates to SIGKILL and throws if the Host does not exit in time. */
	async stop(): Promise<void> {
		const child = this.#child;
		if (!child || !this.running) {
			return;
		}
		child.kill('SIGTERM');
		if (!(await waitExit(child, stopTimeoutMs))) {
			child.kill('SIGKILL');
			await waitExit(child, stopTimeoutMs);
			throw new Error(`the Host did not exit within ${stopTimeoutMs / 1000}s of SIGTERM; stderr:\n${this.stderr}`);
		}
	}

	/** kill -9: no cleanup of any kind. */
	async kill9(): Promise<void> {
		const child = this.#child;
		if (!child || !this.running) {
			return;
		}
		child.kill('SIGKILL');
		// Only its exit closes its socket and store lease: a Host still in an fsync (uninterruptible on a loaded disk)
		// takes as long as the disk does to die, and a start() before that meets it still serving.
		if (!(await waitExit(child, killExitTimeoutMs))) {
			throw new Error(`the Host (pid ${child.pid ?? '?'}) did not exit within ${killExitTimeoutMs / 1000}s of SIGKILL`);
		}
	}

	/** Stops the Host if it runs (SIGTERM) and starts it again on the same workspace. */
	/**
	 * Writes `.tutti/config.json` while the Host runs and waits until it restarted itself in its process with it
	 * (src/host/configReload.ts); settings that differ from the ones it ran with pause every issue.
	 */
	async applyConfig(config: object): Promise<void> {
		const from = this.stderr.length;
		writeFileSync(join(this.workspace, '.tutti', 'config.json'), JSON.stringify(config, null, '\t'));
		await waitFor(() => this.stderr.slice(from).includes(configAppliedLine), { what: 'the Host to apply the changed config.json', detail: () => this.stderr.slice(from) });
	}

	async restart(): Promise<void> {
		await this.stop();
		await this.start();
	}

	/** Runs `tutti …args` against this Host (TUTTI_IPC_HOOK set). */
	cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
		return runCli(this, args, options);
	}

	/** Opens (with `code`, default 0) the gate of a `gate` task's Run. */
	openGate(issueId: string, taskId: string, code = 0): void {
		writeGate(gateFile(this.gateDir, issueId, taskId), code);
	}

	/** Whether the `gate` worker of a task has started its process. */
	gateStarted(issueId: string, taskId: string): boolean {
		return existsSync(gateStartedFile(this.gateDir, issueId, taskId));
	}

	/** Releases every gated Run of an issue (exit 0), so no test leaves work running. */
	releaseIssue(issueId: string): void {
		writeGate(join(gateIssueDir(this.gateDir, issueId), releaseAllName), 0);
	}

	/** Remembers an issue so releaseAll() can open its gates. */
	track(issueId: string): void {
		this.#issues.add(issueId);
	}

	/** Releases the gated Runs of every tracked issue (use in afterEach). */
	releaseAll(): void {
		for (const issueId of this.#issues) {
			this.releaseIssue(issueId);
		}
	}

	/** Stops the Host and removes its temporary directories. Safe to call twice. */
	async dispose(): Promise<void> {
		try {
			await this.stop();
		} finally {
			await this.kill9();
			// Supervisors outlive the Host by design: one still writing its Run's files would make the removal fail.
			killAllRuns(join(this.workspace, '.tutti'));
			rmSync(this.base, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
		}
	}
}

export interface StartHostOptions {
	/** An existing workspace directory (default: a fresh temporary one). */
	workspace?: string;
	/** `.tutti/config.json`; default: standardTargets with maxParallelRuns 8. */
	config?: HostConfig | ((gateDir: string) => HostConfig);
	/** Extra environment of the Host process. */
	hostEnv?: Record<string, string>;
}

/** Creates a temporary workspace (unless given), writes its config and starts a Host on it. */
export async function startHost(options: StartHostOptions = {}): Promise<HostHandle> {
	requireDist();
	const base = mkdtempSync(join(tmpdir(), 'tutti-it-'));
	const workspace = options.workspace ?? join(base, 'ws');
	const runtimeDir = join(base, 'rt');
	const gateDir = join(base, 'gates');
	mkdirSync(workspace, { recursive: true });
	mkdirSync(runtimeDir, { mode: 0o700 });
	mkdirSync(gateDir);
	const config = typeof options.config === 'function'
		? options.config(gateDir)
		: options.config ?? { agentTargets: standardTargets(gateDir), maxParallelRuns: 8 };
	mkdirSync(join(workspace, '.tutti'), { recursive: true });
	writeFileSync(join(workspace, '.tutti', 'config.json'), JSON.stringify(config, null, '\t'));
	const host = new HostHandle(base, workspace, runtimeDir, gateDir);
	host.hostEnv = { ...options.hostEnv };
	try {
		await host.start();
	} catch (error) {
		rmSync(base, { recursive: true, force: true });
		throw error;
	}
	return host;
}

/**
 * One Host shared by the tests of a `describe` block (call it there): started before them and handed to `use`,
 * every gate released after each test, disposed after the last.
 */
export function shareHost(use: (host: HostHandle) => void, options: StartHostOptions = {}): void {
	let host: HostHandle | undefined;
	before(async function () {
		host = await startHost(options);
		use(host);
	});
	afterEach(function () {
		host?.releaseAll();
	});
	after(async function () {
		await host?.dispose();
	});
}

/** Runs `node dist/cli.js …args` with TUTTI_IPC_HOOK of the Host; never rejects for a non-zero exit. */
export function runCli(host: HostHandle, args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
	const fullArgs = [...args, ...(options.asUser ? ['--as-user'] : [])];
	const env = childEnv({
		TUTTI_IPC_HOOK: host.socket,
		XDG_RUNTIME_DIR: host.runtimeDir,
		TUTTI_SESSION_TOKEN: options.token,
		...options.env,
	});
	return new Promise((resolveRun, reject) => {
		const child = spawn(process.execPath, [cliJs, ...fullArgs], { cwd: options.cwd ?? host.workspace, env, stdio: ['pipe', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.on('error', reject);
		child.stdin.on('error', () => { /* the CLI may exit before reading stdin */ });
		child.stdin.end(options.input ?? '');
		child.on('close', (code, signal) => {
			const json = parseJsonOutput(stdout);
			resolveRun({ code: code ?? (signal ? 128 : 1), stdout, stderr, json, error: errorOf(json), args: fullArgs });
		});
	});
}

/** Describes a CLI result for assertion messages. */
export function show(result: CliResult): string {
	return `tutti ${result.args.join(' ')} → exit ${result.code}\nstdout: ${result.stdout.trim().slice(0, 2000)}\nstderr: ${result.stderr.trim().slice(0, 2000)}`;
}

/** The JSON of a successful call; throws with the whole result otherwise. */
export function expectOk<T>(result: CliResult): T {
	if (result.code !== 0 || result.error || result.json === undefined) {
		throw new Error(`expected success:\n${show(result)}`);
	}
	return result.json as T;
}

/**
 * Asserts the error envelope: `{"error":{reasonCode,message,hint}}` on stdout, the exit code (2 invalid input, else 1)
 * and, when given, the reason (one code or any of several). Returns the error.
 */
export function expectError(result: CliResult, reason?: string | readonly string[], exitCode?: 1 | 2): CliError {
	const error = result.error;
	if (result.code === 0 || !error) {
		throw new Error(`expected an error envelope${reason ? ` (${String(reason)})` : ''}:\n${show(result)}`);
	}
	const reasons = reason === undefined ? undefined : typeof reason === 'string' ? [reason] : reason;
	if (reasons && !reasons.includes(error.reasonCode)) {
		throw new Error(`expected reason ${reasons.join(' | ')}, got ${error.reasonCode}:\n${show(result)}`);
	}
	const expectedExit = exitCode ?? (error.reasonCode === 'invalid_input' || error.reasonCode === 'invalid_mutation_operation' ? 2 : 1);
	if (result.code !== expectedExit) {
		throw new Error(`expected exit ${expectedExit} for ${error.reasonCode}, got ${result.code}:\n${show(result)}`);
	}
	if (typeof error.message !== 'string' || error.message === '' || typeof error.hint !== 'string' || error.hint === '') {
		throw new Error(`the error envelope needs a message and a hint:\n${show(result)}`);
	}
	return error;
}

export interface Session {
	sessionId: string;
	token: string;
}

/** `tutti session open --role R --as-user --json`. */
export async function openSession(host: HostHandle, role: 'source' | 'worker'): Promise<Session> {
	return expectOk<Session>(await host.cli(['session', 'open', '--role', role, '--as-user', '--json']));
}

let requestCounter = 0;
/** A fresh request id for a mutating command. */
export function requestId(prefix = 'req'): string {
	requestCounter += 1;
	return `${prefix}-${process.pid}-${requestCounter}-${Date.now().toString(36)}`;
}

// ---- Managed (`tutti`) issues through `tutti plan issue …` -------------------------------------------------

/** A task for an `add` operation: title and content are derived from the id unless given. */
export function taskSpec(taskId: string, agentTargetId = 'ok', dependencyTaskIds: string[] = [], extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { taskId, title: `Task ${taskId}`, content: `Do ${taskId}.`, agentTargetId, dependencyTaskIds, ...extra };
}

export const addOps = (...tasks: Record<string, unknown>[]): unknown[] => tasks.map((task) => ({ kind: 'add', task }));

/** Fence values for a source command; anything omitted comes from a fresh `plan issue get`. */
export interface Fence {
	checkpointId?: string;
	revision?: number;
	requestId?: string;
	/** Another caller's token (default: the issue's source session). */
	token?: string;
}

export type ScheduleResult = Result<'plan/schedule'>;
export type MutateResult = Result<'plan/mutate'>;
export type AcknowledgeResult = Result<'plan/acknowledge'>;
export type CompleteResult = Result<'plan/complete'>;
export type StopResult = Result<'plan/stop'>;
export type CreateResult = Result<'plan/create'>;

/** One managed issue and its source session, with typed wrappers over the `plan issue` commands. */
export class ManagedIssue {
	constructor(
		readonly host: HostHandle,
		readonly issueId: string,
		readonly source: Session,
		readonly created: CreateResult,
	) {}

	cli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
		return this.host.cli(args, { token: this.source.token, ...options });
	}

	/** `plan issue get` as the agent runs it (compact), or with `--full`. */
	getRaw(token = this.source.token, view: 'compact' | 'full' = 'compact'): Promise<CliResult> {
		return this.host.cli(['plan', 'issue', 'get', '--issue-id', this.issueId, ...(view === 'full' ? ['--full'] : []), '--json'], { token });
	}

	/** `plan issue get --full`, validated against the protocol's snapshot schema. */
	async get(): Promise<PlanSnapshotDto> {
		return methods['plan/get'].result.parse(expectOk(await this.getRaw(this.source.token, 'full')));
	}

	/** `plan issue get` (compact), validated against the protocol's compact snapshot schema. */
	async getCompact(): Promise<Result<'plan/getCompact'>> {
		return methods['plan/getCompact'].result.parse(expectOk(await this.getRaw()));
	}

	async #fence(fence: Fence): Promise<string[]> {
		let { checkpointId, revision } = fence;
		if (checkpointId === undefined || revision === undefined) {
			const snapshot = await this.get();
			checkpointId ??= snapshot.activeCheckpoint?.checkpointId ?? 'none';
			revision ??= snapshot.execution.graphRevision;
		}
		return ['--issue-id', this.issueId, '--checkpoint-id', checkpointId, '--expected-graph-revision', String(revision),
			'--request-id', fence.requestId ?? requestId(), '--json'];
	}

	async mutate(operations: unknown[] | string, fence: Fence = {}): Promise<CliResult> {
		const json = typeof operations === 'string' ? operations : JSON.stringify(operations);
		return this.host.cli(['plan', 'issue', 'mutate', ...(await this.#fence(fence)), '--operations-json', json], { token: fence.token ?? this.source.token });
	}

	async mutateOk(operations: unknown[] | string, fence: Fence = {}): Promise<MutateResult> {
		return methods['plan/mutate'].result.parse(expectOk(await this.mutate(operations, fence)));
	}

	async schedule(taskIds: string[] | string, fence: Fence = {}): Promise<CliResult> {
		const json = typeof taskIds === 'string' ? taskIds : JSON.stringify(taskIds);
		return this.host.cli(['plan', 'issue', 'schedule', ...(await this.#fence(fence)), '--task-ids-json', json], { token: fence.token ?? this.source.token });
	}

	async scheduleOk(taskIds: string[], fence: Fence = {}): Promise<ScheduleResult> {
		return methods['plan/schedule'].result.parse(expectOk(await this.schedule(taskIds, fence)));
	}

	async acknowledge(fence: Fence = {}): Promise<CliResult> {
		return this.host.cli(['plan', 'issue', 'acknowledge', ...(await this.#fence(fence))], { token: fence.token ?? this.source.token });
	}

	async acknowledgeOk(fence: Fence = {}): Promise<AcknowledgeResult> {
		return methods['plan/acknowledge'].result.parse(expectOk(await this.acknowledge(fence)));
	}

	async complete(fence: Fence = {}, extra: string[] = []): Promise<CliResult> {
		return this.host.cli(['plan', 'issue', 'complete', ...(await this.#fence(fence)), '--decision', 'goal_satisfied', ...extra],
			{ token: fence.token ?? this.source.token });
	}

	async completeOk(fence: Fence = {}): Promise<CompleteResult> {
		return methods['plan/complete'].result.parse(expectOk(await this.complete(fence)));
	}

	async stop(reason: string, fence: Fence = {}): Promise<CliResult> {
		return this.host.cli(['plan', 'issue', 'stop', ...(await this.#fence(fence)), '--reason', reason], { token: fence.token ?? this.source.token });
	}

	/** The developer accepts a task's result (`tutti review accept --as-user`). */
	acceptOk(taskId: string): Promise<Result<'review/accept'>> {
		return this.host.cli(['review', 'accept', '--issue-id', this.issueId, '--task-id', taskId, '--as-user', '--json'])
			.then((r) => methods['review/accept'].result.parse(expectOk(r)));
	}

	/** The developer confirms the goal at Goal Review (`tutti goal confirm --as-user`). */
	confirmGoalOk(): Promise<Result<'goal/confirm'>> {
		return this.host.cli(['goal', 'confirm', '--issue-id', this.issueId, '--as-user', '--json'])
			.then((r) => methods['goal/confirm'].result.parse(expectOk(r)));
	}

	resume(token = this.source.token): Promise<CliResult> {
		return this.host.cli(['plan', 'issue', 'resume', '--issue-id', this.issueId, '--json'], { token });
	}

	/** Adds tasks at the active checkpoint; returns the mutation result. */
	addTasks(...tasks: Record<string, unknown>[]): Promise<MutateResult> {
		return this.mutateOk(addOps(...tasks));
	}

	/** Polls `plan issue get` until `predicate` holds. */
	waitSnapshot(predicate: (snapshot: PlanSnapshotDto) => boolean, what: string, timeoutMs = 20_000): Promise<PlanSnapshotDto> {
		return waitFor(async () => {
			const snapshot = await this.get();
			return predicate(snapshot) ? snapshot : undefined;
		}, { what: `${what} on ${this.issueId}`, timeoutMs, intervalMs: 30 });
	}

	/** Waits until the active checkpoint is of `kind` (and about `subjectTaskId`, when given). */
	waitActive(kind: string, subjectTaskId?: string, timeoutMs?: number): Promise<PlanSnapshotDto> {
		return this.waitSnapshot((s) => s.activeCheckpoint?.kind === kind && (subjectTaskId === undefined || s.activeCheckpoint.subjectTaskId === subjectTaskId),
			`active checkpoint ${kind}${subjectTaskId ? ` of ${subjectTaskId}` : ''}`, timeoutMs);
	}

	/** Waits until a settlement checkpoint (active or pending) exists for `taskId`. */
	waitSettlement(taskId: string, timeoutMs?: number): Promise<PlanSnapshotDto> {
		return this.waitSnapshot((s) => s.checkpoints.some((c) => c.subjectTaskId === taskId), `a settlement checkpoint of ${taskId}`, timeoutMs);
	}

	/** `run get`, validated against the protocol's run schema. */
	async run(runId: string): Promise<RunDto> {
		return methods['run/get'].result.parse(expectOk(await this.cli(['run', 'get', '--run-id', runId, '--json'])));
	}

	waitGateStarted(taskId: string): Promise<true> {
		return waitFor(() => this.host.gateStarted(this.issueId, taskId) || undefined, { what: `the gate worker of ${taskId} to start` });
	}

	openGate(taskId: string, code = 0): void {
		this.host.openGate(this.issueId, taskId, code);
	}

	release(): void {
		this.host.releaseIssue(this.issueId);
	}
}

/** Opens a fresh source session and creates a managed issue with it. */
export async function managedIssue(host: HostHandle, title = 'Managed issue', content = 'Reach the goal.'): Promise<ManagedIssue> {
	const source = await openSession(host, 'source');
	const result = await host.cli(['plan', 'issue', 'create', '--title', title, '--content', content, '--request-id', requestId('create'), '--json'], { token: source.token });
	const created = methods['plan/create'].result.parse(expectOk(result));
	host.track(created.issueId);
	return new ManagedIssue(host, created.issueId, source, created);
}

/**
 * `tutti issue create --as-user`: a manual issue. It auto-accepts its tasks unless `autoAccept` is false (the
 * developer's explicit choice, so the tests do not depend on the autoAcceptDefault setting, off by default).
 */
export async function manualIssue(host: HostHandle, title = 'Manual issue', autoAccept = true): Promise<string> {
	const accept = [`--auto-accept=${autoAccept}`];
	const issue = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', title, ...accept, '--as-user', '--json'])));
	host.track(issue.issueId);
	return issue.issueId;
}

/** `tutti issue get --as-user`, validated. */
export async function issueGet(host: HostHandle, issueId: string, options: CliOptions = { asUser: true }): Promise<Result<'issue/get'>> {
	return methods['issue/get'].result.parse(expectOk(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], options)));
}

/** `tutti run get --as-user`, validated. */
export async function runGet(host: HostHandle, runId: string, options: CliOptions = { asUser: true }): Promise<RunDto> {
	return methods['run/get'].result.parse(expectOk(await host.cli(['run', 'get', '--run-id', runId, '--json'], options)));
}

export function sleep(ms: number): Promise<void> {
	return new Promise((r) => setTimeout(r, ms));
}

/** Finds a task in a snapshot or throws. */
export function taskIn(snapshot: PlanSnapshotDto, taskId: string): PlanTaskDto {
	const task = snapshot.tasks.find((t) => t.taskId === taskId);
	if (!task) {
		throw new Error(`task ${taskId} is not in the snapshot (tasks: ${snapshot.tasks.map((t) => t.taskId).join(', ')})`);
	}
	return task;
}

/** The fence of a snapshot's active checkpoint. */
export function fenceOf(snapshot: PlanSnapshotDto, extra: Fence = {}): Fence {
	if (!snapshot.activeCheckpoint) {
		throw new Error(`no active checkpoint (execution ${snapshot.execution.status})`);
	}
	return { checkpointId: snapshot.activeCheckpoint.checkpointId, revision: snapshot.execution.graphRevision, ...extra };
}

/** The deterministic id of an issue's execution. */
export function executionIdOf(issueId: string): string {
	return `tutti-execution:${issueId}`;
}
