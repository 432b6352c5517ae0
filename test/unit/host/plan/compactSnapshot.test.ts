// `plan issue get` by default: the compact snapshot over the real plan service and Store — its shape, its limits, the
// session's remembered read, and `--task-id` (one task in full).
import * as assert from 'node:assert/strict';
import { getCompactPlan, readPlanTask } from '../../../../src/host/services/plan/compactSnapshot.js';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import { compactPlanSnapshotDto, type CompactPlanSnapshotDto } from '../../../../src/protocol/dto.js';
import { deliveryRepository } from '../../../../src/store/repositories/deliveryRepository.js';
import { planReadRepository } from '../../../../src/store/repositories/planReadRepository.js';
import { type ManagedIssueDriver, PlanKit, rejects, taskSpec, testConfig, user } from './planKit.js';

const pad = (i: number): string => String(i).padStart(3, '0');

describe('plan issue get: the compact snapshot', () => {
	let kit: PlanKit;
	beforeEach(async () => { kit = await PlanKit.open(testConfig({ maxParallelRuns: 8 })); });
	afterEach(async () => { await kit.close(); });

	async function compact(issue: ManagedIssueDriver, caller: Caller = issue.source, sinceRevision?: number): Promise<CompactPlanSnapshotDto> {
		const snapshot = await getCompactPlan({ store: kit.store, clock: kit.clock, log: () => undefined },
			{ issueId: issue.issueId, ...(sinceRevision !== undefined ? { sinceRevision } : {}) }, caller);
		return compactPlanSnapshotDto.parse(snapshot);
	}

	/** 100 independent tasks r000…r099 and 20 tasks d000…d019 that wait for r000. */
	async function wideIssue(): Promise<ManagedIssueDriver> {
		return kit.managedIssue([
			...Array.from({ length: 100 }, (_, i) => taskSpec(`r${pad(i)}`)),
			...Array.from({ length: 20 }, (_, i) => taskSpec(`d${pad(i)}`, { dependencyTaskIds: ['r000'] })),
		]);
	}

	it('lists the first 50 ready tasks, counts them all, and keeps tasks to 50 in the slim form', async () => {
		const issue = await wideIssue();
		const s = await compact(issue);
		assert.equal(s.readyCount, 100);
		assert.deepEqual(s.readyTaskIds, Array.from({ length: 50 }, (_, i) => `r${pad(i)}`));
		assert.deepEqual(s.counts, { notStarted: 120, running: 0, pendingAcceptance: 0, completed: 0, failed: 0, canceled: 0 });
		assert.equal(s.sinceRevision, 0, 'a session that never read sees what changed since the start');
		assert.equal(s.tasks.length, 50);
		assert.equal(s.omittedTaskCount, 70, '120 tasks changed since 0, 50 shown');
		assert.deepEqual(s.tasks[0], { taskId: 'r000', title: 'Task r000', status: 'not_started' });
		assert.equal(s.execution.graphRevision, 2);
		assert.deepEqual(Object.keys(s.execution).sort(), ['activeCheckpointId', 'executionId', 'graphRevision', 'status']);
		assert.equal(s.activeCheckpoint?.kind, 'initial_schedule');
		assert.deepEqual(s.allowedActions.includes('schedule'), true);
		assert.ok(!('activeWake' in s), 'the wake prompt is not repeated');
		const hinted = /--task-ids-json '(\[[^']*\])'/.exec(s.recoveryHint)?.[1];
		assert.deepEqual(JSON.parse(hinted ?? '[]'), Array.from({ length: 10 }, (_, i) => `r${pad(i)}`), 'the hint\'s example names 10 ready tasks, not 100');
	});

	it('remembers what the session read: the next get lists only what changed since, and the ready tasks', async () => {
		const issue = await wideIssue();
		const first = await compact(issue);
		assert.equal(kit.store.read((r) => planReadRepository.lastRead(r, issue.source.sessionId, issue.issueId)), first.taskRevision);
		const second = await compact(issue);
		assert.equal(second.sinceRevision, first.taskRevision);
		assert.deepEqual(second.tasks.map((t) => t.taskId), second.readyTaskIds);
		assert.equal(second.omittedTaskCount, 0);

		await issue.schedule(['r010', 'r011']);
		const run = await issue.runOf('r010');
		kit.clock.advance(2_000);
		await kit.settle(run, 'success');
		const settled = await compact(issue);
		assert.equal(settled.activeCheckpoint?.kind, 'task_settled');
		assert.equal(settled.activeCheckpoint?.subjectTaskId, 'r010');
		assert.deepEqual(settled.tasks.slice(0, 2).map((t) => [t.taskId, t.status]), [['r010', 'pending_acceptance'], ['r011', 'running']]);
		assert.deepEqual(settled.tasks[0], {
			taskId: 'r010', title: 'Task r010', status: 'pending_acceptance', latestRunId: run, outcomeLabel: 'Completed in 2.0s',
			acceptanceLabel: 'Not accepted',
		}, 'the checkpoint\'s subject says whether it is accepted');
		assert.equal(settled.readyCount, 98);
		assert.equal(settled.counts.running, 1);
		assert.equal(settled.counts.pendingAcceptance, 1);

		const again = await compact(issue, issue.source, first.taskRevision);
		assert.equal(again.sinceRevision, first.taskRevision, '--since-revision wins over the remembered read');
		assert.deepEqual(again.tasks.slice(0, 2).map((t) => t.taskId), ['r010', 'r011']);
	});

	it('shows the result commit of the latest successful Run, and blockers of held-back tasks', async () => {
		const issue = await kit.managedIssue([taskSpec('a'), taskSpec('b', { dependencyTaskIds: ['a'] })]);
		await issue.schedule(['a']);
		const run = await issue.runOf('a');
		await kit.store.transaction((tx) => {
			deliveryRepository.recordRunBase(tx, run, true, 'base0');
			deliveryRepository.recordRunResult(tx, run, 'c0ffee', [], kit.clock.now());
		});
		await kit.settle(run, 'success');
		const s = await compact(issue, issue.source, 0);
		const a = s.tasks.find((t) => t.taskId === 'a');
		const b = s.tasks.find((t) => t.taskId === 'b');
		assert.equal(a?.resultCommit, 'c0ffee');
		assert.equal(b?.blockerReason, 'dependency_unsatisfied');
		assert.equal(b?.resultCommit, undefined);
	});

	it('cuts long titles and long dependency lists', async () => {
		const deps = Array.from({ length: 25 }, (_, i) => `p${pad(i)}`);
		const issue = await kit.managedIssue([
			...deps.map((id) => taskSpec(id)),
			taskSpec('join', { title: `J${'o'.repeat(400)}`, dependencyTaskIds: deps }),
		]);
		const s = await compact(issue, issue.source, 0);
		const join = s.tasks.find((t) => t.taskId === 'join');
		assert.ok(join, 'the join task changed since 0');
		assert.equal(join.title.length, 160);
		assert.ok(join.title.endsWith('…'));
		assert.deepEqual(join.dependencyTaskIds, deps.slice(0, 20));
		assert.equal(join.moreDependencies, 5);
	});

	it('stays under 8 KB and flat from 500 to 1,000 tasks', async () => {
		const sizes: number[] = [];
		for (const n of [500, 1000]) {
			const issue = await kit.managedIssue(Array.from({ length: n }, (_, i) => taskSpec(`t${i}`, { dependencyTaskIds: i % 10 === 0 ? [] : [`t${i - 1}`] })));
			await issue.schedule(['t0']);
			await kit.settle(await issue.runOf('t0'), 'success');
			await compact(issue);
			sizes.push(Buffer.byteLength(JSON.stringify(await compact(issue))));
		}
		assert.ok(sizes[1]! <= 8192, `1,000 tasks: ${sizes[1]} bytes`);
		assert.ok(sizes[1]! <= sizes[0]! * 1.1, `flat: ${sizes.join(' → ')} bytes`);
	});

	it('is not remembered for the developer, and is refused to another session', async () => {
		const issue = await wideIssue();
		const s = await compact(issue, user);
		assert.equal(s.sinceRevision, 0);
		assert.equal((await compact(issue, user)).sinceRevision, 0);
		await rejects(compact(issue, await kit.session('source')), 'wrong_source_session');
	});

	it('--task-id: that one task in full, with its label and result commit; an unknown task is task_not_found', async () => {
		const issue = await kit.managedIssue([taskSpec('a', { content: 'All the details' })]);
		await issue.schedule(['a']);
		await kit.settle(await issue.runOf('a'), 'failure');
		const view = kit.store.read((r) => readPlanTask(r, { issueId: issue.issueId, taskId: 'a' }, issue.source));
		assert.equal(view.task.content, 'All the details');
		assert.equal(view.task.status, 'failed');
		assert.match(view.task.outcomeLabel ?? '', /^Failed after/);
		assert.equal(view.task.resultCommit, '');
		assert.throws(() => kit.store.read((r) => readPlanTask(r, { issueId: issue.issueId, taskId: 'zz' }, issue.source)), /has no task zz/);
	});
});
