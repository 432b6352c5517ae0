import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { applyMutationGraph, type MutationContext, type MutationResult } from '../../../../src/core/graph/mutation.js';
import type { Task } from '../../../../src/core/model.js';
import type { MutationOperation as CoreMutationOperation } from '../../../../src/core/graph/mutationOperation.js';
import { mutationOperations, type MutationOperation } from '../../../../src/protocol/operations.js';
import { done, task } from '../builders.js';

// Compile-time (npm run typecheck): the wire schema's type and core's plain type are the same shape both ways,
// so neither can gain a field the other does not know.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
export const schemaMatchesCore: Same<MutationOperation, CoreMutationOperation> = true;

const NOW = 1_700_000_000_000;
const ctx: MutationContext = { nowUnixMs: NOW, issueId: 'I1', nextSortIndex: 10 };

function ok(result: MutationResult): Extract<MutationResult, { ok: true }> {
	if (!result.ok) { assert.fail(`expected success, got ${result.reasonCode}: ${result.message}`); }
	return result;
}

function rejected(result: MutationResult, reasonCode: string, taskId?: string): Extract<MutationResult, { ok: false }> {
	if (result.ok) { assert.fail(`expected ${reasonCode}, got success`); }
	assert.equal(result.reasonCode, reasonCode, result.message);
	if (taskId !== undefined) { assert.equal(result.taskId, taskId); }
	return result;
}

function byId(result: Extract<MutationResult, { ok: true }>, id: string): Task {
	const t = result.tasks.find((x) => x.taskId === id);
	assert.ok(t, `task ${id} present`);
	return t;
}

/** Parse ops through the real wire schema so tests use exactly what the Host will pass. */
function ops(json: unknown): MutationOperation[] {
	return mutationOperations.parse(json);
}

const launched = { agentTargetId: 'claude', modelPlanId: 'plan-fast', model: 'sonnet', permissionModeId: 'auto', reasoningEffort: 'high', executionDirectory: '/w/sub' };

