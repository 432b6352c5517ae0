import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { type Caller } from '../../../../src/protocol/controlPlane.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { rejects, ServiceHarness, user } from './serviceHarness.js';

describe('host services: the managed guard on generic writers', () => {
	let h: ServiceHarness;
	const issueId = 'managed-1';
	beforeEach(async () => {
		h = await ServiceHarness.open();
		await h.managedIssue(issueId, 'source-session-1');
		const now = h.clock.now();
		await h.store.transaction((tx) => taskRepository.insert(tx, {
			issueId, taskId: 't1', title: 'planned', content: '', status: 'not_started', sortIndex: 0, agentTargetId: 'ok',
			modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [],
			parallelizable: true, autoAccept: false, acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '',
			createdAtUnixMs: now, updatedAtUnixMs: now,
		}));
	});
	afterEach(async () => { await h.close(); });

	const writers: [string, (caller: Caller) => Promise<unknown>][] = [
		['issue/update title', (c) => h.call('issue/update', { issueId, title: 'x' }, c)],
		['issue/update content', (c) => h.call('issue/update', { issueId, content: 'x' }, c)],
		['issue/update dispatchPaused:true', (c) => h.call('issue/update', { issueId, dispatchPaused: true }, c)],
		['issue/update dispatchPaused:false + title', (c) => h.call('issue/update', { issueId, dispatchPaused: false, title: 'x' }, c)],
		['issue/update without fields', (c) => h.call('issue/update', { issueId }, c)],
		['task/add', (c) => h.call('task/add', { issueId, title: 'x', agentTargetId: 'ok' }, c)],
		['task/update', (c) => h.call('task/update', { issueId, taskId: 't1', title: 'x' }, c)],
		['task/delete', (c) => h.call('task/delete', { issueId, taskId: 't1' }, c)],
	];
	for (const [name, write] of writers) {
		it(`${name} → tutti_issue_managed (for the developer and for agents), nothing changes`, async () => {
			const agent = (await h.session('worker')).caller;
			for (const caller of [user, agent]) {
				const e = await rejects(write(caller), 'tutti_issue_managed');
				assert.deepEqual(e.details, { issueId, sourceSessionId: 'source-session-1', recommendedAction: 'open_source_session' });
				assert.match(e.hint, /tutti plan issue mutate/);
			}
			const issue = await h.call('issue/get', { issueId });
			assert.equal(issue.title, 'Managed');
			assert.equal(issue.dispatchPaused, false);
			assert.deepEqual(issue.tasks.map((t) => [t.taskId, t.title]), [['t1', 'planned']]);
			assert.deepEqual(h.planCalls, []);
		});
	}

	it('exactly {issueId, dispatchPaused:false} is the compat resume, routed to the plan service with the caller', async () => {
		const source = (await h.session('source')).caller;
		const dto = await h.call('issue/update', { issueId, dispatchPaused: false }, source);
		assert.equal(dto.issueId, issueId);
		assert.deepEqual(h.planCalls, [{ method: 'resume', args: [{ issueId }, source] }]);
	});

	it('developer pause/resume/stop of a managed issue go through the plan service', async () => {
		await h.call('issue/pause', { issueId });
		await h.call('issue/resume', { issueId });
		await h.call('issue/stop', { issueId });
		assert.deepEqual(h.planCalls.map((c) => c.args), [[issueId, true], [issueId, false], [issueId, true]]);
		assert.ok(h.planCalls.every((c) => c.method === 'setPausedByUser'));
	});

	it('the dispatcher never starts a managed issue\'s ready task', async () => {
		await h.call('task/add', { issueId: (await h.call('issue/create', { title: 'manual' })).issueId, title: 'poke' });
		await h.idle();
		assert.equal(h.runs.launches.length, 0);
	});
});
