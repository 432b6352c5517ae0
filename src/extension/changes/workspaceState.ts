// What the board, status bar and notifications show, read from the Host in one go: the issues, the execution of
// every active managed issue, the Runs in flight and every agent at work or waiting. vscode-free (unit-tested in test/unit/extension).
import type { Result } from '../../protocol/controlPlane.js';
import type { AgentTurnDto, CheckpointDto, IssueDto, RunDto } from '../../protocol/dto.js';

/**
 * The part of a managed issue's plan snapshot the board's tooltip shows. The execution's status, whether the issue
 * is terminal and its controls come with the issue itself (IssueDto), read in the same pass as its counts.
 */
export interface ExecutionSummary {
	readonly activeCheckpoint: Pick<CheckpointDto, 'kind' | 'sequence' | 'graphRevision'> | null;
	readonly pendingCheckpoints: number;
}

export interface WorkspaceState {
	/** Increases every time the state differs from the one before (first state: 1). */
	readonly version: number;
	readonly issues: readonly IssueDto[];
	/** By issue id: managed issues that are not completed or archived. */
	readonly executions: ReadonlyMap<string, ExecutionSummary>;
	/** Runs whose status is `running`, newest first. */
	readonly runningRuns: readonly RunDto[];
	/** Every agent at work or waiting, as the Host lists them (`turn/list`; empty from a Host without it). */
	readonly agentTurns: readonly AgentTurnDto[];
}

/** The calls `readWorkspaceState` makes (a HostClient satisfies it). */
export interface WorkspaceReader {
	call(method: 'issue/list', params: Record<string, never>): Promise<Result<'issue/list'>>;
	call(method: 'plan/get', params: { issueId: string }): Promise<Result<'plan/get'>>;
	call(method: 'run/list', params: { issueId: string }): Promise<Result<'run/list'>>;
	call(method: 'turn/list', params: Record<string, never>): Promise<Result<'turn/list'>>;
}

export type WorkspaceStateData = Omit<WorkspaceState, 'version'>;

function isActive(issue: IssueDto): boolean {
	return issue.status !== 'completed' && issue.status !== 'archived';
}

export function summarizeExecution(plan: Result<'plan/get'>): ExecutionSummary {
	const active = plan.activeCheckpoint;
	return {
		activeCheckpoint: active ? { kind: active.kind, sequence: active.sequence, graphRevision: active.graphRevision } : null,
		pendingCheckpoints: plan.checkpoints.filter((c) => c.status === 'pending').length,
	};
}

/** One read of everything the sidebar shows. An issue removed between the calls is simply left out. */
export async function readWorkspaceState(client: WorkspaceReader): Promise<WorkspaceStateData> {
	const { issues } = await client.call('issue/list', {});
	const managed = issues.filter((i) => i.planningSource === 'tutti' && isActive(i));
	const busy = issues.filter((i) => i.counts.running > 0);
	const [plans, runLists, turns] = await Promise.all([
		Promise.all(managed.map((i) => client.call('plan/get', { issueId: i.issueId }).catch(() => undefined))),
		Promise.all(busy.map((i) => client.call('run/list', { issueId: i.issueId }).catch(() => undefined))),
		// An owner window of an older version has no turn/list: its Agents view is empty, the rest still shows.
		client.call('turn/list', {}).catch(() => ({ turns: [] })),
	]);
	const executions = new Map<string, ExecutionSummary>();
	managed.forEach((issue, index) => {
		const plan = plans[index];
		if (plan) {
			executions.set(issue.issueId, summarizeExecution(plan));
		}
	});
	const runningRuns = runLists
		.flatMap((list) => list?.runs ?? [])
		.filter((run) => run.status === 'running')
		.sort((a, b) => b.createdAtUnixMs - a.createdAtUnixMs || a.runId.localeCompare(b.runId));
	return { issues, executions, runningRuns, agentTurns: turns.turns };
}

/**
 * A string that changes exactly when something shown changes. Leaves out what changes with the clock alone
 * (a running Run's `durationMs`), so an idle workspace never looks changed.
 */
export function fingerprint(data: WorkspaceStateData): string {
	return JSON.stringify({
		issues: data.issues,
		executions: [...data.executions.entries()].sort(([a], [b]) => a.localeCompare(b)),
		runs: data.runningRuns.map((r) => [r.runId, r.status, r.taskId, r.stopNotes]),
		// Elapsed time is drawn from sinceUnixMs by the view: nothing here moves with the clock alone.
		agents: data.agentTurns,
	});
}
