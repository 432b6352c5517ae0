// The readable transcript of a Run's stdout (src/agents/transcript.ts): Claude Code stream-json, Codex exec --json
// and plain text lines, each read into what a developer wants to see; garbage never throws.
import { strict as assert } from 'node:assert';
import { transcriptEntries, transcriptEntriesOfLine, transcriptLimits } from '../../../src/agents/transcript.js';

const line = (v: unknown): string => JSON.stringify(v);
const pairs = (text: string): [string, string][] => transcriptEntries(text).map((e) => [e.kind, e.text]);

describe('run transcript', () => {
	it('reads a Claude Code turn: text, the Bash command, the edited file, a failed tool, a message from you, the result', () => {
		const stdout = [
			line({ type: 'system', subtype: 'init', session_id: 's1', model: 'claude-x' }),
			line({ type: 'assistant', message: { id: 'm1', content: [{ type: 'text', text: 'I will run the tests.' }, { type: 'tool_use', id: 'a', name: 'Bash', input: { command: 'npm test' } }] } }),
			line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'Exit code 1\nfailing: 2', is_error: true }] } }),
			line({ type: 'assistant', message: { id: 'm2', content: [{ type: 'tool_use', id: 'b', name: 'Edit', input: { file_path: 'src/sum.ts', old_string: 'a', new_string: 'b' } }] } }),
			line({ type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'b', content: 'ok', is_error: false }] } }),
			line({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'Also update the README' }] } }),
			line({ type: 'assistant', message: { id: 'm3', content: [{ type: 'tool_use', id: 'c', name: 'Grep', input: { pattern: 'TODO' } }] } }),
			line({ type: 'result', subtype: 'success', is_error: false, result: 'Fixed sum and the README.' }),
		].join('\n');
		assert.deepEqual(pairs(stdout), [
			['assistant', 'I will run the tests.'],
			['tool', '$ npm test'],
			['error', 'Exit code 1\nfailing: 2'],
			['edit', 'src/sum.ts'],
			['user', 'Also update the README'],
			['tool', 'Grep TODO'],
			['result', 'Fixed sum and the README.'],
		]);
		assert.deepEqual(transcriptEntries(stdout).filter((e) => e.tool !== '').map((e) => e.tool), ['Bash', 'Edit', 'Grep']);
	});

	it('reads a failed Claude Code result and a synthetic (API error) message as errors', () => {
		assert.deepEqual(pairs([
			line({ type: 'assistant', message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 500' }] } }),
			line({ type: 'result', subtype: 'error_during_execution', is_error: true, errors: ['aborted'] }),
		].join('\n')), [['error', 'API Error: 500'], ['error', 'aborted']]);
	});

	it('reads a Codex turn: the agent message, the command (and its failing exit), the changed files, completion', () => {
		const stdout = [
			line({ type: 'thread.started', thread_id: 't1' }),
			line({ type: 'turn.started' }),
			line({ type: 'item.started', item: { id: 'i0', type: 'command_execution', command: 'ls' } }),
			line({ type: 'item.completed', item: { id: 'i0', type: 'command_execution', command: 'ls', exit_code: 0 } }),
			line({ type: 'item.completed', item: { id: 'i1', type: 'command_execution', command: 'npm test', exit_code: 1, aggregated_output: '1 failing' } }),
			line({ type: 'item.completed', item: { id: 'i2', type: 'file_change', changes: [{ path: 'a.ts', kind: 'update' }, { path: 'b.ts', kind: 'add' }] } }),
			line({ type: 'item.completed', item: { id: 'i3', type: 'error', message: 'model metadata missing' } }),
			line({ type: 'item.completed', item: { id: 'i4', type: 'agent_message', text: 'Done: tests fixed.' } }),
			line({ type: 'turn.completed', usage: { input_tokens: 1 } }),
		].join('\n');
		assert.deepEqual(pairs(stdout), [
			['tool', '$ ls'], ['tool', '$ npm test'], ['error', 'exit 1: 1 failing'], ['edit', 'a.ts'], ['edit', 'b.ts'],
			['assistant', 'Done: tests fixed.'], ['result', 'Turn completed.'],
		]);
		assert.deepEqual(pairs(line({ type: 'turn.failed', error: { message: 'stream disconnected' } })), [['error', 'stream disconnected']]);
	});

	it('keeps plain text lines (command targets) as output, and skips blank lines, garbage JSON and unknown events', () => {
		assert.deepEqual(pairs('building…\n\n   \n{"type":"mystery"}\n{not json\n[1,2]\ndone'), [
			['output', 'building…'], ['output', '{not json'], ['output', '[1,2]'], ['output', 'done'],
		]);
		assert.deepEqual(transcriptEntriesOfLine(line({ type: 'assistant', message: 'not an object' })), []);
		assert.deepEqual(transcriptEntriesOfLine(line({ type: 'assistant', message: { content: [null, 7, { type: 'tool_use' }] } })), [{ kind: 'tool', text: 'tool', tool: 'tool' }]);
	});

	it('bounds one entry\'s text', () => {
		const [e] = transcriptEntries(line({ type: 'assistant', message: { content: [{ type: 'text', text: 'x'.repeat(10_000) }] } }));
		assert.equal(e!.text.length, transcriptLimits.entryChars);
		assert.ok(e!.text.endsWith('…'));
	});

	it('reads a codex app-server Turn: the prompt and a steered message, the command, a failed and a declined one, the edit, the answer, the end', () => {
		const rpc = (method: string, params: unknown): string => line({ method, params });
		const item = (value: unknown): string => rpc('item/completed', { item: value, threadId: 't', turnId: 'u' });
		const stdout = [
			line({ id: 2, result: { thread: { id: 't' } } }),
			rpc('item/started', { item: { type: 'commandExecution', id: 'c0', command: 'ls' }, threadId: 't', turnId: 'u' }),
			item({ type: 'userMessage', id: 'u1', clientId: 'p', content: [{ type: 'text', text: 'Do the task', text_elements: [] }] }),
			item({ type: 'commandExecution', id: 'c1', command: "/bin/bash -c 'npm test'", status: 'completed', exitCode: 1, aggregatedOutput: 'failing: 2' }),
			item({ type: 'commandExecution', id: 'c2', command: "/bin/bash -c 'rm -rf /'", status: 'declined', exitCode: null, aggregatedOutput: null }),
			item({ type: 'fileChange', id: 'f1', status: 'completed', changes: [{ path: '/ws/src/sum.ts', kind: { type: 'update' }, diff: '' }] }),
			item({ type: 'userMessage', id: 'u2', clientId: 'm1', content: [{ type: 'text', text: 'use tabs', text_elements: [] }] }),
			item({ type: 'agentMessage', id: 'a1', text: 'Fixed it.' }),
			rpc('error', { error: { message: 'retrying' }, willRetry: true, threadId: 't', turnId: 'u' }),
			rpc('turn/completed', { threadId: 't', turn: { id: 'u', status: 'completed', error: null } }),
			rpc('turn/completed', { threadId: 't', turn: { id: 'v', status: 'interrupted', error: null } }),
			rpc('turn/completed', { threadId: 't', turn: { id: 'w', status: 'failed', error: { message: 'stream disconnected' } } }),
			line({ tutti: 'session_failed', message: 'could not open the Codex thread' }),
		].join('\n');
		assert.deepEqual(pairs(stdout), [
			['user', 'Do the task'],
			['tool', "$ /bin/bash -c 'npm test'"],
			['error', 'exit 1: failing: 2'],
			['tool', "$ /bin/bash -c 'rm -rf /'"],
			['error', 'declined: the command did not run'],
			['edit', '/ws/src/sum.ts'],
			['user', 'use tabs'],
			['assistant', 'Fixed it.'],
			['result', 'Turn completed.'],
			['result', 'Turn interrupted.'],
			['error', 'stream disconnected'],
			['error', 'could not open the Codex thread'],
		]);
	});
});
