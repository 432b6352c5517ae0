// The panel's message box for a running agent: drawn only while the task's latest Run runs, listing what was sent
// with its state; the webview message is validated like every other, and the panel sends only to its issue's Runs.
import assert from 'node:assert/strict';
import { commandIds } from '../../../src/extension/commands/ids.js';
import { panelActionFor } from '../../../src/extension/panels/panelActions.js';
import { toHost } from '../../../src/protocol/webview.js';
import { renderDetail } from '../../../webview/issuePanel/renderDetail.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import { aRun, aSnapshot, aTask, anIssue } from './builders.js';

describe('panel: messages to a running agent', () => {
	it('a running Run gets a message box listing its messages queued, sent and delivered', () => {
		const snapshot = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, messagesWhileRunning: 'into-turn', messages: [
			{ messageId: 'm1', text: 'use tabs', atUnixMs: 1, state: 'delivered' },
			{ messageId: 'm2', text: 'and run the tests', atUnixMs: 2, state: 'sent' },
			{ messageId: 'm3', text: 'then stop', atUnixMs: 3, state: 'queued' },
		] })] });
		const detail = derivePanelModel(snapshot, { selectedTaskId: 't1', showHistory: false }).detail;
		assert.deepEqual(detail?.messages?.sent.map((m) => [m.text, m.stateLabel]), [
			['use tabs', 'delivered'], ['and run the tests', 'sent, not echoed yet'], ['then stop', 'queued for the next turn'],
		]);
		const text = JSON.stringify(renderDetail(detail ?? null));
		assert.equal(text.split('"data-action":"run/send"').length - 1, 1);
		assert.match(text, /"data-run-id":"r1"/);
		assert.match(text, /It reaches the agent while it works/);
	});

	it('says what a message does for an agent that reads none while it works, and offers no box where the Host takes none', () => {
		const running = (messagesWhileRunning?: 'queued-until-turn-ends' | 'not-accepted') => derivePanelModel(
			aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, ...(messagesWhileRunning ? { messagesWhileRunning } : {}) })] }),
			{ selectedTaskId: 't1', showHistory: false }).detail;
		assert.equal(running('queued-until-turn-ends')?.messages?.hint, 'It starts the agent\u2019s next turn (this agent reads no messages while it works)');
		assert.equal(running('not-accepted')?.messages, null, 'a command target takes no messages: no box that the Host would refuse');
		assert.equal(running()?.messages, null, 'a target no longer configured: no box');
	});

	it('no message box once the Run ended', () => {
		const snapshot = aSnapshot(anIssue([aTask('t1', { status: 'completed' })]), { runs: [aRun('r1', 't1', {})] });
		const detail = derivePanelModel(snapshot, { selectedTaskId: 't1', showHistory: false }).detail;
		assert.equal(detail?.messages, null);
		assert.equal(JSON.stringify(renderDetail(detail ?? null)).includes('run/send'), false);
	});

	it('validates the webview message and sends only to a Run of this issue', () => {
		assert.equal(toHost.safeParse({ type: 'run/send', runId: 'r1', text: '   ' }).success, false, 'an empty message is refused');
		assert.equal(toHost.safeParse({ type: 'run/send', runId: 'r1', text: 'x'.repeat(100_001) }).success, false);
		assert.equal(toHost.safeParse({ type: 'run/send', runId: 'r1', text: 'hi', extra: 1 }).success, false);
		const known = { taskIds: new Set(['t1']), runIds: new Set(['r1']) };
		assert.deepEqual(panelActionFor('i1', { type: 'run/send', runId: 'r1', text: 'use tabs' }, known),
			{ kind: 'command', command: commandIds.sendRunMessage, args: ['r1', 'use tabs'] });
		assert.deepEqual(panelActionFor('i1', { type: 'run/send', runId: 'r9', text: 'x' }, known), { kind: 'reject', message: 'Run r9 is not a Run of this issue.' });
	});
});
