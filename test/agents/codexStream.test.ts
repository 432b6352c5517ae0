// Turn facts from `codex exec --json` stdout (fixtures modeled on what the pinned CLI prints).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { codexFactLimits, codexSessionFailureLine, parseCodexTurnFacts } from '../../src/agents/codexStream.js';

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

// codex app-server: the JSON-RPC lines the Run supervisor keeps (modeled on lines the pinned CLI wrote, abridged).
describe('codex stream: Turn facts of an app-server Turn', () => {
	const thread = '01a23ade-30dd-70d3-96dd-b8e160237d85';
	const turn = '01a23ade-3105-7c13-bbe7-1bd6d176a776';
	const earlier = '01a23adf-825d-7561-af84-d7d0f21f9191';
	const rpc = (method: string, params: unknown): unknown => ({ method, params, emittedAtMs: 1 });
	const item = (phase: 'started' | 'completed', value: unknown): unknown => rpc(`item/${phase}`, { item: value, threadId: thread, turnId: turn });
	const usage = (turnId: string, input: number, cached: number, output: number): unknown => rpc('thread/tokenUsage/updated', {
		threadId: thread, turnId,
		tokenUsage: {
			total: { totalTokens: 999, inputTokens: 999, cachedInputTokens: 0, cacheWriteInputTokens: 0, outputTokens: 999, reasoningOutputTokens: 0 },
			last: { totalTokens: input + output, inputTokens: input, cachedInputTokens: cached, cacheWriteInputTokens: 0, outputTokens: output, reasoningOutputTokens: 0 },
		},
	});
	const cmd = { type: 'commandExecution', id: 'call_1', command: "/bin/bash -c 'echo hi'", cwd: '/ws', status: 'inProgress', aggregatedOutput: null, exitCode: null };
	const turnDone = (status: string, error: unknown = null): unknown => rpc('turn/completed', { threadId: thread, turn: { id: turn, status, error, items: [] } });
	const opening = [
		{ id: 1, result: { userAgent: 'tutti/0.171.0' } },
		{ id: 2, result: { thread: { id: thread }, model: 'gpt-5.5' } },
		rpc('thread/started', { thread: { id: thread } }),
		{ id: 3, result: { turn: { id: turn, status: 'inProgress', error: null } } },
		rpc('turn/started', { threadId: thread, turn: { id: turn, status: 'inProgress', error: null } }),
	];

	it('reads the thread, the model, the tool call once, the answer, each response\'s usage with cache reads apart, and the result', () => {
		const facts = parseCodexTurnFacts(lines(
			...opening,
			item('started', cmd), item('completed', { ...cmd, status: 'completed', aggregatedOutput: 'hi\n', exitCode: 0 }),
			usage(turn, 20, 0, 10),
			item('completed', { type: 'agentMessage', id: 'msg_1', text: 'All done.' }),
			usage(turn, 100, 40, 7),
			turnDone('completed'),
		));
		assert.deepEqual(facts, {
			providerSessionId: thread,
			toolCalls: [{ name: 'exec_command', input: { command: "/bin/bash -c 'echo hi'" } }],
			assistantText: 'All done.',
			usage: { inputTokens: 80, outputTokens: 17, cacheReadTokens: 40, cacheWriteTokens: 0 },
			model: 'gpt-5.5',
			costUsd: null,
			result: { ok: true, text: 'All done.' },
			errors: [],
		});
	});

	it('does not count the usage a resumed thread reports for an earlier turn', () => {
		const resumed = [{ id: 2, result: { thread: { id: thread }, model: 'gpt-5.5' } }, usage(earlier, 500, 0, 50), ...opening.slice(3)];
		const facts = parseCodexTurnFacts(lines(...resumed, usage(turn, 20, 0, 10), turnDone('completed')));
		assert.deepEqual(facts.usage, { inputTokens: 20, outputTokens: 10, cacheReadTokens: 0, cacheWriteTokens: 0 });
	});

	it('reads a failed turn as an error result, an interrupted one as no result, and a retried error as no error', () => {
		const error = { message: 'We are experiencing high demand', codexErrorInfo: 'internalServerError' };
		const failed = parseCodexTurnFacts(lines(...opening, rpc('error', { error: { message: 'retrying' }, willRetry: true, threadId: thread, turnId: turn }),
			rpc('error', { error, willRetry: false, threadId: thread, turnId: turn }), turnDone('failed', error)));
		assert.deepEqual([failed.result, failed.errors], [{ ok: false, text: 'We are experiencing high demand' }, ['We are experiencing high demand']]);
		const interrupted = parseCodexTurnFacts(lines(...opening, item('started', cmd), turnDone('interrupted')));
		assert.equal(interrupted.result, null);
		assert.equal(interrupted.toolCalls.length, 1);
	});

	it("reads the supervisor's session failure line as a failed result, and the last turn of several (a Stop hook's) as the result", () => {
		const failed = parseCodexTurnFacts(lines({ id: 1, result: { userAgent: 'x' } }, { error: { code: -32600, message: 'no rollout found for thread id x' }, id: 2 },
			JSON.parse(codexSessionFailureLine('could not open the Codex thread: no rollout found for thread id x')) as unknown));
		assert.deepEqual(failed.result, { ok: false, text: 'could not open the Codex thread: no rollout found for thread id x' });
		const second = '01a23ade-3105-7c13-bbe7-000000000002';
		const hooked = parseCodexTurnFacts(lines(...opening, item('completed', { type: 'agentMessage', id: 'm1', text: 'first' }), usage(turn, 20, 0, 10), turnDone('completed'),
			rpc('turn/started', { threadId: thread, turn: { id: second, status: 'inProgress', error: null } }),
			rpc('item/completed', { item: { type: 'agentMessage', id: 'm2', text: 'second' }, threadId: thread, turnId: second }), usage(second, 30, 0, 5),
			rpc('turn/completed', { threadId: thread, turn: { id: second, status: 'completed', error: null } })));
		assert.deepEqual([hooked.result, hooked.usage.inputTokens, hooked.usage.outputTokens], [{ ok: true, text: 'second' }, 50, 15]);
	});
});
