// Worker Runs on claude targets: the Turn handed to the adapter, the process it builds, and the Turn facts read
// from the Run's stdout at settlement (usage, summary, provider session id; is_error fails even on exit 0).
import { strict as assert } from 'node:assert';
import { afterEach, describe, it } from 'mocha';
import { parseClaudeTurnFacts } from '../../../../src/agents/claudeStream.js';
import { adapterFor } from '../../../../src/agents/command.js';
import { sessionRepository } from '../../../../src/store/repositories/sessionRepository.js';
import { ServiceHarness } from '../services/serviceHarness.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const providerSession = '11111111-2222-4333-8444-555555555555';

function claudeStream(result: { isError: boolean; text: string }): string {
	return [
		{ type: 'system', subtype: 'init', session_id: providerSession },
		{ type: 'assistant', session_id: providerSession, message: { content: [{ type: 'text', text: 'Working on it.' }] } },
		{
			type: 'result', subtype: result.isError ? 'error_during_execution' : 'success', is_error: result.isError, result: result.text,
			session_id: providerSession, usage: { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 7, cache_creation_input_tokens: 3 },
		},
	].map((l) => JSON.stringify(l)).join('\n') + '\n';
}

describe('worker Runs on claude targets', () => {
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	async function open(): Promise<string> {
		h = await ServiceHarness.open({
			config: { agentTargets: [{ id: 'cc', adapter: 'claude', path: '/opt/claude/bin/claude', model: 'target-model', allowedTools: ['Bash(tutti:*)'] }] },
		});
		return (await h.call('issue/create', { title: 'agents' })).issueId;
	}

	it('launches through the adapter: preamble + task prompt, a new session id, task settings over the target, the prompt as the first message on a live stdin', async () => {
		const issueId = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'rename foo to bar', agentTargetId: 'cc', reasoningEffort: 'high' });
		await h.idle();
		const spec = h.runs.launches[0]!;
		assert.ok(spec.turn, 'a claude Run gets a Turn');
		assert.match(spec.turn.prompt, /rename foo to bar$/);
		for (const phrase of ['TUTTI_SESSION_TOKEN', 'TUTTI_RUN_ID', '`tutti` command is on your PATH']) { assert.ok(spec.turn.prompt.includes(phrase), phrase); }
		assert.match(spec.turn.newProviderSessionId ?? '', uuid);
		assert.equal(spec.turn.model, 'target-model', 'the target model when the task names none');
		assert.equal(spec.turn.reasoningEffort, 'high');
		assert.equal(spec.stdinText, '', 'the prompt travels in the Turn, not on stdin');
		assert.deepEqual(Object.keys(spec.env).sort(), ['TUTTI_IPC_HOOK', 'TUTTI_ISSUE_ID', 'TUTTI_RUN_ID', 'TUTTI_SESSION_ID', 'TUTTI_SESSION_TOKEN', 'TUTTI_TASK_ID']);

		const command = adapterFor(spec.target).commandFor(spec);
		assert.equal(command.file, '/opt/claude/bin/claude');
		assert.equal(command.stdin, 'live');
		assert.equal(command.livePrompt, spec.turn.prompt, 'the prompt is the first stream-json message on stdin');
		const at = command.args.indexOf('--session-id');
		assert.equal(command.args[at + 1], spec.turn.newProviderSessionId);
		assert.deepEqual(command.args.slice(0, 7), ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages']);
		assert.ok(!command.args.includes(spec.turn.prompt), 'no positional prompt');
		assert.equal(command.args[command.args.indexOf('--effort') + 1], 'high');

		const session = h.store.read((r) => sessionRepository.get(r, spec.env.TUTTI_SESSION_ID!));
		assert.equal(session?.providerSessionId, spec.turn.newProviderSessionId, 'the claude session id is known before the stream starts');
	});

	it('a task model overrides the target model', async () => {
		const issueId = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'x', agentTargetId: 'cc', model: 'task-model' });
		await h.idle();
		assert.equal(h.runs.launches[0]!.turn?.model, 'task-model');
	});

	it('settles with the Turn facts of its stdout: usage, the final result as summary, the provider session id', async () => {
		const issueId = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'x', agentTargetId: 'cc' });
		await h.idle();
		const spec = h.runs.launches[0]!;
		const stream = claudeStream({ isError: false, text: 'Renamed foo to bar in 3 files.' });
		h.runs.logs.set(spec.runId, stream);
		h.runs.exit(spec.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: spec.runId });
		assert.equal(run.outcome, 'success');
		assert.equal(run.summary, 'Renamed foo to bar in 3 files.');
		assert.deepEqual(run.usage, parseClaudeTurnFacts(stream).usage);
		assert.equal(run.usage.inputTokens > 0, true);
		const session = h.store.read((r) => sessionRepository.get(r, run.agentSessionId));
		assert.equal(session?.providerSessionId, providerSession);
	});

	it('a stream that reports is_error settles as a failure even when the process exited 0', async () => {
		const issueId = await open();
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'x', agentTargetId: 'cc' });
		await h.idle();
		const spec = h.runs.launches[0]!;
		h.runs.logs.set(spec.runId, claudeStream({ isError: true, text: 'API Error: 500' }));
		h.runs.exit(spec.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: spec.runId });
		assert.equal(run.outcome, 'failure');
		assert.match(run.errorMessage, /the agent reported an error: API Error: 500/);
		assert.equal((await h.call('issue/get', { issueId })).tasks[0]!.status, 'failed');
	});

	it('command targets get no Turn and keep the task content on stdin; their stdout is not parsed', async () => {
		h = await ServiceHarness.open();
		const issueId = (await h.call('issue/create', { title: 'cmd' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', content: 'hello', agentTargetId: 'ok' });
		await h.idle();
		const spec = h.runs.launches[0]!;
		assert.equal(spec.turn, undefined);
		assert.equal(spec.stdinText, 'hello');
		h.runs.logs.set(spec.runId, claudeStream({ isError: true, text: 'looks like an error' }));
		h.runs.exit(spec.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: spec.runId });
		assert.deepEqual([run.outcome, run.summary], ['success', '']);
	});
});
