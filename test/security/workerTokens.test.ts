// Security: a worker token acts on its own issue, and only while its Run is live. A worker of issue X may read
// issue Y (agents read the board) but never rename it or add, change or delete its tasks (`forbidden`). Its
// token stops acting once the developer stopped its Run or the Run settled (`unauthenticated`, saying the Run ended),
// save the Run's own end-of-Run calls; a Run that goes on across a Host restart keeps its token. Real Host, real CLI,
// real agent processes (securityKit.ts holderTarget keeps a Run live until the test releases it).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	type AgentTarget, type CliResult, type HostHandle, expectError, expectOk, issueGet, manualIssue, runGet, standardTargets, startHost, waitFor,
} from '../integration/harness.js';
import type { RunDto } from '../../src/protocol/dto.js';
import { addManualTask, envOf, holderTarget, rawPost, recordOf, releaseHolder, settledRunOf } from './securityKit.js';

/** Like holderTarget, but it ignores SIGINT and SIGTERM: a developer's Stop needs its SIGKILL (seconds later). */
function stubbornHolderTarget(id: string, dir: string): AgentTarget {
	const holder = holderTarget(id, dir);
	const script = `process.on('SIGINT', () => {}); process.on('SIGTERM', () => {});\n${holder.argv[2]!}`;
	return { ...holder, argv: [holder.argv[0]!, '-e', script] };
}

interface LiveWorker { taskId: string; token: string; run: RunDto }

