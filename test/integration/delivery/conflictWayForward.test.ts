// Conflicts have a way forward (real git, a real store, scripted Runs): when integration conflicts — the branch moved,
// or two tasks change the same lines — the refusal names the paths and both ways forward, and each works: Update from
// base (a new Run of the task in its own tree merges the branch in; its agent resolves the conflict, or the merge is
// left to the developer) and a merge by hand in the task's tree, which integrate picks up as "changed after
// acceptance". The new result is reviewed and accepted again, then integrated.
import { strict as assert } from 'node:assert';
import { readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import type { DomainError } from '../../../src/core/errors.js';
import type { AgentTargetConfig } from '../../../src/core/runs/runProcessPort.js';
import { taskTreePath } from '../../../src/extension/panels/taskTree.js';
import { parseIntegrateConflict } from '../../../src/protocol/webview.js';
import { shellWords } from '../../unit/cli/shellWords.js';
import { commandTarget, rejects, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { initRepo } from './gitRepoKit.js';
import { git, gitPrinted, printed, runPrinted } from './printedCommands.js';

/** Three lines; the middle one is what the tasks and the branch change. */
const shared = (middle: string): string => `top\n${middle}\nbottom\n`;

interface Setup {
	h: ServiceHarness;
	issueId: string;
	/** Task a's tree (absolute). */
	tree: string;
}

/** A manual issue whose task a (in a worktree) changed shared.txt and was accepted; then main changed the same line. */
async function acceptedThenBranchMoved(target: AgentTargetConfig): Promise<Setup> {
	const h = await ServiceHarness.open({ config: { agentTargets: [target] } });
	initRepo(h.workspace, { 'README.md': 'hello\n', '.gitignore': '.tutti/\n', 'shared.txt': shared('base') });
	const issueId = (await h.call('issue/create', { title: 'Conflict after the branch moved' })).issueId;
	await h.call('task/add', { issueId, taskId: 'a', title: 'Change the middle line', agentTargetId: target.id, autoAccept: false });
	await h.idle();
	const a = h.runs.launches.find((l) => l.taskId === 'a')!;
	writeFileSync(join(a.cwd, 'shared.txt'), shared('from task a'));
	h.runs.exit(a.runId, { exitCode: 0 });
	await h.idle();
	await h.call('review/accept', { issueId, taskId: 'a' });
	// The branch moves on: someone changes the same line on main.
	writeFileSync(join(h.workspace, 'shared.txt'), shared('from main'));
	git(h.workspace, 'commit', '-qam', 'main changes the middle line');
	return { h, issueId, tree: a.cwd };
}

async function conflictOf(h: ServiceHarness, issueId: string): Promise<DomainError> {
	return rejects(h.call('issue/integrate', { issueId }), 'merge_conflict');
}

describe('conflicts have a way forward (real git)', function () {
	this.timeout(90_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('the branch moved: the refusal names the path and both ways; Update from base runs the task again and its agent resolves; accepted again, it integrates', async () => {
		const setup = await acceptedThenBranchMoved(commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'agent' }));
		h = setup.h;
		const { issueId, tree } = setup;
		const mainBefore = git(h.workspace, 'rev-parse', 'main');
		const refused = await conflictOf(h, issueId);
		assert.match(refused.message, /task a and main \([0-9a-f]{12}\) both change shared\.txt/);
		assert.equal(git(h.workspace, 'rev-parse', 'main'), mainBefore, 'nothing moved');
		assert.ok(refused.hint.includes(`\`tutti task update-from-base --issue-id ${issueId} --task-id a --into main --as-user\``), refused.hint);
		assert.ok(refused.hint.includes(`\`git -C .tutti/worktrees/${issueId}/a merge main\``), refused.hint);
		assert.deepEqual((refused.details as { taskId: string; updateFromBase: string }).taskId, 'a');
		// The panel's conflict block reads these details, and its Open the task's tree opens this very tree.
		const block = parseIntegrateConflict(refused.details, refused.message, refused.hint);
		assert.ok(block.ok, block.ok ? '' : block.error);
		assert.deepEqual([block.value.into, block.value.paths, block.value.taskId, block.value.between, block.value.updateFromBase], ['main', ['shared.txt'], 'a', [mainBefore, 'a'], 'agent']);
		assert.deepEqual(taskTreePath(h.workspace, block.value.tree), { ok: true, path: realpathSync(tree) });
		// Its ways forward, one short line each beside the block's two buttons (the hint above spells out the commands).
		assert.deepEqual(block.value.ways.map((w) => w.action), ['update_from_base', 'open_tree']);
		assert.match(block.value.ways[1]!.text, /^By hand in the task's tree: git merge main, fix the conflicts, commit;/);

		// The hint's first way, run as printed.
		const update = await runPrinted(h, refused.hint, 'tutti task update-from-base') as Awaited<ReturnType<typeof h.call<'task/updateFromBase'>>>;
		assert.deepEqual([update.resolvedBy, update.conflictPaths, update.upToDate, update.attempt, update.tree], ['agent', ['shared.txt'], false, 2, `.tutti/worktrees/${issueId}/a`]);
		assert.deepEqual(update.sources.map((s) => s.label), ['main']);
		await h.idle();
		const launches = h.runs.launches.filter((l) => l.taskId === 'a');
		assert.equal(launches.length, 2, 'a new Run of the same task');
		const second = launches[1]!;
		assert.equal(second.cwd, tree, 'in its own tree');
		assert.match(second.stdinText, /This Run \(attempt 2\) updates this task's work from main: merging main \([0-9a-f]{12}\) into this folder conflicts in:\n {2}- shared\.txt/);
		assert.match(readFileSync(join(tree, 'shared.txt'), 'utf8'), /<<<<<<< /, 'the agent finds the merge in progress');
		let task = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!;
		assert.deepEqual([task.status, task.acceptedCommit, task.attempt, task.rework?.kind], ['running', '', 2, 'update_from_base'], 'no longer accepted while it runs');
		await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');

		// The agent resolves the conflict (keeping both sides) and stages it; the Host concludes the merge as its result.
		writeFileSync(join(tree, 'shared.txt'), shared('from main and from task a'));
		git(tree, 'add', 'shared.txt');
		h.runs.exit(second.runId, { exitCode: 0 });
		await h.idle();
		task = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!;
		assert.equal(task.status, 'pending_acceptance', 'the new result is reviewed like any change');
		const run = await h.call('run/get', { runId: second.runId });
		assert.equal(run.baseCommit, git(h.workspace, 'rev-parse', 'main'), 'its diff is the task\'s work on top of the branch');
		assert.deepEqual(run.changedFiles.map((f) => f.path), ['shared.txt']);
		assert.deepEqual(git(h.workspace, 'log', '-1', '--format=%P', run.resultCommit).split(' ').length, 2, 'a merge commit');

		// What the update's answer says next, run as printed: accept, then integrate (the refusal's command).
		await runPrinted(h, update.message, 'tutti review accept');
		const integrated = await runPrinted(h, refused.hint, 'tutti issue integrate') as Awaited<ReturnType<typeof h.call<'issue/integrate'>>>;
		assert.equal(integrated.fastForward, true, 'the task now contains main');
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('from main and from task a'));
		const runs = (await h.call('run/list', { issueId })).runs.filter((r) => r.taskId === 'a');
		assert.deepEqual(runs.map((r) => r.status), ['completed', 'completed'], 'the earlier attempt stays in the history');
	});

	it('--squash that conflicts is refused the same way and moves nothing; Update from base, accepted again, then squashes into one commit', async () => {
		const setup = await acceptedThenBranchMoved(commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'agent' }));
		h = setup.h;
		const { issueId, tree } = setup;
		const refsBefore = git(h.workspace, 'for-each-ref', '--format=%(refname) %(objectname)');
		const mainBefore = git(h.workspace, 'rev-parse', 'main');
		const refused = await rejects(h.call('issue/integrate', { issueId, squash: 'task' }), 'merge_conflict');
		assert.match(refused.message, /task a and main \([0-9a-f]{12}\) both change shared\.txt/);
		assert.equal(git(h.workspace, 'for-each-ref', '--format=%(refname) %(objectname)'), refsBefore, 'no ref moved');
		assert.equal(git(h.workspace, 'status', '--porcelain', '--untracked-files=no'), '', 'the workspace is clean');
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('from main'));
		assert.ok(refused.hint.includes(`\`tutti task update-from-base --issue-id ${issueId} --task-id a --into main --as-user\``), refused.hint);

		const update = await runPrinted(h, refused.hint, 'tutti task update-from-base') as Awaited<ReturnType<typeof h.call<'task/updateFromBase'>>>;
		assert.equal(update.resolvedBy, 'agent');
		await h.idle();
		const second = h.runs.launches.filter((l) => l.taskId === 'a')[1]!;
		writeFileSync(join(tree, 'shared.txt'), shared('from main and from task a'));
		git(tree, 'add', 'shared.txt');
		h.runs.exit(second.runId, { exitCode: 0 });
		await h.idle();
		await runPrinted(h, update.message, 'tutti review accept');
		const printedIntegrate = printed(refused.hint, 'tutti issue integrate');
		assert.match(printedIntegrate, /--squash task/, 'the printed integrate repeats the squash asked for');
		const integrated = await runPrinted(h, refused.hint, 'tutti issue integrate') as Awaited<ReturnType<typeof h.call<'issue/integrate'>>>;
		assert.equal(integrated.squash, 'task');
		assert.equal(git(h.workspace, 'rev-list', '--count', `${mainBefore}..main`), '1', 'one commit for the task');
		assert.equal(git(h.workspace, 'rev-list', '--merges', '--count', `${mainBefore}..main`), '0', 'the update\'s merge is not in the squashed history');
		assert.equal(git(h.workspace, 'log', '-1', '--format=%s', 'main'), 'Change the middle line');
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('from main and from task a'));
	});

	it('resolve by hand: a commit the developer makes in the task\'s tree is "changed after acceptance", reviewed, accepted again and integrated', async () => {
		const setup = await acceptedThenBranchMoved(commandTarget('iso', { isolation: 'worktree' }));
		h = setup.h;
		const { issueId, tree } = setup;
		const refused = await conflictOf(h, issueId);
		// The hint's second way, its git commands run as printed: merge, fix, add, commit.
		assert.throws(() => gitPrinted(h, refused.hint, `git -C .tutti/worktrees/${issueId}/a merge`), 'the merge stops on the conflict');
		writeFileSync(join(tree, 'shared.txt'), shared('resolved by hand'));
		git(h.workspace, ...shellWords(printed(refused.hint, `git -C .tutti/worktrees/${issueId}/a add`)).slice(1), 'shared.txt');
		gitPrinted(h, refused.hint, `git -C .tutti/worktrees/${issueId}/a commit`);
		const resolved = git(tree, 'rev-parse', 'HEAD');

		const notAccepted = await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');
		assert.match(notAccepted.message, /a \(changed after acceptance\)/);
		assert.ok(notAccepted.hint.includes(`\`tutti review accept --issue-id ${issueId} --task-id a --as-user\``), notAccepted.hint);
		const task = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!;
		assert.deepEqual([task.status, task.reopenedReason, task.resultCommit], ['pending_acceptance', 'changed after acceptance', resolved], 'shown for review');

		const accepted = await runPrinted(h, notAccepted.hint, 'tutti review accept') as { taskStatus: string };
		assert.equal(accepted.taskStatus, 'completed');
		await runPrinted(h, notAccepted.hint, 'tutti issue integrate --issue-id ' + issueId + ' --as-user');
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('resolved by hand'));
	});

	it('Update from base with onMergeConflict "fail": no agent; the merge is left in the tree for the developer and the task stays accepted; their commit integrates once accepted again', async () => {
		const setup = await acceptedThenBranchMoved(commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'fail' }));
		h = setup.h;
		const { issueId, tree } = setup;
		const acceptedBefore = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!.acceptedCommit;
		const refused = await conflictOf(h, issueId);
		assert.match(refused.hint, /the merge is left in \.tutti\/worktrees\/[\w-]+\/a for you to resolve and commit/);
		const update = await runPrinted(h, refused.hint, 'tutti task update-from-base') as Awaited<ReturnType<typeof h.call<'task/updateFromBase'>>>;
		assert.equal(update.resolvedBy, 'developer');
		assert.match(update.message, /left in progress in \.tutti\/worktrees\/[\w-]+\/a for you/);
		await h.idle();
		assert.equal(h.runs.launches.filter((l) => l.taskId === 'a').length, 1, 'no agent started');
		const task = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!;
		assert.deepEqual([task.status, task.acceptedCommit], ['completed', acceptedBefore], 'still accepted as it was: never failed');
		const updateRun = (await h.call('run/list', { issueId })).runs.find((r) => r.runId !== task.latestRunId)!;
		assert.match(updateRun.outcomeLabel ?? '', /^Could not start: merging main into \.tutti\/worktrees\/[\w-]+\/a conflicts in shared\.txt/);
		assert.equal(git(tree, 'diff', '--name-only', '--diff-filter=U'), 'shared.txt', 'the merge waits in the tree');

		writeFileSync(join(tree, 'shared.txt'), shared('resolved by the developer'));
		// The answer's commands, as printed: add the files, conclude the merge.
		git(h.workspace, ...shellWords(printed(update.message, `git -C .tutti/worktrees/${issueId}/a add`)).slice(1), 'shared.txt');
		gitPrinted(h, update.message, `git -C .tutti/worktrees/${issueId}/a commit`);
		const notAccepted = await rejects(h.call('issue/integrate', { issueId }), 'not_integrable');
		await runPrinted(h, notAccepted.hint, 'tutti review accept');
		await h.call('issue/integrate', { issueId });
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('resolved by the developer'));
	});

	it('two tasks change the same lines: Update from base of the later one merges the earlier task\'s accepted work in; then both integrate', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'agent' })] } });
		initRepo(h.workspace, { 'README.md': 'hello\n', '.gitignore': '.tutti/\n', 'shared.txt': shared('base') });
		const issueId = (await h.call('issue/create', { title: 'Two tasks, one line' })).issueId;
		for (const id of ['a', 'b']) { await h.call('task/add', { issueId, taskId: id, title: `Task ${id}`, agentTargetId: 'iso', autoAccept: true }); }
		await h.idle();
		for (const id of ['a', 'b']) {
			const l = h.runs.launches.find((x) => x.taskId === id)!;
			writeFileSync(join(l.cwd, 'shared.txt'), shared(`from task ${id}`));
			h.runs.exit(l.runId, { exitCode: 0 });
		}
		await h.idle();
		const refused = await conflictOf(h, issueId);
		assert.match(refused.message, /task b and task a both change shared\.txt/);
		const aCommit = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!.acceptedCommit;
		assert.ok(refused.hint.includes(`\`git -C .tutti/worktrees/${issueId}/b merge ${aCommit}\``), refused.hint);

		const update = await runPrinted(h, refused.hint, 'tutti task update-from-base') as Awaited<ReturnType<typeof h.call<'task/updateFromBase'>>>;
		assert.deepEqual(update.sources, [{ label: 'task a', commit: aCommit }], 'main did not move: only a\'s work');
		await h.idle();
		const second = h.runs.launches.filter((l) => l.taskId === 'b')[1]!;
		writeFileSync(join(second.cwd, 'shared.txt'), shared('from task a and task b'));
		git(second.cwd, 'add', 'shared.txt');
		h.runs.exit(second.runId, { exitCode: 0 });
		await h.idle();
		// autoAccept: the merged result is accepted like any result of the task.
		assert.equal((await h.call('issue/get', { issueId, taskId: 'b' })).tasks[0]!.status, 'completed');
		const integrated = await h.call('issue/integrate', { issueId });
		assert.deepEqual(integrated.mergedTaskIds, ['a', 'b']);
		assert.equal(readFileSync(join(h.workspace, 'shared.txt'), 'utf8'), shared('from task a and task b'));
	});

	it('Update from base that merges cleanly starts no agent: the merge is the new result, reviewed; up to date answers so and starts nothing', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'agent' })] } });
		initRepo(h.workspace, { 'README.md': 'hello\n', '.gitignore': '.tutti/\n' });
		const issueId = (await h.call('issue/create', { title: 'Clean update' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a.txt', agentTargetId: 'iso', autoAccept: false });
		await h.idle();
		const first = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(first.cwd, 'a.txt'), 'A\n');
		h.runs.exit(first.runId, { exitCode: 0 });
		await h.idle();
		await h.call('review/accept', { issueId, taskId: 'a' });
		const upToDate = await h.call('task/updateFromBase', { issueId, taskId: 'a' });
		assert.deepEqual([upToDate.upToDate, upToDate.resolvedBy, upToDate.reworkId], [true, 'none', '']);
		writeFileSync(join(h.workspace, 'other.txt'), 'main\n');
		git(h.workspace, 'add', 'other.txt');
		git(h.workspace, 'commit', '-qm', 'main adds other.txt');

		const update = await h.call('task/updateFromBase', { issueId, taskId: 'a' });
		assert.deepEqual([update.resolvedBy, update.conflictPaths], ['merge', []]);
		await h.idle();
		assert.equal(h.runs.launches.filter((l) => l.taskId === 'a').length, 1, 'no agent was started');
		const task = (await h.call('issue/get', { issueId, taskId: 'a' })).tasks[0]!;
		assert.deepEqual([task.status, task.attempt], ['pending_acceptance', 2]);
		const run = await h.call('run/get', { runId: task.latestRunId });
		assert.deepEqual([run.outcome, run.changedFiles.map((f) => f.path)], ['success', ['a.txt']], `the task's own work on top of main: ${JSON.stringify(run)}`);
		assert.match(run.summary, /merged main into the task's tree without conflicts, so no agent was needed/);
		await h.call('review/accept', { issueId, taskId: 'a' });
		const integrated = await h.call('issue/integrate', { issueId });
		assert.equal(integrated.fastForward, true);
		assert.equal(readFileSync(join(h.workspace, 'a.txt'), 'utf8'), 'A\n');
	});

	it('Update from base is refused with the next step for a task that is not accepted, and for a tree with a merge in progress', async () => {
		const setup = await acceptedThenBranchMoved(commandTarget('iso', { isolation: 'worktree', onMergeConflict: 'agent' }));
		h = setup.h;
		const { issueId, tree } = setup;
		assert.throws(() => git(tree, 'merge', 'main'));
		const busy = await rejects(h.call('task/updateFromBase', { issueId, taskId: 'a' }), 'invalid_input');
		assert.match(busy.message, /a merge is in progress in task a's tree \.tutti\/worktrees\/[\w-]+\/a/);
		gitPrinted(h, busy.hint, `git -C .tutti/worktrees/${issueId}/a merge --abort`);
		assert.equal(git(tree, 'status', '--porcelain', '--untracked-files=no'), '', 'the printed abort ends the merge');
		await h.call('task/add', { issueId, taskId: 'c', title: 'Pending', agentTargetId: 'iso', autoAccept: false });
		await h.idle();
		const running = await rejects(h.call('task/updateFromBase', { issueId, taskId: 'c' }), 'invalid_input');
		assert.match(running.message, /task c is running; only an accepted task's work/);
	});
});
