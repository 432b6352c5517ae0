// Trees set up in parallel and dependencies installed once (real git, real setup processes; the agents are
// scripted): two trees' setups overlap in time (from the times the setups themselves recorded), maxParallelSetups
// bounds them, a later tree with the same lockfile gets its own copy of the first tree's install without a second
// install, a tree whose lockfile differs installs again, and a change in one tree's shared path is not seen in another.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import type { HostConfig } from '../../../src/host/config.js';
import { WorktreeManager } from '../../../src/host/worktrees/worktreeManager.js';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/**
 * A setup that records when it started and ended (ms, from the shell's own clock) in `.tutti/times/<tree>`; with
 * `meet`, it also waits (at most 5 s) until every other tree's setup has started, so overlapping setups end together
 * and serial ones show the first ending before the next starts.
 */
function recordingSetup(meet: readonly string[]): string[] {
	const others = meet.map((t) => `../../../times/${t}.start`).join(' ');
	return ['sh', '-c', [
		'tree=$(basename "$PWD"); mkdir -p ../../../times',
		'node -e "process.stdout.write(String(Date.now()))" > "../../../times/$tree.start"',
		`i=0; while [ $i -lt 100 ]; do all=1; for f in ${others}; do [ -f "$f" ] || all=0; done; [ $all = 1 ] && break; i=$((i+1)); sleep 0.05; done`,
		'node -e "process.stdout.write(String(Date.now()))" > "../../../times/$tree.end"',
	].join('; ')];
}

/** An "install": node_modules/dep/index.js naming the lockfile it was made from, and one line per install run. */
const installSetup = ['sh', '-c', 'mkdir -p node_modules/dep node_modules/.bin && printf "made from %s\\n" "$(cat package-lock.json)" > node_modules/dep/index.js && ln -s ../dep/index.js node_modules/.bin/dep && echo "$(basename "$PWD")" >> ../../../installs.txt'];
const share = [{ paths: ['node_modules'], key: ['package-lock.json'] }];

