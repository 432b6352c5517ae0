// The gate worker: a `command` target for tests that waits until a test opens its gate file, then exits
// with the code written in it. Lets a test decide exactly when and how each Run settles.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Opening this file (for the issue) releases every gated Run of that issue. */
export const releaseAllName = '__all__';
const pollMs = 25;
const maxLifetimeMs = 10 * 60_000;

/** The directory that holds one issue's gate files. */
export function gateIssueDir(gateDir: string, issueId: string): string {
	return join(gateDir, issueId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** The file that releases one task's Run; its content is the exit code (empty = 0). */
export function gateFile(gateDir: string, issueId: string, taskId: string): string {
	return join(gateIssueDir(gateDir, issueId), taskId.replace(/[^A-Za-z0-9._-]/g, '_'));
}

/** The marker the worker writes once its process is running. */
export function gateStartedFile(gateDir: string, issueId: string, taskId: string): string {
	return `${gateFile(gateDir, issueId, taskId)}.started`;
}

/**
 * Opens a gate with `code`. Written whole under another name and renamed into place: a worker polling the gate never
 * reads it half-written (an empty file reads as exit 0, so a gate opened with 3 could have exited 0).
 */
export function writeGate(file: string, code: number): void {
	mkdirSync(join(file, '..'), { recursive: true });
	const partial = `${file}.${process.pid}.partial`;
	writeFileSync(partial, String(code));
	renameSync(partial, file);
}

function exitCodeIn(file: string): number | null {
	if (!existsSync(file)) {
		return null;
	}
	const text = readFileSync(file, 'utf8').trim();
	const code = text === '' ? 0 : Number.parseInt(text, 10);
	return Number.isFinite(code) ? code : 0;
}

/** Runs the gate worker; resolves to the exit code. Reads TUTTI_GATE_DIR, TUTTI_ISSUE_ID, TUTTI_TASK_ID. */
export function runGateWorker(env: NodeJS.ProcessEnv): Promise<number> {
	const gateDir = env.TUTTI_GATE_DIR;
	const issueId = env.TUTTI_ISSUE_ID ?? '';
	const taskId = env.TUTTI_TASK_ID ?? '';
	if (!gateDir || !taskId) {
		process.stderr.write('gate worker: TUTTI_GATE_DIR and TUTTI_TASK_ID are required\n');
		return Promise.resolve(64);
	}
	mkdirSync(gateIssueDir(gateDir, issueId), { recursive: true });
	writeFileSync(gateStartedFile(gateDir, issueId, taskId), String(process.pid));
	process.stdout.write(`gate ${taskId}: waiting\n`);
	const own = gateFile(gateDir, issueId, taskId);
	const all = join(gateIssueDir(gateDir, issueId), releaseAllName);
	const startedAt = Date.now();
	return new Promise((resolve) => {
		const timer = setInterval(() => {
			if (!existsSync(gateDir) || Date.now() - startedAt > maxLifetimeMs) {
				// The test workspace is gone (or the test forgot us): do not linger.
				clearInterval(timer);
				resolve(1);
				return;
			}
			const code = exitCodeIn(own) ?? exitCodeIn(all);
			if (code !== null) {
				clearInterval(timer);
				process.stdout.write(`gate ${taskId}: opened, exit ${code}\n`);
				resolve(code);
			}
		}, pollMs);
	});
}
