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

/** The targets with their workspace-dependent defaults written out (the Host resolves them once at start). */
export function withTargetDefaults(targets: readonly AgentTargetConfig[], gitWorkspace: boolean): AgentTargetConfig[] {
	return targets.map((t) => ({ ...t, isolation: effectiveIsolation(t, gitWorkspace), onMergeConflict: effectiveOnMergeConflict(t) }));
}
