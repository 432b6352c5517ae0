import { strict as assert } from 'node:assert';
import { decideRunLaunch, restartLaunchBlocker, type RunLaunchDecision, type RunLaunchFacts } from '../../../../src/core/turns/launchGate.js';

const open = { status: 'in_progress', dispatchPaused: false } as const;
const ready: RunLaunchFacts = { intentStatus: 'prepared', runStatus: 'running', issue: open, taskExists: true, stopEventCount: 0 };

describe('core/turns/launchGate', () => {
	const rows: [string, Partial<RunLaunchFacts>, RunLaunchDecision][] = [
		['a prepared launch of a running Run of an open issue is leased', {}, { kind: 'lease' }],
		['no intent: nothing to launch', { intentStatus: undefined }, { kind: 'skip' }],
		['an intent already leased by another launch', { intentStatus: 'leased' }, { kind: 'skip' }],
		['an intent already dispatched', { intentStatus: 'dispatched' }, { kind: 'skip' }],
		['the Run ended before its launch: the intent is canceled', { runStatus: 'canceled' }, { kind: 'skip', intentError: 'the run ended before its launch' }],
		['the Run is gone', { runStatus: undefined }, { kind: 'skip', intentError: 'the run ended before its launch' }],
		['its issue is missing', { issue: undefined }, { kind: 'cancel', why: 'its issue or task is missing' }],
		['its task is missing', { taskExists: false }, { kind: 'cancel', why: 'its issue or task is missing' }],
		['a Stop came first', { stopEventCount: 1 }, { kind: 'cancel', why: 'stopped before its process started' }],
		['a Stop came first on a paused issue: the Stop is the reason', { stopEventCount: 2, issue: { status: 'open', dispatchPaused: true } },
			{ kind: 'cancel', why: 'stopped before its process started' }],
		['archived', { issue: { status: 'archived', dispatchPaused: true } }, { kind: 'cancel', why: 'the issue was archived before this run started' }],
		['paused', { issue: { status: 'open', dispatchPaused: true } }, { kind: 'cancel', why: 'the issue was paused before this run started' }],
	];
	for (const [name, over, expected] of rows) {
		it(`decideRunLaunch: ${name}`, () => { assert.deepEqual(decideRunLaunch({ ...ready, ...over }), expected); });
	}

	it('restartLaunchBlocker: an open issue launches again; paused, archived or missing ones cancel', () => {
		assert.equal(restartLaunchBlocker(open), null);
		assert.equal(restartLaunchBlocker({ status: 'open', dispatchPaused: true }), 'the issue was paused before this run started');
		assert.equal(restartLaunchBlocker({ status: 'archived', dispatchPaused: false }), 'the issue was archived before this run started');
		assert.equal(restartLaunchBlocker(undefined), 'the issue was paused before this run started');
	});
});
