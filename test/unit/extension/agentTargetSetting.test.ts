// Add Agent's settings writer: appends to tutti.agentTargets (existing entries kept verbatim), unique ids, optional
// fields only when given, allowed tools for Claude Code only, and nothing the Host's config schema would refuse.
import { strict as assert } from 'node:assert';
import { parseAllowedTools, uniqueTargetId, withAgentTarget } from '../../../src/extension/agents/agentTargetSetting.js';

describe('extension/agents/agentTargetSetting', () => {
	it('appends a claude target named after its adapter to an empty setting', () => {
		const r = withAgentTarget(undefined, { adapter: 'claude', path: '/usr/local/bin/claude', model: ' sonnet ', allowedTools: ['Read', 'Bash(npm test:*)'] });
		assert.deepEqual(r, { ok: true, id: 'claude', targets: [{ id: 'claude', adapter: 'claude', path: '/usr/local/bin/claude', model: 'sonnet', allowedTools: ['Read', 'Bash(npm test:*)'] }] });
	});

	it('writes the approvals mode of a claude target, and never for codex', () => {
		const claude = withAgentTarget([], { adapter: 'claude', path: '', approvals: 'allowed-tools-only' });
		assert.deepEqual(claude.ok ? claude.targets : claude.error, [{ id: 'claude', adapter: 'claude', approvals: 'allowed-tools-only' }]);
		const codex = withAgentTarget([], { adapter: 'codex', path: '', approvals: 'ask' });
		assert.deepEqual(codex.ok ? codex.targets : codex.error, [{ id: 'codex', adapter: 'codex' }]);
	});

	it('keeps the existing targets verbatim and makes the id unique', () => {
		const existing = [{ id: 'codex', adapter: 'codex', isolation: 'worktree' }, { id: 'codex-2', adapter: 'command', argv: ['true'] }];
		const r = withAgentTarget(existing, { adapter: 'codex', path: '', model: '', allowedTools: ['Read'] });
		assert.ok(r.ok);
		assert.equal(r.id, 'codex-3');
		assert.deepEqual(r.targets, [...existing, { id: 'codex-3', adapter: 'codex' }], 'no path, model or allowedTools when empty; allowedTools is for claude only');
	});

	it('refuses a name that is taken, and a setting the Host would refuse', () => {
		const taken = withAgentTarget([{ id: 'mine', adapter: 'claude' }], { adapter: 'claude', path: '/bin/claude', id: 'mine' });
		assert.deepEqual(taken, { ok: false, error: 'An agent target named "mine" already exists; choose another name.' });
		const broken = withAgentTarget([{ id: 'old', adapter: 'command' }], { adapter: 'claude', path: '/bin/claude' });
		assert.equal(broken.ok, false);
		assert.match(broken.ok ? '' : broken.error, /^tutti\.agentTargets would be invalid: .*argv/);
	});

	it('splits allowed tools on commas and new lines, not inside parentheses', () => {
		assert.deepEqual(parseAllowedTools(' Read, Edit,\nBash(git diff:*, git status),  ,Write '), ['Read', 'Edit', 'Bash(git diff:*, git status)', 'Write']);
		assert.deepEqual(parseAllowedTools('   '), []);
	});

	it('numbers ids from 2', () => {
		assert.equal(uniqueTargetId('claude', []), 'claude');
		assert.equal(uniqueTargetId('claude', ['claude', 'claude-2']), 'claude-3');
	});
});
