// The attention state a test's issue would carry, derived by the core rule (src/core/attention/attention.ts) from
// facts synthesized out of the builder's task statuses, so builders stay short and the state is the Host's own.
import { type Attention, type AttentionInput, issueAttention, type SourceSessionFacts } from '../../src/core/attention/attention.js';
import type { ExecutionStatus, IssueStatus, TaskStatus } from '../../src/core/model.js';

export interface AttentionFixture {
	issueStatus: IssueStatus;
	executionStatus: ExecutionStatus | null;
	dispatchPaused: boolean;
	/** The live tasks' statuses, by task id. */
	tasks: readonly { taskId: string; title?: string; status: TaskStatus }[];
	/** The managed issue's source session (default: in a terminal, in touch now, waiting in nothing). */
	source?: Partial<SourceSessionFacts> | null;
	activeCheckpoint?: { kind: string; createdAtUnixMs: number } | null;
	nowUnixMs?: number;
	changedAfterAcceptance?: readonly string[];
}

export function attentionFor(f: AttentionFixture): Attention {
	const now = f.nowUnixMs ?? 1_000;
	const managed = f.executionStatus !== null;
	const input: AttentionInput = {
		facts: {
			issueId: 'fixture', issueStatus: f.issueStatus,
			execution: managed ? { status: f.executionStatus!, createdAtUnixMs: 1, updatedAtUnixMs: now, completedAtUnixMs: 0 } : null,
			activeCheckpoint: f.activeCheckpoint ? { checkpointId: 'cp', kind: f.activeCheckpoint.kind, createdAtUnixMs: f.activeCheckpoint.createdAtUnixMs } : null,
			lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
			tasks: f.tasks.map((t) => ({ taskId: t.taskId, title: t.title ?? t.taskId, status: t.status, acceptanceState: '', superseded: false, updatedAtUnixMs: 1 })),
			changeRequests: [], finishedAtUnixMs: 0, lastChangeUnixMs: now,
		},
		dispatchPaused: f.dispatchPaused,
		latestRuns: new Map(),
		source: managed && f.source !== null
			? { sessionId: 's1', wakesDelivered: false, waitingIn: '', waitingSinceUnixMs: 0, lastContactUnixMs: now, turnRunning: false, activeWake: null, ...f.source }
			: null,
		nowUnixMs: now,
		...(f.changedAfterAcceptance ? { changedAfterAcceptance: f.changedAfterAcceptance } : {}),
	};
	return issueAttention(input);
}

/** Task statuses from status counts (ids t0, t1, …). */
export function tasksFromCounts(counts: Readonly<Record<'notStarted' | 'running' | 'pendingAcceptance' | 'completed' | 'failed' | 'canceled', number>>): { taskId: string; status: TaskStatus }[] {
	const statuses: [keyof typeof counts, TaskStatus][] = [
		['notStarted', 'not_started'], ['running', 'running'], ['pendingAcceptance', 'pending_acceptance'], ['completed', 'completed'], ['failed', 'failed'], ['canceled', 'canceled'],
	];
	const out: { taskId: string; status: TaskStatus }[] = [];
	for (const [key, status] of statuses) {
		for (let i = 0; i < counts[key]; i++) { out.push({ taskId: `t${out.length}`, status }); }
	}
	return out;
}
