// Configured agent targets (`.tutti/config.json` headless, `tutti.agentTargets` in VS Code) and whether each
// one's executable can be found.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { rejection } from '../../core/hints.js';
import type { Result } from '../../protocol/controlPlane.js';
import type { HostConfig } from '../config.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import { canPlan, effectiveApprovals, effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';

type AgentTargetDto = Result<'agent/list'>['agentTargets'][number];

/** The configured target with this id; throws `agent_target_not_found` otherwise. */
export function findAgentTarget(config: HostConfig, agentTargetId: string, ctx: { issueId?: string; taskId?: string } = {}): AgentTargetConfig {
	const target = config.agentTargets.find((t) => t.id === agentTargetId);
	if (!target) {
		const known = config.agentTargets.map((t) => t.id);
		throw rejection(
			'agent_target_not_found',
			`Agent target '${agentTargetId}' is not configured${known.length ? ` (configured: ${known.join(', ')})` : ' (no agent targets are configured)'}.`,
			ctx,
			{ agentTargetId, configured: known },
		);
	}
	return target;
}

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

function describe(target: AgentTargetConfig, workspace: string, pathVariable: string): AgentTargetDto {
	const baseDir = target.cwd ? resolve(workspace, target.cwd) : workspace;
	let name: string;
	switch (target.adapter) {
		case 'command': {
			const first = target.argv?.[0] ?? '';
			// With `shell: true` argv[0] may be a command line: check its first word.
			name = target.shell === true ? (first.trim().split(/\s+/)[0] ?? '') : first;
			if (name === '') {
				return { id: target.id, adapter: target.adapter, found: false, path: '', detail: 'a command target needs a non-empty "argv"', ...placement(target) };
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
	const placed = target.isolation === 'worktree' ? `${found}; each task runs in its own git worktree (.tutti/worktrees/<taskId>)` : found;
	const detail = `${placed}; ${approvalsDetail[effectiveApprovals(target)](target.adapter)}`;
	return { id: target.id, adapter: target.adapter, found: path !== null, path: path ?? '', detail, ...placement(target) };
}

const approvalsDetail: Record<ReturnType<typeof effectiveApprovals>, (adapter: AgentTargetConfig['adapter']) => string> = {
	'ask': () => 'tool calls outside allowedTools ask you (tutti approval list)',
	'allowed-tools-only': () => 'tool calls outside allowedTools are denied without asking',
	'sandbox': (adapter) => adapter === 'codex'
		? 'not asked per tool call: codex exec cannot route approvals to Tutti, it runs under its sandbox setting'
		: 'not asked per tool call',
};

/** The Host resolved the workspace-dependent defaults at start (targetDefaults.ts); a target seen before that runs in place. */
function placement(target: AgentTargetConfig): Pick<AgentTargetDto, 'isolation' | 'onMergeConflict' | 'approvals' | 'messagesWhileRunning' | 'canPlan'> {
	return {
		canPlan: canPlan(target),
		isolation: target.isolation ?? 'none', onMergeConflict: effectiveOnMergeConflict(target), approvals: effectiveApprovals(target),
		messagesWhileRunning: messagesWhileRunning(target.adapter),
	};
}

/**
 * claude reads stream-json messages from the stdin its supervisor keeps open; the pinned `codex exec` reads stdin only
 * up to its end before it starts (test/agents/codexStdin.test.ts), so its messages wait for the next Turn.
 */
export function messagesWhileRunning(adapter: AgentTargetConfig['adapter']): AgentTargetDto['messagesWhileRunning'] {
	switch (adapter) {
		case 'claude': return 'into-turn';
		case 'codex': return 'queued-until-turn-ends';
		case 'command': return 'not-accepted';
	}
}

/** `agent/list`: every configured target, in configuration order, with whether its executable was found. */
export function listAgentTargets(config: HostConfig, workspace: string, pathVariable: string = process.env.PATH ?? ''): AgentTargetDto[] {
	return config.agentTargets.map((t) => describe(t, workspace, pathVariable));
}
