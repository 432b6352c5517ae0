// The claude adapter's command (pure): argv, session flags, permission flags, stdin, env and validation.
import assert from 'node:assert/strict';
import { claudeAdapter, claudeArgs, defaultClaudeAllowedTools } from '../../src/agents/claude.js';
import { adapterFor } from '../../src/agents/command.js';
import { DomainError } from '../../src/core/errors.js';
import type { AgentTargetConfig, AgentTurnInput, RunLaunchSpec } from '../../src/core/runs/runProcessPort.js';

const uuid1 = '0b9c6f5e-2f1a-4c8e-9d3b-7a6e5f4d3c2b';
const uuid2 = '5d1e2c3b-4a59-4687-8b9c-0d1e2f3a4b5c';

function spec(target: Partial<AgentTargetConfig> = {}, turn: Partial<AgentTurnInput> | null = {}): RunLaunchSpec {
	return {
		runId: 'r1', issueId: 'i1', taskId: 't1', cwd: '/ws', stdinText: 'task content', env: { TUTTI_RUN_ID: 'r1' },
		target: { id: 'claude', adapter: 'claude', ...target },
		...(turn !== null ? { turn: { prompt: 'do the task', ...turn } } : {}),
	};
}

function invalid(fn: () => unknown, text: string): void {
	assert.throws(fn, (e: unknown) => e instanceof DomainError && e.reasonCode === 'invalid_input' && e.message.includes(text) && e.message.includes("'claude'"));
}

function flagValues(args: string[], flag: string): string[] {
	const i = args.indexOf(flag);
	if (i < 0) { return []; }
	const values: string[] = [];
	for (let j = i + 1; j < args.length && !args[j]!.startsWith('-'); j++) { values.push(args[j]!); }
	return values;
}

describe('claude adapter: command for a Turn', () => {
	it('is the adapter adapterFor gives claude targets', () => {
		assert.equal(adapterFor({ id: 'c', adapter: 'claude' }), claudeAdapter);
	});

	it('runs print mode with stream-json in and out (messages replayed), a new session id, the default tools, and the prompt as the first message on a live stdin', () => {
		const command = claudeAdapter.commandFor(spec({}, { newProviderSessionId: uuid1 }));
		assert.deepEqual(command, {
			file: 'claude',
			args: ['-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--replay-user-messages', '--session-id', uuid1, '--allowedTools', 'Bash(tutti:*)'],
			shell: false,
			env: {},
			stdin: 'live',
			livePrompt: 'do the task',
		});
		assert.deepEqual([...defaultClaudeAllowedTools], ['Bash(tutti:*)']);
	});

	it('resumes a later Turn with --resume (and no --session-id)', () => {
		const args = claudeArgs(spec({}, { resumeProviderSessionId: uuid2, newProviderSessionId: uuid1 }));
		assert.deepEqual(flagValues(args, '--resume'), [uuid2]);
		assert.equal(args.includes('--session-id'), false);
	});

	it('starts without a session flag when the Turn names none', () => {
		const args = claudeArgs(spec());
		assert.equal(args.includes('--resume') || args.includes('--session-id'), false);
	});

	it('passes the target path, env, allowedTools and args; the Turn model and effort win over the target model', () => {
		const command = claudeAdapter.commandFor(spec(
			{ path: '/opt/claude', env: { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' }, allowedTools: ['Bash', 'Read'], model: 'target-model', args: ['--max-turns', '5'] },
			{ model: 'turn-model', reasoningEffort: 'low', extraArgs: ['--settings', '{"hooks":{}}'] },
		));
		assert.equal(command.file, '/opt/claude');
		assert.deepEqual(command.env, { ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' });
		assert.deepEqual(flagValues(command.args, '--model'), ['turn-model']);
		assert.deepEqual(flagValues(command.args, '--effort'), ['low']);
		assert.deepEqual(flagValues(command.args, '--allowedTools'), ['Bash', 'Read']);
		const tail = command.args.slice(command.args.indexOf('--allowedTools') + 3);
		assert.deepEqual(tail, ['--settings', '{"hooks":{}}', '--max-turns', '5']);
		assert.deepEqual(flagValues(claudeArgs(spec({ model: 'target-model' })), '--model'), ['target-model']);
	});

	it('passes no --allowedTools for an empty list (the target allows nothing extra)', () => {
		assert.equal(claudeArgs(spec({ allowedTools: [] })).includes('--allowedTools'), false);
	});

	it('never adds a permission bypass by default; passes the permission mode only when the launch settings ask', () => {
		const plain = claudeArgs(spec({ allowedTools: ['Bash'] }, { model: 'm', reasoningEffort: 'high' })).join(' ');
		assert.doesNotMatch(plain, /bypass|dangerously|--permission-mode/);
		assert.deepEqual(flagValues(claudeArgs(spec({}, { permissionModeId: 'bypassPermissions' })), '--permission-mode'), ['bypassPermissions']);
		invalid(() => claudeArgs(spec({}, { permissionModeId: 'yolo' })), "permission mode 'yolo'");
	});

	it('keeps a prompt that looks like a flag as the prompt, never in argv', () => {
		const command = claudeAdapter.commandFor(spec({}, { prompt: '--dangerously-skip-permissions' }));
		assert.equal(command.args.includes('--dangerously-skip-permissions'), false);
		assert.equal(command.livePrompt, '--dangerously-skip-permissions');
	});

	it('uses the task content as the prompt when the spec carries no Turn', () => {
		assert.equal(claudeAdapter.commandFor(spec({}, null)).livePrompt, 'task content');
	});

	it('rejects bad Turns and targets with invalid_input', () => {
		invalid(() => claudeArgs(spec({}, { prompt: '  ' })), 'no prompt');
		invalid(() => claudeArgs(spec({}, { resumeProviderSessionId: '--continue' })), 'not a UUID');
		invalid(() => claudeArgs(spec({}, { newProviderSessionId: 'abc' })), 'not a UUID');
		invalid(() => claudeArgs(spec({}, { reasoningEffort: 'extreme' })), "effort 'extreme'");
		invalid(() => claudeArgs(spec({ allowedTools: 'Bash' as unknown as string[] })), 'allowedTools');
		invalid(() => claudeArgs(spec({ args: ['a\0b'] })), 'NUL');
		invalid(() => claudeAdapter.commandFor(spec({ env: { 'A=B': 'x' } })), "'A=B'");
		invalid(() => claudeAdapter.commandFor(spec({ path: ' ' })), '"path"');
		invalid(() => claudeAdapter.commandFor(spec({ adapter: 'codex' })), "'codex' adapter");
	});
});
