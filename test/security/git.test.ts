// Security: what reaches git from tasks and settings. Task ids become branch names and worktree paths (refused when
// the task is added unless git can take them; an older store's task is refused at launch), titles become commit
// messages, `worktreeCopy` globs pick files to copy: none of them can inject an option, run a shell, escape
// `.tutti/worktrees` (also when it is a symlink leading out) or copy from outside the workspace or from .git.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { DomainError } from '../../src/core/errors.js';
import type { Task } from '../../src/core/model.js';
import type { HostConfig } from '../../src/host/config.js';
import { taskRepository } from '../../src/store/repositories/taskRepository.js';
import { initRepo } from '../integration/delivery/gitRepoKit.js';
import { commandTarget, ServiceHarness } from '../unit/host/services/serviceHarness.js';

/** A not-started task as an older store may hold it (its id was not checked when it was added). */
function legacyTask(issueId: string, taskId: string): Task {
	return {
		issueId, taskId, title: 'hostile id', content: '', status: 'not_started', sortIndex: 0, agentTargetId: 'iso', modelPlanId: '', model: '',
		permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [], parallelizable: true, autoAccept: false,
		acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: 1, updatedAtUnixMs: 1,
	};
}

function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

describe('security: what reaches git', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	let outside: string;
	afterEach(async () => {
		await h.close();
		rmSync(outside, { recursive: true, force: true });
	});

	async function open(config: Partial<HostConfig> = {}): Promise<string> {
		outside = mkdtempSync(join(tmpdir(), 'tutti-sec-git-outside-'));
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })], ...config } });
		initRepo(h.workspace, { '.gitignore': '.tutti/\n.env\n', 'README.md': 'hello\n' });
		return (await h.call('issue/create', { title: 'Security' })).issueId;
	}

	/** Files created by a shell that should never have run: in the workspace, its parent, or the process's cwd. */
	function pwned(): string[] {
		return [h.workspace, join(h.workspace, '..'), process.cwd(), outside].flatMap((d) => readdirSync(d).filter((f) => f.startsWith('pwned')).map((f) => join(d, f)));
	}

	it('task ids that would be git options, ref-name tricks or paths never reach git: refused when the task is added, no branch, no folder', async () => {
		const issueId = await open();
		const hostile = ['-rf', '--upload-pack=touch pwned', '..', 'a..b', 'x.lock', 'has space', 'sub/dir', '.hidden', 'a~1', 'a^', 'a:b', 'a\\b', 'x@{1}'];
		for (const taskId of hostile) {
			const refused = await h.call('task/add', { issueId, taskId, title: 'hostile id', agentTargetId: 'iso' }).then(() => null, (e: unknown) => e);
			assert.ok(refused instanceof DomainError, `${taskId} refused at add`);
			assert.equal(refused.reasonCode, 'invalid_input', taskId);
			assert.match(refused.message, /cannot name a git branch and worktree folder/, taskId);
		}
		assert.deepEqual((await h.call('issue/get', { issueId })).tasks, [], 'none was added');
		// A task an older store holds with such an id (added before the check) is still refused at launch.
		await h.store.transaction((tx) => { taskRepository.insert(tx, { ...legacyTask(issueId, '--upload-pack=touch pwned'), sortIndex: 1 }); });
		await h.idle();
		const legacy = (await h.call('issue/get', { issueId })).tasks[0]!;
		const run = await h.call('run/get', { runId: legacy.latestRunId });
		assert.equal(run.status, 'failed', run.outcomeLabel ?? '');
		assert.match(run.outcomeLabel ?? '', /^Could not start/);
		assert.match(run.errorMessage, /cannot name a git branch/);
		assert.equal(h.runs.launches.length, 0, 'no agent started');
		assert.equal(git(h.workspace, 'branch', '--list', 'tutti/*'), '', 'no branch was created');
		assert.deepEqual(existsSync(join(h.workspace, '.tutti', 'worktrees')) ? readdirSync(join(h.workspace, '.tutti', 'worktrees')) : [], []);
		assert.deepEqual(pwned(), []);
	});

	it('a hostile title becomes the commit message verbatim, running nothing', async () => {
		const issueId = await open();
		const title = '--amend $(touch pwned1) `touch pwned2`; touch pwned3 # "quoted" \'single\'';
		await h.call('task/add', { issueId, taskId: 'a', title, agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(launch.cwd, 'a.txt'), 'A\n');
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();
		const run = await h.call('run/get', { runId: launch.runId });
		assert.equal(git(h.workspace, 'log', '-1', '--format=%s', run.resultCommit), title);
		assert.deepEqual(pwned(), []);
	});

	it('.tutti/worktrees as a symlink leading out of the workspace: no tree is made outside, the Run could not start', async () => {
		const issueId = await open();
		mkdirSync(join(h.workspace, '.tutti'), { recursive: true });
		symlinkSync(outside, join(h.workspace, '.tutti', 'worktrees'));
		await h.call('task/add', { issueId, taskId: 'a', title: 'Task a', agentTargetId: 'iso' });
		await h.idle();
		const task = (await h.call('issue/get', { issueId })).tasks[0]!;
		const run = await h.call('run/get', { runId: task.latestRunId });
		assert.deepEqual(readdirSync(outside), [], 'nothing was written outside the workspace');
		assert.equal(run.status, 'failed', `${run.outcomeLabel ?? ''} ${run.errorMessage}`);
		assert.match(run.outcomeLabel ?? '', /^Could not start/);
		assert.match(run.errorMessage, /symlink|symbolic link|outside the workspace/);
		assert.equal(h.runs.launches.length, 0);
	});

	it('worktreeCopy patterns that leave the workspace or point into .git/.tutti are refused before anything is copied, naming them', async () => {
		const issueId = await open({ worktreeCopy: ['.env', '../*', `${tmpdir()}/x.txt`, 'sub/../../y', '.git/config', '.tutti/**'] });
		writeFileSync(join(h.workspace, '.env'), 'TOKEN=1\n');
		await h.call('task/add', { issueId, taskId: 'a', title: 'Task a', agentTargetId: 'iso' });
		await h.idle();
		const task = (await h.call('issue/get', { issueId })).tasks[0]!;
		const run = await h.call('run/get', { runId: task.latestRunId });
		assert.match(run.outcomeLabel ?? '', /^Could not start/);
		for (const pattern of ['../*', `${tmpdir()}/x.txt`, 'sub/../../y', '.git/config', '.tutti/**']) {
			assert.ok(run.errorMessage.includes(`'${pattern}'`), `${pattern} is named: ${run.errorMessage}`);
		}
		assert.ok(!run.errorMessage.includes("'.env'"), 'a good pattern is not blamed');
		assert.equal(h.runs.launches.length, 0);
	});

	it('worktreeCopy copies the workspace\'s own untracked and ignored files only (nothing of .git or .tutti, nothing from outside)', async () => {
		const issueId = await open({ worktreeCopy: ['.env', '**/secret*', '**/*.json'] });
		writeFileSync(join(h.workspace, '.env'), 'TOKEN=1\n');
		mkdirSync(join(h.workspace, 'conf'));
		writeFileSync(join(h.workspace, 'conf', 'secret.txt'), 'in');
		writeFileSync(join(outside, 'secret-outside.txt'), 'out');
		await h.call('task/add', { issueId, taskId: 'a', title: 'Task a', agentTargetId: 'iso' });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'a');
		assert.ok(launch, h.logs.join(' | '));
		assert.ok(existsSync(join(launch.cwd, '.env')) && existsSync(join(launch.cwd, 'conf', 'secret.txt')), 'the workspace\'s own files are copied');
		assert.ok(!existsSync(join(launch.cwd, '.tutti')), 'nothing of .tutti (its store and state .json files) is copied');
		assert.ok(!readdirSync(launch.cwd).includes('secret-outside.txt'));
	});
});
