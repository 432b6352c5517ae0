import { strict as assert } from 'node:assert';
import type { TurnState, WakeStatus } from '../../../../src/core/model.js';
import { turnsToInterrupt } from '../../../../src/core/wakes/canceledTurns.js';

describe('core/wakes/canceledTurns', () => {
	it('turnsToInterrupt: only the unsettled Turns (with a process) of canceled wakes', () => {
		const table: [WakeStatus, TurnState | 'none', string, boolean][] = [
			['canceled', 'running', 'p-run', true],
			['canceled', 'prepared', 'p-launching', true], // leased when the archive canceled it: its launch may be in flight
			['canceled', 'settled', 'p-done', false],
			['canceled', 'running', '', false], // no process of its own
			['canceled', 'none', 'p-none', false], // never got a Turn
			['acknowledged', 'running', 'p-ack', false], // the agent already answered it: not the archive's to stop
			['dispatched', 'running', 'p-open', false],
			['turn_settled', 'settled', 'p-ts', false],
			['prepared', 'prepared', 'p-prep', false],
		];
		for (const [status, state, processId, expected] of table) {
			const wakes = [{ status, clientSubmitId: 'w1' }];
			const turns = state === 'none' ? [] : [{ clientSubmitId: 'w1', state, processId }];
			assert.deepEqual(turnsToInterrupt(wakes, turns), expected ? [processId] : [], `${status} / ${state} / '${processId}'`);
		}
	});

	it('main and reviewer Turns alike, each once, in wake order; other Turns are never named', () => {
		const wakes = [
			{ status: 'canceled' as const, clientSubmitId: 'tutti-execution-wake:cp:wake:main:1' },
			{ status: 'canceled' as const, clientSubmitId: 'tutti-goal-review:cp:goal-review:1' },
			{ status: 'canceled' as const, clientSubmitId: 'tutti-execution-wake:cp:wake:main:1' },
		];
		const turns = [
			{ clientSubmitId: 'tutti-goal-review:cp:goal-review:1', state: 'running' as const, processId: 'turn-rev.a1' },
			{ clientSubmitId: 'tutti-execution-wake:cp:wake:main:1', state: 'running' as const, processId: 'turn-main.a1' },
			{ clientSubmitId: 'issue-run:run-1', state: 'running' as const, processId: 'run-1' },
		];
		assert.deepEqual(turnsToInterrupt(wakes, turns), ['turn-main.a1', 'turn-rev.a1']);
	});
});
