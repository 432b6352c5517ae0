// "What is owed next" (src/core/next/owed.ts): the equivalents of the Co-op await/resume/next-action tests
//, asserted on the exact JSON an agent receives.
import { strict as assert } from 'node:assert';
import type { IssueFacts, TaskFacts } from '../../../../src/core/next/facts.js';
import {
	owedBySession, owedForCheckpoint, owedForNextAction, owedForReview, owedOnIssue,
} from '../../../../src/core/next/owed.js';
import { toAgentResponse } from '../../../../src/host/services/await/agentResponses.js';
import { type AgentResponse, responseProblems } from '../../../../src/protocol/agentResponse.js';

const now = 1_800_000_000_000;
const hour = 3_600_000;

function task(taskId: string, status: TaskFacts['status'], extra: Partial<TaskFacts> = {}): TaskFacts {
	return { taskId, title: taskId, status, acceptanceState: '', superseded: false, updatedAtUnixMs: now - 1000, ...extra };
}

function facts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return {
		issueId: 'iss', issueStatus: 'in_progress',
		execution: { status: 'running', createdAtUnixMs: now - 5 * hour, updatedAtUnixMs: now - hour, completedAtUnixMs: 0 },
		activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
		tasks: [], changeRequests: [], finishedAtUnixMs: 0, lastChangeUnixMs: now - hour, ...extra,
	};
}

const respond = (owed: ReturnType<typeof owedOnIssue>): AgentResponse & Record<string, unknown> => toAgentResponse(owed, { nowUnixMs: now, waitBoundMs: 45_000, issueId: 'iss' });

