// Configured agent targets (`.tutti/config.json` headless, `tutti.agentTargets` in VS Code), whether each one's
// executable can be found, and for codex targets whether that Codex has `app-server` (asked once per executable).
import { spawn } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { Result } from '../../protocol/controlPlane.js';
import type { HostConfig } from '../config.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import { canPlan, effectiveApprovals, effectiveCodexProtocol, effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';

type AgentTargetDto = Result<'agent/list'>['agentTargets'][number];

function isExecutableFile(path: string): boolean {
	try {
		if (!statSync(path).isFile()) { return false; }
		accessSync(path, process.platform === 'win32' ? constants.F_OK : constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

const windowsExtensions = (): string[] => (process.env.PATHEXT ?? '.EXE;.CMD;.BAT;.COM').split(';').filter((e) => e !== '');

/** Resolves an executable like a shell would: a path (relative to `baseDir`) or a name on PATH. */
export function resolveExecutable(name: string, baseDir: string, pathVariable: string = process.env.PATH ?? ''): string | null {
	if (name === '') { return null; }
	const candidates = (p: string): string[] => (process.platform === 'win32' ? [p, ...windowsExtensions().map((e) => p + e)] : [p]);
	if (isAbsolute(name) || name.includes('/') || (process.platform === 'win32' && name.includes('\\'))) {
		const full = resolve(baseDir, name);
		return candidates(full).find(isExecutableFile) ?? null;
	}
	for (const dir of pathVariable.split(delimiter)) {
		if (dir === '') { continue; }
		const found = candidates(join(dir, name)).find(isExecutableFile);
		if (found) { return found; }
	}
	return null;
}

function describe(target: AgentTargetConfig, workspace: string, pathVariable: string, hasAppServer: (path: string) => boolean | null = () => null): AgentTargetDto {
	const baseDir = target.cwd ? resolve(workspace, target.cwd) : workspace;
	let name: string;
	switch (target.adapter) {
		case 'command': {
			const first = target.argv?.[0] ?? '';
			// With `shell: true` argv[0] may be a command line: check its first word.
			name = target.shell === true ? (first.trim().split(/\s+/)[0] ?? '') : first;
			if (name === '') {
				return { id: target.id, adapter: target.adapter, found: false, path: '', detail: 'a command target needs a non-empty "argv"', ...placement(target, null) };
			}
			break;
		}
		case 'claude':
		case 'codex':
			name = target.path ?? target.adapter;
			break;
	}
	const path = resolveExecutable(name, baseDir, pathVariable);
	const found = path !== null
		? (target.shell === true ? `runs through the shell; ${name} found` : `found ${name}`)
		: (name.includes('/') ? `${name} is not an executable file` : `${name} is not on PATH`);
	const placed = target.isolation === 'worktree' ? `${found}; each task runs in its own git worktree (.tutti/worktrees/<issueId>/<taskId>)` : found;
	const appServer = target.adapter === 'codex' && path !== null && target.protocol !== 'exec' ? hasAppServer(path) : null;
	const detail = `${placed}; ${target.adapter === 'codex' ? codexDetail(target, appServer) : approvalsDetail[effectiveApprovals(target)]}`;
	return { id: target.id, adapter: target.adapter, found: path !== null, path: path ?? '', detail, ...placement(target, appServer) };
}

const approvalsDetail: Record<ReturnType<typeof effectiveApprovals>, string> = {
	'ask': 'tool calls outside allowedTools ask you (tutti approval list)',
	'allowed-tools-only': 'tool calls outside allowedTools are denied without asking',
	'sandbox': 'not asked per tool call',
};

function codexDetail(target: AgentTargetConfig, hasAppServer: boolean | null): string {
	const sandbox = 'not asked per tool call: it runs under its sandbox setting';
	if (target.protocol === 'exec') { return `runs as codex exec (protocol "exec"); ${sandbox}, and messages wait for the turn to end`; }
	if (hasAppServer === false) {
		return `this Codex has no app-server: its Runs fall back to codex exec (${sandbox}, and messages wait for the turn to end); update Codex, or set "protocol": "exec"`;
	}
	if (effectiveApprovals(target, hasAppServer) === 'ask') {
		return 'runs through codex app-server: a command it asks to run outside its sandbox, a file change or a question asks you (tutti approval list); messages go into the running turn';
	}
	return `runs through codex app-server (messages go into the running turn); ${sandbox}`;
}

/** The Host resolved the workspace-dependent defaults at start (targetDefaults.ts); a target seen before that runs in place. */
function placement(target: AgentTargetConfig, hasAppServer: boolean | null): Pick<AgentTargetDto, 'isolation' | 'onMergeConflict' | 'approvals' | 'messagesWhileRunning' | 'protocol' | 'canPlan'> {
	return {
		canPlan: canPlan(target),
		isolation: target.isolation ?? 'none', onMergeConflict: effectiveOnMergeConflict(target), approvals: effectiveApprovals(target, hasAppServer),
		messagesWhileRunning: messagesWhileRunning(target, hasAppServer),
		...(target.adapter === 'codex' ? { protocol: effectiveCodexProtocol(target, hasAppServer) } : {}),
	};
}

/**
 * claude reads stream-json messages from the stdin its supervisor keeps open, and codex app-server takes them with
 * `turn/steer`; `codex exec` reads stdin only up to its end before it starts (test/agents/codexStdin.test.ts), so its
 * messages wait for the next Turn.
 */
export function messagesWhileRunning(target: Pick<AgentTargetConfig, 'adapter' | 'protocol'>, hasAppServer: boolean | null = null): AgentTargetDto['messagesWhileRunning'] {
	switch (target.adapter) {
		case 'claude': return 'into-turn';
		case 'codex': return effectiveCodexProtocol(target, hasAppServer) === 'app-server' ? 'into-turn' : 'queued-until-turn-ends';
		case 'command': return 'not-accepted';
	}
}

/** `agent/list` without asking any Codex about app-server: every configured target, in configuration order. */
export function listAgentTargets(config: HostConfig, workspace: string, pathVariable: string = process.env.PATH ?? ''): AgentTargetDto[] {
	return config.agentTargets.map((t) => describe(t, workspace, pathVariable));
}

/** Runs `<codex> app-server --help` (bounded): true when it is the app-server's help, false when not, null when it cannot tell. */
export function askCodexForAppServer(path: string, timeoutMs = 10_000): Promise<boolean | null> {
	return new Promise((resolveAnswer) => {
		let out = '';
		let child;
		try {
			child = spawn(path, ['app-server', '--help'], { stdio: ['ignore', 'pipe', 'ignore'], windowsHide: true });
		} catch {
			resolveAnswer(null);
			return;
		}
		const timer = setTimeout(() => { child.kill('SIGKILL'); resolveAnswer(null); }, timeoutMs);
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { out += chunk; });
		child.once('error', () => { clearTimeout(timer); resolveAnswer(null); });
		child.once('close', (code) => { clearTimeout(timer); resolveAnswer(code === 0 ? /Usage: \S*codex\S* app-server/.test(out) : code === null ? null : false); });
	});
}

/** `agent/list`: every configured target; each codex executable is asked about app-server once (per file version). */
export class AgentTargetList {
	readonly #answers = new Map<string, Promise<boolean | null>>();

	constructor(private readonly deps: { config: HostConfig; workspace: string; pathVariable?: () => string; ask?: (path: string) => Promise<boolean | null> }) {}

	async list(): Promise<AgentTargetDto[]> {
		const pathVariable = this.deps.pathVariable?.() ?? process.env.PATH ?? '';
		const plain = listAgentTargets(this.deps.config, this.deps.workspace, pathVariable);
		const known = new Map<string, boolean | null>();
		await Promise.all(plain.filter((t) => t.adapter === 'codex' && t.found && t.protocol === 'app-server').map(async (t) => { known.set(t.path, await this.#ask(t.path)); }));
		return this.deps.config.agentTargets.map((t) => describe(t, this.deps.workspace, pathVariable, (path) => known.get(path) ?? null));
	}

	#ask(path: string): Promise<boolean | null> {
		let version = '';
		try { const st = statSync(path); version = `${st.mtimeMs}:${st.size}`; } catch { /* asked anyway */ }
		const key = `${path}\0${version}`;
		let answer = this.#answers.get(key);
		if (answer === undefined) {
			answer = (this.deps.ask ?? askCodexForAppServer)(path);
			this.#answers.set(key, answer);
		}
		return answer;
	}
}
