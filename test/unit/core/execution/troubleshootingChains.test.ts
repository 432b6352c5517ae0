// The chains of the troubleshooting document, composed from the pure rules only (the Host conformance suite runs
// them end to end). Each step does what the Host transaction does, using the core functions for every decision.
import { strict as assert } from 'node:assert';
import { allowedActions, canAcknowledge } from '../../../../src/core/execution/allowedActions.js';
import {
	hasLaterPending, nextSequence, promoteOldestPending, settlementKindFor, shouldCreateTerminalCheckpoint, staleTerminalCheckpointIds,
	terminalCheckpointAction,
} from '../../../../src/core/execution/backlog.js';
import { checkFences } from '../../../../src/core/execution/fences.js';
import { projectedAcceptedTaskId, readyTaskIds } from '../../../../src/core/graph/blockers.js';
import { applyMutationGraph } from '../../../../src/core/graph/mutation.js';
import { runCheckpointId, terminalCheckpointId } from '../../../../src/core/ids.js';
import type { Checkpoint, Execution, Run, Task } from '../../../../src/core/model.js';
import { checkpoint, done, execution, run, task } from '../builders.js';

const EX = 'tutti-execution:I1';

class World {
	execution: Execution = execution({ status: 'running', graphRevision: 3, activeCheckpointId: '' });
	checkpoints: Checkpoint[] = [];
	runs: Run[] = [];
	constructor(public tasks: Task[]) {}

	active(): Checkpoint | null { return this.checkpoints.find((c) => c.status === 'active') ?? null; }
	byId(id: string): Checkpoint { return this.checkpoints.find((c) => c.checkpointId === id)!; }

	activate(c: Checkpoint | null): void {
		this.execution.activeCheckpointId = c?.checkpointId ?? '';
		if (c?.kind === 'all_tasks_terminal') { this.execution.status = 'pending_goal_review'; } else { this.execution.status = c ? 'awaiting_main' : 'running'; }
	}

	/** Run settlement: its checkpoint (active when none is, else pending), then the terminal singleton if due. */
	settle(runId: string, status: 'completed' | 'failed' | 'canceled'): void {
		const r = this.runs.find((x) => x.runId === runId)!;
		r.status = status;
		const t = this.tasks.find((x) => x.taskId === r.taskId)!;
		t.status = status === 'completed' && !t.autoAccept ? 'pending_acceptance' : status;
		const active = this.active();
		const cp = checkpoint({
			checkpointId: runCheckpointId(EX, runId), kind: settlementKindFor(status)!, status: active ? 'pending' : 'active',
			sequence: nextSequence(this.checkpoints), graphRevision: this.execution.graphRevision, subjectTaskId: t.taskId, subjectRunId: runId,
		});
		this.checkpoints.push(cp);
		if (!active) { this.activate(cp); }
		if (shouldCreateTerminalCheckpoint({ tasks: this.tasks, runs: this.runs, checkpoints: this.checkpoints })) {
			const existing = this.checkpoints.find((c) => c.checkpointId === terminalCheckpointId(EX));
			const action = terminalCheckpointAction(existing, this.execution.status);
			if (action === 'create') {
				this.checkpoints.push(checkpoint({ checkpointId: terminalCheckpointId(EX), kind: 'all_tasks_terminal', status: 'pending', sequence: nextSequence(this.checkpoints), graphRevision: this.execution.graphRevision, subjectTaskId: '', subjectRunId: '', requiresGoalReview: true }));
			} else if (action === 'rearm') {
				Object.assign(existing!, { status: 'pending', sequence: nextSequence(this.checkpoints), graphRevision: this.execution.graphRevision });
			}
		}
	}

	fence(command: 'schedule' | 'mutate' | 'acknowledge' | 'complete', at: Checkpoint, revision: number): string | null {
		const hasRunningRun = this.runs.some((r) => r.status === 'running');
		return checkFences({
			callerSessionId: 'S1', execution: this.execution, checkpoint: at, expectedGraphRevision: revision, command,
			acknowledgeBacklog: { hasRunningRun, hasPendingCheckpoint: hasLaterPending(this.checkpoints, at) },
		})?.reasonCode ?? null;
	}

	/** Resolve the active checkpoint and promote the oldest pending one, rebound to the current revision. */
	resolveAndPromote(): void {
		this.active()!.status = 'resolved';
		const promoted = promoteOldestPending(this.checkpoints, this.execution.graphRevision, 0);
		if (promoted) { Object.assign(this.byId(promoted.checkpointId), promoted); }
		this.activate(promoted);
	}