describe('what is owed next (await-review)', () => {
	it('returns waiting when the developer has not acted (exact JSON, advance blocked, same command)', () => {
		const f = facts({ tasks: [task('a', 'pending_acceptance', { updatedAtUnixMs: now - 90_000 })] });
		const response = respond(owedForReview(f, 'a'));
		const { message, ...rest } = response;
		assert.deepEqual(rest, {
			ok: true, issue_id: 'iss', task_id: 'a', state: 'waiting', advance_allowed: false,
			waited_seconds: 90, wait_timeout_seconds: 45, next: 'tutti await-review --issue-id iss --task-id a',
		});
		assert.match(String(message), /waits for the developer's review/);
		assert.deepEqual(responseProblems(response), []);
	});

	it('keeps the waiting message free of failure vocabulary', () => {
		for (const owed of [
			owedForReview(facts({ tasks: [task('a', 'pending_acceptance')] })),
			owedForCheckpoint(facts()),
			owedForNextAction(facts({ execution: { status: 'completed', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now - 10_000 } })),
		]) {
			assert.equal(owed.kind === 'answer' && owed.state, 'waiting');
			assert.deepEqual(responseProblems(respond(owed)), []);
			assert.doesNotMatch(String(respond(owed)['message']), /error|fail|timeout|abort|broken|wrong|problem/i);
		}
	});

	it('reports the cumulative wait from the durable entry time (backdated three hours) ', () => {
		// No in-process timer could produce 10,800 s: the wait is counted from when the task entered review.
		const f = facts({ tasks: [task('a', 'pending_acceptance', { updatedAtUnixMs: now - 3 * hour }), task('b', 'pending_acceptance', { updatedAtUnixMs: now - 2 * hour })] });
		assert.equal(respond(owedForReview(f, 'a'))['waited_seconds'], 10_800);
		// Issue-wide: counted from the latest task that entered review.
		assert.equal(respond(owedForReview(f))['waited_seconds'], 7_200);
	});

	it('returns a rejection without waiting, carrying the note', () => {
		const f = facts({
			activeCheckpoint: { checkpointId: 'cp-changes', kind: 'changes_requested', createdAtUnixMs: now },
			tasks: [task('a', 'failed')], changeRequests: [{ taskId: 'a', note: 'Use tabs.', requestedAtUnixMs: now - 5000 }],
		});
		const response = respond(owedForReview(f, 'a'));
		assert.equal(response['state'], 'changes_requested');
		assert.equal(response['advance_allowed'], true);
		assert.equal(response['note'], 'Use tabs.');
		assert.equal(response['next'], 'tutti plan issue get --issue-id iss --json');
	});

	it('returns the rejection requested between two invocations (the task left review while no call was waiting)', () => {
		// The request moved the task out of pending_acceptance (to failed); the next call must report the note,
		// not fall through to "settled, move on".
		const f = facts({ tasks: [task('a', 'failed'), task('b', 'not_started')], changeRequests: [{ taskId: 'a', note: 'Add a test.', requestedAtUnixMs: now - 1000 }] });
		assert.equal(respond(owedForReview(f, 'a'))['state'], 'changes_requested');
		assert.equal(respond(owedForReview(f))['state'], 'changes_requested');
		assert.equal(respond(owedOnIssue(f))['state'], 'changes_requested');
	});

	it('treats a task still being worked on without feedback as progress, not a rejection', () => {
		const response = respond(owedForReview(facts({ tasks: [task('a', 'running')] }), 'a'));
		assert.equal(response['state'], 'waiting');
		assert.equal(response['next'], 'tutti await-review --issue-id iss --task-id a');
	});

	it('does not repeat the rejection once the rework was taken up', () => {
		// Taking up the request resolves its checkpoint: it is no longer a fact, and the rework task is what is awaited.
		const f = facts({ tasks: [task('a', 'failed', { superseded: true }), task('a2', 'running')] });
		const response = respond(owedForReview(f, 'a'));
		assert.notEqual(response['state'], 'changes_requested');
		assert.equal(respond(owedForReview(f, 'a2'))['state'], 'waiting');
	});

	it('once the source reworked the task at the checkpoint, every wait owes the replacement\'s schedule, not the old rejection', () => {
		const reworked = facts({
			activeCheckpoint: { checkpointId: 'cp-changes', kind: 'changes_requested', createdAtUnixMs: now, subjectTaskId: 'a', sequence: 4, graphRevision: 7 },
			tasks: [task('a', 'failed', { superseded: true }), task('a2', 'not_started'), task('b', 'not_started', { dependencyTaskIds: ['a2'] })],
			changeRequests: [{ taskId: 'a', note: 'Use tabs.', requestedAtUnixMs: now - 5000, reworkedInto: 'a2' }],
		});
		const schedule = `tutti plan issue schedule --issue-id iss --checkpoint-id cp-changes --expected-graph-revision 7 --task-ids-json '["a2"]' --request-id cp4-r7-schedule --json`;
		// A wait on a review reports how the reviews stand (a settled, none waiting) and routes on to the same step.
		for (const [owed, state] of [[owedForReview(reworked, 'a'), 'settled'], [owedForReview(reworked), 'accepted'], [owedOnIssue(reworked), 'checkpoint'], [owedForCheckpoint(reworked), 'checkpoint']] as const) {
			const response = respond(owed);
			assert.deepEqual([response['state'], response['next'], response['note']], [state, schedule, undefined]);
			assert.match(String(response['message']), /reworked task a into a2/);
			assert.deepEqual(responseProblems(response), []);
		}
		// Not reworked yet: the rejection with its note is still what is owed.
		const unreworked = { ...reworked, changeRequests: [{ taskId: 'a', note: 'Use tabs.', requestedAtUnixMs: now - 5000 }] };
		assert.equal(respond(owedForReview(unreworked, 'a'))['state'], 'changes_requested');
	});

	it('on a completed issue points at next-action (the completion boundary is a route, not an error)', () => {
		const f = facts({ execution: { status: 'completed', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now }, issueStatus: 'completed' });
		assert.deepEqual(respond(owedForReview(f, 'a')), {
			ok: true, issue_id: 'iss', state: 'completed', advance_allowed: true,
			message: 'Issue iss is complete. Run the command in "next" to learn the developer\'s next step (a follow-up or Finish).',
			next: 'tutti next-action --issue-id iss',
		});
	});

	it('on an aborted (archived) issue stays an error with a recovery', () => {
		for (const f of [facts({ issueStatus: 'archived' }), facts({ execution: { status: 'archived', createdAtUnixMs: 0, updatedAtUnixMs: 0, completedAtUnixMs: 0 } })]) {
			const response = respond(owedForReview(f, 'a'));
			assert.equal(response['ok'], false);
			assert.deepEqual(response['recovery'], { hint: 'Read the final state, then tell the developer the issue was stopped; do not retry the wait.', next: 'tutti plan issue get --issue-id iss --json' });
			assert.equal(response['next'], undefined);
			assert.deepEqual(responseProblems(response), []);
		}
	});

	it('after acceptance routes to what the source owes next', () => {
		const f = facts({ tasks: [task('a', 'completed', { acceptanceState: 'user_accepted' }), task('b', 'running')] });
		const response = respond(owedForReview(f, 'a'));
		assert.equal(response['state'], 'accepted');
		assert.equal(response['advance_allowed'], true);
		assert.equal(response['next'], 'tutti plan issue await --issue-id iss');
	});
});

describe('what is owed next (resume)', () => {
	const completed = { status: 'completed' as const, createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now };

	it('reports nothing to run after the developer finishes', () => {
		const response = respond(owedOnIssue(facts({ execution: completed, finishedAtUnixMs: now })));
		assert.equal(response['state'], 'finished');
		assert.equal(response['next'], undefined);
		assert.equal('advance_allowed' in response, false);
	});

	it('still offers next-action before Finish', () => {
		assert.equal(respond(owedOnIssue(facts({ execution: completed })))['next'], 'tutti next-action --issue-id iss');
	});

	it('names the checkpoint the source must act on before anything else', () => {
		const f = facts({ activeCheckpoint: { checkpointId: 'cp', kind: 'all_tasks_terminal', createdAtUnixMs: now }, tasks: [task('a', 'completed')] });
		assert.equal(respond(owedOnIssue({ ...f, execution: { ...f.execution!, status: 'pending_goal_review' } }))['next'], 'tutti plan issue get --issue-id iss --json');
	});

	it('waits for the Goal Review once the source completed', () => {
		const f = facts({ goalReviewRequestedAtUnixMs: now - 60_000, execution: { status: 'pending_goal_review', createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: 0 } });
		assert.equal(respond(owedOnIssue(f))['next'], 'tutti plan issue await --issue-id iss');
		const waiting = respond(owedForCheckpoint(f));
		assert.equal(waiting['state'], 'waiting');
		assert.equal(waiting['waited_seconds'], 60);
	});

	it('gives a worker session and an unbound session no next', () => {
		assert.equal(respond(owedBySession({ sessionId: 's', role: 'worker', issueId: 'iss', issue: facts() }))['next'], undefined);
		assert.equal(respond(owedBySession({ sessionId: 's', role: 'source', issueId: '', issue: null }))['next'], undefined);
	});

	it('a source session Tutti wakes itself owes no wait call, but still owes every decision', () => {
		const running = facts({ tasks: [task('a', 'running')] });
		const attached = respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: running }));
		assert.equal(attached['next'], 'tutti plan issue await --issue-id iss', 'an attached agent waits in a bounded call');
		const managed = respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: running, wakesDelivered: true }));
		assert.equal(managed['next'], undefined, 'Tutti starts its next Turn: the Stop hook lets it end');
		const review = respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: facts({ tasks: [task('a', 'pending_acceptance')] }), wakesDelivered: true }));
		assert.equal(review['next'], undefined);
		const decision = facts({ activeCheckpoint: { checkpointId: 'cp', kind: 'all_tasks_terminal', createdAtUnixMs: now }, tasks: [task('a', 'completed')] });
		assert.ok(respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: decision, wakesDelivered: true }))['next'], 'an active checkpoint is still owed');
	});

	it('agrees with every wait: what resume names, that wait repeats while waiting', () => {
		const cases: IssueFacts[] = [
			facts({ tasks: [task('a', 'pending_acceptance')] }),
			facts({ tasks: [task('a', 'running')] }),
			facts({ execution: completed }),
			facts({ goalReviewRequestedAtUnixMs: now, execution: { ...completed, status: 'pending_goal_review' } }),
		];
		for (const f of cases) {
			const owed = owedOnIssue(f);
			assert.ok(owed.kind === 'answer' && owed.next !== undefined);
			const view = owed.next.startsWith('tutti await-review') ? owedForReview(f, /--task-id (\S+)/.exec(owed.next)?.[1])
				: owed.next.startsWith('tutti plan issue await') ? owedForCheckpoint(f) : owedForNextAction(f);
			assert.ok(view.kind === 'answer');
			assert.equal(view.state, 'waiting', owed.next);
			assert.equal(view.next, owed.next);
		}
	});
});

