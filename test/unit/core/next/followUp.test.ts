// The follow-up after completion (issue 4 "Next steps after completion"): `owedForNextAction` hands a pending
// follow-up over as the exact command that starts it, and Finish wins when it was recorded first.
import { strict as assert } from 'node:assert';
import type { FollowUpFact, IssueFacts } from '../../../../src/core/next/facts.js';
import { followUpCommand, followUpTitle } from '../../../../src/core/next/followUp.js';
import { owedForNextAction } from '../../../../src/core/next/owed.js';
import { toAgentResponse } from '../../../../src/host/services/await/agentResponses.js';
import { responseProblems } from '../../../../src/protocol/agentResponse.js';

const now = 1_800_000_000_000;

function completedFacts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return {
		issueId: 'iss', issueStatus: 'completed',
		execution: { status: 'completed', createdAtUnixMs: now - 60_000, updatedAtUnixMs: now - 10_000, completedAtUnixMs: now - 10_000 },
		activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
		tasks: [], changeRequests: [], finishedAtUnixMs: 0, lastChangeUnixMs: now - 10_000, ...extra,
	};
}

const followUp: FollowUpFact = { followUpId: 'iss-follow-up-1', text: 'Add a dark-mode toggle', requestedAtUnixMs: now - 5_000 };

describe('next-action: the follow-up after completion', () => {
	it('waits while the developer has picked nothing (with or without the optional fact)', () => {
		for (const f of [completedFacts(), completedFacts({ pendingFollowUp: null })]) {
			const owed = owedForNextAction(f);
			assert.equal(owed.kind === 'answer' ? owed.state : owed.reasonCode, 'waiting');
		}
	});

	it('hands a pending follow-up over as the exact command that starts it, with the text', () => {
		const response = toAgentResponse(owedForNextAction(completedFacts({ pendingFollowUp: followUp })), { nowUnixMs: now, waitBoundMs: 45_000, issueId: 'iss' });
		const { message, ...rest } = response;
		assert.deepEqual(rest, {
			ok: true, issue_id: 'iss', state: 'follow_up', advance_allowed: true, note: 'Add a dark-mode toggle',
			next: "tutti plan issue create --title 'Follow-up: Add a dark-mode toggle' --content 'Add a dark-mode toggle' --request-id create-iss-follow-up-1 --json",
		});
		assert.match(String(message), /picked a follow-up for issue iss: Add a dark-mode toggle/);
		assert.deepEqual(responseProblems(response), []);
	});

	it('Finish recorded before the follow-up wins; a follow-up recorded before Finish is still offered', () => {
		const finishedFirst = owedForNextAction(completedFacts({ pendingFollowUp: followUp, finishedAtUnixMs: followUp.requestedAtUnixMs - 1 }));
		assert.equal(finishedFirst.kind === 'answer' && finishedFirst.state, 'finished');
		const followUpFirst = owedForNextAction(completedFacts({ pendingFollowUp: followUp, finishedAtUnixMs: followUp.requestedAtUnixMs + 1 }));
		assert.equal(followUpFirst.kind === 'answer' && followUpFirst.state, 'follow_up');
	});

	it('is not offered before completion: the not-yet-complete route wins', () => {
		const owed = owedForNextAction(completedFacts({
			issueStatus: 'in_progress', pendingFollowUp: followUp,
			execution: { status: 'running', createdAtUnixMs: now - 60_000, updatedAtUnixMs: now - 10_000, completedAtUnixMs: 0 },
		}));
		assert.notEqual(owed.kind === 'answer' && owed.state, 'follow_up');
	});

	it('builds a valid command for any text: quoted, shortened title, no placeholder-like brackets', () => {
		const text = `Fix <Login> page: it's "slow"\nsecond line ${'x'.repeat(200)}`;
		const command = followUpCommand({ ...followUp, text });
		assert.doesNotMatch(command, /[<>]/);
		assert.match(command, /--content 'Fix ‹Login› page: it'\\''s "slow"\nsecond line x+' --request-id create-iss-follow-up-1 --json$/);
		assert.ok(followUpTitle(`${'y'.repeat(300)}`).length <= 'Follow-up: '.length + 80);
		assert.equal(followUpTitle('  \n'), 'Follow-up: next step');
		const response = toAgentResponse(owedForNextAction(completedFacts({ pendingFollowUp: { ...followUp, text } })), { nowUnixMs: now, waitBoundMs: 45_000, issueId: 'iss' });
		assert.deepEqual(responseProblems(response), []);
		assert.equal(response.note, text);
	});
});