	schedule(at: Checkpoint, revision: number, taskIds: string[]): string[] {
		assert.equal(this.fence('schedule', at, revision), null);
		const ready = readyTaskIds(this.tasks, { projectAcceptedTaskId: projectedAcceptedTaskId(at) });
		for (const id of taskIds) { assert.ok(ready.includes(id), `${id} is ready (ready: ${ready.join(',')})`); }
		const runIds = taskIds.map((id) => `R-${id}`);
		for (const [i, id] of taskIds.entries()) {
			this.tasks.find((x) => x.taskId === id)!.status = 'running';
			this.runs.push(run(runIds[i]!, { taskId: id, status: 'running' }));
		}
		this.resolveAndPromote();
		if (!this.active()) { this.execution.status = 'running'; }
		return runIds;
	}

	mutate(at: Checkpoint, revision: number, ops: Parameters<typeof applyMutationGraph>[1]): number {
		assert.equal(this.fence('mutate', at, revision), null);
		const r = applyMutationGraph(this.tasks, ops, { nowUnixMs: 1, issueId: 'I1', nextSortIndex: 100 });
		assert.ok(r.ok, r.ok ? '' : r.message);
		this.tasks = r.tasks;
		this.execution.graphRevision += 1;
		at.graphRevision = this.execution.graphRevision;
		for (const id of staleTerminalCheckpointIds(this.checkpoints, this.execution.graphRevision)) { this.byId(id).status = 'superseded'; }
		this.execution.status = 'awaiting_main';
		return this.execution.graphRevision;
	}

	acknowledge(at: Checkpoint, revision: number): void {
		assert.equal(this.fence('acknowledge', at, revision), null);
		if (at.kind === 'task_settled') { Object.assign(this.tasks.find((t) => t.taskId === at.subjectTaskId)!, { status: 'completed', acceptanceState: 'user_accepted' }); }
		this.resolveAndPromote();
		if (!this.active()) { this.execution.status = this.runs.some((r) => r.status === 'running') ? 'running' : 'awaiting_main'; }
	}
}