describe('what is owed next (next-action)', () => {
	const completed = { status: 'completed' as const, createdAtUnixMs: 0, updatedAtUnixMs: now, completedAtUnixMs: now - 2 * hour };

	it('returns waiting instead of an error while the developer has not chosen', () => {
		const response = respond(owedForNextAction(facts({ execution: completed })));
		assert.equal(response['ok'], true);
		assert.equal(response['state'], 'waiting');
		assert.equal(response['waited_seconds'], 7200);
	});

	it('the waiting response repeats the command and blocks advance', () => {
		const response = respond(owedForNextAction(facts({ execution: completed })));
		assert.equal(response['advance_allowed'], false);
		assert.equal(response['next'], 'tutti next-action --issue-id iss');
		assert.equal(response['wait_timeout_seconds'], 45);
	});

	it('reports the recorded Finish: nothing more to run', () => {
		const response = respond(owedForNextAction(facts({ execution: completed, finishedAtUnixMs: now })));
		assert.equal(response['state'], 'finished');
		assert.equal(response['next'], undefined);
	});

	it('before completion routes to what is owed instead of failing', () => {
		const response = respond(owedForNextAction(facts({ tasks: [task('a', 'running')] })));
		assert.equal(response['ok'], true);
		assert.equal(response['next'], 'tutti plan issue await --issue-id iss');
	});
});

