import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { rejects, ServiceHarness } from './serviceHarness.js';

describe('host services: manual issues and their tasks', () => {
	let h: ServiceHarness;
	let issueId: string;
	beforeEach(async () => {
		h = await ServiceHarness.open();
		issueId = (await h.call('issue/create', { title: 'Manual', content: 'goal' })).issueId;
		await h.call('issue/pause', { issueId }); // keep the dispatcher out of the CRUD rules
	});
	afterEach(async () => { await h.close(); });

	it('create/get/list/update: a manual, open issue whose tasks auto-accept as the autoAcceptDefault setting says (off)', async () => {
		const got = await h.call('issue/get', { issueId });
		assert.equal(got.planningSource, 'manual');
		assert.equal(got.status, 'open');
		assert.equal(got.autoAcceptDefault, false);
		assert.deepEqual(got.tasks, []);
		const updated = await h.call('issue/update', { issueId, title: 'Renamed', content: 'new goal' });
		assert.equal(updated.title, 'Renamed');
		assert.equal(updated.content, 'new goal');
		assert.deepEqual((await h.call('issue/list', {})).issues.map((i) => i.issueId), [issueId]);
		await rejects(h.call('issue/get', { issueId: 'missing' }), 'issue_not_found');
	});

	it('issue create: any agent session may create a manual issue; a reviewer session stays read-only', async () => {
		for (const role of ['worker', 'source'] as const) {
			const { caller } = await h.session(role);
			const created = await h.call('issue/create', { title: `by a ${role}` }, caller);
			assert.equal(created.planningSource, 'manual');
			assert.equal((await h.call('issue/get', { issueId: created.issueId })).title, `by a ${role}`);
		}
		const reviewer = await h.session('reviewer');
		await rejects(h.call('issue/create', { title: 'by a reviewer' }, reviewer.caller), 'forbidden');
	});

	it('task add: optional id (generated), defaults, dependency order and launch settings', async () => {
		const a = await h.call('task/add', { issueId, title: 'A', agentTargetId: 'ok' });
		assert.ok(a.taskId.length > 0);
		assert.equal(a.status, 'not_started');
		assert.equal(a.autoAccept, false, "the issue's default");
		const b = await h.call('task/add', { issueId, taskId: 'b', title: 'B', dependencyTaskIds: [a.taskId, a.taskId], content: 'do B', executionDirectory: 'sub' });
		assert.deepEqual(b.dependencyTaskIds, [a.taskId]);
		assert.equal(b.sortIndex, a.sortIndex + 1);
		const got = await h.call('issue/get', { issueId });
		assert.deepEqual(got.tasks.map((t) => t.taskId), [a.taskId, 'b']);
		assert.equal(got.taskCount, 2);
		assert.equal(got.counts.notStarted, 2);
		const accepting = (await h.call('issue/create', { title: 'accepted', autoAccept: true })).issueId;
		assert.equal((await h.call('task/add', { issueId: accepting, title: 'x' })).autoAccept, true);
	});

	it('task add rejects a duplicate id, missing dependencies, unknown targets and directories outside the workspace', async () => {
		await h.call('task/add', { issueId, taskId: 'a', title: 'A' });
		await rejects(h.call('task/add', { issueId, taskId: 'a', title: 'again' }), 'duplicate_task');
		const missing = await rejects(h.call('task/add', { issueId, title: 'B', dependencyTaskIds: ['nope'] }), 'invalid_task_graph');
		assert.match(missing.message, /nope/);
		await rejects(h.call('task/add', { issueId, taskId: 'self', title: 'S', dependencyTaskIds: ['self'] }), 'invalid_task_graph');
		await rejects(h.call('task/add', { issueId, title: 'C', agentTargetId: 'not-configured' }), 'agent_target_not_found');
		await rejects(h.call('task/add', { issueId, title: 'D', executionDirectory: '../elsewhere' }), 'invalid_input');
		await rejects(h.call('task/add', { issueId, title: 'E', executionDirectory: '/etc' }), 'invalid_input');
		assert.deepEqual((await h.call('issue/get', { issueId })).tasks.map((t) => t.taskId), ['a']);
	});

	it('task update: a dependency cycle is invalid_task_graph; changing the target clears target-specific settings', async () => {
		await h.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'ok', model: 'm1', reasoningEffort: 'high' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'B', dependencyTaskIds: ['a'] });
		const cycle = await rejects(h.call('task/update', { issueId, taskId: 'a', dependencyTaskIds: ['b'] }), 'invalid_task_graph');
		assert.match(cycle.message, /cycle/);
		const a = await h.call('task/update', { issueId, taskId: 'a', agentTargetId: 'other' });
		assert.equal(a.agentTargetId, 'other');
		assert.equal(a.model, '');
		assert.equal(a.reasoningEffort, '');
		const kept = await h.call('task/update', { issueId, taskId: 'a', agentTargetId: 'ok', model: 'm2' });
		assert.equal(kept.model, 'm2');
		await rejects(h.call('task/update', { issueId, taskId: 'zzz', title: 'x' }), 'task_not_found');
	});

	it('launch settings and dependencies of a started task are frozen; its title and content are not', async () => {
		await h.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'ok' });
		await h.call('issue/resume', { issueId });
		await h.idle();
		assert.equal((await h.call('issue/get', { issueId })).tasks[0]!.status, 'running');
		for (const patch of [{ agentTargetId: 'other' }, { executionDirectory: 'x' }, { dependencyTaskIds: [] }, { autoAccept: false }, { model: 'm' }]) {
			await rejects(h.call('task/update', { issueId, taskId: 'a', ...patch }), 'task_not_started');
		}
		const renamed = await h.call('task/update', { issueId, taskId: 'a', title: 'A2', content: 'more detail' });
		assert.equal(renamed.title, 'A2');
		await rejects(h.call('task/delete', { issueId, taskId: 'a' }), 'task_not_started');
	});

	it('task delete: only a not-started task that no active task depends on', async () => {
		await h.call('task/add', { issueId, taskId: 'a', title: 'A' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'B', dependencyTaskIds: ['a'] });
		const blocked = await rejects(h.call('task/delete', { issueId, taskId: 'a' }), 'invalid_task_graph');
		assert.deepEqual(blocked.details.dependents, ['b']);
		assert.deepEqual(await h.call('task/delete', { issueId, taskId: 'b' }), { issueId, taskId: 'b', deleted: true });
		await h.call('task/delete', { issueId, taskId: 'a' });
		assert.deepEqual((await h.call('issue/get', { issueId })).tasks, []);
		await rejects(h.call('task/delete', { issueId, taskId: 'a' }), 'task_not_found');
	});

	it('issue status: open → in_progress when a Run starts → completed when every active task completed', async () => {
		await h.call('task/add', { issueId, taskId: 'a', title: 'A', agentTargetId: 'ok', autoAccept: true });
		await h.call('task/add', { issueId, taskId: 'b', title: 'B', agentTargetId: 'ok', dependencyTaskIds: ['a'], autoAccept: true });
		assert.equal((await h.call('issue/get', { issueId })).status, 'open');
		await h.call('issue/resume', { issueId });
		await h.idle();
		assert.equal((await h.call('issue/get', { issueId })).status, 'in_progress');
		h.runs.exit(h.runs.launches[0]!.runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('issue/get', { issueId })).status, 'in_progress');
		h.runs.exit(h.runs.launches[1]!.runId, { exitCode: 0 });
		await h.idle();
		const done = await h.call('issue/get', { issueId });
		assert.equal(done.status, 'completed');
		assert.deepEqual(done.tasks.map((t) => [t.status, t.acceptanceState]), [['completed', 'auto_checked'], ['completed', 'auto_checked']]);
		await h.call('task/add', { issueId, taskId: 'c', title: 'C' });
		assert.equal((await h.call('issue/get', { issueId })).status, 'in_progress', 'new work reopens a completed manual issue');
	});
});
