import { strict as assert } from 'node:assert';
import type { StopAnswer } from '../../../../src/core/model.js';
import type { AnsweredStopEvent } from '../../../../src/core/runs/stopRules.js';
import {
	exitMessage, type ProcessEnd, runTurnOutcome, type StreamEnd, turnCompleted, wakeTurnOutcome,
} from '../../../../src/core/turns/turnOutcome.js';

const clean: ProcessEnd = { exitCode: 0, signal: null, endedAtUnixMs: 5_000 };
const end = (over: Partial<ProcessEnd>): ProcessEnd => ({ ...clean, ...over });
const personStop = (answer: StopAnswer | null, requestedAtUnixMs = 1_000): AnsweredStopEvent =>
	({ eventId: `E-${String(answer)}`, runId: 'R1', reason: 'person', requestedAtUnixMs, answer });
const ok: StreamEnd = { result: { ok: true, text: 'done' }, errors: [] };
const errorResult: StreamEnd = { result: { ok: false, text: '  rate limited  ' }, errors: ['e1'] };
const noResult: StreamEnd = { result: null, errors: ['e1', 'e2'] };

describe('core/turns/turnOutcome', () => {
	it('exitMessage: spawn error, lost, signal, code, no code, clean', () => {
		const rows: [Omit<ProcessEnd, 'endedAtUnixMs'>, string][] = [
			[{ exitCode: null, signal: null, spawnError: 'ENOENT claude' }, 'ENOENT claude'],
			[{ exitCode: null, signal: 'lost' }, 'the agent process ended without recording an exit (killed or crashed)'],
			[{ exitCode: null, signal: 'SIGINT' }, 'killed by SIGINT'],
			[{ exitCode: 3, signal: null }, 'exited with code 3'],
			[{ exitCode: null, signal: null }, 'ended without an exit code'],
			[{ exitCode: 0, signal: null }, ''],
		];
		for (const [input, expected] of rows) { assert.equal(exitMessage(input), expected, JSON.stringify(input)); }
	});

	describe('runTurnOutcome (worker Runs)', () => {
		const rows: { name: string; end: ProcessEnd; stops: AnsweredStopEvent[]; stream: StreamEnd | null; expected: ReturnType<typeof runTurnOutcome> }[] = [
			{ name: 'exit 0 of a command target', end: clean, stops: [], stream: null, expected: { outcome: 'success', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'exit 0 with a successful result', end: clean, stops: [], stream: ok, expected: { outcome: 'success', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'exit 0 with an error result', end: clean, stops: [], stream: errorResult,
				expected: { outcome: 'failure', errorMessage: 'the agent reported an error: rate limited', awaitingStopAnswer: false } },
			{ name: 'exit 0 with an error result without text names the stream errors', end: clean, stops: [], stream: { result: { ok: false, text: '' }, errors: ['a', 'b'] },
				expected: { outcome: 'failure', errorMessage: 'the agent reported an error: a; b', awaitingStopAnswer: false } },
			{ name: 'exit 0 without a result line is a failure, not a success', end: clean, stops: [], stream: noResult,
				expected: { outcome: 'failure', errorMessage: 'the agent exited without a final result (its stream has no result line)', awaitingStopAnswer: false } },
			{ name: 'exit 0 without a result line, the person\'s Stop not answered yet', end: clean, stops: [personStop(null)], stream: noResult,
				expected: { outcome: 'failure', errorMessage: 'the agent exited without a final result (its stream has no result line)', awaitingStopAnswer: true } },
			{ name: 'exit 0 without a result after a person\'s Stop that took', end: clean, stops: [personStop('took')], stream: noResult,
				expected: { outcome: 'cancellation', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'exit 0 with an error result after a person\'s Stop that took', end: clean, stops: [personStop('took')], stream: errorResult,
				expected: { outcome: 'cancellation', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'exit 0 with a successful result after a Stop that took stays a success', end: clean, stops: [personStop('took')], stream: ok,
				expected: { outcome: 'success', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'killed by a signal, a person\'s Stop took', end: end({ exitCode: null, signal: 'SIGINT' }), stops: [personStop('took')], stream: null,
				expected: { outcome: 'cancellation', errorMessage: '', awaitingStopAnswer: false } },
			{ name: 'killed by a signal, no Stop', end: end({ exitCode: null, signal: 'SIGKILL' }), stops: [], stream: null,
				expected: { outcome: 'failure', errorMessage: 'killed by SIGKILL', awaitingStopAnswer: false } },
			{ name: 'killed, the person\'s Stop is not answered yet', end: end({ exitCode: null, signal: 'SIGINT' }), stops: [personStop(null)], stream: null,
				expected: { outcome: 'failure', errorMessage: 'killed by SIGINT', awaitingStopAnswer: true } },
			{ name: 'a Stop requested after the end does not cover it', end: end({ exitCode: 1 }), stops: [personStop('took', 6_000)], stream: null,
				expected: { outcome: 'failure', errorMessage: 'exited with code 1', awaitingStopAnswer: false } },
			{ name: 'could not start', end: end({ exitCode: null, spawnError: 'spawn claude ENOENT' }), stops: [], stream: null,
				expected: { outcome: 'failure', errorMessage: 'spawn claude ENOENT', awaitingStopAnswer: false } },
		];
		for (const row of rows) {
			it(row.name, () => { assert.deepEqual(runTurnOutcome('R1', row.end, row.stops, row.stream), row.expected); });
		}
	});

	it('wakeTurnOutcome: exit 0 success; a signal cancellation; lost, unstartable or non-zero failure', () => {
		const rows: [Omit<ProcessEnd, 'endedAtUnixMs'>, string][] = [
			[{ exitCode: 0, signal: null }, 'success'],
			[{ exitCode: 1, signal: null }, 'failure'],
			[{ exitCode: null, signal: null }, 'failure'],
			[{ exitCode: null, signal: 'SIGINT' }, 'cancellation'],
			[{ exitCode: null, signal: 'lost' }, 'failure'],
			[{ exitCode: 0, signal: null, spawnError: 'ENOENT' }, 'failure'],
		];
		for (const [input, expected] of rows) { assert.equal(wakeTurnOutcome(input), expected, JSON.stringify(input)); }
	});

	it('turnCompleted: only a clean exit 0 with a successful result hands over the next queued message', () => {
		assert.equal(turnCompleted(clean, ok), true);
		assert.equal(turnCompleted(clean, null), false);
		assert.equal(turnCompleted(clean, errorResult), false);
		assert.equal(turnCompleted(end({ exitCode: 1 }), ok), false);
		assert.equal(turnCompleted(end({ signal: 'SIGINT' }), ok), false);
		assert.equal(turnCompleted(end({ spawnError: 'x' }), ok), false);
	});
});
