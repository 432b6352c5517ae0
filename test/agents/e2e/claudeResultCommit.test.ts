// End to end through the real Host and the real Claude Code CLI in a git workspace: a claude target runs in its own
// worktree by default, and what the agent leaves becomes the Run's result commit. One agent writes a file (Write tool)
// and edits another (Bash) without committing: the Host commits both on tutti/<issueId>/<taskId> with the task's title and the
// Tutti trailers. One agent commits itself and leaves a file behind: its commit stays, the Host's is on top.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDto } from '../../../src/protocol/dto.js';
import { type HostHandle, manualIssue } from '../../integration/harness.js';
import { initRepo, sh } from '../../integration/delivery/gitRepoKit.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, killLeftovers, latestRunId, manualTask, settledRun, startAgentHost, targetHome } from './e2eKit.js';

describe('e2e: a claude worker in a worktree; its work becomes the result commit', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let workspace: string;
	let first: string;
	let host: HostHandle | undefined;
	const servers: Record<string, ScriptedServer> = {};
	/** The tree the Host gives a task (worktreePaths.ts): the scripts name files in it by absolute path. */
	const treeOf = (issueId: string, taskId: string): string => join(workspace, '.tutti', 'worktrees', issueId, taskId);
	/** The Write call's input: its absolute path is set once the test knows the issue (and so the tree). */
	const writeInput = { file_path: '', content: 'one\ntwo\nthree\n' };

	before(async () => {
		dir = makeTempDir('tutti-e2e-result-');
		workspace = join(realpathSync(dir.path), 'ws');
		mkdirSync(workspace);
		first = initRepo(workspace);

		servers.edit = await startScriptedServer({
			script: {
				turns: [
					{ blocks: [{ type: 'text', text: 'Writing the notes.' }, { type: 'tool', name: 'Write', id: 'toolu_write', input: writeInput }] },
					{ when: { last_user_includes: 'toolu_write' }, blocks: [{ type: 'tool', name: 'Bash', id: 'toolu_readme', input: { command: "printf 'changed\\n' > README.md", description: 'Edit the readme' } }] },
					{ when: { last_user_includes: 'toolu_readme' }, blocks: [{ type: 'text', text: 'Done: notes.txt written, README.md changed.' }] },
				],
			},
		});
		servers.own = await startScriptedServer({
			script: {
				turns: [
					{ blocks: [{ type: 'tool', name: 'Bash', id: 'toolu_commit', input: {
						command: "printf 'mine\\n' > own.txt && git add own.txt && git commit -q -m 'Agent: add own.txt' && printf 'left\\n' > left.txt",
						description: 'Commit own.txt, then write left.txt',
					} }] },
					{ when: { last_user_includes: 'toolu_commit' }, blocks: [{ type: 'text', text: 'Done: committed own.txt, left.txt is new.' }] },
				],
			},
		});
		// No `isolation` in the config: a claude target in a git workspace runs in a worktree by default.
		const targets = Object.entries(servers).map(([name, s]) => claudeTarget(`claude-${name}`, s.url, targetHome(dir, name), { allowedTools: ['Bash', 'Write'] }));
		host = await startAgentHost(targets, { workspace });
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		for (const s of Object.values(servers)) { await s.close(); }
		dir.remove();
	});

	const byPath = <T extends { path: string }>(files: readonly T[]): T[] => [...files].sort((a, b) => (a.path < b.path ? -1 : 1));
	const git = (...args: string[]): string => sh(workspace, ...args);
	/** The value of one trailer of `commit`'s message. */
	const trailer = (commit: string, key: string): string => git('log', '-1', `--format=%(trailers:key=${key},valueonly)`, commit);
	const completedInWorktree = (run: RunDto): void => {
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(run.inWorktree, true, 'a claude target in a git workspace defaults to worktree isolation');
		assert.equal(run.baseCommit, first, "a task without dependencies starts from the workspace's HEAD");
	};
	/** The tool call with this id came back without an error (the tool really ran). */
	const toolSucceeded = (server: ScriptedServer, toolUseId: string): void => {
		const lastUser = (body: unknown): string => JSON.stringify((body as { messages: { role: string }[] }).messages.filter((m) => m.role === 'user').at(-1));
		const after = server.modelRequests().map((r) => lastUser(r.body)).find((b) => b.includes(`"tool_use_id":"${toolUseId}"`));
		assert.ok(after !== undefined && !after.includes('"is_error":true'), `tool ${toolUseId} succeeded: ${String(after?.slice(-1500))}`);
	};

	it('the agent writes and edits without committing: the Host commits its work on tutti/<issueId>/<taskId> with the title and trailers', async () => {
		const h = host!;
		const issue = await manualIssue(h, 'E2E edit', true);
		writeInput.file_path = join(treeOf(issue, 'edit'), 'notes.txt');
		const { issueId, taskId } = await manualTask(h, 'edit', 'claude-edit', 'Write notes.txt and change README.md.', issue);
		const runId = await latestRunId(h, issueId, taskId);
		const run = await settledRun(h, runId);
		completedInWorktree(run);
		assert.equal(servers.edit!.turnsUsed(), 3);
		toolSucceeded(servers.edit!, 'toolu_write');
		toolSucceeded(servers.edit!, 'toolu_readme');

		assert.notEqual(run.resultCommit, run.baseCommit);
		assert.equal(run.resultCommit, git('rev-parse', `tutti/${issueId}/edit`), 'the result commit is the task branch head');
		assert.equal(git('rev-parse', `${run.resultCommit}^`), first, 'one commit on top of the base');
		assert.equal(git('log', '-1', '--format=%s', run.resultCommit), 'Task edit');
		assert.equal(trailer(run.resultCommit, 'Tutti-Issue'), issueId);
		assert.equal(trailer(run.resultCommit, 'Tutti-Task'), 'edit');
		assert.equal(trailer(run.resultCommit, 'Tutti-Run'), runId);
		assert.equal(git('log', '-1', '--format=%an <%ae>', run.resultCommit), 'Dev One <dev@example.test>');
		assert.equal(git('show', `${run.resultCommit}:notes.txt`), 'one\ntwo\nthree');
		assert.equal(git('show', `${run.resultCommit}:README.md`), 'changed');
		assert.deepEqual(byPath(run.changedFiles), [
			{ path: 'README.md', added: 1, deleted: 1, binary: false },
			{ path: 'notes.txt', added: 3, deleted: 0, binary: false },
		]);
		assert.equal(sh(treeOf(issueId, 'edit'), 'status', '--porcelain'), '', 'the tree is clean');
		// The developer's own tree is untouched.
		assert.equal(readFileSync(join(workspace, 'README.md'), 'utf8'), 'hello\n');
		assert.equal(existsSync(join(workspace, 'notes.txt')), false);
		assert.equal(git('rev-parse', 'HEAD'), first);
	});

	it("the agent commits itself and leaves a file: its commit stays, the Host's result commit is on top with the leftover", async () => {
		const h = host!;
		const { issueId, taskId } = await manualTask(h, 'own', 'claude-own', 'Commit own.txt yourself, then write left.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const run = await settledRun(h, runId);
		completedInWorktree(run);
		toolSucceeded(servers.own!, 'toolu_commit');

		assert.equal(run.resultCommit, git('rev-parse', `tutti/${issueId}/own`), 'the result commit is the task branch head');
		const agentCommit = git('rev-parse', `${run.resultCommit}^`);
		assert.equal(git('log', '-1', '--format=%s', agentCommit), 'Agent: add own.txt', "the agent's commit stays as it made it");
		assert.equal(trailer(agentCommit, 'Tutti-Run'), '', "the agent's commit has no Tutti trailers");
		assert.equal(git('show', '--name-only', '--format=', agentCommit), 'own.txt');
		assert.equal(git('rev-parse', `${agentCommit}^`), first);

		assert.equal(git('log', '-1', '--format=%s', run.resultCommit), 'Task own');
		assert.equal(trailer(run.resultCommit, 'Tutti-Issue'), issueId);
		assert.equal(trailer(run.resultCommit, 'Tutti-Task'), 'own');
		assert.equal(trailer(run.resultCommit, 'Tutti-Run'), runId);
		assert.equal(git('show', '--name-only', '--format=', run.resultCommit), 'left.txt', 'the result commit holds only the leftover');
		assert.deepEqual(byPath(run.changedFiles), [
			{ path: 'left.txt', added: 1, deleted: 0, binary: false },
			{ path: 'own.txt', added: 1, deleted: 0, binary: false },
		]);
		assert.equal(sh(treeOf(issueId, 'own'), 'status', '--porcelain'), '', 'the tree is clean');
		assert.equal(git('rev-parse', 'HEAD'), first);
	});
});
