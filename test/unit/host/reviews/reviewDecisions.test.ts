// The developer's decisions on task results and at Goal Review, in process (real store, fake Runs).
import { strict as assert } from 'node:assert';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { reviewRepository } from '../../../../src/store/repositories/reviewRepository.js';
import { reworkRepository } from '../../../../src/store/repositories/reworkRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import { ManagedIssueDriver, PlanKit, rejects, taskSpec, testConfig, user } from '../plan/planKit.js';

async function settledPendingAcceptance(kit: PlanKit, tasks = [taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] })]): Promise<{ issue: ManagedIssueDriver; runId: string }> {
	const issue = await kit.managedIssue(tasks);
	const { runIds } = await issue.schedule(['a']);
	await kit.settle(runIds[0]!, 'success');
	return { issue, runId: runIds[0]! };
}

describe('developer review decisions (tasks)', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(testConfig({ developerConfirmation: true })); });
	afterEach(async () => { await kit.close(); });

	it('only the developer accepts: every agent role is forbidden and nothing changes', async () => {
		const { issue } = await settledPendingAcceptance(kit);
		for (const role of ['source', 'worker', 'reviewer'] as const) {
			const agent = role === 'source' ? issue.source : await kit.session(role);
			await rejects(issue.accept('a', agent), 'forbidden');
			await rejects(issue.requestChanges('a', 'redo', agent), 'forbidden');
		}
		assert.equal(issue.task(await issue.get(), 'a').status, 'pending_acceptance');
		assert.deepEqual(kit.store.read((r) => reviewRepository.listDecisions(r, issue.issueId)), []);
	});

	it('accept completes the task as user_accepted, unblocks its dependent, records the decision and replays', async () => {
		const { issue, runId } = await settledPendingAcceptance(kit);
		const before = await issue.get();
		assert.deepEqual(before.readyTaskIds, []);
		assert.match(before.recoveryHint, /Wait for the developer's decision on task a with `tutti await-review --issue-id \S+ --task-id a`/);
		kit.clock.advance(5_000);
		const accepted = await issue.accept('a');
		const acceptedCheckpoint = `${issue.executionId}:checkpoint:accepted:${runId}`;
		assert.deepEqual(accepted, {
			decisionId: `${issue.issueId}:review:a:${runId}`, issueId: issue.issueId, taskId: 'a', runId, decision: 'accepted', note: '',
			checkpointId: acceptedCheckpoint, taskStatus: 'completed', acceptanceState: 'user_accepted', replayed: false,
		});
		const s = await issue.get();
		assert.deepEqual(s.readyTaskIds, ['b']);
		assert.deepEqual([s.activeCheckpoint?.checkpointId, s.activeCheckpoint?.kind], [acceptedCheckpoint, 'task_accepted'],
			'the acceptance is the source agent\'s next checkpoint (only the developer could move before it)');
		assert.equal(issue.wakes().find((w) => w.checkpointId === acceptedCheckpoint)?.status, 'prepared', 'with its main wake');
		const decision = kit.store.read((r) => reviewRepository.decisionFor(r, issue.issueId, 'a', runId))!;
		assert.equal(decision.reviewEnteredAtUnixMs, kit.clock.now() - 5_000, 'the durable entry time is the settlement');
		assert.deepEqual(await issue.accept('a'), { ...accepted, replayed: true });
		await rejects(issue.requestChanges('a', 'too late'), 'review_not_pending', /already accepted/);
		await rejects(issue.accept('b'), 'review_not_pending', /not_started/);
		await rejects(issue.accept('nope'), 'task_not_found');
		assert.equal(kit.workChanges.length, 1, 'a decision (not its replay) triggers the dispatcher');
	});

	it('accepting again a result reopened after its branch moved hands the source agent a new task_accepted checkpoint', async () => {
		const { issue, runId } = await settledPendingAcceptance(kit);
		const first = await issue.accept('a');
		assert.equal(first.checkpointId, `${issue.executionId}:checkpoint:accepted:${runId}`);
		await issue.schedule(['b']); // the source agent took the first acceptance
		// The branch moved after the acceptance (delivery/acceptanceChanges.ts): the same Run awaits the developer again.
		await kit.store.transaction((tx) => {
			const task = taskRepository.get(tx, issue.issueId, 'a')!;
			taskRepository.update(tx, { ...task, status: 'pending_acceptance', acceptanceState: 'agent_claimed', updatedAtUnixMs: kit.clock.now() });
			reviewRepository.deleteDecision(tx, issue.issueId, 'a', runId);
		});
		const again = await issue.accept('a');
		assert.equal(again.replayed, false);
		assert.match(again.checkpointId, new RegExp(`^${issue.executionId}:checkpoint:accepted:${runId}:again:\\d+$`), 'a checkpoint of its own');
		const s = await issue.get();
		assert.equal(s.activeCheckpoint?.checkpointId, again.checkpointId, 'the source agent is woken at once (its identity verifies: plan get fails closed otherwise)');
		assert.equal(s.activeCheckpoint?.kind, 'task_accepted');
		assert.equal(issue.wakes().find((w) => w.checkpointId === again.checkpointId)?.status, 'prepared', 'with its main wake');
		assert.deepEqual(await issue.accept('a'), { ...again, replayed: true }, 'and it replays like the first');
	});

	it('acknowledge and schedule never accept a pending_acceptance task', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('c'), taskSpec('b', { dependencyTaskIds: ['a'] })]);
		const { runIds } = await issue.schedule(['a', 'c']);
		await kit.settle(runIds[0]!, 'success');
		await issue.acknowledge(); // c still runs
		assert.equal(issue.task(await issue.get(), 'a').status, 'pending_acceptance');
		await kit.settle(runIds[1]!, 'success');
		await rejects(issue.schedule(['b']), 'dependency_unsatisfied');
		assert.equal(issue.task(await issue.get(), 'a').acceptanceState, 'agent_claimed');
	});

	it('request changes needs a note, fails the task and hands the source a changes_requested checkpoint carrying it', async () => {
		const { issue, runId } = await settledPendingAcceptance(kit);
		await rejects(issue.requestChanges('a', '   '), 'invalid_input', /--note/);
		const settled = await issue.fence();
		const changed = await issue.requestChanges('a', 'Handle the empty input\ntoo');
		assert.equal(changed.taskStatus, 'failed');
		assert.equal(changed.acceptanceState, '');
		assert.equal(changed.checkpointId, `${issue.executionId}:checkpoint:changes:${runId}`);
		const s = await issue.get();
		// Only the developer could move (b waits on a): the request is the source agent's checkpoint at once.
		assert.equal(s.activeCheckpoint?.checkpointId, changed.checkpointId, 'active at once');
		assert.equal(issue.checkpoint(settled.checkpointId).status, 'superseded', 'the settlement it answers');
		const active = s.checkpoints.find((c) => c.kind === 'changes_requested')!;
		assert.deepEqual([active.status, active.subjectTaskId, active.note], ['active', 'a', 'Handle the empty input\ntoo']);
		assert.deepEqual(kit.store.read((r) => reviewRepository.openChangeRequests(r, issue.issueId)).map((c) => [c.taskId, c.note, c.checkpointStatus]),
			[['a', 'Handle the empty input\ntoo', 'active']]);
		assert.deepEqual(await issue.requestChanges('a', 'Handle the empty input\ntoo'), { ...changed, replayed: true });
		await rejects(issue.requestChanges('a', 'something else'), 'review_not_pending', /different note/);
		const wake = issue.wakes().find((w) => w.checkpointId === changed.checkpointId)!;
		assert.match(wake.prompt, /> Handle the empty input\n> too/);
		assert.match(wake.prompt, /"kind":"rework","taskId":"a"/);
		// The rework path applies: rework a into a replacement and schedule it at the same checkpoint.
		const m = await issue.mutate([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', content: 'Do a; handle the empty input too' } }]);
		const replacement = await issue.schedule(['a2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		assert.equal(replacement.runIds.length, 1);
		assert.deepEqual(kit.store.read((r) => reviewRepository.openChangeRequests(r, issue.issueId)), [], 'taken up');
		assert.deepEqual(issue.task(await issue.get(), 'b').dependencyTaskIds, ['a2'], 'dependents are redirected');
	});

	it('while the source agent can still act at its checkpoint, a decision queues behind it', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('c'), taskSpec('b', { dependencyTaskIds: ['a'] })]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		const settled = await issue.fence();
		assert.deepEqual((await issue.get()).readyTaskIds, ['c'], 'c is the agent\'s to schedule');
		const changed = await issue.requestChanges('a', 'Redo it.');
		const s = await issue.get();
		assert.equal(s.activeCheckpoint?.checkpointId, settled.checkpointId, 'queued behind the active settlement checkpoint');
		assert.equal(s.checkpoints.find((c) => c.checkpointId === changed.checkpointId)?.status, 'pending');
		const ack = await issue.acknowledge();
		assert.deepEqual([ack.nextCheckpointId, ack.nextCheckpointKind], [changed.checkpointId, 'changes_requested']);
	});

	it('a request for changes supersedes an open Goal Review boundary, which the rework settlement rearms', async () => {
		const { issue } = await settledPendingAcceptance(kit, [taskSpec('a')]);
		await issue.acknowledge(); // the terminal checkpoint was queued: Goal Review is active
		assert.equal(issue.execution().status, 'pending_goal_review');
		await rejects(issue.complete(), 'acceptance_pending', /task a still awaits/);
		const changed = await issue.requestChanges('a', 'Wrong file');
		assert.equal(issue.checkpoint(issue.terminalId).status, 'superseded');
		const s = await issue.get();
		assert.equal(s.activeCheckpoint?.checkpointId, changed.checkpointId);
		assert.equal(s.execution.status, 'awaiting_main');
		assert.equal(s.activeCheckpoint?.note, 'Wrong file');
		assert.ok(issue.wakes().filter((w) => w.checkpointId === issue.terminalId).every((w) => w.status === 'canceled'));
		const m = await issue.mutate([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2' } }]);
		const r = await issue.schedule(['a2'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		await kit.settle(r.runIds[0]!, 'success');
		assert.equal(issue.checkpoint(issue.terminalId).status, 'pending', 'rearmed');
	});
});

describe('developer confirmation at Goal Review', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(testConfig({ developerConfirmation: true })); });
	afterEach(async () => { await kit.close(); });

	async function atGoalReview(): Promise<ManagedIssueDriver> {
		const { issue } = await settledPendingAcceptance(kit, [taskSpec('a')]);
		await issue.accept('a');
		await issue.acknowledge();
		return issue;
	}

	it('complete waits for the developer; confirm completes; both replay', async () => {
		const issue = await atGoalReview();
		const fence = await issue.fence();
		const done = await issue.complete({ requestId: 'c1' });
		const goalReviewId = `${issue.terminalId}:goal-review:${issue.checkpoint(issue.terminalId).sequence}`;
		assert.deepEqual([done.executionStatus, done.goalReviewId], ['pending_goal_review', goalReviewId]);
		assert.deepEqual(await issue.complete({ ...fence, requestId: 'c1' }), { ...done, replayed: true });
		const waiting = await issue.get();
		assert.deepEqual([waiting.execution.status, waiting.activeCheckpoint, waiting.allowedActions], ['pending_goal_review', null, []]);
		assert.match(waiting.recoveryHint, /awaits the developer's confirmation/);
		assert.equal(issue.execution().watchdogDueAtUnixMs, 0, 'no watchdog while the developer owes the decision');
		await rejects(issue.complete({ ...fence, requestId: 'c2' }), 'inactive_checkpoint');
		await rejects(kit.reviews.confirmGoal({ issueId: issue.issueId }, issue.source), 'forbidden');
		const confirmed = await kit.reviews.confirmGoal({ issueId: issue.issueId }, user);
		assert.deepEqual(confirmed, {
			goalReviewId, issueId: issue.issueId, executionId: issue.executionId, status: 'confirmed', note: '', checkpointId: '', executionStatus: 'completed', replayed: false,
		});
		assert.equal(issue.execution().status, 'completed');
		assert.deepEqual(await kit.reviews.confirmGoal({ issueId: issue.issueId }, user), { ...confirmed, replayed: true });
		await rejects(kit.reviews.requestGoalChanges({ issueId: issue.issueId, note: 'x' }, user), 'review_not_pending');
	});

	it('request changes at Goal Review returns a goal_changes_requested checkpoint with the note to the source', async () => {
		const issue = await atGoalReview();
		await issue.complete();
		await rejects(kit.reviews.requestGoalChanges({ issueId: issue.issueId, note: '' }, user), 'invalid_input');
		const changed = await kit.reviews.requestGoalChanges({ issueId: issue.issueId, note: 'Also cover logout' }, user);
		assert.equal(changed.executionStatus, 'awaiting_main');
		const s = await issue.get();
		assert.deepEqual([s.activeCheckpoint?.checkpointId, s.activeCheckpoint?.kind, s.activeCheckpoint?.note], [changed.checkpointId, 'goal_changes_requested', 'Also cover logout']);
		assert.deepEqual(s.allowedActions, ['mutate', 'stop']);
		assert.match(issue.wakes().find((w) => w.checkpointId === changed.checkpointId)!.prompt, /> Also cover logout/);
		assert.deepEqual(await kit.reviews.requestGoalChanges({ issueId: issue.issueId, note: 'Also cover logout' }, user), { ...changed, replayed: true });
		await rejects(kit.reviews.confirmGoal({ issueId: issue.issueId }, user), 'review_not_pending');
		// New work, then a fresh Goal Review.
		const m = await issue.mutate([{ kind: 'add', task: taskSpec('logout', { dependencyTaskIds: ['a'] }) }]);
		const r = await issue.schedule(['logout'], { checkpointId: m.checkpointId, expectedGraphRevision: m.graphRevision });
		await kit.settle(r.runIds[0]!, 'success');
		await issue.accept('logout');
		await issue.acknowledge();
		assert.equal((await issue.get()).activeCheckpoint?.kind, 'all_tasks_terminal');
		const again = await issue.complete();
		assert.equal(again.executionStatus, 'pending_goal_review');
		assert.equal(kit.store.read((r2) => reviewRepository.listGoalReviews(r2, issue.executionId)).length, 2);
	});

	it('with confirmation off for the issue, complete completes directly', async () => {
		// Only the developer switches the confirmation off (an agent's request is refused); Tutti starts the source.
		await rejects(kit.plan.create({ title: 'G', content: 'c', requestId: 'create-agent', developerConfirmation: false }, await kit.session('source')), 'forbidden');
		const created = await kit.plan.create({ title: 'G', content: 'c', requestId: 'create-off', developerConfirmation: false, autoAccept: true, sourceTargetId: 'ok' }, user);
		assert.equal(kit.store.read((r) => reviewRepository.developerConfirmationOverride(r, created.executionId)), false);
		const source: Caller = { kind: 'session', sessionId: created.sourceSessionId, role: 'source' };
		const issue = new ManagedIssueDriver(kit, created.issueId, source);
		await issue.mutate([{ kind: 'add', task: taskSpec('a', { autoAccept: true }) }]);
		const { runIds } = await issue.schedule(['a']);
		await kit.settle(runIds[0]!, 'success');
		assert.equal(issue.task(await issue.get(), 'a').acceptanceState, 'auto_checked', 'autoAccept=true behaves as before');
		await issue.acknowledge();
		const done = await issue.complete();
		assert.equal(done.executionStatus, 'completed');
		assert.equal(issue.execution().status, 'completed');
	});
});

describe('developer review decisions (manual issues)', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(); });
	afterEach(async () => { await kit.close(); });

	async function manualWithPendingTasks(): Promise<string> {
		const now = kit.clock.now();
		await kit.store.transaction((tx) => {
			issueRepository.insert(tx, {
				issueId: 'm1', title: 'Manual', content: '', status: 'in_progress', planningSource: 'manual', sourceSessionId: '', dispatchPaused: false,
				autoAcceptDefault: false, createdAtUnixMs: now, updatedAtUnixMs: now,
			});
			for (const taskId of ['x', 'y']) {
				taskRepository.insert(tx, {
					issueId: 'm1', taskId, title: taskId, content: '', status: 'pending_acceptance', sortIndex: 0, dependencyTaskIds: [], parallelizable: true,
					autoAccept: false, acceptanceState: 'agent_claimed', latestRunId: `run-${taskId}`, supersededAtUnixMs: 0, supersededByTaskId: '',
					agentTargetId: 'ok', modelPlanId: '', model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '', createdAtUnixMs: now, updatedAtUnixMs: now,
				});
			}
		});
		return 'm1';
	}

	it('accept and request changes work without an execution: no checkpoint, the issue status follows its tasks', async () => {
		const issueId = await manualWithPendingTasks();
		const changed = await kit.reviews.requestChanges({ issueId, taskId: 'y', note: 'wrong' }, user);
		assert.deepEqual([changed.taskStatus, changed.checkpointId], ['not_started', ''], 'a request for changes is a new attempt of the task, never a failure');
		assert.deepEqual(changed.rework, { reworkId: 'm1:task:y:rework:1', attempt: 1 });
		const rework = kit.store.read((r) => reworkRepository.pendingOfTask(r, issueId, 'y'))!;
		assert.deepEqual([rework.kind, rework.note, rework.fromRunId, rework.runId], ['changes_requested', 'wrong', 'run-y', ''], 'the note waits for the next Run');
		const accepted = await kit.reviews.accept({ issueId, taskId: 'x' }, user);
		assert.equal(accepted.taskStatus, 'completed');
		assert.equal(kit.store.read((r) => issueRepository.get(r, issueId))!.status, 'in_progress', 'y is reworked: not every task is completed');
		assert.equal(kit.workChanges.length, 2, 'the dispatcher is triggered after each decision');
		await rejects(kit.reviews.confirmGoal({ issueId }, user), 'execution_not_found');
	});
});