describe('what is owed next while only the developer\'s review is owed (autoAccept off)', () => {
	// Task a finished into review; b depends on it; the settled checkpoint of a is still active (nothing to schedule).
	const settledInReview = (extra: Partial<IssueFacts> = {}): IssueFacts => facts({
		execution: { status: 'awaiting_main', createdAtUnixMs: now - hour, updatedAtUnixMs: now - 1000, completedAtUnixMs: 0 },
		activeCheckpoint: { checkpointId: 'cp-a', kind: 'task_settled', createdAtUnixMs: now - 1000, subjectTaskId: 'a' },
		hasPendingCheckpoint: false,
		tasks: [task('a', 'pending_acceptance', { updatedAtUnixMs: now - 30_000 }), task('b', 'not_started', { dependencyTaskIds: ['a'] })],
		...extra,
	});

	it('resume and the Stop hook of an attached source name the bounded wait for that review, not the snapshot', () => {
		const response = respond(owedOnIssue(settledInReview()));
		assert.equal(response['state'], 'awaiting_review');
		assert.equal(response['next'], 'tutti await-review --issue-id iss --task-id a');
		assert.match(String(response['message']), /only the developer/i);
		assert.equal(respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: settledInReview() }))['next'], 'tutti await-review --issue-id iss --task-id a');
		assert.deepEqual(responseProblems(response), []);
	});

	it('a source Tutti wakes itself may end its turn: the decision wakes it', () => {
		const response = respond(owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: settledInReview(), wakesDelivered: true }));
		assert.equal(response['next'], undefined);
		assert.match(String(response['message']), /wakes this session/);
		assert.match(String(response['message']), /tutti await-review --issue-id iss --task-id a/);
	});

	it('the waits keep waiting instead of bouncing to the snapshot', () => {
		const review = respond(owedForReview(settledInReview(), 'a'));
		assert.deepEqual([review['state'], review['next'], review['waited_seconds']], ['waiting', 'tutti await-review --issue-id iss --task-id a', 30]);
		const checkpoint = respond(owedForCheckpoint(settledInReview()));
		assert.deepEqual([checkpoint['state'], checkpoint['advance_allowed']], ['waiting', false]);
		assert.match(String(checkpoint['message']), /developer/);
	});

	it('a wait on another review returns once the developer\'s decision gave the agent a step', () => {
		const f = settledInReview({
			activeCheckpoint: { checkpointId: 'cp-acc', kind: 'task_accepted', createdAtUnixMs: now, subjectTaskId: 'a' },
			tasks: [task('a', 'completed', { acceptanceState: 'user_accepted' }), task('c', 'pending_acceptance'), task('b', 'not_started', { dependencyTaskIds: ['a'] })],
		});
		const response = respond(owedForReview(f, 'c'));
		assert.deepEqual([response['state'], response['advance_allowed'], response['next']], ['checkpoint', true, 'tutti plan issue get --issue-id iss --json']);
		assert.equal(respond(owedForReview(f))['state'], 'checkpoint', 'the issue-wide wait too');
		// A manual issue has no checkpoints: its waits are unchanged.
		assert.equal(respond(owedForReview(facts({ execution: null, tasks: [task('c', 'pending_acceptance')] }), 'c'))['state'], 'waiting');
	});

	it('the snapshot is owed again as soon as the agent can move (a ready task, a queued checkpoint)', () => {
		const ready = settledInReview({ tasks: [task('a', 'pending_acceptance'), task('b', 'not_started', { dependencyTaskIds: ['a'] }), task('c', 'not_started')] });
		assert.equal(respond(owedOnIssue(ready))['next'], 'tutti plan issue get --issue-id iss --json');
		assert.equal(respond(owedOnIssue(settledInReview({ hasPendingCheckpoint: true })))['next'], 'tutti plan issue get --issue-id iss --json');
	});
});

