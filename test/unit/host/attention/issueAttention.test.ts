// The attention state as the Host sends it in issue/list (src/host/services/attention/readAttention.ts): what the
// await heartbeats and the session's calls say about the source agent reaches the board and the panel.
import { strict as assert } from 'node:assert';
import { executionIdFor, runCheckpointId } from '../../../../src/core/ids.js';
import type { Execution } from '../../../../src/core/model.js';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import type { AttentionDto } from '../../../../src/protocol/dto.js';
import { checkpointRepository } from '../../../../src/store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { ServiceHarness } from '../services/serviceHarness.js';
import { putTask, taskRow } from '../await/awaitFixture.js';
import { SteppedWaitTimer } from '../await/steppedWaitTimer.js';

const issueId = 'iss-1';

async function managed(h: ServiceHarness): Promise<{ caller: Caller; sessionId: string }> {
	const opened = await h.call('session/open', { role: 'source' });
	await h.managedIssue(issueId, opened.sessionId);
	const now = h.clock.now();
	const execution: Execution = {
		executionId: executionIdFor(issueId), issueId, sourceSessionId: opened.sessionId, status: 'running', graphRevision: 1, activeCheckpointId: '',
		lastOrchestratorActivityAtUnixMs: now, watchdogDueAtUnixMs: 0, reviewMode: 'self', archiveReason: '',
		completedAtUnixMs: 0, archivedAtUnixMs: 0, createdAtUnixMs: now, updatedAtUnixMs: now,
	};
	await h.store.transaction((tx) => executionRepository.insert(tx, execution));
	const caller = h.services.api.authenticate(opened.token);
	assert.ok(caller);
	return { caller, sessionId: opened.sessionId };
}

async function attention(h: ServiceHarness): Promise<AttentionDto> {
	const { issues } = await h.call('issue/list', {});
	const issue = issues.find((i) => i.issueId === issueId);
	assert.ok(issue);
	return issue.attention;
}

describe('attention in issue/list', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('says the source agent waits in await-review, and since when, while its call waits', async () => {
		const timer = SteppedWaitTimer.holdingUntilCommit();
		h = await ServiceHarness.open({ awaitTimer: timer });
		timer.attach(h.store);
		const source = await managed(h);
		await putTask(h, taskRow(issueId, 'a', 'pending_acceptance', h.clock.now()));
		const parked = timer.paused();
		const pending = h.call('await/review', { issueId, taskId: 'a', waitMs: 30_000 }, source.caller);
		await parked;
		const since = h.clock.now();
		h.clock.advance(1_000);
		const during = await h.call('issue/list', {});
		const a = during.issues[0]!.attention;
		assert.equal(a.state, 'needs_you');
		assert.deepEqual(a.reasons.map((r) => r.kind), ['task_awaiting_acceptance']);
		assert.deepEqual(a.sourceAgent, { activity: 'waiting', waitingIn: 'await-review', waitingSinceUnixMs: since });
		assert.equal(a.handBackCommand, '');
		await putTask(h, { ...taskRow(issueId, 'a', 'completed', h.clock.now()), acceptanceState: 'user_accepted' });
		await pending;
	});

	it('a checkpoint the terminal source agent has not seen makes it needs-you with the hand-back command; a call of the agent clears that', async () => {
		h = await ServiceHarness.open();
		const source = await managed(h);
		await putTask(h, taskRow(issueId, 'a', 'completed', h.clock.now()));
		await putTask(h, taskRow(issueId, 'b', 'not_started', h.clock.now()));
		h.clock.advance(5_000);
		const now = h.clock.now();
		await h.store.transaction((tx) => {
			checkpointRepository.insert(tx, {
				checkpointId: runCheckpointId(executionIdFor(issueId), 'run-a'), executionId: executionIdFor(issueId), kind: 'task_settled', status: 'active', sequence: 2,
				graphRevision: 1, subjectTaskId: 'a', subjectRunId: 'run-a', creationReason: 'settled', requiresGoalReview: false, createdAtUnixMs: now, resolvedAtUnixMs: 0, updatedAtUnixMs: now,
			});
		});
		const stalled = await attention(h);
		assert.equal(stalled.state, 'needs_you');
		assert.equal(stalled.handBackCommand, `tutti agent resume --session-id ${source.sessionId}`);
		h.clock.advance(1_000);
		await h.call('agent/resume', {}, source.caller);
		const resumed = await attention(h);
		assert.equal(resumed.state, 'agent_working');
		assert.equal(resumed.sourceAgent?.activity, 'working');
	});
});
