// Turn facts from Claude Code's stream-json output (pure). Fixture lines follow what the pinned CLI prints.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { claudeFactLimits, parseClaudeTurnFacts } from '../../src/agents/claudeStream.js';

const sid = 'e8cc2fd5-1111-4222-8333-944445555666';
const j = (v: unknown): string => JSON.stringify(v);

const init = j({ type: 'system', subtype: 'init', cwd: '/ws', session_id: sid, tools: ['Task', 'Bash'], model: 'claude-opus-4-8[1m]', permissionMode: 'default', apiKeySource: 'ANTHROPIC_API_KEY', claude_code_version: '2.1.197' });
const usage1 = { input_tokens: 10, output_tokens: 1, cache_read_input_tokens: 3, cache_creation_input_tokens: 4 };
const textLine = (msgId: string, text: string, usage: object = usage1): string =>
	j({ type: 'assistant', message: { id: msgId, type: 'message', role: 'assistant', model: 'claude-opus-4-8', content: [{ type: 'text', text }], stop_reason: null, usage }, parent_tool_use_id: null, session_id: sid });
const toolLine = (msgId: string, id: string, command: string): string =>
	j({ type: 'assistant', message: { id: msgId, content: [{ type: 'tool_use', id, name: 'Bash', input: { command, description: 'Write hello' } }], stop_reason: null, usage: usage1 }, session_id: sid });
const toolResult = j({ type: 'user', message: { role: 'user', content: [{ tool_use_id: 'toolu_echo1', type: 'tool_result', content: 'root', is_error: false }] }, tool_use_result: { stdout: 'root', stderr: '', interrupted: false }, session_id: sid });
const success = j({
	type: 'result', subtype: 'success', is_error: false, api_error_status: null, num_turns: 2, result: 'Done: wrote out.txt', stop_reason: 'end_turn', session_id: sid,
	total_cost_usd: 0.00035, usage: { input_tokens: 120, cache_creation_input_tokens: 7, cache_read_input_tokens: 30, output_tokens: 12 }, permission_denials: [], terminal_reason: 'completed',
});

