// Combining accepted commits and integrating them into a branch (real git): fast-forward or one merge commit,
// refusals over dirty tracked files, conflicts or untracked files in the way, and nothing changed on refusal.
import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { combineCommits } from '../../../src/host/delivery/combineCommits.js';
import { integrate } from '../../../src/host/delivery/integration.js';
import { commitOnBranch, newRepo, sh, snapshotTree, write } from './gitRepoKit.js';

const identity = { name: 'Dev One', email: 'dev@example.test' };

describe('combining commits and integrating them (real git)', () => {
	let root: string;
	let repo: string;
	let first: string;
	beforeEach(() => { ({ root, repo, first } = newRepo()); });
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	const filesAt = (commit: string): string[] => sh(repo, 'ls-tree', '-r', '--name-only', commit).split('\n').sort();

	it("merges a diamond's parents into one commit whose parents are both heads, touching no tree", async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', a, { 'b.txt': 'B\n' });
		const c = commitOnBranch(repo, 'tutti/c', first, { 'c.txt': 'C\n' });
		const before = snapshotTree(repo);
		const merged = await combineCommits(repo, [b, c], 'Merge parents of d: b, c', identity);
		assert.equal(merged.kind, 'combined');
		assert.ok(merged.kind === 'combined' && merged.mergeCommit);
		assert.deepEqual(filesAt(merged.commit), ['README.md', 'a.txt', 'b.txt', 'c.txt']);
		assert.deepEqual(sh(repo, 'log', '-1', '--format=%P', merged.commit).split(' '), [b, c]);
		assert.equal(sh(repo, 'log', '-1', '--format=%s', merged.commit), 'Merge parents of d: b, c');
		assert.equal(snapshotTree(repo), before, 'the workspace is untouched');
	});

	it('a preview dated at its newest parent names the same commit whenever it is asked; a real combination is dated now', async () => {
		const b = commitOnBranch(repo, 'tutti/b', first, { 'b.txt': 'B\n' });
		const c = commitOnBranch(repo, 'tutti/c', first, { 'c.txt': 'C\n' });
		const saved = { author: process.env['GIT_AUTHOR_DATE'], committer: process.env['GIT_COMMITTER_DATE'] };
		const at = async (seconds: number, dated: 'now' | 'newest-parent'): Promise<string> => {
			// "Now" for git, as if asked at two different moments.
			process.env['GIT_AUTHOR_DATE'] = process.env['GIT_COMMITTER_DATE'] = `@${seconds} +0000`;
			const merged = await combineCommits(repo, [b, c], 'Combined changes', identity, dated);
			assert.ok(merged.kind === 'combined' && merged.mergeCommit);
			return merged.commit;
		};
		try {
			assert.equal(await at(2_000_000_000, 'newest-parent'), await at(2_000_000_500, 'newest-parent'), 'the same inputs, the same commit');
			assert.notEqual(await at(2_000_000_000, 'now'), await at(2_000_000_500, 'now'), 'an integration is dated when it happens');
		} finally {
			for (const [key, value] of [['GIT_AUTHOR_DATE', saved.author], ['GIT_COMMITTER_DATE', saved.committer]] as const) {
				if (value === undefined) { delete process.env[key]; } else { process.env[key] = value; }
			}
		}
	});

	it('answers the descendant itself when the other commits are its ancestors (no merge commit)', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', a, { 'b.txt': 'B\n' });
		assert.deepEqual(await combineCommits(repo, [a, b], 'm', identity), { kind: 'combined', commit: b, mergeCommit: false });
	});

	it('merges three heads as one commit with three parents', async () => {
		const heads = ['x', 'y', 'z'].map((n) => commitOnBranch(repo, `tutti/${n}`, first, { [`${n}.txt`]: `${n}\n` }));
		const merged = await combineCommits(repo, heads, 'Merge parents of w: x, y, z', identity);
		assert.ok(merged.kind === 'combined');
		assert.deepEqual(sh(repo, 'log', '-1', '--format=%P', merged.commit).split(' '), heads);
		assert.deepEqual(filesAt(merged.commit), ['README.md', 'x.txt', 'y.txt', 'z.txt']);
	});

	it('names the two conflicting commits and every conflicting path', async () => {
		const x = commitOnBranch(repo, 'tutti/x', first, { 'x.txt': 'x\n' });
		const a = commitOnBranch(repo, 'tutti/a', first, { 'README.md': 'A\n', 'shared.txt': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', first, { 'README.md': 'B\n', 'shared.txt': 'B\n' });
		const result = await combineCommits(repo, [x, a, b], 'm', identity);
		assert.deepEqual(result, { kind: 'conflict', between: [a, b], paths: ['README.md', 'shared.txt'] });
	});

	it('integrates by fast-forward and moves the checked-out workspace, leaving untracked files alone', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const b = commitOnBranch(repo, 'tutti/b', a, { 'b.txt': 'B\n' });
		write(repo, 'notes.local', 'mine\n');
		const result = await integrate({ repo, into: 'main', commits: [a, b], title: 'Ship', identity });
		assert.deepEqual(result, { kind: 'integrated', integratedCommit: b, fastForward: true, previousCommit: first, movedTree: repo });
		assert.equal(sh(repo, 'rev-parse', 'main'), b);
		assert.equal(readFileSync(join(repo, 'b.txt'), 'utf8'), 'B\n', 'the workspace moved with its branch');
		assert.equal(readFileSync(join(repo, 'notes.local'), 'utf8'), 'mine\n');
		assert.equal(sh(repo, 'status', '--porcelain'), '?? notes.local');
	});

	it('integrates with one merge commit "Integrate <title>" when the branch moved on', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		write(repo, 'dev.txt', 'dev\n');
		sh(repo, 'add', 'dev.txt');
		sh(repo, 'commit', '-q', '-m', 'developer work');
		const dev = sh(repo, 'rev-parse', 'HEAD');
		const result = await integrate({ repo, into: 'main', commits: [a], title: 'Ship it', identity });
		assert.ok(result.kind === 'integrated' && !result.fastForward);
		assert.deepEqual(sh(repo, 'log', '-1', '--format=%P', 'main').split(' '), [dev, a]);
		assert.equal(sh(repo, 'log', '-1', '--format=%s', 'main'), 'Integrate Ship it');
		assert.ok(existsSync(join(repo, 'a.txt')) && existsSync(join(repo, 'dev.txt')));
	});

	it('moves a branch that is not checked out with a compare-and-swap, touching no tree', async () => {
		sh(repo, 'branch', 'release', first);
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		const before = snapshotTree(repo);
		const result = await integrate({ repo, into: 'release', commits: [a], title: 'Ship', identity });
		assert.ok(result.kind === 'integrated' && result.movedTree === null);
		assert.equal(sh(repo, 'rev-parse', 'release'), a);
		assert.equal(snapshotTree(repo), before);
	});

	it('refuses over a dirty tracked file, naming it, and changes nothing', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		write(repo, 'README.md', 'uncommitted edit\n');
		write(repo, 'untracked.txt', 'u\n');
		const before = snapshotTree(repo);
		const result = await integrate({ repo, into: 'main', commits: [a], title: 'Ship', identity });
		assert.deepEqual(result, { kind: 'dirty_tree', tree: repo, files: ['README.md'] });
		assert.equal(sh(repo, 'rev-parse', 'main'), first);
		assert.equal(snapshotTree(repo), before);
	});

	it('refuses on conflict with every conflicting path and changes nothing anywhere', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'README.md': 'A\n' });
		write(repo, 'README.md', 'developer\n');
		sh(repo, 'commit', '-q', '-am', 'developer edit');
		const dev = sh(repo, 'rev-parse', 'HEAD');
		const before = snapshotTree(repo);
		const result = await integrate({ repo, into: 'main', commits: [a], title: 'Ship', identity });
		assert.deepEqual(result, { kind: 'conflict', between: [dev, a], paths: ['README.md'] });
		assert.equal(sh(repo, 'rev-parse', 'main'), dev);
		assert.equal(snapshotTree(repo), before);
	});

	it('refuses when an untracked file would be overwritten, and changes nothing', async () => {
		const a = commitOnBranch(repo, 'tutti/a', first, { 'a.txt': 'A\n' });
		write(repo, 'a.txt', 'my own untracked a.txt\n');
		const before = snapshotTree(repo);
		const result = await integrate({ repo, into: 'main', commits: [a], title: 'Ship', identity });
		assert.equal(result.kind, 'blocked_tree');
		assert.ok(result.kind === 'blocked_tree' && /untracked/.test(result.reason), JSON.stringify(result));
		assert.equal(sh(repo, 'rev-parse', 'main'), first);
		assert.equal(snapshotTree(repo), before);
	});

	it('answers no_branch for a branch that does not exist or is not a branch name', async () => {
		assert.deepEqual(await integrate({ repo, into: 'nope', commits: [first], title: 't', identity }), { kind: 'no_branch', into: 'nope' });
		assert.deepEqual(await integrate({ repo, into: '-x..y', commits: [first], title: 't', identity }), { kind: 'no_branch', into: '-x..y' });
	});

	it('asks git about a rebase only in trees whose HEAD is detached (a rebase detaches it): not once per task worktree', async () => {
		// Twelve task trees with their branches checked out, as the Host leaves them; one more tree detached.
		const heads: string[] = [];
		for (let i = 0; i < 12; i++) {
			heads.push(commitOnBranch(repo, `tutti/t${i}`, first, { [`t${i}.txt`]: `${i}\n` }));
			sh(repo, 'worktree', 'add', '-q', join(root, `tree${i}`), `tutti/t${i}`);
		}
		sh(repo, 'worktree', 'add', '-q', '--detach', join(root, 'detached'), first);
		const traceDir = mkdtempSync(join(tmpdir(), 'tutti-trace-'));
		const trace = join(traceDir, 'trace.jsonl');
		const saved = process.env['GIT_TRACE2_EVENT'];
		process.env['GIT_TRACE2_EVENT'] = trace;
		let result;
		try {
			result = await integrate({ repo, into: 'main', commits: heads, title: 'Twelve', identity });
		} finally {
			if (saved === undefined) { delete process.env['GIT_TRACE2_EVENT']; } else { process.env['GIT_TRACE2_EVENT'] = saved; }
		}
		assert.equal(result.kind, 'integrated');
		const rebaseProbes = readFileSync(trace, 'utf8').split('\n').filter((l) => l.includes('"event":"start"'))
			.map((l) => (JSON.parse(l) as { argv: string[] }).argv).filter((argv) => argv.includes('--git-path'));
		rmSync(traceDir, { recursive: true, force: true });
		// rebase-merge and rebase-apply of the one detached tree; none for the workspace on main or the twelve task trees.
		assert.equal(rebaseProbes.length, 2, JSON.stringify(rebaseProbes));
	});
});
