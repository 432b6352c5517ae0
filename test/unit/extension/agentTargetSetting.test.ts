// Add Agent's settings writer: appends to tutti.agentTargets (existing entries kept verbatim), unique ids, optional
// fields only when given, allowed tools for Claude Code only, nothing the Host's config schema would refuse, and no
// path of this machine in the folder's setting (it goes to tutti.agentPaths). A custom command from one line of text.
import { strict as assert } from 'node:assert';
import {
	parseAllowedTools, parseEnvPairs, splitCommandLine, uniqueTargetId, withAgentPath, withAgentTarget,
} from '../../../src/extension/agents/agentTargetSetting.js';

describe('extension/agents/agentTargetSetting', () => {
	it('appends a claude target named after its adapter to an empty setting; its absolute executable is this machine\'s, not the folder\'s', () => {
		const r = withAgentTarget(undefined, { adapter: 'claude', path: '/usr/local/bin/claude', model: ' sonnet ', allowedTools: ['Read', 'Bash(npm test:*)'] });
		assert.deepEqual(r, {
			ok: true, id: 'claude', machinePath: '/usr/local/bin/claude',
			targets: [{ id: 'claude', adapter: 'claude', model: 'sonnet', allowedTools: ['Read', 'Bash(npm test:*)'] }],
		});
		const relative = withAgentTarget(undefined, { adapter: 'codex', path: 'node_modules/.bin/codex' });
		assert.deepEqual(relative.ok ? [relative.targets, relative.machinePath] : relative.error, [[{ id: 'codex', adapter: 'codex', path: 'node_modules/.bin/codex' }], ''], 'a relative path is the folder\'s own');
	});

	it('a custom command: argv as given, its absolute executable by name in the folder (the path for this machine apart), cwd made relative, env', () => {
		const r = withAgentTarget([], {
			adapter: 'command', path: '', argv: ['/opt/tools/bin/my-agent', '--task', 'from stdin'], cwd: '/work/repo/tools', env: { MODE: 'fast' },
		}, '/work/repo');
		assert.deepEqual(r, {
			ok: true, id: 'my-agent', machinePath: '/opt/tools/bin/my-agent',
			targets: [{ id: 'my-agent', adapter: 'command', argv: ['my-agent', '--task', 'from stdin'], cwd: 'tools', env: { MODE: 'fast' } }],
		});
		const onPath = withAgentTarget([{ id: 'python3', adapter: 'command', argv: ['true'] }], { adapter: 'command', path: '', argv: ['python3', 'agent.py'] });
		assert.deepEqual(onPath.ok ? [onPath.id, onPath.targets.at(-1), onPath.machinePath] : onPath.error, ['python3-2', { id: 'python3-2', adapter: 'command', argv: ['python3', 'agent.py'] }, '']);
		const windows = withAgentTarget([], { adapter: 'command', path: '', argv: ['C:\\Tools\\agent.exe'] });
		assert.deepEqual(windows.ok ? [windows.targets, windows.machinePath] : windows.error, [[{ id: 'agent.exe', adapter: 'command', argv: ['agent.exe'] }], 'C:\\Tools\\agent.exe']);
		const outside = withAgentTarget([], { adapter: 'command', path: '', argv: ['true'], cwd: '/elsewhere' }, '/work/repo');
		assert.deepEqual(outside.ok ? outside.targets : outside.error, [{ id: 'true', adapter: 'command', argv: ['true'], cwd: '/elsewhere' }]);
	});

	it('tutti.agentPaths: the new target\'s executable added, the user\'s other entries kept', () => {
		assert.deepEqual(withAgentPath(undefined, 'claude', '/bin/claude'), { claude: '/bin/claude' });
		assert.deepEqual(withAgentPath({ codex: '/x/codex', bad: 3 }, 'claude', '/bin/claude'), { codex: '/x/codex', claude: '/bin/claude' });
		assert.deepEqual(withAgentPath(['not', 'an', 'object'], 'c', '/c'), { c: '/c' });
	});

	it('splits a command line like a shell splits words, and refuses what would need a shell', () => {
		assert.deepEqual(splitCommandLine(`  node  "my agent.js" --name='A B' C\\ D "q\\"uote"`), { ok: true, value: ['node', 'my agent.js', '--name=A B', 'C D', 'q"uote'] });
		assert.deepEqual(splitCommandLine('   '), { ok: false, error: 'write the command to run' });
		assert.deepEqual(splitCommandLine(`echo 'open`), { ok: false, error: "a ' is not closed" });
		assert.match(splitCommandLine('make test | tee out').ok ? '' : (splitCommandLine('make test | tee out') as { error: string }).error, /^"\|" would need a shell/);
		assert.deepEqual(splitCommandLine(`sh -c 'make test | tee out'`), { ok: true, value: ['sh', '-c', 'make test | tee out'] }, 'quoted, it is one argument');
	});

	it('reads NAME=value pairs, and names a pair that is not one', () => {
		assert.deepEqual(parseEnvPairs(''), { ok: true, value: {} });
		assert.deepEqual(parseEnvPairs('MODE=fast  API_URL="http://127.0.0.1:8080/v1" EMPTY='), { ok: true, value: { MODE: 'fast', API_URL: 'http://127.0.0.1:8080/v1', EMPTY: '' } });
		assert.deepEqual(parseEnvPairs('MODE=fast 1BAD=x'), { ok: false, error: '"1BAD=x" is not NAME=value (a name is letters, digits and _, not starting with a digit)' });
		assert.deepEqual(parseEnvPairs('JUSTANAME'), { ok: false, error: '"JUSTANAME" is not NAME=value (a name is letters, digits and _, not starting with a digit)' });
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