describe('worktree set-up in parallel, shared installs (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	/** The issue the test's trees belong to unless it names another (trees are named per issue). */
	let current = '';
	afterEach(async () => { await h.close(); });

	async function open(config: Partial<HostConfig>): Promise<string> {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], ...config } });
		git(h.workspace, 'init', '-q');
		writeFileSync(join(h.workspace, '.gitignore'), 'node_modules/\n');
		writeFileSync(join(h.workspace, 'package-lock.json'), 'lock-v1');
		git(h.workspace, 'add', '-A');
		git(h.workspace, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'initial');
		current = (await h.call('issue/create', { title: 'trees' })).issueId;
		return current;
	}

	const tree = (taskId: string, issueId = current): string => join(h.workspace, '.tutti', 'worktrees', issueId, taskId);
	const time = (taskId: string, edge: 'start' | 'end'): number => Number(readFileSync(join(h.workspace, '.tutti', 'times', `${taskId}.${edge}`), 'utf8'));
	const installs = (): string[] => readFileSync(join(h.workspace, '.tutti', 'installs.txt'), 'utf8').trim().split('\n');
	async function runOf(issueId: string, taskId: string) {
		const { runs } = await h.call('run/list', { issueId });
		const run = runs.find((r) => r.taskId === taskId);
		assert.ok(run, `a Run of ${taskId}`);
		return h.call('run/get', { runId: run.runId });
	}

	it('sets up two trees that become ready together at the same time', async () => {
		const issueId = await open({ worktreeSetup: recordingSetup(['a', 'b']) });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'b', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 2, `both launched (logs: ${h.logs.join(' | ')})`);
		assert.ok(time('b', 'start') < time('a', 'end') && time('a', 'start') < time('b', 'end'),
			`the setups overlap: a ${time('a', 'start')}–${time('a', 'end')}, b ${time('b', 'start')}–${time('b', 'end')}`);
		const a = await runOf(issueId, 'a');
		assert.equal(a.setup?.state, 'done');
		assert.equal(a.setup?.method, null, 'nothing shared without worktreeShare');
	});

	it('sets up one tree at a time with maxParallelSetups 1', async () => {
		const issueId = await open({ worktreeSetup: recordingSetup(['a', 'b']), maxParallelSetups: 1 });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'b', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 2);
		const [first, second] = time('a', 'start') < time('b', 'start') ? ['a', 'b'] : ['b', 'a'];
		assert.ok(time(second!, 'start') >= time(first!, 'end'), 'the second setup began after the first ended');
	});

	it('installs once for trees with the same lockfile: later trees get their own copy, never a link', async () => {
		const issueId = await open({ worktreeSetup: installSetup, worktreeShare: share });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.call('task/add', { issueId, taskId: 'b', title: 'b', agentTargetId: 'iso' });
		await h.call('task/add', { issueId, taskId: 'c', title: 'c', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 3, `all launched (logs: ${h.logs.join(' | ')})`);
		assert.equal(installs().length, 1, `one install for three trees: ${installs().join(', ')}`);
		const installer = installs()[0]!;
		for (const id of ['a', 'b', 'c']) {
			const file = join(tree(id), 'node_modules', 'dep', 'index.js');
			assert.equal(readFileSync(file, 'utf8'), 'made from lock-v1\n');
			assert.equal(statSync(file).nlink, 1, `${id}: a file of its own, not a hard link`);
			assert.equal(readFileSync(join(tree(id), 'node_modules', '.bin', 'dep'), 'utf8'), 'made from lock-v1\n', 'relative links inside the install still work');
			const run = await runOf(issueId, id);
			assert.equal(run.setup?.state, 'done');
			if (id === installer) {
				assert.equal(run.setup?.method, 'installed');
			} else {
				assert.ok(run.setup?.method === 'clone' || run.setup?.method === 'copy', `${id}: ${run.setup?.method}`);
				const log = readFileSync(join(h.runs.runDir(run.runId), 'stderr.log'), 'utf8');
				assert.match(log, /node_modules from the install of the same package-lock\.json \((copy-on-write clone|plain copy: this filesystem cannot clone)\); setup not run again/);
			}
		}

		// One tree's change to the shared path is its own.
		const [other, third] = ['a', 'b', 'c'].filter((id) => id !== installer);
		writeFileSync(join(tree(installer), 'node_modules', 'dep', 'index.js'), 'changed by one agent\n');
		writeFileSync(join(tree(other!), 'node_modules', 'dep', 'index.js'), 'changed by another\n');
		assert.equal(readFileSync(join(tree(third!), 'node_modules', 'dep', 'index.js'), 'utf8'), 'made from lock-v1\n', 'the third tree sees neither change');
		assert.equal(readFileSync(join(tree(other!), 'node_modules', 'dep', 'index.js'), 'utf8'), 'changed by another\n');
		assert.equal(readFileSync(join(tree(installer), 'node_modules', 'dep', 'index.js'), 'utf8'), 'changed by one agent\n');
	});

	it('installs again in a tree whose lockfile differs', async () => {
		const issueId = await open({ worktreeSetup: installSetup, worktreeShare: share });
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		assert.deepEqual(installs(), ['a']);
		// The lockfile changes on the branch; a new issue's tree starts from it.
		writeFileSync(join(h.workspace, 'package-lock.json'), 'lock-v2');
		git(h.workspace, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-am', 'lock v2');
		const second = (await h.call('issue/create', { title: 'after the lockfile changed' })).issueId;
		await h.call('task/add', { issueId: second, taskId: 'd', title: 'd', agentTargetId: 'iso' });
		await h.call('task/add', { issueId, taskId: 'e', title: 'e (old lockfile)', agentTargetId: 'iso' });
		await h.idle();
		assert.deepEqual(installs().sort(), ['a', 'd'], 'd installed for its own lockfile; e reused a\'s');
		assert.equal(readFileSync(join(tree('d', second), 'node_modules', 'dep', 'index.js'), 'utf8'), 'made from lock-v2\n');
		assert.equal(readFileSync(join(tree('e'), 'node_modules', 'dep', 'index.js'), 'utf8'), 'made from lock-v1\n');
		assert.equal((await runOf(second, 'd')).setup?.method, 'installed');
	});

	it('uses a target\'s own worktreeSetup in place of the workspace\'s (a docs target installs nothing)', async () => {
		h = await ServiceHarness.open({ config: {
			agentTargets: [commandTarget('iso', { isolation: 'worktree' }), commandTarget('docs', { isolation: 'worktree', worktreeSetup: [] })],
			worktreeSetup: installSetup, worktreeShare: share,
		} });
		git(h.workspace, 'init', '-q');
		writeFileSync(join(h.workspace, 'package-lock.json'), 'lock-v1');
		git(h.workspace, 'add', '-A');
		git(h.workspace, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'initial');
		const issueId = (await h.call('issue/create', { title: 'targets' })).issueId;
		current = issueId;
		await h.call('task/add', { issueId, taskId: 'docs1', title: 'docs', agentTargetId: 'docs' });
		await h.idle();
		assert.equal(h.runs.launches.length, 1);
		assert.equal(existsSync(join(tree('docs1'), 'node_modules')), false, 'the docs target ran no setup');
		assert.equal((await runOf(issueId, 'docs1')).setup, undefined);
	});
});

