// Shared helpers for the Run process tests: a supervisor bundle built into a temp dir, temp workspaces,
// and waits that end on a condition (never on elapsed time alone).
import * as esbuild from 'esbuild';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ProcessRunner } from '../../../src/host/runs/processRunner.js';
import { readPidRecord } from '../../../src/supervisor/runFiles.js';
import type { AgentTargetConfig, RunExit, RunLaunchSpec } from '../../../src/core/runs/runProcessPort.js';
import { waitFor } from '../../waitFor.js';

export const repoRoot = resolve(__dirname, '../../..');

/** `--import <tsx>` as an absolute URL, so it resolves from any cwd. */
export function tsxNodeArgs(): string[] {
	const require = createRequire(join(repoRoot, 'package.json'));
	return ['--import', pathToFileURL(require.resolve('tsx')).href];
}

/** Bundles src/supervisor/main.ts like esbuild.mjs does, into `dir`. */
export async function buildSupervisor(dir: string): Promise<string> {
	const outfile = join(dir, 'supervisor.js');
	await esbuild.build({
		entryPoints: [join(repoRoot, 'src/supervisor/main.ts')],
		outfile, bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error',
	});
	await esbuild.stop(); // end esbuild's service process now, while this process can still reap it
	return outfile;
}

/** A stand-in for dist/cli.js that prints its argv as one JSON line (with `withRunId`, also the Run's TUTTI_RUN_ID). */
export function writeFakeCli(dir: string, options: { withRunId?: boolean } = {}): string {
	const path = join(dir, 'fake-cli.js');
	const report = options.withRunId ? '{ cli: process.argv.slice(2), run: process.env.TUTTI_RUN_ID }' : '{ cli: process.argv.slice(2) }';
	writeFileSync(path, `process.stdout.write(JSON.stringify(${report}) + "\\n");\n`);
	return path;
}

export interface RunBuild {
	/** The build directory (removed after the block). */
	readonly path: string;
	readonly supervisorScript: string;
	readonly cliScript: string;
	/** Where the `tutti` shim goes: a private directory of the build, outside every workspace (as a Host's is). */
	readonly shimDir: string;
}

/**
 * The supervisor bundle and a fake CLI, built once for the tests of a `describe` block (call it there) and handed to
 * `use`; the directory is removed after the last test.
 */
export function shareRunBuild(prefix: string, use: (build: RunBuild) => void, fakeCli: { withRunId?: boolean } = {}): void {
	let dir: ReturnType<typeof makeTempDir> | undefined;
	before(async () => {
		dir = makeTempDir(prefix);
		use({ path: dir.path, supervisorScript: await buildSupervisor(dir.path), cliScript: writeFakeCli(dir.path, fakeCli), shimDir: join(dir.path, 'shim') });
	});
	after(() => dir?.remove());
}

export function makeTempDir(prefix: string): { path: string; remove: () => void } {
	const path = mkdtempSync(join(tmpdir(), prefix));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

export function nodeTarget(script: string, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	return { id: 'node', adapter: 'command', argv: [process.execPath, '-e', script], ...extra };
}

export function launchSpec(runId: string, target: AgentTargetConfig, cwd: string, more: Partial<RunLaunchSpec> = {}): RunLaunchSpec {
	return {
		runId, issueId: 'issue-1', taskId: `task-${runId}`, target, cwd, stdinText: '',
		env: { TUTTI_RUN_ID: runId, TUTTI_ISSUE_ID: 'issue-1', TUTTI_TASK_ID: `task-${runId}`, TUTTI_SESSION_TOKEN: `agent-token-${runId}` },
		...more,
	};
}

/** Collects every onExit event of a runner. */
export function recordExits(runner: ProcessRunner): RunExit[] {
	const exits: RunExit[] = [];
	runner.onExit((e) => exits.push(e));
	return exits;
}

export function exitOf(exits: RunExit[], runId: string): Promise<RunExit> {
	return waitFor(() => exits.find((e) => e.runId === runId), { what: `the exit of ${runId}` });
}

/** Waits until the Run's stdout contains `text`. */
export function stdoutContains(runner: ProcessRunner, runId: string, text: string): Promise<true> {
	const stdout = (): string => runner.readLog(runId, 'stdout', 0, 1_000_000).data;
	return waitFor(() => (stdout().includes(text) ? true : undefined), { what: `"${text}" on the stdout of ${runId}`, detail: () => `stdout: ${stdout().slice(-500)}` });
}

/** SIGKILLs every supervisor and agent process group recorded under `<tuttiDir>/runs` (test cleanup). */
export function killAllRuns(tuttiDir: string): void {
	const runsDir = join(tuttiDir, 'runs');
	if (!existsSync(runsDir)) { return; }
	for (const runId of readdirSync(runsDir)) {
		const pid = readPidRecord(join(runsDir, runId));
		if (pid === null) { continue; }
		for (const target of [-pid.agentPgid, pid.agentPid, pid.supervisorPid]) {
			try { process.kill(target, 'SIGKILL'); } catch { /* already gone */ }
		}
	}
}
