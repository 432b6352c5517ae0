// Shared helpers for the agent tier: the pinned CLIs, temp workspaces and config dirs, an environment
// isolated from the developer's own (no real credentials or config ever reach a test agent), and a runner
// that spawns an agent with stdin /dev/null and collects its output.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentCommand } from '../../src/agents/adapter.js';
import { claudeOutputSignal, claudeUserMessageLine } from '../../src/core/runs/liveInput.js';
import type { AgentTargetConfig, RunLaunchSpec } from '../../src/core/runs/runProcessPort.js';

export const repoRoot = resolve(__dirname, '../..');

/** The pinned Claude Code CLI (devDependency @anthropic-ai/claude-code). */
export const claudeBin = join(repoRoot, 'node_modules', '.bin', 'claude');
/** The pinned Codex CLI (devDependency @openai/codex). */
export const codexBin = join(repoRoot, 'node_modules', '.bin', 'codex');

export const pinnedVersions = { claude: '2.1.197', codex: '0.171.0' } as const;

export interface TempDir {
	path: string;
	remove: () => void;
}

export function makeTempDir(prefix: string): TempDir {
	const path = mkdtempSync(join(tmpdir(), prefix));
	return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Host variables a test agent must never see: provider credentials/config and Tutti's own. */
const isolatedPrefixes = ['ANTHROPIC_', 'CLAUDE', 'OPENAI_', 'CODEX_', 'TUTTI_', 'AWS_', 'GOOGLE_', 'VERTEX_', 'BEDROCK_'];

/** process.env without provider credentials, provider config or TUTTI_* variables, and with HOME set to `home`. */
export function isolatedEnv(home: string): Record<string, string> {
	const env: Record<string, string> = {};
	for (const [k, v] of Object.entries(process.env)) {
		if (v === undefined) { continue; }
		const upper = k.toUpperCase();
		if (isolatedPrefixes.some((p) => upper.startsWith(p)) || upper === 'ELECTRON_RUN_AS_NODE') { continue; }
		env[k] = v;
	}
	env.HOME = home;
	return env;
}

/**
 * The environment that points Claude Code at a scripted server: a test key, no
 * non-essential traffic, no auto-update, retries off, a Bash timeout that kills instead of backgrounding, and
 * its own config dir (sessions, snapshots, settings).
 */
export function claudeEnv(serverUrl: string, configDir: string, extra: Record<string, string> = {}): Record<string, string> {
	return {
		ANTHROPIC_BASE_URL: serverUrl,
		ANTHROPIC_API_KEY: 'sk-test',
		CLAUDE_CONFIG_DIR: configDir,
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
		DISABLE_AUTOUPDATER: '1',
		CLAUDE_CODE_MAX_RETRIES: '0',
		CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1',
		...extra,
	};
}

/** A scratch area for one agent test: a workspace (the agent's cwd) and a home with a claude config dir. */
export interface AgentSandbox {
	root: string;
	workspace: string;
	home: string;
	claudeConfigDir: string;
	remove: () => void;
}

export function makeAgentSandbox(prefix = 'tutti-agent-'): AgentSandbox {
	const dir = makeTempDir(prefix);
	const workspace = join(dir.path, 'ws');
	const home = join(dir.path, 'home');
	const claudeConfigDir = join(home, 'claude-config');
	for (const d of [workspace, home, claudeConfigDir]) { mkdirSync(d, { recursive: true }); }
	return { root: dir.path, workspace, home, claudeConfigDir, remove: dir.remove };
}

/** A claude target that runs the pinned CLI against `serverUrl`. */
export function claudeTestTarget(serverUrl: string, sandbox: AgentSandbox, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	const { env, ...rest } = extra;
	return { id: 'claude-test', adapter: 'claude', path: claudeBin, ...rest, env: claudeEnv(serverUrl, sandbox.claudeConfigDir, env) };
}

/** A launch spec for one Turn of a claude/codex target. */
export function agentLaunchSpec(runId: string, target: AgentTargetConfig, cwd: string, turn: RunLaunchSpec['turn']): RunLaunchSpec {
	return {
		runId, issueId: 'issue-1', taskId: `task-${runId}`, target, cwd, stdinText: '',
		env: { TUTTI_RUN_ID: runId, TUTTI_ISSUE_ID: 'issue-1', TUTTI_TASK_ID: `task-${runId}` },
		...(turn !== undefined ? { turn } : {}),
	};
}

export interface AgentRun {
	child: ChildProcess;
	/** Resolves when the process has exited and its output is complete. */
	done: Promise<AgentResult>;
	/** Output so far. */
	stdout: () => string;
}

export interface AgentResult {
	code: number | null;
	signal: NodeJS.Signals | null;
	stdout: string;
	stderr: string;
}

/**
 * Spawns an agent with stdin /dev/null in its own process group, collecting stdout and stderr. The process is
 * SIGKILLed (group) after `killAfterMs` so a broken CLI cannot hang the suite.
 */
export function spawnAgent(file: string, args: string[], cwd: string, env: Record<string, string>, killAfterMs = 60_000, livePrompt?: string): AgentRun {
	const live = livePrompt !== undefined;
	const child = spawn(file, args, { cwd, env, stdio: [live ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
	let stdout = '';
	let stderr = '';
	if (live) {
		// As the Run's supervisor does: the prompt is the first stream-json message; stdin closes at the result line.
		child.stdin!.on('error', () => undefined);
		child.stdin!.write(claudeUserMessageLine(randomUUID(), livePrompt));
	}
	child.stdout!.setEncoding('utf8').on('data', (c: string) => {
		stdout += c;
		if (live && !child.stdin!.writableEnded && stdout.split('\n').some((l) => claudeOutputSignal(l)?.kind === 'result')) { child.stdin!.end(); }
	});
	child.stderr!.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
	const guard = setTimeout(() => killGroup(child), killAfterMs);
	const done = new Promise<AgentResult>((resolveDone, reject) => {
		child.once('error', (e) => { clearTimeout(guard); reject(e); });
		child.once('close', (code, signal) => {
			clearTimeout(guard);
			resolveDone({ code, signal, stdout, stderr });
		});
	});
	return { child, done, stdout: () => stdout };
}

/** Spawns an adapter's command the way the supervisor does (a live stdin gets the prompt, closed at the result line). */
export function spawnCommand(command: AgentCommand, cwd: string, env: Record<string, string>, killAfterMs = 60_000): AgentRun {
	return spawnAgent(command.file, command.args, cwd, env, killAfterMs, command.stdin === 'live' ? command.livePrompt ?? '' : undefined);
}

/** SIGKILLs the agent's process group (test cleanup). */
export function killGroup(child: ChildProcess): void {
	if (child.pid === undefined) { return; }
	try { process.kill(-child.pid, 'SIGKILL'); } catch { /* already gone */ }
}

/** The JSON lines of a stream-json / JSONL output (garbage lines skipped). */
export function jsonLines(text: string): Record<string, unknown>[] {
	const out: Record<string, unknown>[] = [];
	for (const line of text.split('\n')) {
		try {
			const v: unknown = JSON.parse(line);
			if (typeof v === 'object' && v !== null && !Array.isArray(v)) { out.push(v as Record<string, unknown>); }
		} catch { /* not JSON */ }
	}
	return out;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
