// What the Issue panel needs from the Host. The extension wires it to the in-process Host's method handlers
// (src/protocol/hostApi.ts) with caller {kind:'user'}; tests pass a fake. No 'vscode' here, so it stays testable.
import type { IssueWithTasksDto, PlanSnapshotDto, RunDto, TranscriptEntryDto } from '../../protocol/dto.js';
import type { PanelAgentTarget } from '../../protocol/webview.js';

export interface PanelHostApi {
	/** `issue/get`: the issue with its active tasks, their readiness and its controls. Rejects when the issue is unknown. */
	issue(issueId: string): Promise<IssueWithTasksDto>;
	/** `plan/get` for a managed (`tutti`) issue; null for a manual one. Called only for managed issues. */
	planSnapshot(issueId: string): Promise<PlanSnapshotDto | null>;
	/** `run/list`: every Run of the issue. */
	runs(issueId: string): Promise<{ readonly runs: readonly RunDto[] }>;
	/**
	 * Optional `run/transcript` (no live transcript without it): the Run's readable transcript from `offset` (stdout) and
	 * `stderrOffset` (stderr, interleaved), whole lines, and where to go on from.
	 */
	transcript?(runId: string, offset: number, stderrOffset: number): Promise<{
		readonly entries: readonly TranscriptEntryDto[]; readonly nextOffset: number; readonly stderrNextOffset: number; readonly done: boolean;
	}>;
	/** Optional `agent/list`: the agents the task form offers (absent: the form has none to offer). */
	agentTargets?(): Promise<PanelAgentTarget[]>;
	/** Optional: the developer's comments on the task's diff, sent with Request changes. */
	reviewComments?(taskId: string): readonly { readonly path: string; readonly line: number; readonly text: string }[];
	/** Fires after any committed change to the store, from any source (CLI, agents, UI). Coalesced by the panel. */
	onDidChange(listener: () => void): { dispose(): void };
	/**
	 * Optional: whether the issue's source agent is attached and waiting (fresh heartbeat); null or absent when
	 * unknown, and the panel then reads the active wake's delivery state.
	 */
	agentWaiting?(issueId: string): boolean | null;
	/** Optional clock (Unix ms) for running durations; Date.now by default. */
	now?(): number;
}
