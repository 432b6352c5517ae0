// The one attention state per issue and task (src/core/attention/attention.ts): a table of situations and the state,
// reasons and hand-back command the developer is shown for each. Expected values are written out by hand.
import { strict as assert } from 'node:assert';
import {
	type AttentionInput, type AttentionRun, issueAttention, type SourceSessionFacts, sourceIdleAfterMs, taskAttentions,
} from '../../../../src/core/attention/attention.js';
import type { IssueFacts, TaskFacts } from '../../../../src/core/next/facts.js';

const now = 1_800_000_000_000;
const minute = 60_000;

function task(taskId: string, status: TaskFacts['status'], extra: Partial<TaskFacts> = {}): TaskFacts {
	return { taskId, title: `Title ${taskId}`, status, acceptanceState: '', superseded: false, updatedAtUnixMs: now - minute, ...extra };
}

function managedFacts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return {
		issueId: 'iss', issueStatus: 'in_progress',
		execution: { status: 'running', createdAtUnixMs: now - 60 * minute, updatedAtUnixMs: now - minute, completedAtUnixMs: 0 },
		activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
		tasks: [], changeRequests: [], finishedAtUnixMs: 0, lastChangeUnixMs: now - minute, ...extra,
	};
}

function manualFacts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return managedFacts({ issueStatus: 'open', execution: null, ...extra });
}

/** A source agent in the developer's terminal (Tutti cannot wake it), last seen a minute ago, not waiting. */
function terminalSource(extra: Partial<SourceSessionFacts> = {}): SourceSessionFacts {
	return { sessionId: 'src1', wakesDelivered: false, waitingIn: '', waitingSinceUnixMs: 0, lastContactUnixMs: now - minute, turnRunning: false, activeWake: null, ...extra };
}

function input(facts: IssueFacts, extra: Partial<AttentionInput> = {}): AttentionInput {
	return { facts, dispatchPaused: false, latestRuns: new Map(), source: facts.execution ? terminalSource() : null, nowUnixMs: now, ...extra };
}

function failedRun(runId: string, mergeConflict = false): AttentionRun {
	return { runId, status: 'failed', outcome: 'failure', mergeConflict, activity: '' };
}

const checkpoint = (kind: string, createdAtUnixMs: number): IssueFacts['activeCheckpoint'] => ({ checkpointId: 'cp', kind, createdAtUnixMs, subjectTaskId: 'a' });

