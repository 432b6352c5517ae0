// Security: a worker token acts on its own issue. A worker of issue X may read issue Y (SPEC §5: agents read the
// board) but never rename it or add, change or delete its tasks (`forbidden`). Real Host, real CLI, real agent
// processes (securityKit.ts holderTarget keeps a Run live until the test releases it).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	type CliResult, type HostHandle, expectError, expectOk, issueGet, manualIssue, standardTargets, startHost, waitFor,
} from '../integration/harness.js';
import type { RunDto } from '../../src/protocol/dto.js';
import { addManualTask, envOf, holderTarget, recordOf, releaseHolder, settledRunOf } from './securityKit.js';

interface LiveWorker { taskId: string; token: string; run: RunDto }

describe('security: worker tokens keep to their issue', function () {
	this.timeout(120_000);
	let host: HostHandle;
	let records: string;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-worker-'));
		host = await startHost({
			config: (gates) => ({ agentTargets: [...standardTargets(gates), holderTarget('hold', records)], maxParallelRuns: 4 }),
		});
	});

	after(async function () {
		await host?.dispose();
		rmSync(records, { recursive: true, force: true });
	});

	/** Starts a task of `issueId` on `target` and waits until its agent runs: its token and its Run. */
	async function liveWorker(issueId: string, taskId: string, target = 'hold'): Promise<LiveWorker> {
		await addManualTask(host, issueId, taskId, ['--agent-target-id', target]);
		const record = await waitFor(async () => recordOf(records, taskId), { what: `the agent of ${taskId} to start`, timeoutMs: 20_000, intervalMs: 25 });
		const token = envOf(record).get('TUTTI_SESSION_TOKEN');
		assert.ok(token, 'the agent got its worker token');
		const list = expectOk<{ runs: RunDto[] }>(await host.cli(['run', 'list', '--issue-id', issueId, '--json'], { asUser: true }));
		const run = list.runs.find((r) => r.taskId === taskId);
		assert.ok(run, `a Run of ${taskId}`);
		return { taskId, token, run };
	}

	const asWorker = (token: string, words: string[]): Promise<CliResult> => host.cli([...words, '--json'], { token });
	const addTask = (token: string, issueId: string, taskId: string): Promise<CliResult> =>
		asWorker(token, ['issue', 'task', 'add', '--issue-id', issueId, '--task-id', taskId, '--title', `Added ${taskId}`]);

	it("a worker of X reads Y but cannot rename it or add, change or delete Y's tasks; on X it may", async function () {
		const x = await manualIssue(host, 'Issue X');
		const y = await manualIssue(host, 'Issue Y');
		await addManualTask(host, y, 'y1');
		const worker = await liveWorker(x, 'x-hold');
		const yBefore = await issueGet(host, y);

		const attempts: [string, string[]][] = [
			['issue update', ['issue', 'update', '--issue-id', y, '--title', 'Renamed by a worker of X']],
			['task add', ['issue', 'task', 'add', '--issue-id', y, '--task-id', 'planted', '--title', 'Planted']],
			['task update', ['issue', 'task', 'update', '--issue-id', y, '--task-id', 'y1', '--title', 'Changed by a worker of X']],
			['task delete', ['issue', 'task', 'delete', '--issue-id', y, '--task-id', 'y1']],
		];
		for (const [what, words] of attempts) {
			const error = expectError(await asWorker(worker.token, words), 'forbidden', 1);
			assert.match(error.message, new RegExp(`^A worker acts on its own issue only: this token is a worker of issue ${x}, and \\S+ would change issue ${y} \\(nothing was changed\\)\\.$`), `${what}: ${error.message}`);
			assert.doesNotMatch(error.hint, /--as-user(?! \(the developer)/, `${what}: no developer command for the agent`);
		}
		const yAfter = await issueGet(host, y);
		assert.equal(yAfter.title, yBefore.title, 'Y keeps its title');
		assert.deepEqual(yAfter.tasks.map((t) => [t.taskId, t.title]), yBefore.tasks.map((t) => [t.taskId, t.title]), "Y's tasks are unchanged");

		// Reads of Y stay open.
		assert.equal(expectOk<{ issueId: string }>(await asWorker(worker.token, ['issue', 'get', '--issue-id', y])).issueId, y);
		expectOk(await asWorker(worker.token, ['run', 'list', '--issue-id', y]));
		expectOk(await asWorker(worker.token, ['issue', 'list']));

		// Its own issue: rename, and add, change and delete a task (no agent target: nothing launches).
		expectOk(await asWorker(worker.token, ['issue', 'update', '--issue-id', x, '--title', 'X, renamed by its worker']));
		expectOk(await addTask(worker.token, x, 'x-own'));
		expectOk(await asWorker(worker.token, ['issue', 'task', 'update', '--issue-id', x, '--task-id', 'x-own', '--title', 'Changed']));
		expectOk(await asWorker(worker.token, ['issue', 'task', 'delete', '--issue-id', x, '--task-id', 'x-own']));
		assert.equal((await issueGet(host, x)).title, 'X, renamed by its worker');

		releaseHolder(records, worker.taskId);
		await settledRunOf(host, x, worker.taskId);
	});
});
