import { strict as assert } from 'node:assert';
import { recoveryHint, type RecoveryHintInput } from '../../../../src/core/execution/recoveryHint.js';
import { checkpoint } from '../builders.js';
import type { CheckpointKind } from '../../../../src/core/model.js';

const C = 'tutti-execution:I1:checkpoint:run:R1';
function input(kind: CheckpointKind | null, over: Partial<RecoveryHintInput> = {}): RecoveryHintInput {
	return {
		issueId: 'I1', execution: { status: 'awaiting_main', graphRevision: 3 },
		activeCheckpoint: kind ? checkpoint({ kind, checkpointId: C, sequence: 4, graphRevision: 3, subjectTaskId: 'T1' }) : null,
		dispatchPaused: false, readyTaskIds: ['T2', 'T3'], canAcknowledge: false, ...over,
	};
}

describe('core/execution/recoveryHint', () => {
	it('paused → both resume forms, then the same checkpoint and revision', () => {
		const hint = recoveryHint(input('task_settled', { dispatchPaused: true }));
		assert.ok(hint.includes('`tutti plan issue resume --issue-id I1 --json`'), hint);
		assert.ok(hint.includes('`tutti issue update --issue-id I1 --dispatch-paused=false --json`'), hint);
		assert.match(hint, new RegExp(`checkpoint ${C} with graphRevision 3; never guess`));
		assert.ok(recoveryHint(input(null, { dispatchPaused: true, execution: { status: 'running', graphRevision: 3 } })).includes('tutti plan issue resume'));
	});

	it('failed / canceled → rework with an exact mutate, then schedule with the returned revision', () => {
		for (const kind of ['task_failed', 'task_canceled'] as const) {
			const hint = recoveryHint(input(kind));
			assert.ok(hint.includes(`\`tutti plan issue mutate --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --operations-json '[{"kind":"rework","taskId":"T1","task":{"taskId":"T1-rework-4"}}]' --request-id cp4-r3-mutate --json\``), hint);
			assert.match(hint, /then schedule with the graphRevision the mutation returns/);
			assert.doesNotMatch(hint, /acknowledge/);
			assert.match(recoveryHint(input(kind, { canAcknowledge: true })), /acknowledge --issue-id I1/);
		}
	});

	it('only the developer can move → the bounded wait for that review, with or without an open checkpoint, never "Runs are in progress"', () => {
		for (const kind of ['task_settled', null] as const) {
			const hint = recoveryHint(input(kind, { readyTaskIds: [], reviewOnlyTaskIds: ['T1'], awaitingAcceptanceTaskIds: ['T1'], execution: { status: 'awaiting_main', graphRevision: 3 } }));
			assert.match(hint, /^Only the developer can move next/, hint);
			assert.ok(hint.includes('`tutti await-review --issue-id I1 --task-id T1`'), hint);
			assert.match(hint, /a checkpoint that says what the developer decided/);
			assert.doesNotMatch(hint, /Runs are in progress|plan issue schedule/);
		}
	});

	it('all_tasks_terminal → the exact complete command', () => {
		const hint = recoveryHint(input('all_tasks_terminal', { execution: { status: 'pending_goal_review', graphRevision: 3 } }));
		assert.ok(hint.includes(`\`tutti plan issue complete --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --decision goal_satisfied --request-id cp4-r3-complete --json\``), hint);
	});

	it('initial / settled / watchdog → the exact schedule command with the ready set, or mutate when nothing is ready', () => {
		for (const kind of ['initial_schedule', 'task_settled', 'watchdog'] as const) {
			const hint = recoveryHint(input(kind));
			assert.ok(hint.includes(`\`tutti plan issue schedule --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --task-ids-json '["T2","T3"]' --request-id cp4-r3-schedule --json\``), hint);
			assert.match(hint, /^Schedule ready work/);
		}
		const none = recoveryHint(input('task_settled', { readyTaskIds: [] }));
		assert.match(none, /^No task is ready: change the graph with `tutti plan issue mutate`/);
		assert.match(recoveryHint(input('task_settled', { canAcknowledge: true })), /or acknowledge with `tutti plan issue acknowledge --issue-id I1 --checkpoint-id .* --request-id cp4-r3-acknowledge --json`/);
	});

	it('no active checkpoint → wait for the next wake; terminal executions → no command', () => {
		assert.match(recoveryHint(input(null, { execution: { status: 'running', graphRevision: 3 } })), /wait for the next checkpoint wake, then run `tutti plan issue get --issue-id I1 --json`/);
		assert.match(recoveryHint(input(null, { execution: { status: 'completed', graphRevision: 3 } })), /completed; no command is needed/);
		assert.match(recoveryHint(input(null, { execution: { status: 'archived', graphRevision: 3 } })), /stopped \(archived\)/);
		assert.match(recoveryHint(input(null, { execution: { status: 'archiving', graphRevision: 3 } })), /stopped \(archived\)/);
		assert.match(recoveryHint(input(null, { execution: { status: 'orphaned_source', graphRevision: 3 } })), /never query or modify the database/);
	});

	it('at its budget → the developer raises it with their own command, the agent waits (never told to run it, never to schedule)', () => {
		for (const kind of ['task_settled', 'initial_schedule', 'all_tasks_terminal', null] as const) {
			const hint = recoveryHint(input(kind, { budgetBlocker: 'budget reached: $1.20 of $1.00', execution: { status: kind ? 'awaiting_main' : 'running', graphRevision: 3 } }));
			assert.ok(hint.includes('budget reached: $1.20 of $1.00'), hint);
			assert.ok(hint.includes("the developer's own command `tutti issue update --issue-id I1 --budget-usd <usd> --as-user`"), hint);
			assert.match(hint, /never run it yourself/);
			assert.ok(hint.includes('`tutti plan issue await --issue-id I1`'), hint);
			assert.doesNotMatch(hint, /plan issue schedule|Runs are in progress/);
		}
		// Paused and terminal states still say what they say.
		assert.match(recoveryHint(input('task_settled', { budgetBlocker: 'budget reached: $1.20 of $1.00', dispatchPaused: true })), /^Dispatch is paused/);
		assert.match(recoveryHint(input(null, { budgetBlocker: 'x', execution: { status: 'completed', graphRevision: 3 } })), /completed; no command is needed/);
	});
});