describe('attention: one state per issue', () => {
	const rows: { name: string; in: AttentionInput; state: string; reasons: string[]; label: string; handBack?: string; stalled?: boolean }[] = [
		{
			name: 'a task awaiting acceptance (source waiting in await-review)',
			in: input(managedFacts({ tasks: [task('a', 'pending_acceptance')] }), { source: terminalSource({ waitingIn: 'await-review', waitingSinceUnixMs: now - 5 * minute }) }),
			state: 'needs_you', reasons: ['task_awaiting_acceptance'], label: 'Needs you: 1 task to accept', stalled: false,
		},
		{
			name: 'a task whose branch moved after acceptance is to accept again, and says so',
			in: input(manualFacts({ tasks: [task('a', 'pending_acceptance'), task('b', 'pending_acceptance')] }), { changedAfterAcceptance: ['b'] }),
			state: 'needs_you', reasons: ['task_awaiting_acceptance'], label: 'Needs you: 2 tasks to accept (1 changed after acceptance)', stalled: false,
		},
		{
			name: 'a task whose reported success failed its checks is to accept, and says so in the warning colour',
			in: input(manualFacts({ tasks: [task('a', 'pending_acceptance'), task('b', 'pending_acceptance')] }), {
				latestRuns: new Map([['a', { runId: 'r1', status: 'completed', outcome: 'success', mergeConflict: false, activity: '', checksFailed: 'Checks failed: test (exit 1)' }]]),
			}),
			state: 'needs_you', reasons: ['task_awaiting_acceptance'], label: 'Needs you: 2 tasks to accept (1 failed its checks)', stalled: true,
		},
		{
			name: 'Goal Review confirmation',
			in: input(managedFacts({ execution: { status: 'pending_goal_review', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, tasks: [task('a', 'completed')] })),
			state: 'needs_you', reasons: ['goal_review'], label: 'Needs you: goal review', stalled: false,
		},
		{
			name: 'all tasks terminal, the source agent still owes `complete` (pending_goal_review with its checkpoint active): not a Goal Review yet',
			in: input(managedFacts({ execution: { status: 'pending_goal_review', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 },
				activeCheckpoint: checkpoint('all_tasks_terminal', now - 1000), tasks: [task('a', 'completed')] }),
				{ source: terminalSource({ sessionId: 'src1', wakesDelivered: true, turnRunning: true, lastContactUnixMs: now - 1000 }) }),
			state: 'agent_working', reasons: [], label: 'Agent working: Source agent working on the all tasks terminal checkpoint',
		},
		{
			name: 'a failed Run of a manual issue (nobody but the developer owns it)',
			in: input(manualFacts({ tasks: [task('a', 'failed'), task('b', 'completed')] }), { latestRuns: new Map([['a', failedRun('r1')]]) }),
			state: 'needs_you', reasons: ['failed_run'], label: 'Needs you: 1 failed', stalled: true,
		},
		{
			name: 'a task whose Run changed files outside its worktree (pending acceptance): named, in the warning colour',
			in: input(manualFacts({ tasks: [task('a', 'pending_acceptance')] }), {
				latestRuns: new Map([['a', { runId: 'r1', status: 'completed', outcome: 'success', mergeConflict: false, activity: '', outsideChanges: ['HEAD', 'README.md'] }]]),
			}),
			state: 'needs_you', reasons: ['task_awaiting_acceptance', 'outside_changes'],
			label: 'Needs you: 1 task to accept · task a changed files outside its worktree: HEAD, README.md', stalled: true,
		},
		{
			name: 'a failed Run that changed files outside its worktree, in a managed issue whose source agent decides: still the developer\'s',
			in: input(managedFacts({ tasks: [task('a', 'failed')] }), {
				latestRuns: new Map([['a', { ...failedRun('r1'), outsideChanges: ['refs/heads/tutti/b'] }]]),
				source: terminalSource({ waitingIn: 'await-review', waitingSinceUnixMs: now - minute }),
			}),
			state: 'needs_you', reasons: ['outside_changes'], label: 'Needs you: task a changed files outside its worktree: refs/heads/tutti/b', stalled: true,
		},
		{
			name: 'a running Run marked stalled: its own reason (never "failed"), in the warning colour, with the longest silence',
			in: input(manualFacts({ tasks: [task('a', 'running'), task('b', 'running'), task('c', 'running')] }), {
				latestRuns: new Map([
					['a', { runId: 'r1', status: 'running', outcome: null, mergeConflict: false, activity: '', stall: { lastActivityAtUnixMs: now - 12 * minute } }],
					['b', { runId: 'r2', status: 'running', outcome: null, mergeConflict: false, activity: '', stall: { lastActivityAtUnixMs: now - 25 * minute } }],
					['c', { runId: 'r3', status: 'running', outcome: null, mergeConflict: false, activity: 'Running npm test' }],
				]),
			}),
			state: 'needs_you', reasons: ['run_stalled'], label: 'Needs you: 2 Runs stalled, no activity for up to 25 min', stalled: true,
		},
		{
			name: 'a merge conflict',
			in: input(manualFacts({ tasks: [task('a', 'failed')] }), { latestRuns: new Map([['a', failedRun('r1', true)]]) }),
			state: 'needs_you', reasons: ['merge_conflict'], label: 'Needs you: 1 merge conflict', stalled: true,
		},
		{
			name: 'the stalled issue: source agent idle in a terminal with a checkpoint it never saw (was "Running" / "idle")',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now - minute, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - minute), tasks: [task('a', 'completed'), task('b', 'not_started')] }),
				{ source: terminalSource({ lastContactUnixMs: now - 10 * minute }) }),
			state: 'needs_you', reasons: ['source_idle'], label: 'Needs you: source agent idle', handBack: 'tutti agent resume --session-id src1', stalled: true,
		},
		{
			name: 'a failed Run of a managed issue whose source agent is idle: nobody owns it',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_failed', now - 3 * minute), tasks: [task('a', 'failed')] }),
				{ latestRuns: new Map([['a', failedRun('r1')]]), source: terminalSource({ lastContactUnixMs: now - 10 * minute }) }),
			state: 'needs_you', reasons: ['failed_run', 'source_idle'], label: 'Needs you: 1 failed · source agent idle', handBack: 'tutti agent resume --session-id src1', stalled: true,
		},
		{
			name: 'the source session is gone',
			in: input(managedFacts({ execution: { status: 'orphaned_source', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, tasks: [task('a', 'not_started')] })),
			state: 'needs_you', reasons: ['source_gone'], label: 'Needs you: source agent gone', stalled: true,
		},
		{
			name: 'a budget reached (typed slot)',
			in: input(manualFacts({ tasks: [task('a', 'not_started')] }), { budgetReached: { label: 'budget reached ($5.00)' } }),
			state: 'needs_you', reasons: ['budget_reached'], label: 'Needs you: budget reached ($5.00)', stalled: true,
		},
		{
			name: 'an approval asked (typed slot)',
			in: input(manualFacts({ tasks: [task('a', 'running')] }), { approvalsAsked: { count: 2, taskIds: ['a'] } }),
			state: 'needs_you', reasons: ['approval_asked'], label: 'Needs you: 2 approvals asked', stalled: false,
		},
		{
			name: "an agent's question reads as a question",
			in: input(manualFacts({ tasks: [task('a', 'running')] }), { approvalsAsked: { count: 1, taskIds: ['a'], questions: 1 } }),
			state: 'needs_you', reasons: ['approval_asked'], label: 'Needs you: 1 question asked', stalled: false,
		},
		{
			name: 'tool calls and questions asked together',
			in: input(manualFacts({ tasks: [task('a', 'running')] }), { approvalsAsked: { count: 3, taskIds: ['a'], questions: 1 } }),
			state: 'needs_you', reasons: ['approval_asked'], label: 'Needs you: 2 approvals and 1 question asked', stalled: false,
		},
		{
			name: 'a Run in progress, with its latest activity line',
			in: input(managedFacts({ tasks: [task('a', 'running')] }), {
				latestRuns: new Map([['a', { runId: 'r1', status: 'running', outcome: null, mergeConflict: false, activity: 'Editing src/login.ts' }]]),
				source: terminalSource({ waitingIn: 'plan issue await', waitingSinceUnixMs: now - minute }),
			}),
			state: 'agent_working', reasons: [], label: 'Agent working: Title a: Editing src/login.ts',
		},
		{
			name: 'a failed Run the waiting source agent owns is not the developer\'s',
			in: input(managedFacts({ activeCheckpoint: checkpoint('task_failed', now - minute), tasks: [task('a', 'failed'), task('b', 'running')] }), {
				latestRuns: new Map([['a', failedRun('r1')]]), source: terminalSource({ lastContactUnixMs: now }),
			}),
			state: 'agent_working', reasons: [], label: 'Agent working: Working on Title b',
		},
		{
			name: 'a source Turn in progress (Tutti woke it)',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - minute), tasks: [task('a', 'completed')] }),
				{ source: terminalSource({ wakesDelivered: true, turnRunning: true, activeWake: { status: 'dispatched', sinceUnixMs: now - minute } }) }),
			state: 'agent_working', reasons: [], label: 'Agent working: Source agent working on the task settled checkpoint',
		},
		{
			name: 'a wake delivered that the source agent has not answered yet',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - 2 * minute), tasks: [task('a', 'completed')] }),
				{ source: terminalSource({ wakesDelivered: true, activeWake: { status: 'turn_settled', sinceUnixMs: now - 2 * minute } }) }),
			state: 'waiting_on_agent', reasons: [], label: 'Waiting on the source agent',
		},
		{
			name: 'a failed wake: the woken agent is idle, with nothing to paste (Tutti wakes it)',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - 2 * minute), tasks: [task('a', 'completed')] }),
				{ source: terminalSource({ wakesDelivered: true, activeWake: { status: 'failed', sinceUnixMs: now - 2 * minute } }) }),
			state: 'needs_you', reasons: ['source_idle'], label: 'Needs you: source agent idle', handBack: '', stalled: true,
		},
		{
			name: 'a terminal source agent that picked its checkpoint up recently is working',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - 2 * minute), tasks: [task('a', 'completed')], lastChangeUnixMs: now - 2 * minute }),
				{ source: terminalSource({ lastContactUnixMs: now - minute }) }),
			state: 'agent_working', reasons: [], label: 'Agent working: Source agent working on the task settled checkpoint',
		},
		{
			name: '... and idle once it stayed quiet for the idle period',
			in: input(managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, activeCheckpoint: checkpoint('task_settled', now - 5 * minute), tasks: [task('a', 'completed')], lastChangeUnixMs: now - 5 * minute }),
				{ source: terminalSource({ lastContactUnixMs: now - sourceIdleAfterMs }) }),
			state: 'needs_you', reasons: ['source_idle'], label: 'Needs you: source agent idle', handBack: 'tutti agent resume --session-id src1', stalled: true,
		},
		{
			name: 'paused (a needs-you reason wins over paused; paused wins over working)',
			in: input(manualFacts({ issueStatus: 'in_progress', tasks: [task('a', 'running'), task('b', 'not_started')] }), { dispatchPaused: true }),
			state: 'paused', reasons: [], label: 'Paused · 1 Run still running',
		},
		{
			name: 'not started: a manual issue created paused whose Start the developer has not pressed (not "Paused")',
			in: input(manualFacts({ tasks: [task('a', 'not_started')] }), { dispatchPaused: true }),
			state: 'not_started', reasons: [], label: 'Not started',
		},
		{
			name: 'paused, not "not started": a managed issue paused before its first Run',
			in: input(managedFacts({ tasks: [task('a', 'not_started')] }), { dispatchPaused: true, source: terminalSource({ waitingIn: 'plan issue await', waitingSinceUnixMs: now - minute }) }),
			state: 'paused', reasons: [], label: 'Paused',
		},
		{
			name: 'planned: a manual issue with work not started',
			in: input(manualFacts({ tasks: [task('a', 'not_started')] })),
			state: 'planned', reasons: [], label: 'Planned',
		},
		{
			name: 'planned: a managed issue whose source agent waits for its next checkpoint and nothing runs',
			in: input(managedFacts({ tasks: [task('a', 'not_started')] }), { source: terminalSource({ waitingIn: 'plan issue await', waitingSinceUnixMs: now - minute }) }),
			state: 'planned', reasons: [], label: 'Planned',
		},
		{
			name: 'done: a completed execution',
			in: input(managedFacts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now }, tasks: [task('a', 'pending_acceptance')] })),
			state: 'done', reasons: [], label: 'Done',
		},
		{
			name: 'done: a manual issue whose tasks all completed',
			in: input(manualFacts({ tasks: [task('a', 'completed'), task('b', 'canceled')] })),
			state: 'done', reasons: [], label: 'Done',
		},
		{
			name: 'ready to integrate: a completed execution whose accepted work is only on task branches (needs you, not a failure)',
			in: input(managedFacts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now }, tasks: [task('a', 'completed')] }),
				{ delivery: { unintegrated: true, integratedInto: '', finished: false } }),
			state: 'needs_you', reasons: ['ready_to_integrate'], label: 'Needs you: ready to integrate', stalled: false,
		},
		{
			name: 'ready to integrate: a manual issue whose tasks each completed or were canceled, with accepted work not integrated',
			in: input(manualFacts({ tasks: [task('a', 'completed'), task('b', 'canceled')] }), { delivery: { unintegrated: true, integratedInto: '', finished: false } }),
			state: 'needs_you', reasons: ['ready_to_integrate'], label: 'Needs you: ready to integrate', stalled: false,
		},
		{
			name: 'ready to integrate again: accepted work newer than the last integration',
			in: input(manualFacts({ issueStatus: 'completed', tasks: [task('a', 'completed')] }), { delivery: { unintegrated: true, integratedInto: 'main', finished: false } }),
			state: 'needs_you', reasons: ['ready_to_integrate'], label: 'Needs you: ready to integrate',
		},
		{
			name: 'not ready while a task still waits for acceptance (only that is owed)',
			in: input(manualFacts({ tasks: [task('a', 'completed'), task('b', 'pending_acceptance')] }), { delivery: { unintegrated: true, integratedInto: '', finished: false } }),
			state: 'needs_you', reasons: ['task_awaiting_acceptance'], label: 'Needs you: 1 task to accept',
		},
		{
			name: 'done once integrated, saying where',
			in: input(manualFacts({ issueStatus: 'completed', tasks: [task('a', 'completed')] }), { delivery: { unintegrated: false, integratedInto: 'main', finished: false } }),
			state: 'done', reasons: [], label: 'Done · integrated into main',
		},
		{
			name: 'done after Finish without integrating, and shown "not integrated"',
			in: input(managedFacts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now }, tasks: [task('a', 'completed')] }),
				{ delivery: { unintegrated: true, integratedInto: '', finished: true } }),
			state: 'done', reasons: [], label: 'Done · not integrated',
		},
		{
			name: 'a stopped issue is Stopped, never ready to integrate',
			in: input(managedFacts({ issueStatus: 'archived', execution: { status: 'archived', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, tasks: [task('a', 'completed')] }),
				{ delivery: { unintegrated: true, integratedInto: '', finished: false } }),
			state: 'done', reasons: [], label: 'Stopped',
		},
		{
			name: 'done: an archived (stopped) issue',
			in: input(managedFacts({ issueStatus: 'archived', execution: { status: 'archived', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 }, tasks: [task('a', 'failed')] })),
			state: 'done', reasons: [], label: 'Stopped',
		},
	];

	for (const row of rows) {
		it(row.name, () => {
			const a = issueAttention(row.in);
			assert.equal(a.state, row.state);
			assert.deepEqual(a.reasons.map((r) => r.kind), row.reasons);
			assert.equal(a.label, row.label);
			if (row.handBack !== undefined) { assert.equal(a.handBackCommand, row.handBack); }
			if (row.stalled !== undefined) { assert.equal(a.stalled, row.stalled); }
		});
	}

	it('says which call the source agent waits in, and since when', () => {
		const a = issueAttention(input(managedFacts({ tasks: [task('a', 'pending_acceptance')] }), { source: terminalSource({ waitingIn: 'await-review', waitingSinceUnixMs: now - 5 * minute }) }));
		assert.deepEqual(a.sourceAgent, { activity: 'waiting', waitingIn: 'await-review', waitingSinceUnixMs: now - 5 * minute });
		assert.equal(a.handBackCommand, '');
	});

	it('the source agent is working only on a step it owes or in a Turn; with nothing owed it is between checkpoints', () => {
		const running = managedFacts({ tasks: [task('a', 'running')] });
		const woken = { wakesDelivered: true, lastContactUnixMs: now - 10 * minute };
		assert.equal(issueAttention(input(running, { source: terminalSource(woken) })).sourceAgent?.activity, 'between',
			'its Run works, no checkpoint is open, no Turn of its own runs');
		assert.equal(issueAttention(input(running, { source: terminalSource({ ...woken, turnRunning: true }) })).sourceAgent?.activity, 'working');
		const owes = managedFacts({ execution: { status: 'awaiting_main', createdAtUnixMs: 0, updatedAtUnixMs: now - minute, completedAtUnixMs: 0 },
			activeCheckpoint: checkpoint('task_settled', now - 2 * minute), tasks: [task('a', 'completed'), task('b', 'not_started')] });
		assert.equal(issueAttention(input(owes, { source: terminalSource({ lastContactUnixMs: now - 1000 }) })).sourceAgent?.activity, 'working',
			'in touch since the checkpoint opened: at the step it owes');
		assert.equal(issueAttention(input(owes, { source: terminalSource({ ...woken, activeWake: { status: 'dispatched', sinceUnixMs: now - 1000 } }) })).sourceAgent?.activity, 'working',
			'being woken for it');
	});

	it('a wake in flight reads waiting on agent since the wake\'s time', () => {
		const a = issueAttention(input(managedFacts({ activeCheckpoint: checkpoint('task_settled', now - 2 * minute), tasks: [task('a', 'completed')] }),
			{ source: terminalSource({ wakesDelivered: true, activeWake: { status: 'prepared', sinceUnixMs: now - 90_000 } }) }));
		assert.equal(a.state, 'waiting_on_agent');
		assert.equal(a.sinceUnixMs, now - 90_000);
	});
});

