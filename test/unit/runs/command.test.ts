import assert from 'node:assert/strict';
import { adapterFor, commandForTarget } from '../../../src/agents/command.js';
import { DomainError } from '../../../src/core/errors.js';
import type { AgentTargetConfig } from '../../../src/core/runs/runProcessPort.js';

const target = (t: Partial<AgentTargetConfig>): AgentTargetConfig => ({ id: 't1', adapter: 'command', ...t });

describe('command agent adapter', () => {
	it('turns argv into an executable and an argument array, without a shell by default', () => {
		assert.deepEqual(commandForTarget(target({ argv: ['node', 'agent.js', '--flag', 'a b; rm -rf /'] })), {
			file: 'node', args: ['agent.js', '--flag', 'a b; rm -rf /'], shell: false, env: {}, stdin: 'spec',
		});
	});

	it('uses a shell only when the target says shell: true, and passes the target env', () => {
		const c = commandForTarget(target({ argv: ['make test'], shell: true, env: { A: '1' } }));
		assert.equal(c.shell, true);
		assert.deepEqual(c.env, { A: '1' });
	});

	it('rejects targets that cannot be started with an actionable error', () => {
		for (const bad of [target({}), target({ argv: [] }), target({ argv: [''] }), target({ argv: ['a\0b'] }),
			target({ argv: ['x'], env: { 'A=B': '1' } }), target({ argv: [1 as unknown as string] })]) {
			assert.throws(() => commandForTarget(bad), (e: unknown) =>
				e instanceof DomainError && e.reasonCode === 'invalid_input' && e.message.includes("'t1'") && e.hint.includes('.tutti/config.json'));
		}
	});

	it('gives command targets the command adapter, whose commandFor reads the launch target', () => {
		const t = target({ argv: ['true'] });
		const adapter = adapterFor(t);
		assert.equal(adapter.adapter, 'command');
		const spec = { runId: 'r', issueId: 'i', taskId: 't', target: t, cwd: '/', stdinText: '', env: {} };
		assert.equal(adapter.commandFor(spec).file, 'true');
	});

	// claude and codex targets get their own adapters: test/agents/claudeArgs.test.ts, test/agents/codexArgs.test.ts.
});