describe('what is owed next while the budget stops new work', () => {
	const cp = { checkpointId: 'cp-3', kind: 'task_settled', createdAtUnixMs: now - 60_000, subjectTaskId: 'a' };
	const held = facts({ activeCheckpoint: cp, budgetBlocker: 'budget reached: $1.20 of $1.00', tasks: [task('a', 'completed'), task('b', 'not_started')] });

	it('plan issue await waits (the developer raises the budget) instead of handing back a checkpoint nothing can be scheduled at', () => {
		const owed = owedForCheckpoint(held);
		assert.equal(owed.kind === 'answer' && owed.state, 'waiting');
		const response = respond(owed);
		assert.equal(response['next'], 'tutti plan issue await --issue-id iss');
		assert.ok(String(response['message']).includes('budget reached: $1.20 of $1.00'), String(response['message']));
		assert.ok(String(response['message']).includes("the developer's own command `tutti issue update --issue-id iss --budget-usd <usd> --as-user`"));
		assert.deepEqual(responseProblems(response), []);
		// Raised: the checkpoint is the agent's again.
		const raised = owedForCheckpoint({ ...held, budgetBlocker: '' });
		assert.equal(raised.kind === 'answer' && raised.state, 'checkpoint');
	});

	it('resume and the Stop hook: a session Tutti wakes may end its turn; another is told to wait in plan issue await', () => {
		const owed = owedOnIssue(held);
		assert.equal(owed.kind === 'answer' && owed.state, 'awaiting_budget');
		assert.equal(owed.kind === 'answer' && owed.next, 'tutti plan issue await --issue-id iss');
		const woken = owedBySession({ sessionId: 's', role: 'source', issueId: 'iss', issue: held, wakesDelivered: true });
		assert.equal(woken.kind === 'answer' && woken.next, undefined, 'nothing to run: it may end its turn');
		assert.match(woken.kind === 'answer' ? woken.message : '', /you may end your turn/);
		// A developer's change request still comes first (a rework needs no launch).
		const asked = owedOnIssue({ ...held, changeRequests: [{ taskId: 'a', note: 'fix it', requestedAtUnixMs: now }] });
		assert.equal(asked.kind === 'answer' && asked.state, 'changes_requested');
	});
});