describe('core/graph/mutation', () => {
	describe('add', () => {
		it('creates a not-started task with defaults, the next sort index and the context issue', () => {
			const r = ok(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'b', title: ' B ', agentTargetId: 'sh', dependencyTaskIds: ['a', 'a', ' '] } }]), ctx));
			const b = byId(r, 'b');
			assert.deepEqual(
				{ ...b },
				{
					issueId: 'I1', taskId: 'b', title: 'B', content: '', status: 'not_started', sortIndex: 10, agentTargetId: 'sh', modelPlanId: '', model: '',
					permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: ['a'], parallelizable: true, autoAccept: false,
					acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: NOW, updatedAtUnixMs: NOW,
				},
			);
			assert.deepEqual(r.addedTaskIds, ['b']);
			assert.deepEqual(r.updatedTaskIds, []);
			assert.deepEqual(r.changedTaskIds, []);
			assert.deepEqual(r.tasks.map((t) => t.taskId), ['a', 'b']);
		});

		it('takes autoAccept from the context default unless given, and consecutive sort indexes', () => {
			const r = ok(applyMutationGraph([task('a')], ops([
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } },
				{ kind: 'add', task: { taskId: 'c', title: 'C', agentTargetId: 'sh', autoAccept: false } },
			]), { ...ctx, autoAcceptDefault: true }));
			assert.equal(byId(r, 'b').autoAccept, true);
			assert.equal(byId(r, 'c').autoAccept, false);
			assert.deepEqual([byId(r, 'b').sortIndex, byId(r, 'c').sortIndex], [10, 11]);
		});

		it('rejects a missing target with missing_agent_target', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'b', title: 'B' } }]), ctx), 'missing_agent_target', 'b');
		});

		it('rejects an existing id (superseded history included) with duplicate_task', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'sh' } }]), ctx), 'duplicate_task', 'a');
			rejected(applyMutationGraph([task('a'), task('old', { supersededAtUnixMs: 1 })], ops([{ kind: 'add', task: { taskId: 'old', title: 'X', agentTargetId: 'sh' } }]), ctx), 'duplicate_task', 'old');
			rejected(applyMutationGraph([task('a')], ops([
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } },
				{ kind: 'add', task: { taskId: 'b', title: 'B2', agentTargetId: 'sh' } },
			]), ctx), 'duplicate_task', 'b');
		});

		it('rejects a missing task, task id or title as a malformed operation / invalid graph', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add' }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { title: 'B', agentTargetId: 'sh' } }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'b', agentTargetId: 'sh' } }]), ctx), 'invalid_task_graph', 'b');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', taskId: 'x', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } }]), ctx), 'invalid_mutation_operation');
		});

		it('rejects a new task id git cannot use as a branch and folder, and a title with a NUL, as invalid input (add, rework, update)', () => {
			for (const bad of ['sub/dir', 'has space', '-rf', 'a..b', 'x.lock', '.hidden']) {
				const r = rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: bad, title: 'B', agentTargetId: 'sh' } }]), ctx), 'invalid_input', bad);
				assert.match(r.message, /operation 1 \(add\): task id .* cannot name a git branch and worktree folder: use letters, digits/);
			}
			const failed = task('f', { status: 'failed' });
			rejected(applyMutationGraph([failed], ops([{ kind: 'rework', taskId: 'f', task: { taskId: 'f/2' } }]), ctx), 'invalid_input', 'f/2');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'b', title: 'B\u0000', agentTargetId: 'sh' } }]), ctx), 'invalid_input', 'b');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { title: 'A\u0000' } }]), ctx), 'invalid_input');
			ok(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'T_1.2-x', title: 'B', agentTargetId: 'sh' } }]), ctx));
		});

		it('rejects an unconfigured target when the known targets are given', () => {
			const known = { ...ctx, knownAgentTargetIds: new Set(['sh']) };
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'nope' } }]), known), 'missing_agent_target', 'b');
			ok(applyMutationGraph([task('a', { agentTargetId: 'retired' })], ops([{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } }]), known));
		});
	});

	describe('update', () => {
		it('changes only present fields of a not-started task (omitted ≠ empty)', () => {
			const a = task('a', { ...launched, content: 'keep', title: 'old' });
			const r = ok(applyMutationGraph([a], ops([{ kind: 'update', taskId: 'a', task: { title: 'new', executionDirectory: '' } }]), ctx));
			const u = byId(r, 'a');
			assert.equal(u.title, 'new');
			assert.equal(u.content, 'keep');
			assert.equal(u.executionDirectory, '', 'an explicit empty value clears');
			assert.equal(u.model, 'sonnet');
			assert.equal(u.updatedAtUnixMs, NOW);
			assert.deepEqual(r.updatedTaskIds, ['a']);
			assert.deepEqual(r.changedTaskIds, ['a']);
		});

		it('changing agentTargetId clears model plan, model, permission mode and effort unless given', () => {
			const a = task('a', launched);
			const cleared = byId(ok(applyMutationGraph([a], ops([{ kind: 'update', taskId: 'a', task: { agentTargetId: 'codex' } }]), ctx)), 'a');
			assert.deepEqual([cleared.agentTargetId, cleared.modelPlanId, cleared.model, cleared.permissionModeId, cleared.reasoningEffort, cleared.executionDirectory],
				['codex', '', '', '', '', '/w/sub']);
			const kept = byId(ok(applyMutationGraph([a], ops([{ kind: 'update', taskId: 'a', task: { agentTargetId: 'codex', model: 'gpt', reasoningEffort: 'low' } }]), ctx)), 'a');
			assert.deepEqual([kept.modelPlanId, kept.model, kept.permissionModeId, kept.reasoningEffort], ['', 'gpt', '', 'low']);
			const same = byId(ok(applyMutationGraph([a], ops([{ kind: 'update', taskId: 'a', task: { agentTargetId: 'claude' } }]), ctx)), 'a');
			assert.equal(same.model, 'sonnet', 'restating the same target keeps its settings');
		});

		it('only for not-started, non-superseded tasks', () => {
			for (const status of ['running', 'pending_acceptance', 'completed', 'failed', 'canceled'] as const) {
				rejected(applyMutationGraph([task('a', { status })], ops([{ kind: 'update', taskId: 'a', task: { title: 'x' } }]), ctx), 'task_not_started', 'a');
			}
			rejected(applyMutationGraph([task('a', { supersededAtUnixMs: 1 }), task('b')], ops([{ kind: 'update', taskId: 'a', task: { title: 'x' } }]), ctx), 'task_superseded', 'a');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'zz', task: { title: 'x' } }]), ctx), 'task_not_found', 'zz');
		});

		it('needs taskId and at least one field, and cannot rename', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', task: { title: 'x' } }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a' }]), ctx), 'invalid_mutation_operation', 'a');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: {} }]), ctx), 'invalid_mutation_operation', 'a');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { taskId: 'a' } }]), ctx), 'invalid_mutation_operation', 'a');
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { taskId: 'b', title: 'x' } }]), ctx), 'invalid_mutation_operation', 'a');
			ok(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { priority: 'high' } }]), ctx));
		});

		it('clearing the target of a task fails the final validation', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { agentTargetId: '' } }]), ctx), 'missing_agent_target', 'a');
		});
	});

	describe('supersede', () => {
		it('marks not-started, failed, canceled and pending-acceptance tasks as history (never deletes)', () => {
			for (const status of ['not_started', 'failed', 'canceled', 'pending_acceptance'] as const) {
				const r = ok(applyMutationGraph([task('a', { status }), task('b')], ops([{ kind: 'supersede', taskId: 'a' }]), ctx));
				const a = byId(r, 'a');
				assert.equal(a.supersededAtUnixMs, NOW);
				assert.equal(a.supersededByTaskId, '');
				assert.equal(a.status, status, 'status is kept as history');
				assert.deepEqual(r.supersededTaskIds, ['a']);
				assert.deepEqual(r.changedTaskIds, ['a']);
				assert.equal(r.tasks.length, 2);
			}
		});

		it('is forbidden for running or completed tasks (task_not_started) and for superseded ones', () => {
			rejected(applyMutationGraph([task('a', { status: 'running' }), task('b')], ops([{ kind: 'supersede', taskId: 'a' }]), ctx), 'task_not_started', 'a');
			rejected(applyMutationGraph([done('a'), task('b')], ops([{ kind: 'supersede', taskId: 'a' }]), ctx), 'task_not_started', 'a');
			rejected(applyMutationGraph([task('a', { supersededAtUnixMs: 1 }), task('b')], ops([{ kind: 'supersede', taskId: 'a' }]), ctx), 'task_superseded', 'a');
			rejected(applyMutationGraph([task('a'), task('b')], ops([{ kind: 'supersede', taskId: 'a' }, { kind: 'supersede', taskId: 'a' }]), ctx), 'task_superseded', 'a');
		});

		it('takes only taskId', () => {
			rejected(applyMutationGraph([task('a'), task('b')], ops([{ kind: 'supersede', taskId: 'a', task: { title: 'x' } }]), ctx), 'invalid_mutation_operation', 'a');
			rejected(applyMutationGraph([task('a'), task('b')], ops([{ kind: 'supersede' }]), ctx), 'invalid_mutation_operation');
		});

		it('leaves dependents pointing at a superseded task → dependency_unsatisfied unless they change too', () => {
			rejected(applyMutationGraph([task('a'), task('b', { dependencyTaskIds: ['a'] })], ops([{ kind: 'supersede', taskId: 'a' }]), ctx), 'dependency_unsatisfied', 'b');
			ok(applyMutationGraph([task('a'), task('b', { dependencyTaskIds: ['a'] })], ops([
				{ kind: 'supersede', taskId: 'a' }, { kind: 'update', taskId: 'b', task: { dependencyTaskIds: [] } },
			]), ctx));
		});

		it('cannot leave the active graph empty', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'supersede', taskId: 'a' }]), ctx), 'invalid_task_graph');
		});
	});

	describe('rework', () => {
		const failed = task('a', { ...launched, status: 'failed', title: 'Build', content: 'do it', latestRunId: 'R1', acceptanceState: 'agent_claimed', dependencyTaskIds: ['p'], parallelizable: false, autoAccept: true, sortIndex: 3 });

		it('sparse rework inherits target, model plan, model, permission, effort, directory and dependencies (failed task)', () => {
			const r = ok(applyMutationGraph([done('p'), failed], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx));
			const a2 = byId(r, 'a2');
			assert.deepEqual(
				{ ...a2 },
				{
					...failed, taskId: 'a2', status: 'not_started', acceptanceState: '', latestRunId: '', sortIndex: 10,
					supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: NOW, updatedAtUnixMs: NOW,
				},
			);
			const a = byId(r, 'a');
			assert.equal(a.supersededAtUnixMs, NOW);
			assert.equal(a.supersededByTaskId, 'a2');
			assert.equal(a.status, 'failed', 'the old task and its run stay as history');
			assert.equal(a.latestRunId, 'R1');
			assert.deepEqual(r.addedTaskIds, ['a2']);
			assert.deepEqual(r.supersededTaskIds, ['a']);
			assert.deepEqual(r.changedTaskIds, ['a']);
		});

		it('canceled tasks rework the same way, and not-started or pending-acceptance ones too', () => {
			for (const status of ['canceled', 'not_started', 'pending_acceptance'] as const) {
				const r = ok(applyMutationGraph([done('p'), { ...failed, status }], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx));
				assert.equal(byId(r, 'a2').agentTargetId, 'claude', status);
				assert.equal(byId(r, 'a2').model, 'sonnet', status);
			}
		});

		it('explicit replacement values override the inherited ones', () => {
			const r = ok(applyMutationGraph([done('p'), done('q'), failed], ops([{ kind: 'rework', taskId: 'a', task: {
				taskId: 'a2', title: 'Build again', content: 'differently', model: 'opus', executionDirectory: '/w/other', dependencyTaskIds: ['q'], autoAccept: false,
			} }]), ctx));
			const a2 = byId(r, 'a2');
			assert.deepEqual([a2.title, a2.content, a2.model, a2.executionDirectory, a2.dependencyTaskIds, a2.autoAccept, a2.agentTargetId, a2.modelPlanId],
				['Build again', 'differently', 'opus', '/w/other', ['q'], false, 'claude', 'plan-fast']);
		});

		it('a new target on the replacement clears the inherited model settings unless given', () => {
			const a2 = byId(ok(applyMutationGraph([done('p'), failed], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', agentTargetId: 'codex' } }]), ctx)), 'a2');
			assert.deepEqual([a2.agentTargetId, a2.modelPlanId, a2.model, a2.permissionModeId, a2.reasoningEffort, a2.executionDirectory], ['codex', '', '', '', '', '/w/sub']);
		});

		it('a replacement with no target anywhere is missing_agent_target', () => {
			rejected(applyMutationGraph([{ ...failed, agentTargetId: '' }, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx), 'missing_agent_target', 'a2');
		});

		it('is forbidden for running or completed tasks and for superseded ones', () => {
			rejected(applyMutationGraph([{ ...failed, status: 'running' }, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx), 'task_not_started', 'a');
			rejected(applyMutationGraph([{ ...failed, status: 'completed' }, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx), 'task_not_started', 'a');
			rejected(applyMutationGraph([{ ...failed, supersededAtUnixMs: 1 }, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx), 'task_superseded', 'a');
			rejected(applyMutationGraph([done('p')], ops([{ kind: 'rework', taskId: 'zz', task: { taskId: 'a2' } }]), ctx), 'task_not_found', 'zz');
		});

		it('needs both ids; the new id must be new', () => {
			rejected(applyMutationGraph([failed, done('p')], ops([{ kind: 'rework', taskId: 'a' }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([failed, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { title: 'x' } }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([failed, done('p')], ops([{ kind: 'rework', task: { taskId: 'a2' } }]), ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([failed, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a' } }]), ctx), 'duplicate_task', 'a');
			rejected(applyMutationGraph([failed, done('p')], ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'p' } }]), ctx), 'duplicate_task', 'p');
		});

		it('redirects active not-started dependents to the replacement in the same mutation', () => {
			const tasks = [done('p'), failed, task('b', { dependencyTaskIds: ['a', 'p'] }), task('c', { dependencyTaskIds: ['b'] })];
			const r = ok(applyMutationGraph(tasks, ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx));
			assert.deepEqual(byId(r, 'b').dependencyTaskIds, ['a2', 'p']);
			assert.equal(byId(r, 'b').updatedAtUnixMs, NOW);
			assert.deepEqual(byId(r, 'c').dependencyTaskIds, ['b']);
			assert.deepEqual(r.updatedTaskIds, ['b']);
			assert.deepEqual(r.changedTaskIds, ['b', 'a']);
		});

		it('redirects multi-hop when a replacement is itself reworked in the same mutation', () => {
			const tasks = [done('p'), failed, task('b', { dependencyTaskIds: ['a'] })];
			const r = ok(applyMutationGraph(tasks, ops([
				{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } },
				{ kind: 'rework', taskId: 'a2', task: { taskId: 'a3', title: 'third' } },
			]), ctx));
			assert.deepEqual(byId(r, 'b').dependencyTaskIds, ['a3']);
			assert.equal(byId(r, 'a2').supersededByTaskId, 'a3');
			assert.equal(byId(r, 'a3').agentTargetId, 'claude', 'inheritance flows through the chain');
			assert.deepEqual(r.addedTaskIds, ['a2', 'a3']);
			assert.deepEqual(r.supersededTaskIds, ['a', 'a2']);
			assert.deepEqual(r.changedTaskIds, ['b', 'a'], 'a2 is new: inserted, not updated');
		});

		it('redirects the dependencies of a replacement that inherited an edge to another reworked task', () => {
			const tasks = [task('x', { status: 'failed' }), task('a', { status: 'failed', dependencyTaskIds: ['x'] })];
			const r = ok(applyMutationGraph(tasks, ops([
				{ kind: 'rework', taskId: 'x', task: { taskId: 'x2' } },
				{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } },
			]), ctx));
			assert.deepEqual(byId(r, 'a2').dependencyTaskIds, ['x2']);
		});

		it('rejects the whole mutation (task_not_started) when a redirected dependent already started', () => {
			for (const status of ['running', 'pending_acceptance', 'completed', 'failed'] as const) {
				const tasks = [done('p'), failed, task('b', { status, dependencyTaskIds: ['a'] })];
				rejected(applyMutationGraph(tasks, ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx), 'task_not_started', 'b');
			}
		});

		it('does not redirect superseded dependents (history keeps its edges)', () => {
			const tasks = [done('p'), failed, task('old', { supersededAtUnixMs: 1, status: 'running', dependencyTaskIds: ['a'] })];
			const r = ok(applyMutationGraph(tasks, ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx));
			assert.deepEqual(byId(r, 'old').dependencyTaskIds, ['a']);
		});

		it('guards the redirect chain against cycles (defensive: ids are never reused, so a chain cannot loop)', () => {
			// A replacement id can never equal an existing id, so build the only shape that could loop: a→a2→… bounded.
			const tasks = [task('a', { status: 'failed' }), task('b', { dependencyTaskIds: ['a'] })];
			const chain = [{ kind: 'rework', taskId: 'a', task: { taskId: 'a1' } }];
			for (let i = 1; i < 30; i++) { chain.push({ kind: 'rework', taskId: `a${i}`, task: { taskId: `a${i + 1}` } }); }
			const r = ok(applyMutationGraph(tasks, ops(chain), ctx));
			assert.deepEqual(byId(r, 'b').dependencyTaskIds, ['a30']);
		});
	});

	describe('final validation (after all operations)', () => {
		it('rejects dependencies on missing tasks', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { dependencyTaskIds: ['ghost'] } }]), ctx), 'dependency_unsatisfied', 'a');
		});

		it('rejects cycles, self-dependencies included, as invalid_task_graph', () => {
			rejected(applyMutationGraph([task('a')], ops([{ kind: 'update', taskId: 'a', task: { dependencyTaskIds: ['a'] } }]), ctx), 'invalid_task_graph', 'a');
			rejected(applyMutationGraph([task('a'), task('b', { dependencyTaskIds: ['a'] })], ops([{ kind: 'update', taskId: 'a', task: { dependencyTaskIds: ['b'] } }]), ctx), 'invalid_task_graph');
		});

		it('lets a later operation fix what an earlier one broke (validation runs once, at the end)', () => {
			const r = ok(applyMutationGraph([task('a')], ops([
				{ kind: 'update', taskId: 'a', task: { dependencyTaskIds: ['b'] } },
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } },
			]), ctx));
			assert.deepEqual(byId(r, 'a').dependencyTaskIds, ['b']);
		});
	});

	describe('all or nothing', () => {
		it('a failing later operation leaves no trace, and the inputs are never mutated', () => {
			const tasks = [task('a', { status: 'failed' }), task('b', { dependencyTaskIds: ['a'] })];
			const snapshot = JSON.stringify(tasks);
			rejected(applyMutationGraph(tasks, ops([
				{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } },
				{ kind: 'update', taskId: 'b', task: { title: 'renamed' } },
				{ kind: 'supersede', taskId: 'zz' },
			]), ctx), 'task_not_found', 'zz');
			assert.equal(JSON.stringify(tasks), snapshot);
			ok(applyMutationGraph(tasks, ops([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]), ctx));
			assert.equal(JSON.stringify(tasks), snapshot, 'a successful mutation does not touch its inputs either');
		});

		it('changed rows are new objects; untouched rows are shared with the input', () => {
			const tasks = [task('a'), task('b'), task('c', { dependencyTaskIds: ['a'] })];
			const r = ok(applyMutationGraph(tasks, ops([{ kind: 'update', taskId: 'a', task: { title: 'A!' } }]), ctx));
			assert.notEqual(r.tasks[0], tasks[0]);
			assert.equal(r.tasks[1], tasks[1]);
			assert.equal(r.tasks[2], tasks[2]);
		});

		it('a task added and then updated or superseded in the same mutation is reported as added only (insert its final row)', () => {
			const r = ok(applyMutationGraph([task('a')], ops([
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } },
				{ kind: 'update', taskId: 'b', task: { title: 'B2' } },
			]), ctx));
			assert.deepEqual([r.addedTaskIds, r.updatedTaskIds, r.changedTaskIds], [['b'], [], []]);
			assert.equal(byId(r, 'b').title, 'B2');
			const s = ok(applyMutationGraph([task('a')], ops([
				{ kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'sh' } }, { kind: 'supersede', taskId: 'b' },
			]), ctx));
			assert.deepEqual([s.addedTaskIds, s.supersededTaskIds, s.changedTaskIds], [['b'], ['b'], []]);
			assert.equal(byId(s, 'b').supersededAtUnixMs, NOW);
		});

		it('an empty operation list or an unknown kind is a malformed operation', () => {
			rejected(applyMutationGraph([task('a')], [], ctx), 'invalid_mutation_operation');
			rejected(applyMutationGraph([task('a')], [{ kind: 'delete' } as unknown as MutationOperation], ctx), 'invalid_mutation_operation');
		});

		it('property: success keeps every input row (history is never deleted) and yields a valid acyclic active graph; failure is a stable reason', () => {
			const arbOp = fc.oneof(
				fc.record({ kind: fc.constant('add' as const), id: fc.integer({ min: 0, max: 7 }), dep: fc.integer({ min: -1, max: 7 }) }),
				fc.record({ kind: fc.constant('update' as const), id: fc.integer({ min: 0, max: 7 }), dep: fc.integer({ min: -1, max: 7 }) }),
				fc.record({ kind: fc.constant('rework' as const), id: fc.integer({ min: 0, max: 7 }), dep: fc.integer({ min: 0, max: 7 }) }),
				fc.record({ kind: fc.constant('supersede' as const), id: fc.integer({ min: 0, max: 7 }), dep: fc.constant(-1) }),
			);
			const statuses = ['not_started', 'running', 'completed', 'failed', 'canceled'] as const;
			fc.assert(fc.property(fc.array(fc.constantFrom(...statuses), { minLength: 1, maxLength: 5 }), fc.array(arbOp, { minLength: 1, maxLength: 6 }), (st, raw) => {
				const tasks = st.map((status, i) => task(`t${i}`, { status, dependencyTaskIds: i > 0 ? [`t${i - 1}`] : [] }));
				const list: MutationOperation[] = raw.map((o) => {
					const deps = o.dep >= 0 ? [`t${o.dep}`] : [];
					switch (o.kind) {
						case 'add': return { kind: 'add', task: { taskId: `t${o.id}`, title: 'n', agentTargetId: 'sh', dependencyTaskIds: deps } };
						case 'update': return { kind: 'update', taskId: `t${o.id}`, task: { dependencyTaskIds: deps } };
						case 'rework': return { kind: 'rework', taskId: `t${o.id}`, task: { taskId: `t${o.dep}` } };
						case 'supersede': return { kind: 'supersede', taskId: `t${o.id}` };
					}
				});
				const before = JSON.stringify(tasks);
				const r = applyMutationGraph(tasks, list, ctx);
				assert.equal(JSON.stringify(tasks), before);
				if (!r.ok) {
					assert.ok(['invalid_mutation_operation', 'task_not_found', 'task_superseded', 'task_not_started', 'duplicate_task', 'missing_agent_target', 'dependency_unsatisfied', 'invalid_task_graph'].includes(r.reasonCode));
					return;
				}
				for (const t of tasks) { assert.ok(r.tasks.some((x) => x.taskId === t.taskId), 'no row disappears'); }
				const active = r.tasks.filter((t) => t.supersededAtUnixMs === 0);
				assert.ok(active.length > 0);
				const activeIds = new Set(active.map((t) => t.taskId));
				for (const t of active) { for (const d of t.dependencyTaskIds) { assert.ok(activeIds.has(d), `${t.taskId} → ${d} is active`); } }
				for (const t of r.tasks.filter((x) => x.supersededAtUnixMs > 0)) {
					const original = tasks.find((x) => x.taskId === t.taskId);
					if (original) { assert.ok(original.status !== 'running' && original.status !== 'completed', 'running/completed are never superseded'); }
				}
			}));
		});
	});
});
