// One check's process: its argv (never a shell string built from task text; `shell: true` runs the developer's one
// command line), in its own process group so a timeout ends everything it started, its output appended to the Run's
// stderr log and its last lines kept. The executable is looked up as an agent's is (absolute PATH entries outside
// `.tutti/` only; nothing inside `.tutti/` runs), so repository content never stands in for the developer's tools.
import { spawn } from 'node:child_process';
import { appendFileSync, mkdirSync } from 'node:fs';
import { delimiter, dirname } from 'node:path';
import { type CheckResult, type CheckSpec, checkEndText, outputTail } from '../../core/checks/checks.js';
import { processStartTicks } from '../../supervisor/processTable.js';
import { resolveExecutable, trustedPathEntries, tuttiDirExecutableProblem } from '../runs/executablePath.js';

export interface CheckRunInput {
	check: CheckSpec;
	index: number;
	/** Where it runs: the task's tree, or the workspace for a Run in the shared folder. */
	cwd: string;
	/** The workspace's `.tutti/` directory (nothing in it runs). */
	tuttiDir: string;
	/** The Run's stderr log (appended), or null. */
	logFile: string | null;
	/** The environment it runs with (the Host's, without any session's values, plus what names the task). */
	env: NodeJS.ProcessEnv;
	now(): number;
	/** Told the process id and its start time once it runs (before any output is read). */
	onSpawn(pid: number, startTicks: string): void;
}

export interface RunningCheck {
	readonly done: Promise<Omit<CheckResult, 'interrupted'>>;
	/** Ends the check's process group now (the Host is closing: the check runs again at its next start). */
	kill(): void;
}

/** How much output is kept in memory for the tail (the log keeps all of it). */
const keptOutputChars = 64_000;

export function appendLog(logFile: string | null, text: string): void {
	if (logFile === null) { return; }
	try {
		mkdirSync(dirname(logFile), { recursive: true, mode: 0o700 });
		appendFileSync(logFile, text, { mode: 0o600 });
	} catch { /* the log is best effort; the tail is recorded with the result */ }
}

function killGroup(pid: number | undefined): void {
	if (pid === undefined) { return; }
	try { process.kill(-pid, 'SIGKILL'); } catch { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
}

/** The environment of a check: the Host's without a session's token or id, PATH reduced to trusted entries. */
export function checkEnvironment(hostEnv: NodeJS.ProcessEnv, tuttiDir: string, names: Record<string, string>): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...hostEnv };
	for (const key of ['TUTTI_SESSION_TOKEN', 'TUTTI_SESSION_ID']) { delete env[key]; }
	env.PATH = trustedPathEntries(hostEnv.PATH, tuttiDir).join(delimiter);
	return { ...env, ...names };
}

export function startCheck(input: CheckRunInput): RunningCheck {
	const { check, index } = input;
	const startedAt = input.now();
	const label = `[check ${check.name}]`;
	appendLog(input.logFile, `${label} $ ${check.shell ? check.argv[0] : check.argv.map((a) => JSON.stringify(a)).join(' ')}\n`);
	const base = { index, name: check.name, signal: '', startedAtUnixMs: startedAt };
	const ended = (fields: Partial<Omit<CheckResult, 'interrupted'>>, text: string): Omit<CheckResult, 'interrupted'> => {
		const endedAt = input.now();
		const result = { ...base, exitCode: null, timedOut: false, error: '', outputTail: outputTail(text), durationMs: Math.max(0, endedAt - startedAt), endedAtUnixMs: endedAt, ...fields };
		appendLog(input.logFile, `${label} ${result.exitCode === 0 && !result.timedOut && result.error === '' ? 'passed' : checkEndText(result, check.timeoutSeconds)} after ${(result.durationMs / 1000).toFixed(1)} s\n`);
		return result;
	};
	const [file, ...args] = check.argv;
	const executable = check.shell ? file! : resolveExecutable(file!, trustedPathEntries(input.env.PATH, input.tuttiDir));
	const refused = check.shell ? null : tuttiDirExecutableProblem(executable, input.cwd, input.tuttiDir);
	if (refused !== null) {
		return { done: Promise.resolve(ended({ error: refused }, '')), kill: () => undefined };
	}
	let output = '';
	let child: ReturnType<typeof spawn>;
	try {
		child = spawn(executable, check.shell ? [] : args, { cwd: input.cwd, env: input.env, shell: check.shell, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
	} catch (e) {
		return { done: Promise.resolve(ended({ error: (e as Error).message }, '')), kill: () => undefined };
	}
	let killed = false;
	const done = new Promise<Omit<CheckResult, 'interrupted'>>((resolve) => {
		let timedOut = false;
		let finished = false;
		// 'error' and 'close' may both come: the first one ends the check.
		const finish = (fields: Partial<Omit<CheckResult, 'interrupted'>>): void => {
			if (finished) { return; }
			finished = true;
			clearTimeout(timer);
			resolve(ended(fields, output));
		};
		const timer = setTimeout(() => { timedOut = true; killGroup(child.pid); }, check.timeoutSeconds * 1000);
		const keep = (chunk: Buffer): void => {
			const text = chunk.toString('utf8');
			appendLog(input.logFile, text);
			output = (output + text).slice(-keptOutputChars);
		};
		child.stdout?.on('data', keep);
		child.stderr?.on('data', keep);
		child.once('spawn', () => {
			if (child.pid !== undefined) { input.onSpawn(child.pid, processStartTicks(child.pid) ?? ''); }
		});
		child.once('error', (e) => { finish({ error: e.message }); });
		child.once('close', (code, signal) => {
			// A group member that outlives the check's own process would hold the tree: it ends with the check.
			killGroup(child.pid);
			finish({ exitCode: timedOut || killed ? null : code, signal: signal ?? '', timedOut });
		});
	});
	return { done, kill: () => { killed = true; killGroup(child.pid); } };
}