describe('troubleshooting chains (pure composition)', () => {
	it('final rework reaches Goal Review: settle final Run → rework while terminal is pending → schedule + settle replacement → acknowledge → rearmed terminal is the active pending_goal_review boundary', () => {
		const w = new World([done('a', { autoAccept: false }), task('b', { status: 'running', autoAccept: false })]);
		w.runs.push(run('R-a0', { taskId: 'a', status: 'completed' }), run('R-b', { taskId: 'b', status: 'running' }));
		w.checkpoints.push(checkpoint({ checkpointId: runCheckpointId(EX, 'R-a0'), status: 'resolved', sequence: 1, subjectRunId: 'R-a0', subjectTaskId: 'a' }));

		w.settle('R-b', 'failed');
		const failedCp = w.active()!;
		assert.equal(failedCp.kind, 'task_failed');
		const terminal = w.byId(terminalCheckpointId(EX));
		assert.equal(terminal.status, 'pending', 'the final settlement queued the terminal singleton');
		assert.deepEqual(allowedActions({ execution: w.execution, activeCheckpoint: failedCp, hasRunningRun: false, hasPendingCheckpoint: true, anyTaskReady: false, dispatchPaused: false }),
			['mutate', 'stop', 'acknowledge']);

		const revision = w.mutate(failedCp, 3, [{ kind: 'rework', taskId: 'b', task: { taskId: 'b2', content: 'try again' } }]);
		assert.equal(revision, 4);
		assert.equal(terminal.status, 'superseded', 'the stale terminal boundary is superseded by the graph mutation');
		assert.equal(w.tasks.find((t) => t.taskId === 'b2')!.agentTargetId, 'sh', 'sparse rework inherited the target');

		w.schedule(failedCp, revision, ['b2']);
		assert.equal(w.execution.status, 'running');
		w.settle('R-b2', 'completed');
		const settledCp = w.active()!;
		assert.equal(settledCp.kind, 'task_settled');
		assert.equal(terminal.status, 'pending', 'terminal creation rearmed the superseded singleton');
		assert.ok(terminal.sequence > settledCp.sequence, 'with a sequence after the replacement settlement');
		assert.equal(terminal.graphRevision, 4, 'and the current revision');

		assert.equal(canAcknowledge({ execution: w.execution, activeCheckpoint: settledCp, hasRunningRun: false, hasPendingCheckpoint: hasLaterPending(w.checkpoints, settledCp) }), true);
		w.acknowledge(settledCp, 4);
		assert.equal(w.active()?.checkpointId, terminalCheckpointId(EX));
		assert.equal(w.execution.status, 'pending_goal_review');
		assert.equal(w.tasks.find((t) => t.taskId === 'b2')!.status, 'completed');
		assert.deepEqual(allowedActions({ execution: w.execution, activeCheckpoint: w.active(), hasRunningRun: false, hasPendingCheckpoint: false, anyTaskReady: false, dispatchPaused: false }),
			['complete', 'mutate', 'stop']);
		assert.equal(w.fence('complete', w.active()!, 4), null);
	});

	it('without the rearm, the same chain strands the replacement: acknowledge has neither running work nor a later checkpoint', () => {
		const strandedTerminal = { status: 'superseded' as const };
		assert.equal(terminalCheckpointAction(strandedTerminal), 'rearm');
		const settledCp = checkpoint({ kind: 'task_settled', sequence: 5, graphRevision: 4 });
		const checkpoints = [settledCp, checkpoint({ checkpointId: terminalCheckpointId(EX), kind: 'all_tasks_terminal', status: 'superseded', sequence: 4 })];
		assert.equal(hasLaterPending(checkpoints, settledCp), false);
		assert.equal(checkFences({
			callerSessionId: 'S1', execution: execution({ graphRevision: 4, activeCheckpointId: settledCp.checkpointId }), checkpoint: settledCp,
			expectedGraphRevision: 4, command: 'acknowledge', acknowledgeBacklog: { hasRunningRun: false, hasPendingCheckpoint: false },
		})?.reasonCode, 'inactive_checkpoint');
	});

	it('parallel settlements + mutation: acknowledge-driven promotion rebinds the next checkpoint, so its schedule passes the fence', () => {
		const w = new World([task('a', { status: 'running', autoAccept: false }), task('b', { status: 'running', autoAccept: false }), task('c', { dependencyTaskIds: ['a'] }), task('d', { status: 'running' })]);
		w.runs.push(run('R-a', { taskId: 'a' }), run('R-b', { taskId: 'b' }), run('R-d', { taskId: 'd' }));
		w.settle('R-a', 'completed');
		w.settle('R-b', 'completed');
		const [first, second] = [w.active()!, w.checkpoints[1]!];
		assert.equal(second.status, 'pending');
		assert.equal(second.graphRevision, 3);
		const revision = w.mutate(first, 3, [{ kind: 'add', task: { taskId: 'e', title: 'E', agentTargetId: 'sh' } }]);
		w.acknowledge(first, revision);
		assert.equal(w.active()?.checkpointId, second.checkpointId);
		assert.equal(second.graphRevision, revision, 'rebound on promotion');
		assert.equal(w.fence('schedule', second, revision), null);
		w.schedule(second, revision, ['e']);
	});

	it('parallel settlements + mutation: schedule-driven promotion rebinds too; the settled subject is projected as accepted for readiness', () => {
		const w = new World([task('a', { status: 'running', autoAccept: false }), task('b', { status: 'running', autoAccept: false }), task('c', { dependencyTaskIds: ['a'] })]);
		w.runs.push(run('R-a', { taskId: 'a' }), run('R-b', { taskId: 'b' }));
		w.settle('R-a', 'completed');
		w.settle('R-b', 'completed');
		const [first, second] = [w.active()!, w.checkpoints[1]!];
		assert.deepEqual(readyTaskIds(w.tasks), [], 'c waits for a to be accepted');
		const revision = w.mutate(first, 3, [{ kind: 'update', taskId: 'c', task: { title: 'C!' } }]);
		w.schedule(first, revision, ['c']);
		assert.equal(w.active()?.checkpointId, second.checkpointId);
		assert.equal(second.graphRevision, revision);
		assert.equal(w.fence('acknowledge', second, revision), null, 'c is running, so acknowledge is legal at the promoted checkpoint');
	});

	it('schedule from Goal Review after a mutation, then settle: a fresh Goal Review (resolved singleton rearmed)', () => {
		const w = new World([task('a', { status: 'running', autoAccept: false })]);
		w.runs.push(run('R-a', { taskId: 'a' }));
		w.settle('R-a', 'completed');
		const settledCp = w.active()!;
		assert.equal(w.byId(terminalCheckpointId(EX)).status, 'pending');
		w.acknowledge(settledCp, 3);
		const terminal = w.active()!;
		assert.equal(w.execution.status, 'pending_goal_review');
		const revision = w.mutate(terminal, 3, [{ kind: 'add', task: { taskId: 'more', title: 'More', agentTargetId: 'sh' } }]);
		assert.deepEqual(allowedActions({ execution: w.execution, activeCheckpoint: terminal, hasRunningRun: false, hasPendingCheckpoint: false, anyTaskReady: true, dispatchPaused: false }),
			['complete', 'mutate', 'schedule', 'stop']);
		w.schedule(terminal, revision, ['more']);
		assert.equal(terminal.status, 'resolved');
		w.settle('R-more', 'completed');
		assert.equal(terminal.status, 'pending', 'the resolved singleton is rearmed for the follow-up work');
		w.acknowledge(w.active()!, revision);
		assert.equal(w.execution.status, 'pending_goal_review');
	});
});
