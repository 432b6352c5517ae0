// The Agents view draws the Host's list: grouped by issue in the Host's order, each agent with its state's words,
// elapsed time from the Host's since, tokens, cost, and the Host's controls as context flags for the menus.
import { strict as assert } from 'node:assert';
import { agentGroups, agentItem, costText, elapsed, tokenCount } from '../../../src/extension/views/agentsModel.js';
import type { AgentTurnDto } from '../../../src/protocol/dto.js';
import { issueIdOf, runIdOf } from '../../../src/extension/commands/commandArgs.js';

function turn(over: Partial<AgentTurnDto> = {}): AgentTurnDto {
	return {
		key: 'run:R1', role: 'worker', issueId: 'I1', issueTitle: 'Ship the cache', taskId: 'warm', taskTitle: 'Warm the cache', agentTargetId: 'sh',
		state: 'working', label: 'Working', sinceUnixMs: 1_000, tokens: 12_345, costUsd: 0.4249, activity: '$ npm test', runId: 'R1',
		controls: { stopRun: true, stopSource: false, transcript: true }, ...over,
	};
}

describe('extension/agentsModel', () => {
	it('formats elapsed time, tokens and cost', () => {
		assert.deepEqual([elapsed(4_900), elapsed(65_000), elapsed(7_380_000), elapsed(-5)], ['4s', '1m 05s', '2h 03m', '0s']);
		assert.deepEqual([tokenCount(1), tokenCount(850), tokenCount(12_345), tokenCount(1_250_000)], ['1 token', '850 tokens', '12.3k tokens', '1.3M tokens']);
		assert.deepEqual([costText(0.4249), costText(0), costText(null)], ['$0.42', '$0.00', 'cost unknown']);
	});

	it('a worker: its task title, the Host\'s words, elapsed since the Host\'s since, and its controls as flags', () => {
		const item = agentItem(turn(), 66_000);
		assert.deepEqual([item.label, item.description, item.contextValue], ['Warm the cache', 'Working · 1m 05s · 12.3k tokens · $0.42', 'agent:worker:working:stopRun:transcript']);
		assert.match(item.tooltip, /Issue: Ship the cache\nWorking for 1m 05s\n12\.3k tokens · \$0\.42\nLast: \$ npm test$/);
		assert.deepEqual([issueIdOf([item]), runIdOf([item])], ['I1', 'R1'], 'the inline commands read the issue and the Run from the item');
	});

	it('a source agent waiting on the developer: named by its role, with Stop source session only', () => {
		const item = agentItem(turn({ key: 'session:S:I2', role: 'source', issueId: 'I2', taskId: '', taskTitle: '', runId: '', state: 'waiting_on_you', label: 'Waiting on you: in tutti await-review', costUsd: null, tokens: 0, activity: '', controls: { stopRun: false, stopSource: true, transcript: false } }), 3_000);
		assert.deepEqual([item.label, item.description, item.contextValue], ['Source agent', 'Waiting on you: in tutti await-review · 2s · 0 tokens · cost unknown', 'agent:source:waiting_on_you:stopSource']);
	});

	it('groups by issue in the Host\'s order', () => {
		const groups = agentGroups([
			turn({ key: 'session:S:I2', role: 'source', issueId: 'I2', issueTitle: 'A release', taskTitle: '', runId: '' }),
			turn(), turn({ key: 'run:R2', runId: 'R2', taskTitle: 'Measure it' }),
		], 2_000);
		assert.deepEqual(groups.map((g) => [g.title, g.agents.map((a) => a.label)]), [['A release', ['Source agent']], ['Ship the cache', ['Warm the cache', 'Measure it']]]);
	});
});
