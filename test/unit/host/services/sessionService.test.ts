import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, it } from 'mocha';
import { type Caller } from '../../../../src/protocol/controlPlane.js';
import { rejects, ServiceHarness, userCredential } from './serviceHarness.js';

describe('host services: sessions and authentication', () => {
	let h: ServiceHarness;
	beforeEach(async () => { h = await ServiceHarness.open(); });
	afterEach(async () => { await h.close(); });

	it('the developer credential authenticates as the user; unknown or empty tokens as nobody', () => {
		assert.deepEqual(h.services.api.authenticate(userCredential), { kind: 'user' });
		assert.equal(h.services.api.authenticate('not-a-token'), null);
		assert.equal(h.services.api.authenticate(''), null);
		assert.equal(h.services.api.authenticate(undefined), null);
		assert.equal(h.services.api.authenticate(`${userCredential}x`), null);
	});

	it('session/open returns a 32-byte hex token that authenticates as that session; only its sha256 is stored', async () => {
		const opened = await h.call('session/open', { role: 'source' });
		assert.match(opened.token, /^[0-9a-f]{64}$/);
		assert.equal(opened.role, 'source');
		assert.deepEqual(h.services.api.authenticate(opened.token), { kind: 'session', sessionId: opened.sessionId, role: 'source' });
		const rows = h.store.read((r) => r.all('SELECT token_sha256 FROM agent_sessions WHERE session_id = ?', [opened.sessionId]));
		assert.deepEqual(rows, [{ token_sha256: createHash('sha256').update(opened.token).digest('hex') }]);
		const raw = h.store.read((r) => r.all('SELECT * FROM agent_sessions')).some((row) => Object.values(row).includes(opened.token));
		assert.equal(raw, false, 'the raw token is never stored');
	});

	it('session/open for an unknown issue or agent target is rejected', async () => {
		await rejects(h.call('session/open', { role: 'worker', issueId: 'nope' }), 'issue_not_found');
		await rejects(h.call('session/open', { role: 'worker', agentTargetId: 'nope' }), 'agent_target_not_found');
	});

	describe('developer actions are the user\'s only', () => {
		let agent: Caller;
		let issueId: string;
		beforeEach(async () => {
			agent = (await h.session('source')).caller;
			issueId = (await h.call('issue/create', { title: 'Manual' })).issueId;
		});

		const cases: [string, () => Promise<unknown>][] = [
			['session/open', () => h.call('session/open', { role: 'worker' }, agent)],
			['issue/pause', () => h.call('issue/pause', { issueId }, agent)],
			['issue/resume', () => h.call('issue/resume', { issueId }, agent)],
			['issue/stop', () => h.call('issue/stop', { issueId }, agent)],
			['issue/update dispatchPaused', () => h.call('issue/update', { issueId, dispatchPaused: true }, agent)],
			['run/stop', () => h.call('run/stop', { runId: 'run-x' }, agent)],
		];
		for (const [name, action] of cases) {
			it(`${name} → forbidden with a hint for an agent token`, async () => {
				const e = await rejects(action(), 'forbidden');
				assert.match(e.hint, /--as-user/);
			});
		}

		it('generic reads, manual issue creation and manual task writers are open to agent sessions', async () => {
			await h.call('issue/create', { title: 'by an agent' }, agent);
			await h.call('issue/get', { issueId }, agent);
			await h.call('issue/list', {}, agent);
			await h.call('agent/list', {}, agent);
			const task = await h.call('task/add', { issueId, title: 'by an agent' }, agent);
			await h.call('task/update', { issueId, taskId: task.taskId, title: 'renamed' }, agent);
			await h.call('issue/update', { issueId, title: 'renamed by agent' }, agent);
			await h.call('task/delete', { issueId, taskId: task.taskId }, agent);
			const hello = await h.call('hello', { client: 'test', protocol: 1 }, agent);
			assert.match(hello.caller, /^source:/);
		});
	});
});

describe('host services: the reviewer capability allowlist', () => {
	let h: ServiceHarness;
	beforeEach(async () => { h = await ServiceHarness.open(); });
	afterEach(async () => { await h.close(); });

	it('a reviewer token reads and nothing else: writes, plan commands and developer actions are forbidden', async () => {
		const { caller } = await h.session('reviewer');
		const issue = await h.call('issue/create', { title: 'Reviewed' });
		assert.equal((await h.call('issue/get', { issueId: issue.issueId }, caller)).issueId, issue.issueId, 'reading is allowed');
		await rejects(h.call('task/add', { issueId: issue.issueId, title: 'sneaky' }, caller), 'forbidden');
		await rejects(h.call('issue/update', { issueId: issue.issueId, title: 'renamed' }, caller), 'forbidden');
		await rejects(h.call('plan/create', { title: 'T', content: 'C', requestId: 'r' }, caller), 'forbidden');
		await rejects(h.call('run/send', { runId: 'run-x', text: 'hi' }, caller), 'forbidden');
		assert.equal((await h.call('issue/get', { issueId: issue.issueId })).title, 'Reviewed', 'nothing changed');
	});
});
