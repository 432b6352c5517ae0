// The defaults of an agent target that depend on its adapter and on the workspace: parallel agents must not share
// a folder, so claude and codex targets run each task in its own git worktree when the workspace is a git
// repository; command targets keep running in place. A target that says either keeps it.
import type { AgentTargetConfig } from './runProcessPort.js';

export function effectiveIsolation(target: Pick<AgentTargetConfig, 'adapter' | 'isolation'>, gitWorkspace: boolean): 'none' | 'worktree' {
	if (target.isolation !== undefined) { return target.isolation; }
	return gitWorkspace && target.adapter !== 'command' ? 'worktree' : 'none';
}

export function effectiveOnMergeConflict(target: Pick<AgentTargetConfig, 'adapter' | 'onMergeConflict'>): 'fail' | 'agent' {
	return target.onMergeConflict ?? (target.adapter === 'command' ? 'fail' : 'agent');
}

/** How a target's agent gets permission for a tool call outside its allowed tools. */
export type EffectiveApprovals = 'ask' | 'allowed-tools-only' | 'sandbox';

/**
 * claude and codex app-server: `ask` unless the target says `allowed-tools-only` (codex: a command it asks to run
 * outside its sandbox, a file change or a question waits for the developer). codex exec: `sandbox` — the pinned `codex
 * exec` cannot route an approval to another program (test/agents/codexApprovals.test.ts pins it), so it runs under its
 * sandbox setting and is never asked per call; so does a Codex without app-server (`hasAppServer` false: its Runs fall
 * back to exec). command targets have no tools to approve (`sandbox` too: nothing is asked).
 */
export function effectiveApprovals(target: Pick<AgentTargetConfig, 'adapter' | 'approvals' | 'protocol'>, hasAppServer: boolean | null = null): EffectiveApprovals {
	if (target.adapter === 'command') { return 'sandbox'; }
	if (target.adapter === 'codex' && effectiveCodexProtocol(target, hasAppServer) === 'exec') { return 'sandbox'; }
	return target.approvals ?? 'ask';
}

/**
 * Whether a target can plan an issue as its source agent: claude and codex read the wake prompts and drive the plan
 * with `tutti`; a command target runs one fixed program and its exit code decides, so it runs tasks only.
 */
export function canPlan(target: Pick<AgentTargetConfig, 'adapter'>): boolean {
	return target.adapter !== 'command';
}

/** The targets with their workspace-dependent defaults written out (the Host resolves them once at start). */
export function withTargetDefaults(targets: readonly AgentTargetConfig[], gitWorkspace: boolean): AgentTargetConfig[] {
	return targets.map((t) => ({ ...t, isolation: effectiveIsolation(t, gitWorkspace), onMergeConflict: effectiveOnMergeConflict(t) }));
}

/**
 * The protocol a codex target's Runs speak: `exec` when the target says so or when its Codex has no app-server
 * (`hasAppServer` false: the supervisor then falls back to exec); otherwise `app-server` (also while unknown).
 */
export function effectiveCodexProtocol(target: Pick<AgentTargetConfig, 'protocol'>, hasAppServer: boolean | null = null): 'app-server' | 'exec' {
	return target.protocol === 'exec' || hasAppServer === false ? 'exec' : 'app-server';
}
