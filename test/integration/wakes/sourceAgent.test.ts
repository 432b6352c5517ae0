// A managed issue whose source session Tutti starts itself (`plan issue create --source-target … --as-user`): a
// command-target "source agent" receives each wake as its Turn prompt on stdin and drives the plan with the CLI
// (mutate + schedule, schedule the dependent task, acknowledge, complete) to completion with command-target workers;
// an archive interrupts the exact wake and reviewer Turns it cancels.
import { strict as assert } from 'node:assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../src/protocol/dto.js';
import { expectOk, type HostHandle, runCli, standardTargets, startHost, waitFor } from '../harness.js';

const agentScript = join(__dirname, 'fixtures', 'sourceAgent.mjs');

interface AgentLogEntry { kind: string; hasSkill: boolean; sessionId: string; issueEnv: string; commands: string[]; error?: string }

describe('a managed source session started by Tutti', function () {
	this.timeout(120_000);
	let host: HostHandle;
	let agentLog: string;

	before(async () => {
		host = await startHost({
			config: (gateDir) => {
				agentLog = join(gateDir, 'source-agent.log');
				return {
					agentTargets: [
						...standardTargets(gateDir),
						{ id: 'source', adapter: 'command', argv: [process.execPath, agentScript], env: { SOURCE_AGENT_LOG: join(gateDir, 'source-agent.log') } },
						{ id: 'sleepy', adapter: 'command', argv: [process.execPath, '-e', 'setTimeout(() => {}, 120000)'] },
						{
							id: 'stopper', adapter: 'command', argv: [process.execPath, agentScript],
							env: { SOURCE_AGENT_LOG: join(gateDir, 'stopper-agent.log'), SOURCE_AGENT_STOP_REASON: 'the goal is abandoned' },
						},
					],
					maxParallelRuns: 8,
				};
			},
		});
	});
	after(async () => { await host.dispose(); });

	/** The runner directories of the Turns a session's wakes started (`.tutti/runs/turn-…`). */
	const turnDirsOf = (sessionId: string): string[] => {
		const runsDir = join(host.workspace, '.tutti', 'runs');
		const spec = (d: string): string => (existsSync(join(runsDir, d, 'spec.json')) ? readFileSync(join(runsDir, d, 'spec.json'), 'utf8') : '');
		return readdirSync(runsDir).filter((d) => d.startsWith('turn-') && spec(d).includes(sessionId)).map((d) => join(runsDir, d));
	};
	/** The exit record of a Turn once its process ended; the test fails if it keeps running. */
	const turnExit = async (turnDir: string, what: string): Promise<{ signal: string | null; exitCode: number | null }> => {
		const exitFile = join(turnDir, 'exit.json');
		await waitFor(() => existsSync(exitFile), { what, timeoutMs: 30_000 });
		return JSON.parse(readFileSync(exitFile, 'utf8')) as { signal: string | null; exitCode: number | null };
	};
	const snapshotOf = async (issueId: string): Promise<PlanSnapshotDto> =>
		expectOk<PlanSnapshotDto>(await runCli(host, ['plan', 'issue', 'get', '--issue-id', issueId, '--full', '--json'], { asUser: true }));

	it('receives the initial wake as its prompt and drives the plan to completion through the CLI', async () => {
		const created = expectOk<Result<'plan/create'>>(await runCli(host, [
			'plan', 'issue', 'create', '--title', 'Ship it', '--content', 'Build, then test.', '--request-id', 'create-1', '--auto-accept',
			'--source-target', 'source', '--json',
		], { asUser: true }));
		const readLog = (): AgentLogEntry[] => existsSync(agentLog)
			? readFileSync(agentLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as AgentLogEntry)
			: [];
		// `complete` ends the source's part: the execution is completed (or waits for the developer's Goal Review
		// confirmation, when that step is configured) and no checkpoint is left to wake the source.
		const done = await waitFor(async () => {
			const snapshot = expectOk<PlanSnapshotDto>(await runCli(host, ['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true }));
			const finished = readLog().some((e) => e.commands.includes('complete'));
			return finished && snapshot.activeCheckpoint === null && ['completed', 'pending_goal_review'].includes(snapshot.execution?.status ?? '') ? snapshot : undefined;
		}, { timeoutMs: 90_000, intervalMs: 200, what: 'the source agent to complete the plan' });
		const entries = readLog();
		assert.deepEqual(entries.map((e) => e.kind), ['initial_schedule', 'task_settled', 'task_settled', 'all_tasks_terminal'], JSON.stringify(entries));
		assert.deepEqual(entries.map((e) => e.commands.join('+')), ['mutate+schedule', 'schedule', 'acknowledge', 'complete']);
		assert.equal(entries[0]?.hasSkill, true, 'the first Turn is the planning prompt with the injected skill');
		assert.ok(entries.slice(1).every((e) => !e.hasSkill));
		assert.ok(entries.every((e) => e.sessionId === created.sourceSessionId && e.issueEnv === created.issueId));
		const tasks = done.tasks.filter((t) => t.supersededAtUnixMs === 0).map((t) => [t.taskId, t.status]);
		assert.deepEqual(tasks.sort(), [['build', 'completed'], ['test', 'completed']]);
	});

	it('tutti session stop archives the source session\'s executions and stops its Turn, also across a restart', async () => {
		const create = async (n: number): Promise<Result<'plan/create'>> => expectOk<Result<'plan/create'>>(await runCli(host, [
			'plan', 'issue', 'create', '--title', `Sleepy ${n}`, '--content', 'Never planned.', '--request-id', `sleepy-${n}`, '--source-target', 'sleepy', '--json',
		], { asUser: true }));
		const created = await create(1);
		const get = async (): Promise<PlanSnapshotDto> => expectOk<PlanSnapshotDto>(await runCli(host, ['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true }));
		await waitFor(async () => (await get()).activeWake?.status === 'dispatched', { what: 'the wake Turn to start', timeoutMs: 20_000 });
		const stopped = expectOk<Result<'session/stop'>>(await runCli(host, ['session', 'stop', '--session-id', created.sourceSessionId, '--json'], { asUser: true }));
		assert.deepEqual(stopped.archivedExecutionIds, [created.executionId]);
		assert.equal((await get()).execution?.status, 'archived');
		const runsDir = join(host.workspace, '.tutti', 'runs');
		const turnDirs = readdirSync(runsDir).filter((d) => d.startsWith('turn-') && readFileSync(join(runsDir, d, 'spec.json'), 'utf8').includes(created.sourceSessionId));
		assert.equal(turnDirs.length, 1);
		const exitFile = join(runsDir, turnDirs[0]!, 'exit.json');
		await waitFor(() => existsSync(exitFile), { what: 'the source Turn to exit', timeoutMs: 20_000 });
		const exit = JSON.parse(readFileSync(exitFile, 'utf8')) as { signal: string | null };
		assert.ok(exit.signal, 'the sleeping source Turn was interrupted');
		await host.restart();
		const after = await get();
		assert.equal(after.execution?.status, 'archived', 'a restart never resumes a stopped source session');
		assert.equal(after.dispatchPaused, true);
	});

	it("an agent's plan issue stop interrupts the dispatched main-wake Turn it cancels (it does not keep running)", async () => {
		const created = expectOk<Result<'plan/create'>>(await runCli(host, [
			'plan', 'issue', 'create', '--title', 'Abandon it', '--content', 'Stop at once.', '--request-id', 'stopper-1', '--source-target', 'stopper', '--json',
		], { asUser: true }));
		const archived = await waitFor(async () => {
			const snapshot = await snapshotOf(created.issueId);
			return snapshot.execution?.status === 'archived' ? snapshot : undefined;
		}, { what: 'the source agent to stop its issue', timeoutMs: 30_000 });
		assert.equal(archived.activeWake, null);
		const [turnDir, ...more] = turnDirsOf(created.sourceSessionId);
		assert.ok(turnDir && more.length === 0, 'one wake Turn ran');
		const exit = await turnExit(turnDir, 'the canceled wake Turn to be interrupted');
		assert.ok(exit.signal !== null, `the wake Turn was interrupted (exit ${JSON.stringify(exit)})`);
	});

	it('the developer\'s session stop interrupts the running independent-reviewer Turn its archive cancels', async () => {
		const created = expectOk<Result<'plan/create'>>(await runCli(host, [
			'plan', 'issue', 'create', '--title', 'Reviewed', '--content', 'Build, then test.', '--request-id', 'reviewed-1', '--auto-accept',
			'--source-target', 'source', '--review-target', 'sleepy', '--json',
		], { asUser: true }));
		const atReview = await waitFor(async () => {
			const snapshot = await snapshotOf(created.issueId);
			return snapshot.independentReview?.status === 'dispatched' ? snapshot.independentReview : undefined;
		}, { what: 'the reviewer Turn to start at Goal Review', timeoutMs: 60_000 });
		const [reviewerTurn, ...more] = await waitFor(() => {
			const dirs = turnDirsOf(`${atReview.reviewId}:session`);
			return dirs.length > 0 ? dirs : undefined;
		}, { what: 'the reviewer Turn to be launched' });
		assert.ok(reviewerTurn && more.length === 0, 'one reviewer Turn runs');

		const stopped = expectOk<Result<'session/stop'>>(await runCli(host, ['session', 'stop', '--session-id', created.sourceSessionId, '--json'], { asUser: true }));
		assert.deepEqual(stopped.archivedExecutionIds, [created.executionId]);
		const after = await snapshotOf(created.issueId);
		assert.equal(after.execution?.status, 'archived');
		const exit = await turnExit(reviewerTurn, 'the canceled reviewer Turn to be interrupted');
		assert.ok(exit.signal !== null, `the reviewer Turn was interrupted (exit ${JSON.stringify(exit)})`);
	});
});
