// The issue panel's snapshot deltas: the Host's `snapshotDelta` carries only what changed, and the webview's
// `applySnapshotDelta` rebuilds exactly the snapshot the Host built (checked through the wire: JSON and the zod
// schema the webview validates with).
import { strict as assert } from 'node:assert';
import type { PanelSnapshot, PanelSnapshotDelta } from '../../../src/protocol/webview.js';
import { parseToWebview } from '../../../src/protocol/webview.js';
import { applySnapshotDelta, snapshotDelta } from '../../../src/protocol/webviewDelta.js';
import { aLayeredGraph, aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, anIssue } from '../webview/builders.js';

/** The delta as the webview receives it: serialized, then validated by the protocol's schema. */
function overTheWire(delta: PanelSnapshotDelta): PanelSnapshotDelta {
	const parsed = parseToWebview(JSON.parse(JSON.stringify(delta)));
	assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
	assert.equal(parsed.value.type, 'delta');
	return parsed.value as PanelSnapshotDelta;
}

/** `next` rebuilt by the webview from `base` and the Host's delta. */
function roundTrip(base: PanelSnapshot, next: PanelSnapshot): { delta: PanelSnapshotDelta; applied: PanelSnapshot } {
	const delta = snapshotDelta(base, next);
	assert.ok(delta, 'the change fits a delta');
	const applied = applySnapshotDelta(base, overTheWire(delta));
	assert.ok(applied, 'the delta applies to its base');
	assert.deepEqual(applied, next);
	return { delta, applied };
}

const manual = (tasks = aLayeredGraph(40), seq = 1): PanelSnapshot => aSnapshot(anIssue(tasks), { seq, runs: [aRun('r1', 't1')] });

describe('panel snapshot deltas', () => {
	it('carries only the task whose status changed, and the webview rebuilds the same snapshot', () => {
		const tasks = aLayeredGraph(40);
		const base = manual(tasks, 1);
		const next = manual(tasks.map((t) => (t.taskId === 't7' ? { ...t, status: 'failed' as const } : t)), 2);
		const { delta, applied } = roundTrip(base, next);
		assert.deepEqual(delta.issueTasks?.upsert.map((t) => t.taskId), ['t7']);
		assert.equal(delta.issueTasks?.keys, undefined, 'same tasks in the same order: no key list');
		assert.equal(delta.runs, undefined);
		assert.notEqual(delta.issue, undefined, 'the counts changed with the status');
		// Unchanged tasks are the webview's own objects (what lets it skip them).
		assert.equal(applied.issue.tasks[6], base.issue.tasks[6]);
		assert.notEqual(applied.issue.tasks[7], base.issue.tasks[7]);
	});

	it('sends nothing of an unchanged snapshot but its seq', () => {
		const base = manual();
		const delta = snapshotDelta(base, { ...manual(), seq: 2 });
		assert.deepEqual(delta, { type: 'delta', seq: 2, baseSeq: 1 });
	});

	it('lists the keys when tasks are added, removed or reordered', () => {
		const tasks = aLayeredGraph(12);
		const base = manual(tasks, 3);
		const added = roundTrip(base, manual([...tasks, aTask('t99', { sortIndex: 99 })], 4)).delta;
		assert.deepEqual(added.issueTasks?.upsert.map((t) => t.taskId), ['t99']);
		assert.equal(added.issueTasks?.keys?.length, 13);
		const removed = roundTrip(base, manual(tasks.filter((t) => t.taskId !== 't11'), 4)).delta;
		assert.deepEqual(removed.issueTasks?.upsert, []);
		assert.equal(removed.issueTasks?.keys?.includes('t11'), false);
		roundTrip(base, manual([...tasks].reverse(), 4));
	});

	it('carries a new Run, a changed Run and the view, the transcript and the review comments', () => {
		const base = manual();
		const next: PanelSnapshot = {
			...manual(),
			seq: 2,
			runs: [aRun('r1', 't1', { summary: 'done' }), aRun('r2', 't2', { status: 'running', outcome: null, outcomeLabel: null })],
			view: { ...base.view, selectedTaskId: 't1', nowUnixMs: 20_000 },
			transcript: { runId: 'r1', entries: [{ kind: 'assistant', text: 'hello', tool: '' }], omittedCount: 0, done: true },
			reviewComments: [{ path: 'a.ts', line: 3, text: 'why?' }],
		};
		const { delta } = roundTrip(base, next);
		assert.deepEqual(delta.runs?.upsert.map((r) => r.runId), ['r1', 'r2']);
		assert.deepEqual(delta.runs?.keys, ['r1', 'r2']);
		assert.equal(delta.issueTasks, undefined);
	});

	it('patches a managed plan\'s tasks and its checkpoint fields', () => {
		const tasks = [aPlanTask('a', { ready: true }), aPlanTask('b', { dependencyTaskIds: ['a'], sortIndex: 1 })];
		const base = aManagedSnapshot(tasks, {}, { seq: 5 });
		const next = aManagedSnapshot([{ ...tasks[0]!, status: 'running', ready: false }, tasks[1]!], { recoveryHint: 'Wait.' }, { seq: 6 });
		const { delta } = roundTrip(base, next);
		assert.deepEqual(delta.planTasks?.upsert.map((t) => t.taskId), ['a']);
		assert.equal(delta.plan?.recoveryHint, 'Wait.');
	});

	it('gives up (a complete snapshot) when a plan appears or a key repeats', () => {
		const base = manual();
		assert.equal(snapshotDelta(base, aManagedSnapshot([aPlanTask('a')], {}, { seq: 2 })), null);
		const twice = manual([aTask('x'), aTask('x')], 2);
		assert.equal(snapshotDelta(base, twice), null);
	});

	it('does not apply to another base, nor when it names a task the base lacks', () => {
		const tasks = aLayeredGraph(10);
		const base = manual(tasks, 1);
		const delta = snapshotDelta(base, manual([...tasks.slice(1), aTask('new')], 2))!;
		assert.equal(applySnapshotDelta({ ...base, seq: 7 }, delta), null, 'drawn from another snapshot');
		const unknown: PanelSnapshotDelta = { type: 'delta', seq: 2, baseSeq: 1, issueTasks: { keys: ['t0', 'ghost'], upsert: [] } };
		assert.equal(applySnapshotDelta(base, unknown), null);
	});
});
