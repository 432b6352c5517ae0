import { strict as assert } from 'node:assert';
import { canonicalJson, checkFences, requestDigest, type FenceInput, type FencedCommand } from '../../../../src/core/execution/fences.js';
import { checkpoint, execution } from '../builders.js';

function fence(command: FencedCommand, over: Partial<FenceInput> = {}): FenceInput {
	return { callerSessionId: 'S1', execution: execution(), checkpoint: checkpoint({ kind: command === 'complete' ? 'all_tasks_terminal' : 'task_settled' }), expectedGraphRevision: 3, command, ...over };
}
const reason = (input: FenceInput): string | null => checkFences(input)?.reasonCode ?? null;

describe('core/execution/fences', () => {
	it('passes a current source command', () => {
		for (const command of ['schedule', 'mutate', 'acknowledge', 'stop'] as const) { assert.equal(checkFences(fence(command)), null, command); }
		assert.equal(checkFences(fence('complete', { execution: execution({ status: 'pending_goal_review' }) })), null);
	});

	it('every command: execution_not_found, then wrong_source_session, before anything else', () => {
		for (const command of ['schedule', 'mutate', 'acknowledge', 'complete', 'stop'] as const) {
			assert.equal(reason(fence(command, { execution: null, checkpoint: null })), 'execution_not_found');
			assert.equal(reason(fence(command, { callerSessionId: 'S2', expectedGraphRevision: 99, checkpoint: null })), 'wrong_source_session');
		}
	});

	describe('schedule and mutate: ordered, distinct reasons', () => {
		for (const command of ['schedule', 'mutate'] as const) {
			it(`${command}: stale execution revision → inactive execution → inactive checkpoint → checkpoint revision`, () => {
				// Everything wrong at once: the execution revision is reported first.
				assert.equal(reason(fence(command, { expectedGraphRevision: 2, execution: execution({ status: 'running' }), checkpoint: null })), 'stale_graph_revision');
				assert.equal(reason(fence(command, { execution: execution({ status: 'archived' }), checkpoint: null })), 'inactive_execution');
				assert.equal(reason(fence(command, { checkpoint: null })), 'inactive_checkpoint');
				assert.equal(reason(fence(command, { checkpoint: checkpoint({ status: 'resolved' }) })), 'inactive_checkpoint');
				assert.equal(reason(fence(command, { checkpoint: checkpoint({ status: 'pending' }) })), 'inactive_checkpoint');
				assert.equal(reason(fence(command, { checkpoint: checkpoint({ checkpointId: 'tutti-execution:I1:checkpoint:run:R0' }) })), 'inactive_checkpoint', 'not the execution\'s active checkpoint');
				assert.equal(reason(fence(command, { checkpoint: checkpoint({ executionId: 'tutti-execution:I2' }) })), 'inactive_checkpoint');
				assert.equal(reason(fence(command, { checkpoint: checkpoint({ graphRevision: 2 }) })), 'stale_graph_revision', 'a promoted checkpoint left on an old revision');
			});
		}

		it('schedule is admitted in awaiting_schedule and awaiting_main only; mutate also in pending_goal_review', () => {
			assert.equal(reason(fence('schedule', { execution: execution({ status: 'awaiting_schedule' }) })), null);
			assert.equal(reason(fence('schedule', { execution: execution({ status: 'pending_goal_review' }) })), 'inactive_execution');
			assert.equal(reason(fence('schedule', { execution: execution({ status: 'running' }) })), 'inactive_execution');
			assert.equal(reason(fence('mutate', { execution: execution({ status: 'pending_goal_review' }) })), null);
			for (const status of ['running', 'orphaned_source', 'completed', 'archiving', 'archived'] as const) {
				assert.equal(reason(fence('mutate', { execution: execution({ status }) })), 'inactive_execution', status);
			}
		});

		it('messages say which fence and the numbers involved', () => {
			assert.match(checkFences(fence('schedule', { expectedGraphRevision: 2 }))!.message, /expected graph revision 2 .* revision 3/);
			assert.match(checkFences(fence('mutate', { checkpoint: checkpoint({ graphRevision: 2 }) }))!.message, /bound to revision 2, not 3/);
		});
	});

	describe('acknowledge, complete and stop: every other failure is inactive_checkpoint', () => {
		const broken: [string, Partial<FenceInput>][] = [
			['stale execution revision', { expectedGraphRevision: 2 }],
			['inactive execution', { execution: execution({ status: 'archived' }) }],
			['missing checkpoint', { checkpoint: null }],
			['resolved checkpoint', { checkpoint: checkpoint({ status: 'resolved' }) }],
			['canceled checkpoint', { checkpoint: checkpoint({ status: 'canceled' }) }],
			['not the active checkpoint', { checkpoint: checkpoint({ checkpointId: 'tutti-execution:I1:checkpoint:run:R0' }) }],
			['checkpoint on an old revision', { checkpoint: checkpoint({ graphRevision: 2 }) }],
		];
		for (const command of ['acknowledge', 'complete', 'stop'] as const) {
			for (const [name, over] of broken) {
				it(`${command}: ${name}`, () => {
					const base = command === 'complete' ? { execution: execution({ status: 'pending_goal_review' }), checkpoint: checkpoint({ kind: 'all_tasks_terminal' }) } : {};
					const input = fence(command, { ...base, ...over, ...(over.checkpoint && command === 'complete' ? { checkpoint: { ...over.checkpoint, kind: 'all_tasks_terminal' as const } } : {}) });
					const r = checkFences(input);
					assert.equal(r?.reasonCode, 'inactive_checkpoint');
					assert.match(r!.message, /caller, checkpoint, or revision is not current/);
				});
			}
		}

		it('acknowledge only at settlement or watchdog checkpoints; never initial scheduling or Goal Review', () => {
			assert.equal(reason(fence('acknowledge', { checkpoint: checkpoint({ kind: 'initial_schedule' }) })), 'inactive_checkpoint');
			assert.equal(reason(fence('acknowledge', { checkpoint: checkpoint({ kind: 'all_tasks_terminal' }) })), 'inactive_checkpoint');
			assert.equal(reason(fence('acknowledge', { execution: execution({ status: 'pending_goal_review' }) })), 'inactive_checkpoint');
			for (const kind of ['task_settled', 'task_failed', 'task_canceled', 'watchdog'] as const) {
				assert.equal(reason(fence('acknowledge', { checkpoint: checkpoint({ kind }) })), null, kind);
			}
		});

		it('acknowledge with neither running work nor a later pending checkpoint is inactive_checkpoint (the stranded state)', () => {
			assert.equal(reason(fence('acknowledge', { acknowledgeBacklog: { hasRunningRun: false, hasPendingCheckpoint: false } })), 'inactive_checkpoint');
			assert.equal(reason(fence('acknowledge', { acknowledgeBacklog: { hasRunningRun: true, hasPendingCheckpoint: false } })), null);
			assert.equal(reason(fence('acknowledge', { acknowledgeBacklog: { hasRunningRun: false, hasPendingCheckpoint: true } })), null);
		});

		it('complete only at the all_tasks_terminal checkpoint, in pending_goal_review (or awaiting_main after a mutation there)', () => {
			assert.equal(reason(fence('complete', { checkpoint: checkpoint({ kind: 'task_settled' }), execution: execution({ status: 'pending_goal_review' }) })), 'inactive_checkpoint');
			assert.equal(reason(fence('complete', { execution: execution({ status: 'awaiting_main' }) })), null);
			assert.equal(reason(fence('complete', { execution: execution({ status: 'completed' }) })), 'inactive_checkpoint');
		});

		it('stop at any live checkpoint kind', () => {
			for (const kind of ['initial_schedule', 'task_settled', 'watchdog', 'all_tasks_terminal'] as const) {
				assert.equal(reason(fence('stop', { checkpoint: checkpoint({ kind }) })), null, kind);
			}
			assert.equal(reason(fence('stop', { execution: execution({ status: 'archiving' }) })), 'inactive_checkpoint');
		});
	});

	describe('requestDigest', () => {
		it('is canonical: key order does not matter, nested objects included', () => {
			assert.equal(requestDigest('schedule', { b: 1, a: { d: [1, { z: 1, y: 2 }], c: 'x' } }), requestDigest('schedule', { a: { c: 'x', d: [1, { y: 2, z: 1 }] }, b: 1 }));
			assert.equal(canonicalJson({ b: 1, a: 2 }), '{"a":2,"b":1}');
		});

		it('distinguishes kind, values and array order (ordered op lists), and drops undefined members like JSON', () => {
			const base = requestDigest('schedule', { checkpointId: 'C', expectedGraphRevision: 3, taskIds: ['a', 'b'] });
			assert.notEqual(base, requestDigest('mutate', { checkpointId: 'C', expectedGraphRevision: 3, taskIds: ['a', 'b'] }));
			assert.notEqual(base, requestDigest('schedule', { checkpointId: 'C', expectedGraphRevision: 4, taskIds: ['a', 'b'] }));
			assert.notEqual(base, requestDigest('schedule', { checkpointId: 'C', expectedGraphRevision: 3, taskIds: ['b', 'a'] }));
			assert.equal(requestDigest('x', { a: 1, b: undefined }), requestDigest('x', { a: 1 }));
			assert.equal(canonicalJson([1, undefined]), '[1,null]');
			assert.equal(canonicalJson(undefined), 'null');
		});
	});
});
