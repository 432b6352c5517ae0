// Security: every path that comes from a task or the CLI stays inside the workspace. `..`, absolute paths elsewhere
// and symbolic links leading out are refused when a task is written (manual `task add/update`, managed
// `--operations-json` add/update/rework) and again when a Run launches (where symlinks are resolved).
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	type HostHandle, type ManagedIssue, expectError, expectOk, fenceOf, managedIssue, manualIssue, startHost, standardTargets, taskSpec,
} from '../integration/harness.js';
import { addManualTask, recordOf, recorderTarget, settledRunOf } from './securityKit.js';

describe('security: paths stay inside the workspace', function () {
	let host: HostHandle;
	let records: string;
	let outside: string;
	let escapes: string[];

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-paths-rec-'));
		outside = mkdtempSync(join(tmpdir(), 'tutti-sec-outside-'));
		writeFileSync(join(outside, 'precious.txt'), 'keep me');
		host = await startHost({ config: (gates) => ({ agentTargets: [...standardTargets(gates), recorderTarget('rec', records)], maxParallelRuns: 4 }) });
		mkdirSync(join(host.workspace, 'sub', 'deeper'), { recursive: true });
		symlinkSync(outside, join(host.workspace, 'link-out'));
		symlinkSync(join(host.workspace, 'sub'), join(host.workspace, 'link-in'));
		escapes = ['..', '../', '../elsewhere', 'sub/../../elsewhere', 'sub/deeper/../../..', outside, '/etc', '/', `${host.workspace}/../x`, `${host.workspace}-sibling`];
	});

	after(async function () {
		await host?.dispose();
		rmSync(records, { recursive: true, force: true });
		rmSync(outside, { recursive: true, force: true });
	});

	describe('manual tasks (tutti issue task add/update)', function () {
		it('task add refuses every escaping executionDirectory and keeps nothing', async function () {
			const issueId = await manualIssue(host, 'Escapes on add');
			const results = await Promise.all(escapes.map((dir, i) => host.cli(
				['issue', 'task', 'add', '--issue-id', issueId, '--task-id', `e${i}`, '--title', 'escape', '--execution-directory', dir, '--json'], { asUser: true })));
			results.forEach((r, i) => {
				const error = expectError(r, 'invalid_input', 2);
				assert.match(error.message, /outside the workspace/, `${escapes[i]}: ${error.message}`);
			});
			const issue = expectOk<{ tasks: unknown[] }>(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true }));
			assert.equal(issue.tasks.length, 0, 'no escaping task was stored');
		});

		it('task update refuses them too; directories inside (relative or absolute) are accepted', async function () {
			const issueId = await manualIssue(host, 'Escapes on update');
			await addManualTask(host, issueId, 'u1');
			for (const dir of ['../elsewhere', outside]) {
				expectError(await host.cli(['issue', 'task', 'update', '--issue-id', issueId, '--task-id', 'u1', '--execution-directory', dir, '--json'], { asUser: true }), 'invalid_input', 2);
			}
			for (const dir of ['sub', 'sub/deeper/..', join(host.workspace, 'sub')]) {
				expectOk(await host.cli(['issue', 'task', 'update', '--issue-id', issueId, '--task-id', 'u1', '--execution-directory', dir, '--json'], { asUser: true }));
			}
		});
	});

	describe('managed tasks (--operations-json)', function () {
		let issue: ManagedIssue;
		before(async function () {
			issue = await managedIssue(host, 'Escapes in operations');
			await issue.addTasks(taskSpec('base', 'ok'));
		});

		it('add, update and rework refuse escaping executionDirectory values and change nothing', async function () {
			const before = await issue.get();
			const cases: unknown[][] = [];
			for (const dir of ['../elsewhere', outside, 'sub/../../x']) {
				cases.push(
					[{ kind: 'add', task: taskSpec('n1', 'ok', [], { executionDirectory: dir }) }],
					[{ kind: 'update', taskId: 'base', task: { executionDirectory: dir } }],
					[{ kind: 'rework', taskId: 'base', task: taskSpec('base2', 'ok', [], { executionDirectory: dir }) }],
				);
			}
			const fence = fenceOf(before);
			const results = await Promise.all(cases.map((operations) => issue.mutate(operations, { ...fence })));
			results.forEach((result, i) => {
				const error = expectError(result, 'invalid_mutation_operation', 2);
				assert.match(error.message, /outside the workspace/, JSON.stringify(cases[i]));
			});
			const after = await issue.get();
			assert.equal(after.execution.graphRevision, before.execution.graphRevision, 'no revision was spent on a refused mutation');
			assert.deepEqual(after.tasks.map((t) => [t.taskId, t.executionDirectory]), before.tasks.map((t) => [t.taskId, t.executionDirectory]));
		});

		it('a directory inside the workspace is accepted', async function () {
			const result = await issue.mutateOk([{ kind: 'add', task: taskSpec('inside', 'ok', [], { executionDirectory: 'sub/deeper' }) }]);
			assert.deepEqual(result.addedTaskIds, ['inside']);
		});
	});

	describe('the Run launch', function () {
		it('a symlink leading out of the workspace is refused at launch; the agent never starts', async function () {
			const issueId = await manualIssue(host, 'Symlink out');
			await addManualTask(host, issueId, 'sym1', ['--agent-target-id', 'rec', '--execution-directory', 'link-out', '--content', 'rm -rf .']);
			await addManualTask(host, issueId, 'sym2', ['--agent-target-id', 'rec', '--execution-directory', 'link-in/../link-out']);
			for (const taskId of ['sym1', 'sym2']) {
				const run = await settledRunOf(host, issueId, taskId);
				assert.equal(run.status, 'failed', `${taskId}: a Run outside the workspace must not succeed`);
				assert.match(run.errorMessage, /symbolic link|outside the workspace/, run.errorMessage);
				assert.equal(recordOf(records, taskId), undefined, `${taskId}: the agent process never ran`);
			}
			assert.equal(readFileSync(join(outside, 'precious.txt'), 'utf8'), 'keep me');
		});

		it('a symlink that stays inside the workspace works, and the agent runs in the resolved directory', async function () {
			const issueId = await manualIssue(host, 'Symlink in');
			await addManualTask(host, issueId, 'symin', ['--agent-target-id', 'rec', '--execution-directory', 'link-in/deeper']);
			const run = await settledRunOf(host, issueId, 'symin');
			assert.equal(run.status, 'completed', run.errorMessage);
			assert.equal(recordOf(records, 'symin')?.cwd, join(host.workspace, 'sub', 'deeper'));
		});
	});

	describe('ids from the CLI that name files', function () {
		it('a run id or task id with path segments reads and removes nothing outside', async function () {
			const issueId = await manualIssue(host, 'Path ids');
			for (const runId of ['../../../../etc/passwd', '..', `../${'..'.repeat(2)}/runs`]) {
				const log = await host.cli(['run', 'log', '--run-id', runId, '--json'], { asUser: true });
				expectError(log);
				assert.ok(!log.stdout.includes('root:'), 'no foreign file is printed');
			}
			for (const taskId of ['../../outside', '..', '/etc']) {
				expectError(await host.cli(['worktree', 'remove', '--issue-id', issueId, '--task-id', taskId, '--json'], { asUser: true }));
			}
			assert.ok(existsSync(join(outside, 'precious.txt')));
		});
	});
});
