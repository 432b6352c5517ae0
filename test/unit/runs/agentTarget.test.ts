// The one agent-target check: config loading and every adapter refuse the same targets, in the same words.
import assert from 'node:assert/strict';
import { agentTargetProblems } from '../../../src/agents/agentTarget.js';
import { adapterFor } from '../../../src/agents/command.js';
import { DomainError } from '../../../src/core/errors.js';
import type { AgentTargetConfig, RunLaunchSpec } from '../../../src/core/runs/runProcessPort.js';
import { parseHostConfig } from '../../../src/host/config.js';

const file = '/w/.tutti/config.json';

function spec(target: AgentTargetConfig): RunLaunchSpec {
	return { runId: 'r1', issueId: 'i1', taskId: 't1', cwd: '/ws', stdinText: 'task content', env: {}, target, turn: { prompt: 'do it' } };
}

/** What config loading says about `target` (or null when it loads). */
function configProblem(target: Record<string, unknown>): string | null {
	try {
		parseHostConfig(JSON.stringify({ agentTargets: [target] }), file);
		return null;
	} catch (error) {
		assert.ok(error instanceof DomainError && error.reasonCode === 'invalid_input');
		return error.message;
	}
}

/** What launching `target` says (or null when its process is built). */
function launchProblem(target: AgentTargetConfig): string | null {
	try {
		adapterFor(target).commandFor(spec(target));
		return null;
	} catch (error) {
		assert.ok(error instanceof DomainError && error.reasonCode === 'invalid_input', String(error));
		assert.ok(error.message.startsWith(`Agent target '${target.id}' cannot be started: `), error.message);
		assert.match(error.hint, /tutti\.agentTargets setting \(headless: \.tutti\/config\.json\), e\.g\. \{"id":/);
		assert.match(error.hint, new RegExp(`"adapter":"${target.adapter}"`), 'the example is one of its own adapter');
		return error.message;
	}
}

describe('agent targets: one check for config loading and every adapter', () => {
	const bad: Array<[string, Record<string, unknown>, string, string]> = [
		['command without argv', { id: 'x', adapter: 'command' }, 'argv', 'a "command" target needs "argv"'],
		['command with empty argv', { id: 'x', adapter: 'command', argv: [] }, 'argv', 'a "command" target needs "argv"'],
		['command with an empty argument', { id: 'x', adapter: 'command', argv: ['sh', ''] }, 'argv[1]', '"argv" must not contain empty strings'],
		['command with a blank executable', { id: 'x', adapter: 'command', argv: [' '] }, 'argv[0]', 'the executable (argv[0]) is empty'],
		['NUL in argv', { id: 'x', adapter: 'command', argv: ['a\0b'] }, 'argv[0]', '"argv" must not contain NUL characters'],
		['bad env name', { id: 'x', adapter: 'command', argv: ['a'], env: { 'A-B': '1' } }, 'env["A-B"]', "environment variable 'A-B' is not a valid name"],
		['NUL in an env value', { id: 'x', adapter: 'codex', env: { A: 'a\0' } }, 'env.A', "environment variable 'A' must be a string without NUL characters"],
		['blank claude path', { id: 'x', adapter: 'claude', path: ' ' }, 'path', '"path" is empty'],
		['NUL in codex args', { id: 'x', adapter: 'codex', args: ['a\0'] }, 'args[0]', '"args" must not contain NUL characters'],
		['empty allowed tool', { id: 'x', adapter: 'claude', allowedTools: [''] }, 'allowedTools[0]', '"allowedTools" must not contain empty strings'],
		['empty model', { id: 'x', adapter: 'claude', model: '' }, 'model', '"model" must be a non-empty string'],
		['argv on a claude target', { id: 'x', adapter: 'claude', argv: ['claude'] }, 'argv', '"argv" and "shell" are for "command" targets'],
		['approvals on a codex exec target', { id: 'x', adapter: 'codex', protocol: 'exec', approvals: 'ask' }, 'approvals', '"approvals" is for claude and codex app-server targets'],
		['approvals on a command target', { id: 'x', adapter: 'command', argv: ['a'], approvals: 'ask' }, 'approvals', '"approvals" is for claude and codex app-server targets'],
		['protocol on a claude target', { id: 'x', adapter: 'claude', protocol: 'exec' }, 'protocol', '"protocol" is for codex targets'],
	];
	for (const [name, target, at, problem] of bad) {
		it(`refuses ${name} when the config loads and when it launches`, () => {
			const loading = configProblem(target) ?? assert.fail('the config loaded');
			assert.ok(loading.startsWith(`${file} is invalid:`), loading);
			assert.ok(loading.includes(problem), loading);
			assert.ok(loading.includes(`→ at agentTargets[0].${at}`), loading);
			const launching = launchProblem(target as unknown as AgentTargetConfig);
			assert.ok(launching?.includes(problem), String(launching));
		});
	}

	it('loads and launches the targets written the right way', () => {
		const good: AgentTargetConfig[] = [
			{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'make'], env: { A_B: '1' }, shell: false },
			{ id: 'claude', adapter: 'claude', path: '/usr/bin/claude', args: ['', '--x'], allowedTools: ['Bash(tutti:*)'], model: 'm', approvals: 'ask' },
			{ id: 'codex', adapter: 'codex', env: { OPENAI_BASE_URL: 'http://127.0.0.1:1/v1' } },
			{ id: 'codex-ask', adapter: 'codex', approvals: 'ask' },
			{ id: 'codex-exec', adapter: 'codex', protocol: 'exec' },
		];
		for (const target of good) {
			assert.deepEqual(agentTargetProblems(target), [], target.id);
			assert.equal(configProblem(target as unknown as Record<string, unknown>), null, target.id);
			assert.equal(launchProblem(target), null, target.id);
		}
	});

	it('an adapter refuses a target of another adapter', () => {
		for (const [adapter, other] of [['command', 'claude'], ['claude', 'codex'], ['codex', 'command']] as const) {
			const target: AgentTargetConfig = { id: 'x', adapter: other, argv: ['a'] };
			assert.throws(() => adapterFor({ ...target, adapter }).commandFor(spec(target)), (e: unknown) =>
				e instanceof DomainError && e.message.includes(`it uses the '${other}' adapter, not '${adapter}'`));
		}
	});
});
