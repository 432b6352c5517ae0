// Turn facts from `codex exec --json` stdout (fixtures modeled on agent-cli-protocols.md §3.3, §3.5, §3.6).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codexFactLimits, parseCodexTurnFacts } from '../../src/agents/codexStream.js';

const threadId = '01a228e3-b8f1-7c2d-9e0f-1a2b3c4d5e6f';
const lines = (...objects: unknown[]): string => `${objects.map((o) => JSON.stringify(o)).join('\n')}\n`;

const started = { type: 'thread.started', thread_id: threadId };
const command = '/bin/bash -lc \'echo hello > out.txt && id -un\'';
const execStarted = { type: 'item.started', item: { id: 'item_1', type: 'command_execution', command, aggregated_output: '', exit_code: null, status: 'in_progress' } };
const execDone = { type: 'item.completed', item: { id: 'item_1', type: 'command_execution', command, aggregated_output: 'root\n', exit_code: 0, status: 'completed' } };
const message = (id: string, text: string): unknown => ({ type: 'item.completed', item: { id, type: 'agent_message', text } });
// input_tokens counts the cached ones too (the Responses API's usage): 20 in all, 4 of them from the cache.
const completed = { type: 'turn.completed', usage: { input_tokens: 20, cached_input_tokens: 4, cache_write_input_tokens: 2, output_tokens: 10, reasoning_output_tokens: 3 } };

describe('codex stream: Turn facts', () => {
	it('reads a worker turn: thread id, one exec_command call, the answer, usage and a successful result', () => {
		const facts = parseCodexTurnFacts(lines(started, { type: 'turn.started' }, execStarted, execDone, message('item_2', 'Done: wrote out.txt'), completed));
		assert.deepEqual(facts, {
			providerSessionId: threadId,
			toolCalls: [{ name: 'exec_command', input: { command } }],
			assistantText: 'Done: wrote out.txt',
			usage: { inputTokens: 16, outputTokens: 10, cacheReadTokens: 4, cacheWriteTokens: 2 },
			result: { ok: true, text: 'Done: wrote out.txt' },
			errors: [],
			model: '',
			costUsd: null,
		});
	});

	it('counts a long command that never completes (item.started only) once', () => {
		const facts = parseCodexTurnFacts(lines(started, execStarted, message('item_2', 'still running'), completed));
		assert.deepEqual(facts.toolCalls, [{ name: 'exec_command', input: { command } }]);
	});

	it('does not treat warning items (type "error") as errors of the Turn', () => {
		const warning = { type: 'item.completed', item: { id: 'item_0', type: 'error', message: 'Model metadata for `gpt-scripted` not found' } };
		const facts = parseCodexTurnFacts(lines(started, warning, message('item_1', 'hi'), completed));
		assert.deepEqual(facts.errors, []);
		assert.deepEqual(facts.result, { ok: true, text: 'hi' });
	});

	it('reads a failed turn: the top-level error and turn.failed, result not ok', () => {
		const facts = parseCodexTurnFacts(lines(
			started, { type: 'turn.started' },
			{ type: 'error', message: 'stream disconnected before completion: stream closed before response.completed' },
			{ type: 'turn.failed', error: { message: 'stream disconnected before completion: stream closed before response.completed' } },
		));
		assert.deepEqual(facts.errors, ['stream disconnected before completion: stream closed before response.completed']);
		assert.deepEqual(facts.result, { ok: false, text: 'stream disconnected before completion: stream closed before response.completed' });
		assert.equal(facts.providerSessionId, threadId);
	});

	it('has no result for an interrupted run (nothing after item.started), but keeps what it saw', () => {
		const facts = parseCodexTurnFacts(lines(started, { type: 'turn.started' }, execStarted));
		assert.equal(facts.result, null);
		assert.equal(facts.toolCalls.length, 1);
		assert.deepEqual(facts.usage, { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 });
	});

	it('keeps every agent message (in order) and makes the last one the result text', () => {
		const facts = parseCodexTurnFacts(lines(started, message('a', 'first answer'), message('b', 'second answer'), completed));
		assert.equal(facts.assistantText, 'first answer\n\nsecond answer');
		assert.deepEqual(facts.result, { ok: true, text: 'second answer' });
	});

	it('reads file changes, MCP calls and web searches as tool calls', () => {
		const facts = parseCodexTurnFacts(lines(
			{ type: 'item.completed', item: { id: 'f', type: 'file_change', changes: [{ path: 'a.ts', kind: 'add' }], status: 'completed' } },
			{ type: 'item.completed', item: { id: 'm', type: 'mcp_tool_call', server: 'docs', tool: 'search', arguments: { q: 'x' }, status: 'completed' } },
			{ type: 'item.completed', item: { id: 'w', type: 'web_search', query: 'tutti' } },
		));
		assert.deepEqual(facts.toolCalls.map((c) => c.name), ['apply_patch', 'docs.search', 'web_search']);
	});

	it('bounds assistant text, tool calls and errors', () => {
		const big = 'x'.repeat(codexFactLimits.assistantTextChars + 10);
		const many = Array.from({ length: codexFactLimits.toolCalls + 5 }, (_, i) => ({ type: 'item.completed', item: { id: `i${String(i)}`, type: 'command_execution', command: 'true' } }));
		const errors = Array.from({ length: codexFactLimits.errors + 5 }, (_, i) => ({ type: 'error', message: `e${String(i)} ${'y'.repeat(codexFactLimits.errorChars)}` }));
		const facts = parseCodexTurnFacts(lines(message('a', big), message('b', 'more'), ...many, ...errors));
		assert.equal(facts.assistantText.length, codexFactLimits.assistantTextChars);
		assert.equal(facts.toolCalls.length, codexFactLimits.toolCalls);
		assert.equal(facts.errors.length, codexFactLimits.errors);
		assert.ok(facts.errors.every((e) => e.length <= codexFactLimits.errorChars + 1));
	});

	it('skips garbage and stderr noise and never throws', () => {
		const noisy = `WARNING: proceeding, even though we could not create PATH aliases\n{not json\n${JSON.stringify(started)}\n[1,2]\nnull\n{"type":"item.completed","item":null}\n{"type":"turn.completed","usage":"lots"}\n{"type":"turn.failed","error":7}\n{"type":"thread.started","thread_id":"other"}`;
		const facts = parseCodexTurnFacts(noisy);
		assert.equal(facts.providerSessionId, threadId, 'the first thread.started wins');
		assert.deepEqual(facts.result, { ok: false, text: 'The Codex turn failed.' });
		fc.assert(fc.property(fc.string(), fc.array(fc.jsonValue()), (text, values) => {
			parseCodexTurnFacts(text);
			parseCodexTurnFacts(values.map((v) => JSON.stringify(v)).join('\n'));
			parseCodexTurnFacts(values.map((v) => JSON.stringify({ type: 'item.completed', item: v })).join('\n'));
		}), { numRuns: 200 });
	});
});
