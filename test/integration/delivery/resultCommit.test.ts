// A Run's result is a commit (real git): the Host commits what the agent left, with the task's title and trailers.
import { strict as assert } from 'node:assert';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { fallbackIdentity, workspaceIdentity } from '../../../src/host/delivery/gitIdentity.js';
import { commitResult } from '../../../src/host/delivery/resultCommit.js';
import { commitOnBranch, newRepo, sh, write } from './gitRepoKit.js';

describe('result commits (real git)', () => {
	let root: string;
	let repo: string;
	let first: string;
	let tree: string;
	beforeEach(() => {
		({ root, repo, first } = newRepo());
		tree = join(root, 'tree');
		sh(repo, 'worktree', 'add', '-q', '-b', 'tutti/a', tree, first);
	});
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	const input = (extra: Partial<Parameters<typeof commitResult>[0]> = {}): Parameters<typeof commitResult>[0] => ({
		treePath: tree, title: 'Write a.txt', issueId: 'iss_1', taskId: 'a', runId: 'run_1',
		identity: { name: 'Dev One', email: 'dev@example.test' }, ...extra,
	});

	it('commits tracked edits and untracked files (honouring .gitignore) as one commit with the trailers', async () => {
		write(tree, '.gitignore', 'build/\n');
		write(tree, 'README.md', 'changed\n');
		write(tree, 'a.txt', 'A\n');
		write(tree, 'build/out.bin', 'ignored\n');
		const result = await commitResult(input());
		assert.equal(result.kind, 'committed');
		assert.ok(result.kind === 'committed' && result.createdCommit);
		assert.equal(result.commit, sh(tree, 'rev-parse', 'HEAD'));
		assert.equal(sh(tree, 'rev-parse', 'HEAD^'), first, 'one commit on top of the base');
		assert.deepEqual(sh(tree, 'show', '--name-only', '--format=', 'HEAD').split('\n').sort(), ['.gitignore', 'README.md', 'a.txt']);
		assert.equal(sh(tree, 'log', '-1', '--format=%s'), 'Write a.txt');
		assert.equal(sh(tree, 'log', '-1', '--format=%(trailers:key=Tutti-Issue,valueonly)'), 'iss_1');
		assert.equal(sh(tree, 'log', '-1', '--format=%(trailers:key=Tutti-Task,valueonly)'), 'a');
		assert.equal(sh(tree, 'log', '-1', '--format=%(trailers:key=Tutti-Run,valueonly)'), 'run_1');
		assert.equal(sh(tree, 'log', '-1', '--format=%an <%ae>'), 'Dev One <dev@example.test>');
		assert.equal(sh(tree, 'status', '--porcelain', '--ignored=no'), '');
	});

	it('answers the base when the Run changed nothing, and the same commit when run again (idempotent after a crash)', async () => {
		const nothing = await commitResult(input());
		assert.deepEqual(nothing, { kind: 'committed', commit: first, createdCommit: false });
		write(tree, 'a.txt', 'A\n');
		const once = await commitResult(input());
		const again = await commitResult(input());
		assert.ok(once.kind === 'committed' && again.kind === 'committed');
		assert.equal(again.commit, once.commit);
		assert.equal(sh(tree, 'rev-list', '--count', `${first}..HEAD`), '1', 'exactly one result commit');
	});

	it("keeps the agent's own commits and commits only what it left on top", async () => {
		write(tree, 'own.txt', 'mine\n');
		sh(tree, 'add', 'own.txt');
		sh(tree, '-c', 'user.name=Agent', '-c', 'user.email=agent@example.test', 'commit', '-q', '-m', 'agent commit');
		const agentCommit = sh(tree, 'rev-parse', 'HEAD');
		const clean = await commitResult(input());
		assert.deepEqual(clean, { kind: 'committed', commit: agentCommit, createdCommit: false });
		write(tree, 'left.txt', 'left over\n');
		const result = await commitResult(input());
		assert.ok(result.kind === 'committed');
		assert.equal(sh(tree, 'rev-parse', 'HEAD^'), agentCommit);
		assert.equal(sh(tree, 'log', '-1', '--format=%an', agentCommit), 'Agent');
	});

	it('keeps a title starting with # and folds it onto one line', async () => {
		write(tree, 'a.txt', 'A\n');
		await commitResult(input({ title: '#12 fix\nthe  login' }));
		assert.equal(sh(tree, 'log', '-1', '--format=%s'), '#12 fix the login');
	});

	it('refuses to commit a merge left unresolved, naming the paths, and concludes a resolved one', async () => {
		const other = commitOnBranch(repo, 'other', first, { 'README.md': 'other\n' });
		write(tree, 'README.md', 'mine\n');
		sh(tree, 'commit', '-q', '-am', 'mine');
		assert.throws(() => sh(tree, 'merge', '-q', other));
		const unresolved = await commitResult(input());
		assert.equal(unresolved.kind, 'unresolved_merge');
		assert.ok(unresolved.kind === 'unresolved_merge');
		assert.deepEqual(unresolved.paths, ['README.md']);
		write(tree, 'README.md', 'both\n');
		sh(tree, 'add', 'README.md');
		const resolved = await commitResult(input());
		assert.ok(resolved.kind === 'committed' && resolved.createdCommit);
		assert.equal(sh(tree, 'rev-parse', 'HEAD^2'), other, 'the merge keeps its second parent');
	});

	it('uses Tutti <tutti@localhost> when the repository has no identity', async () => {
		const noConfig = { env: { GIT_CONFIG_GLOBAL: join(root, 'none'), GIT_CONFIG_NOSYSTEM: '1' } };
		sh(repo, 'config', '--unset', 'user.name');
		assert.deepEqual(await workspaceIdentity(repo, noConfig), fallbackIdentity);
		sh(repo, 'config', 'user.name', 'Dev One');
		assert.deepEqual(await workspaceIdentity(repo, noConfig), { name: 'Dev One', email: 'dev@example.test' });
		write(tree, 'a.txt', 'A\n');
		await commitResult(input({ identity: fallbackIdentity }));
		assert.equal(sh(tree, 'log', '-1', '--format=%an <%ae> / %cn <%ce>'), 'Tutti <tutti@localhost> / Tutti <tutti@localhost>');
	});
});