describe('the set-up record of a tree (WorktreeManager, real git)', function () {
	this.timeout(60_000);
	let repo = '';
	afterEach(() => { rmSync(repo, { recursive: true, force: true }); });
	const cached = (): string[] => (existsSync(join(repo, '.tutti', 'setup-cache')) ? readdirSync(join(repo, '.tutti', 'setup-cache')) : []);

	it('is kept per tree (the same task id in two issues), goes with the tree, and the cache is pruned with the last tree using it', async () => {
		repo = mkdtempSync(join(tmpdir(), 'tutti-share-'));
		git(repo, 'init', '-q');
		writeFileSync(join(repo, '.gitignore'), 'node_modules/\n.tutti/\n');
		writeFileSync(join(repo, 'package-lock.json'), 'lock-v1');
		git(repo, 'add', '-A');
		git(repo, '-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'initial');
		const manager = new WorktreeManager(repo, { copy: [], setup: installSetup, setupTimeoutMs: 60_000, share }, undefined, { maxParallelSetups: 2 });
		const [one, two] = await Promise.all([manager.ensure('I1', ['t'], 'iso'), manager.ensure('I2', ['t'], 'iso')]);
		assert.notEqual(one.absolutePath, two.absolutePath);
		assert.equal(readFileSync(join(repo, '.tutti', 'installs.txt'), 'utf8').trim().split('\n').length, 1, 'one install for both trees');
		const methods = [manager.setupRecord('I1', 't')?.method, manager.setupRecord('I2', 't')?.method].sort();
		assert.ok(methods[1] === 'installed' && (methods[0] === 'clone' || methods[0] === 'copy'), `each tree has its own record: ${methods.join(', ')}`);
		assert.equal(cached().length, 1);

		await manager.remove('I1', 't');
		assert.deepEqual({ ...manager.recordOf('I1', 't') }, { issueId: 'I1', taskId: 't', path: join('.tutti', 'worktrees', 'I1', 't'), branch: 'tutti/I1/t', prepared: false },
			'the record stays, not prepared and with no set-up');
		assert.equal(manager.setupRecord('I2', 't')?.key.length, 32, 'the other issue\'s tree keeps its record');
		assert.equal(cached().length, 1, 'still used by I2/t');
		await manager.remove('I2', 't');
		assert.deepEqual(cached(), [], 'no remaining tree uses the install: pruned');
	});

	it('reads a worktrees.json written before set-ups were recorded', () => {
		repo = mkdtempSync(join(tmpdir(), 'tutti-share-'));
		const record = { issueId: 'I1', taskId: 't', path: join('.tutti', 'worktrees', 'I1', 't'), branch: 'tutti/I1/t', prepared: true };
		mkdirSync(join(repo, '.tutti'), { recursive: true });
		writeFileSync(join(repo, '.tutti', 'worktrees.json'), JSON.stringify({ bases: {}, trees: [record] }));
		const manager = new WorktreeManager(repo);
		assert.deepEqual({ ...manager.recordOf('I1', 't') }, record);
		assert.equal(manager.setupRecord('I1', 't'), undefined);
	});
});