describe('attention: the Runs that need attention', () => {
	it('lists each live task\'s latest Run that failed, was stopped or waits for review, and says which need the developer', () => {
		const run = (runId: string, status: AttentionRun['status'], outcome: AttentionRun['outcome']): AttentionRun => ({ runId, status, outcome, mergeConflict: false, activity: '' });
		const facts = managedFacts({
			activeCheckpoint: checkpoint('task_failed', now - minute),
			tasks: [task('f', 'failed'), task('s', 'canceled'), task('w', 'pending_acceptance'), task('ok', 'completed'), task('r', 'running'), task('old', 'failed', { superseded: true })],
		});
		const latestRuns = new Map([
			['f', run('rf', 'failed', 'failure')], ['s', run('rs', 'canceled', 'cancellation')], ['w', run('rw', 'pending_acceptance', 'success')],
			['ok', run('rok', 'completed', 'success')], ['r', run('rr', 'running', null)], ['old', run('rold', 'failed', 'failure')],
		]);
		const owned = issueAttention(input(facts, { latestRuns, source: terminalSource({ lastContactUnixMs: now }) }));
		assert.deepEqual(owned.runs.map((r) => [r.runId, r.kind, r.label, r.needsYou]), [
			['rf', 'failed', 'Failed: the source agent decides what next', false],
			['rs', 'stopped', 'Stopped', false],
			['rw', 'waiting', 'Waiting for your review', true],
		]);
		const idle = issueAttention(input(facts, { latestRuns, source: terminalSource({ lastContactUnixMs: now - 10 * minute }) }));
		assert.deepEqual(idle.runs.map((r) => [r.runId, r.needsYou]), [['rf', true], ['rs', false], ['rw', true]]);
		assert.deepEqual(idle.reasons.map((r) => r.kind), ['task_awaiting_acceptance', 'failed_run', 'source_idle']);
	});
});

