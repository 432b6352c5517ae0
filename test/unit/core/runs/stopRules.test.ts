import { strict as assert } from 'node:assert';
import {
	answerForInterrupt, archiveStopReason, decideRunOutcome, mergeStopAnswer, personStopCoversRun, personStopDecidesRun, stopTookEffect, type AnsweredStopEvent,
	type TurnResult,
} from '../../../../src/core/runs/stopRules.js';
import { stopAnswers } from '../../../../src/core/model.js';
import type { StopAnswer } from '../../../../src/core/model.js';

let n = 0;
function stop(answer: StopAnswer | null, over: Partial<AnsweredStopEvent> = {}): AnsweredStopEvent {
	return { eventId: `E${++n}`, runId: 'R1', reason: 'person', requestedAtUnixMs: 1_000, answer, ...over };
}
const R1 = { runId: 'R1', completedAtUnixMs: 5_000 };

describe('core/runs/stopRules', () => {
	it('stopTookEffect: took and end-owed took effect; declined, interrupt-unconfirmed, no-effect and no answer did not', () => {
		assert.deepEqual(stopAnswers.filter((a) => stopTookEffect(a)), ['took', 'end-owed']);
		assert.equal(stopTookEffect(null), false);
	});

	it("archiveStopReason: the developer's archive stops its Runs as a person; an agent's (its session id) as the Host", () => {
		const table: [string, string][] = [['developer', 'person'], ['session-0123abcd', 'host'], ['', 'host'], ['Developer', 'host']];
		for (const [requestedBy, reason] of table) { assert.equal(archiveStopReason(requestedBy), reason, requestedBy); }
	});

	describe('personStopCoversRun (answer-blind: host deference)', () => {
		it('a person\'s Stop for this Run, requested before it ended, covers it whatever its answer', () => {
			assert.equal(personStopCoversRun([stop('no-effect')], R1), true);
			assert.equal(personStopCoversRun([stop(null)], { runId: 'R1', completedAtUnixMs: 0 }), true);
		});

		it('host and eviction stops, other Runs, and Stops after the end do not cover', () => {
			assert.equal(personStopCoversRun([stop('took', { reason: 'host' }), stop('took', { reason: 'evict' })], R1), false);
			assert.equal(personStopCoversRun([stop('took', { runId: 'R2' })], R1), false);
			assert.equal(personStopCoversRun([stop('took', { requestedAtUnixMs: 5_001 })], R1), false);
			assert.equal(personStopCoversRun([stop('took', { requestedAtUnixMs: 5_000 })], R1), true, 'same millisecond as the end still covers');
		});
	});

	describe('decideRunOutcome', () => {
		it('exit 0 → completed/success: the agent\'s own verdict stands even after a Stop', () => {
			assert.deepEqual(decideRunOutcome({ exitCode: 0, stopEvents: [stop('took')] }), { status: 'completed', outcome: 'success', failure: null, awaitingStopAnswer: false });
		});

		it('cancellation ONLY if a covering person\'s Stop took effect', () => {
			assert.deepEqual(decideRunOutcome({ exitCode: null, stopEvents: [stop('took')] }), { status: 'canceled', outcome: 'cancellation', failure: null, awaitingStopAnswer: false });
			assert.equal(decideRunOutcome({ exitCode: 130, stopEvents: [stop('end-owed')] }).outcome, 'cancellation');
			for (const answer of ['declined', 'interrupt-unconfirmed', 'no-effect'] as const) {
				assert.deepEqual(decideRunOutcome({ exitCode: 1, stopEvents: [stop(answer)] }), { status: 'failed', outcome: 'failure', failure: 'process', awaitingStopAnswer: false }, answer);
			}
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [stop('took', { reason: 'host' })] }).outcome, 'failure', 'a host stop is never the person\'s cancellation');
			assert.equal(decideRunOutcome({ exitCode: 1, stopEvents: [] }).outcome, 'failure');
		});

		it('all covering events count: a later no-effect press never overrides an earlier one that took', () => {
			const events = [stop('took', { requestedAtUnixMs: 1_000 }), stop('no-effect', { requestedAtUnixMs: 2_000 })];
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: events, runId: 'R1', endedAtUnixMs: 5_000 }).outcome, 'cancellation');
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [...events].reverse(), runId: 'R1', endedAtUnixMs: 5_000 }).outcome, 'cancellation');
		});

		it('a later press that took makes the Run the person\'s after an earlier one that did not', () => {
			const events = [stop('declined', { requestedAtUnixMs: 1_000 }), stop('took', { requestedAtUnixMs: 2_000 })];
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: events }).outcome, 'cancellation');
		});

		it('ignores other Runs\' events and Stops requested after the Run ended', () => {
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [stop('took', { runId: 'R2' })], runId: 'R1' }).outcome, 'failure');
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [stop('took', { requestedAtUnixMs: 9_000 })], runId: 'R1', endedAtUnixMs: 5_000 }).outcome, 'failure');
		});

		it('a claude/codex Turn: exit 0 is a success only with a successful result line; no result or an error result is a failure, or the person\'s cancellation when their Stop took', () => {
			const table: [TurnResult | undefined, StopAnswer | 'none', string, string | null][] = [
				[undefined, 'none', 'success', null], // a command target: the exit code alone decides
				['ok', 'none', 'success', null],
				['ok', 'took', 'success', null], // the agent's own verdict stands
				['missing', 'none', 'failure', 'no_result'],
				['missing', 'declined', 'failure', 'no_result'],
				['missing', 'took', 'cancellation', null],
				['error', 'none', 'failure', 'agent_error'],
				['error', 'no-effect', 'failure', 'agent_error'],
				['error', 'end-owed', 'cancellation', null],
			];
			for (const [turnResult, answer, outcome, failure] of table) {
				const stopEvents = answer === 'none' ? [] : [stop(answer)];
				const verdict = decideRunOutcome({ exitCode: 0, stopEvents, ...(turnResult !== undefined ? { turnResult } : {}) });
				assert.deepEqual([verdict.outcome, verdict.failure], [outcome, failure], `${String(turnResult)} / ${answer}`);
			}
			assert.equal(decideRunOutcome({ exitCode: 0, turnResult: 'missing', stopEvents: [stop('took', { reason: 'host' })] }).failure, 'no_result', 'a host stop is never the person\'s');
			assert.equal(decideRunOutcome({ exitCode: 1, turnResult: 'ok', stopEvents: [] }).failure, 'process', 'a non-zero exit fails whatever the stream said');
			assert.equal(decideRunOutcome({ exitCode: 0, turnResult: 'missing', stopEvents: [stop(null)] }).awaitingStopAnswer, true, 'decided again when the answer lands');
		});

		it('a spawn error is a failure unless a person\'s Stop took (cancelled before launch)', () => {
			assert.equal(decideRunOutcome({ exitCode: 0, spawnError: 'ENOENT', stopEvents: [] }).outcome, 'failure');
			assert.equal(decideRunOutcome({ exitCode: null, spawnError: 'ENOENT', stopEvents: [stop('took')] }).outcome, 'cancellation');
		});

		it('an unanswered covering Stop makes the verdict provisional (decide again when the answer lands)', () => {
			const pending = decideRunOutcome({ exitCode: null, stopEvents: [stop(null)] });
			assert.deepEqual(pending, { status: 'failed', outcome: 'failure', failure: 'process', awaitingStopAnswer: true });
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [stop(null), stop('took')] }).awaitingStopAnswer, false);
			assert.equal(decideRunOutcome({ exitCode: null, stopEvents: [stop(null, { reason: 'host' })] }).awaitingStopAnswer, false);
		});
	});

	it('personStopDecidesRun = covers and took effect', () => {
		assert.equal(personStopDecidesRun([stop('took')], R1), true);
		assert.equal(personStopDecidesRun([stop('declined')], R1), false);
	});

	describe('mergeStopAnswer (same Stop event)', () => {
		it('never overwrites a taking answer with a non-taking one', () => {
			for (const prior of ['took', 'end-owed'] as const) {
				for (const next of ['declined', 'interrupt-unconfirmed', 'no-effect'] as const) {
					assert.equal(mergeStopAnswer(prior, next), prior, `${prior} ← ${next}`);
				}
			}
		});

		it('otherwise the newer answer wins; null never erases', () => {
			assert.equal(mergeStopAnswer(null, 'declined'), 'declined');
			assert.equal(mergeStopAnswer('declined', 'took'), 'took');
			assert.equal(mergeStopAnswer('end-owed', 'took'), 'took');
			assert.equal(mergeStopAnswer('interrupt-unconfirmed', 'no-effect'), 'no-effect');
			assert.equal(mergeStopAnswer('took', null), 'took');
			assert.equal(mergeStopAnswer(null, null), null);
		});
	});

	it('answerForInterrupt maps what the interrupt found', () => {
		assert.equal(answerForInterrupt('exited', true), 'took');
		assert.equal(answerForInterrupt('still_running', true), 'declined');
		assert.equal(answerForInterrupt('not_running', true), 'no-effect');
		assert.equal(answerForInterrupt('not_running', true, true), 'took', 'the Stop canceled the request the agent waited on: its end is the Stop\'s');
		assert.equal(answerForInterrupt('still_running', true, true), 'declined');
		assert.equal(answerForInterrupt('not_running', false, true), 'no-effect');
		for (const r of ['exited', 'still_running', 'not_running'] as const) { assert.equal(answerForInterrupt(r, false), 'no-effect', r); }
	});
});
