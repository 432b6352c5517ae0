import { strict as assert } from 'node:assert';
import { describe, it } from 'mocha';
import { type SessionTurnFacts, sessionTurnState, workerTurnState, type WorkerTurnFacts } from '../../../../src/core/turns/agentTurns.js';

const working: WorkerTurnFacts = { processStarted: true, pendingApprovals: 0, stalled: false };
const quiet: SessionTurnFacts = { turnRunning: false, turnPrepared: false, waitingIn: '', issueNeedsYou: false };

describe('core/turns/agentTurns', () => {
	it('a worker: stalled first, then a question for the developer, then setting up, else working', () => {
		const rows: [Partial<WorkerTurnFacts>, string, string][] = [
			[{}, 'working', 'Working'],
			[{ processStarted: false }, 'setting_up', 'Setting up'],
			[{ pendingApprovals: 1 }, 'waiting_on_approval', 'Waiting on approval: 1 tool call'],
			[{ pendingApprovals: 3, processStarted: false }, 'waiting_on_approval', 'Waiting on approval: 3 tool calls'],
			[{ stalled: true, pendingApprovals: 2 }, 'stalled', 'Stalled'],
		];
		for (const [facts, state, label] of rows) {
			assert.deepEqual(workerTurnState({ ...working, ...facts }), { state, label }, JSON.stringify(facts));
		}
	});

	it('a source or reviewer session: working in a Turn, waiting on the developer or on its tasks in a call, else not listed', () => {
		const rows: [Partial<SessionTurnFacts>, { state: string; label: string } | null][] = [
			[{}, null],
			[{ turnRunning: true, waitingIn: 'await-review' }, { state: 'working', label: 'Working' }],
			[{ turnPrepared: true }, { state: 'setting_up', label: 'Setting up' }],
			[{ waitingIn: 'await-review' }, { state: 'waiting_on_you', label: 'Waiting on you: in tutti await-review' }],
			[{ waitingIn: 'next-action' }, { state: 'waiting_on_you', label: 'Waiting on you: in tutti next-action' }],
			[{ waitingIn: 'plan issue await' }, { state: 'waiting_on_agents', label: 'Waiting on its tasks: in tutti plan issue await' }],
			[{ waitingIn: 'plan issue await', issueNeedsYou: true }, { state: 'waiting_on_you', label: 'Waiting on you: in tutti plan issue await' }],
		];
		for (const [facts, expected] of rows) {
			assert.deepEqual(sessionTurnState({ ...quiet, ...facts }), expected, JSON.stringify(facts));
		}
	});
});