describe('attention: one state per task', () => {
	it('draws each task from the same facts', () => {
		const facts = manualFacts({
			tasks: [
				task('review', 'pending_acceptance'), task('run', 'running'), task('fail', 'failed'), task('conflict', 'failed'),
				task('todo', 'not_started'), task('ok', 'completed'), task('old', 'failed', { superseded: true }),
			],
		});
		const checked: AttentionRun = { runId: 'r3', status: 'completed', outcome: 'success', mergeConflict: false, activity: '', checksFailed: 'Checks failed: test (exit 2)' };
		const states = taskAttentions(input(facts, { latestRuns: new Map([['fail', failedRun('r1')], ['conflict', failedRun('r2', true)], ['review', checked]]) }));
		assert.deepEqual(Object.fromEntries([...states].map(([id, a]) => [id, `${a.state}: ${a.label}`])), {
			review: 'needs_you: Checks failed: test (exit 2) — awaiting your acceptance',
			run: 'agent_working: Working on it',
			fail: 'needs_you: Failed — retry, edit or stop',
			conflict: 'needs_you: Failed: its parents\' work conflicts',
			todo: 'planned: Planned',
			ok: 'done: Done',
			old: 'done: Done',
		});
	});

	it('a stalled running task needs you with its silence; one without a mark is working', () => {
		const facts = manualFacts({ tasks: [task('quiet', 'running'), task('busy', 'running')] });
		const runs = new Map<string, AttentionRun>([
			['quiet', { runId: 'r1', status: 'running', outcome: null, mergeConflict: false, activity: 'Running npm test', stall: { lastActivityAtUnixMs: now - 12 * minute } }],
			['busy', { runId: 'r2', status: 'running', outcome: null, mergeConflict: false, activity: 'Running npm test' }],
		]);
		const states = taskAttentions(input(facts, { latestRuns: runs }));
		assert.equal(`${states.get('quiet')?.state}: ${states.get('quiet')?.label}`, 'needs_you: Stalled: no activity for 12 min');
		assert.equal(`${states.get('busy')?.state}: ${states.get('busy')?.label}`, 'agent_working: Running npm test');
		assert.deepEqual(issueAttention(input(facts, { latestRuns: runs })).runs.map((r) => [r.runId, r.kind, r.label, r.needsYou]), [['r1', 'stalled', 'Stalled: no activity for 12 min', true]]);
	});

	it('a failure the developer decides on says its exit code and what they decide: retry, edit or stop (manual), hand back (managed, idle source)', () => {
		const exited = (code: number | null): AttentionRun => ({ ...failedRun('r1'), exitCode: code });
		const manual = manualFacts({ tasks: [task('fail', 'failed')] });
		assert.equal(taskAttentions(input(manual, { latestRuns: new Map([['fail', exited(3)]]) })).get('fail')?.label, 'Failed: exit code 3 — retry, edit or stop');
		assert.equal(taskAttentions(input(manual, { latestRuns: new Map([['fail', exited(null)]]) })).get('fail')?.label, 'Failed — retry, edit or stop');
		const managed = managedFacts({ activeCheckpoint: checkpoint('task_failed', now - minute), tasks: [task('fail', 'failed')] });
		const idle = issueAttention(input(managed, { latestRuns: new Map([['fail', exited(1)]]), source: terminalSource({ lastContactUnixMs: now - 10 * minute }) }));
		assert.deepEqual(idle.runs.map((r) => r.label), ['Failed: exit code 1 — hand the source agent back, or stop']);
	});

	it('a managed failure the source agent is acting on waits on the agent; paused work reads paused', () => {
		const facts = managedFacts({ activeCheckpoint: checkpoint('task_failed', now - minute), tasks: [task('fail', 'failed'), task('todo', 'not_started')] });
		const states = taskAttentions(input(facts, { dispatchPaused: true, latestRuns: new Map([['fail', failedRun('r1')]]), source: terminalSource({ lastContactUnixMs: now }) }));
		assert.equal(states.get('fail')?.state, 'waiting_on_agent');
		assert.equal(states.get('todo')?.state, 'paused');
	});
});
