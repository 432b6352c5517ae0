// A managed issue whose source session Tutti starts itself (`plan issue create --source-target … --as-user`): a
// command-target "source agent" receives each wake as its Turn prompt on stdin and drives the plan with the CLI
// (mutate + schedule, schedule the dependent task, acknowledge, complete) to completion with command-target workers.
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
					],
					maxParallelRuns: 8,
				};
			},
		});
	});
	after(async () => { await host.dispose(); });

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
			const snapshot = expectOk<PlanSnapshotDto>(await runCli(host, ['plan', 'issue', 'get', '--issue-id', created.issueId, '--json'], { asUser: true }));
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
		const get = async (): Promise<PlanSnapshotDto> => expectOk<PlanSnapshotDto>(await runCli(host, ['plan', 'issue', 'get', '--issue-id', created.issueId, '--json'], { asUser: true }));
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
});