describe('security: worker tokens keep to their issue and their Run', function () {
	this.timeout(120_000);
	let host: HostHandle;
	let records: string;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-worker-'));
		host = await startHost({
			config: (gates) => ({ agentTargets: [...standardTargets(gates), holderTarget('hold', records), stubbornHolderTarget('stubborn', records)], maxParallelRuns: 4 }),
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
	const taskIdsOf = async (issueId: string): Promise<string[]> => (await issueGet(host, issueId)).tasks.map((t) => t.taskId).sort();

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

	it("a task a worker adds without an id is named after its title but never after another issue's task: it gets no other task's worktree or branch", async function () {
		const x = await manualIssue(host, 'Issue X, ids');
		const y = await manualIssue(host, 'Issue Y, ids');
		// Y's task id is what X's worker's title reads as: a readable id must not reuse it (`.tutti/worktrees/<id>`, `tutti/<id>`).
		await addManualTask(host, y, 'deploy-prod');
		const worker = await liveWorker(x, 'x-ids-hold');
		const added = expectOk<{ issueId: string; taskId: string }>(await asWorker(worker.token, ['issue', 'task', 'add', '--issue-id', x, '--title', 'Deploy prod']));
		assert.deepEqual([added.issueId, added.taskId], [x, 'deploy-prod-2']);
		assert.deepEqual(await taskIdsOf(y), ['deploy-prod'], "Y's task is untouched");
		releaseHolder(records, worker.taskId);
		await settledRunOf(host, x, worker.taskId);
	});

	it("a worker reads a Run's stderr in its transcript exactly as `run log --stream stderr` already gave it, no more", async function () {
		const y = await manualIssue(host, 'Issue Y, stderr');
		await addManualTask(host, y, 'y-fails', ['--agent-target-id', 'fail']);
		const failed = await settledRunOf(host, y, 'y-fails');
		const x = await manualIssue(host, 'Issue X, stderr');
		const worker = await liveWorker(x, 'x-stderr-hold');
		const log = expectOk<{ data: string }>(await asWorker(worker.token, ['run', 'log', '--run-id', failed.runId, '--stream', 'stderr']));
		const transcript = expectOk<{ entries: { kind: string; text: string }[] }>(await asWorker(worker.token, ['run', 'transcript', '--run-id', failed.runId]));
		assert.deepEqual(transcript.entries.filter((e) => e.kind === 'stderr').map((e) => e.text), log.data.split('\n').filter((l) => l.trim() !== ''));
		assert.equal(log.data, 'boom\n');
		releaseHolder(records, worker.taskId);
		await settledRunOf(host, x, worker.taskId);
	});

	it("a worker's token stops acting once the developer stopped its Run, before its process is gone", async function () {
		const x = await manualIssue(host, 'Stopped worker');
		const worker = await liveWorker(x, 's-hold', 'stubborn');
		expectOk(await addTask(worker.token, x, 'while-live'));
		// The developer's Stop: its agent ignores SIGINT and SIGTERM, so the Run stays running until the SIGKILL.
		const stopping = host.cli(['run', 'stop', '--run-id', worker.run.runId, '--json'], { asUser: true });
		await waitFor(async () => ((await runGet(host, worker.run.runId)).stopNotes.length > 0 ? true : undefined),
			{ what: 'the Stop event', timeoutMs: 10_000, intervalMs: 25 });
		const refused = expectError(await addTask(worker.token, x, 'after-stop'), 'unauthenticated', 1);
		assert.match(refused.message, new RegExp(`^This worker token was issued for Run ${worker.run.runId}, which (was stopped|has ended): the token no longer acts`));
		assert.equal((await runGet(host, worker.run.runId)).status, 'running', 'the refusal came while the Run still ran (the Stop revoked it, not the end)');
		expectOk(await stopping);
		assert.deepEqual(await taskIdsOf(x), ['s-hold', 'while-live'], 'nothing was added after the Stop');
	});

	it("a worker's token stops acting once its Run settled; the Run's own end-of-Run calls still answer", async function () {
		const x = await manualIssue(host, 'Settled worker');
		const worker = await liveWorker(x, 'e-hold');
		releaseHolder(records, worker.taskId);
		const settled = await settledRunOf(host, x, worker.taskId);
		assert.notEqual(settled.status, 'failed', settled.errorMessage);
		const refused = expectError(await addTask(worker.token, x, 'after-end'), 'unauthenticated', 1);
		assert.match(refused.message, new RegExp(`^This worker token was issued for Run ${worker.run.runId}, which has ended: the token no longer acts \\(task/add was not performed\\)\\.$`));
		expectError(await asWorker(worker.token, ['issue', 'get', '--issue-id', x]), 'unauthenticated', 1);
		assert.deepEqual(await taskIdsOf(x), ['e-hold']);
		// The supervisor's late exit report is not refused (best effort, changes nothing else).
		const report = await rawPost(host.socket, 'run/report', worker.token, { runId: worker.run.runId, event: 'exited' });
		assert.equal(report.status, 200, report.body);
	});

	it('a Run that goes on across a Host restart keeps its token', async function () {
		const x = await manualIssue(host, 'Worker across a restart');
		const worker = await liveWorker(x, 'r-hold');
		await host.restart();
		assert.equal((await runGet(host, worker.run.runId)).status, 'running', 'the Run was re-attached, still running');
		expectOk(await addTask(worker.token, x, 'after-restart'));
		assert.deepEqual(await taskIdsOf(x), ['after-restart', 'r-hold']);
		releaseHolder(records, worker.taskId);
		await settledRunOf(host, x, worker.taskId);
		expectError(await addTask(worker.token, x, 'after-its-end'), 'unauthenticated', 1);
	});

	it('a Run that ended while the Host was down: its token is refused after the restart', async function () {
		const x = await manualIssue(host, 'Worker that ends while the Host is down');
		const worker = await liveWorker(x, 'd-hold');
		await host.stop();
		releaseHolder(records, worker.taskId);
		await host.start();
		await settledRunOf(host, x, worker.taskId);
		const refused = expectError(await addTask(worker.token, x, 'after-downtime'), 'unauthenticated', 1);
		assert.match(refused.message, /which has ended: the token no longer acts/);
		assert.deepEqual(await taskIdsOf(x), ['d-hold']);
	});
});