describe('claude stream: Turn facts', () => {
	it('reads session id, tool calls, text, usage and the final result of a tool-using Turn', () => {
		const stdout = [init, textLine('msg_1', "I'll write the file."), toolLine('msg_1', 'toolu_echo1', 'echo hello > out.txt && id -un'), toolResult, textLine('msg_2', 'Done: wrote out.txt'), success, ''].join('\n');
		assert.deepEqual(parseClaudeTurnFacts(stdout), {
			providerSessionId: sid,
			toolCalls: [{ name: 'Bash', input: { command: 'echo hello > out.txt && id -un', description: 'Write hello' } }],
			assistantText: "I'll write the file.\nDone: wrote out.txt",
			usage: { inputTokens: 120, outputTokens: 12, cacheReadTokens: 30, cacheWriteTokens: 7 },
			result: { ok: true, text: 'Done: wrote out.txt' },
			errors: [],
			model: 'claude-opus-4-8',
			costUsd: 0.00035,
		});
	});

	it('without a result line: sums usage once per assistant message id, and the result is null', () => {
		const stdout = [init, textLine('msg_1', 'a'), toolLine('msg_1', 'toolu_1', 'ls'), textLine('msg_2', 'b', { input_tokens: 5, output_tokens: 2 })].join('\n');
		const facts = parseClaudeTurnFacts(stdout);
		assert.deepEqual(facts.usage, { inputTokens: 15, outputTokens: 3, cacheReadTokens: 3, cacheWriteTokens: 4 });
		assert.equal(facts.result, null);
		assert.equal(facts.providerSessionId, sid);
	});

	it('counts a tool_use id once even when a line repeats', () => {
		const line = toolLine('msg_1', 'toolu_1', 'ls');
		assert.equal(parseClaudeTurnFacts([line, line].join('\n')).toolCalls.length, 1);
	});

	it('an interrupted Turn: error_during_execution is a failed result with its errors', () => {
		const interrupted = j({ type: 'result', subtype: 'error_during_execution', is_error: true, num_turns: 2, session_id: sid, errors: ['[Request interrupted by user]'], usage: { input_tokens: 0, output_tokens: 0 } });
		const facts = parseClaudeTurnFacts([init, j({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: '[Request interrupted by user]' }] }, session_id: sid }), interrupted].join('\n'));
		assert.deepEqual(facts.result, { ok: false, text: '[Request interrupted by user]' });
		assert.deepEqual(facts.errors, ['[Request interrupted by user]']);
		const bare = parseClaudeTurnFacts(j({ type: 'result', subtype: 'error_during_execution', is_error: true, session_id: sid }));
		assert.deepEqual(bare.result, { ok: false, text: '' });
		assert.deepEqual(bare.errors, ['claude ended with error_during_execution']);
	});

	it('an API error: the synthetic assistant text is an error, not assistant text, and the result is not ok', () => {
		const synthetic = j({ type: 'assistant', message: { id: 'x', model: '<synthetic>', content: [{ type: 'text', text: 'API Error: 500 scripted failure' }], usage: { input_tokens: 0, output_tokens: 0 } }, session_id: sid });
		const failed = j({ type: 'result', subtype: 'success', is_error: true, api_error_status: 500, result: 'API Error: 500 scripted failure', session_id: sid });
		const facts = parseClaudeTurnFacts([init, synthetic, failed].join('\n'));
		assert.equal(facts.assistantText, '');
		assert.deepEqual(facts.result, { ok: false, text: 'API Error: 500 scripted failure' });
		assert.deepEqual(facts.errors, ['API Error: 500 scripted failure']); // once, though both lines say it
	});

	it('reports permission denials as errors', () => {
		const denied = j({ type: 'result', subtype: 'success', is_error: false, result: 'ok', session_id: sid, permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command: 'echo x > f' } }] });
		assert.deepEqual(parseClaudeTurnFacts(denied).errors, ['permission denied: Bash (echo x > f)']);
	});

	it('skips garbage, partial and non-object lines, and CRLF endings', () => {
		const stdout = ['Warning: no stdin data received in 3s, proceeding without it...', '{"type":"assistant","message":{"id":"m","content":[{"type":"te', '[1,2]', 'null', '{"type":"assistant","message":"not an object"}',
			'{"type":"assistant","message":{"content":[null,{"type":"tool_use"},{"type":"text","text":7}]}}', `${init}\r`, `${success}\r`].join('\n');
		const facts = parseClaudeTurnFacts(stdout);
		assert.equal(facts.providerSessionId, sid);
		assert.deepEqual(facts.toolCalls, []);
		assert.deepEqual(facts.result, { ok: true, text: 'Done: wrote out.txt' });
	});

	it('bounds assistant text (keeping the end), tool calls and errors', () => {
		const long = 'x'.repeat(claudeFactLimits.assistantTextChars);
		const lines = [textLine('m1', long), textLine('m2', 'the end')];
		for (let i = 0; i < claudeFactLimits.toolCalls + 5; i++) { lines.push(toolLine(`t${i}`, `toolu_${i}`, 'ls')); }
		for (let i = 0; i < claudeFactLimits.errors + 5; i++) { lines.push(j({ type: 'error', message: `${i}`.padEnd(claudeFactLimits.errorChars + 10, 'e') })); }
		const facts = parseClaudeTurnFacts(lines.join('\n'));
		assert.equal(facts.assistantText.length, claudeFactLimits.assistantTextChars);
		assert.ok(facts.assistantText.startsWith('…') && facts.assistantText.endsWith('\nthe end'));
		assert.equal(facts.toolCalls.length, claudeFactLimits.toolCalls);
		assert.equal(facts.errors.length, claudeFactLimits.errors);
		assert.ok(facts.errors.every((e) => e.length === claudeFactLimits.errorChars + 1));
	});

	it('never throws, whatever the input', () => {
		fc.assert(fc.property(fc.array(fc.oneof(fc.string(), fc.json(), fc.constantFrom(init, success, toolResult, textLine('m', 't')))), (parts) => {
			const facts = parseClaudeTurnFacts(parts.join('\n'));
			assert.equal(typeof facts.providerSessionId, 'string');
		}), { numRuns: 300 });
		assert.deepEqual(parseClaudeTurnFacts('').result, null);
	});
});
