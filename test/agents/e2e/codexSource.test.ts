// End to end through the real Host and the real `codex app-server`: a managed issue whose codex source session Tutti
// starts itself (`plan issue create --source-target codex-src --as-user`). Driven by the source planner over the
// Responses API (its exec_command calls are computed from the wake prompt and the JSON of the last call's output), the
// agent runs `tutti plan issue get`, `mutate` (two tasks on a command target) and `schedule`; the workers settle one at a
// time (one fails), each once the agent is idle; each settlement's wake is a turn (`turn/start`) on the same Codex
// thread, in a new app-server process that resumes it (`thread/resume`); a checkpoint that opens while a turn runs
// comes back through the Stop hook as another turn on the thread; the agent acknowledges, reworks the failed task,
// schedules the replacement and completes, which brings the issue to Goal Review.
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../src/protocol/dto.js';
import { expectOk, type HostHandle, waitFor } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type BrainServer, startBrainServer } from './brainServer.js';
import { codexTarget, killLeftovers, startAgentHost, targetHome } from './e2eKit.js';
import { sourcePlanner } from './sourcePlanner.js';

// A worker that reads the task content on stdin, waits until the test opens its gate (a file named after its task in
// GATES), then fails (exit 3) when the content asks for a failure. The test opens each gate once the source agent is
// idle, so each settlement reaches it as a wake of its own.
const worker = [
	'const fs=require("fs"),path=require("path");const s=fs.readFileSync(0,"utf8");',
	'const gate=path.join(process.env.GATES,process.env.TUTTI_TASK_ID);',
	'const t=setInterval(()=>{if(fs.existsSync(gate)){clearInterval(t);process.exit(s.includes("PLEASE FAIL")?3:0);}},20);',
].join('');

interface TurnSpec {
	args: string[];
	launchedAtUnixMs: number;
	liveInput?: string;
	codexAppServer?: { resumeThreadId?: string; approvalPolicy?: string };
}

describe('e2e: a codex source session (app-server) started by Tutti plans, schedules, reworks and reaches Goal Review', function () {
	this.timeout(240_000);
	let dir: TempDir;
	let server: BrainServer;
	let host: HostHandle | undefined;
	const planner = sourcePlanner({
		tasks: [
			{ taskId: 'good', title: 'Good', content: 'Works the first time.', agentTargetId: 'cmd' },
			{ taskId: 'flaky', title: 'Flaky', content: 'PLEASE FAIL the first time.', agentTargetId: 'cmd' },
		],
		fixedContent: 'Fixed: works now.',
		// A checkpoint that opens while a turn runs is owed at once: the Stop hook (played by the supervisor) starts another
		// turn on the thread with the owed command, which the agent runs.
		followStopHook: true,
	});

	const gates = (): string => join(dir.path, 'gates');

	before(async () => {
		dir = makeTempDir('tutti-e2e-codex-src-');
		mkdirSync(gates());
		server = await startBrainServer(planner.brain);
		host = await startAgentHost([
			codexTarget('codex-src', server.url, targetHome(dir, 'codex-src')),
			{ id: 'cmd', adapter: 'command', argv: [process.execPath, '-e', worker], env: { GATES: gates() } },
		]);
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		await server.close();
		dir.remove();
	});

	it('drives the plan through wake turns on one Codex thread to Goal Review', async () => {
		const started = Date.now();
		const h = host!;
		const created = expectOk<Result<'plan/create'>>(await h.cli(['plan', 'issue', 'create', '--title', 'Ship it', '--content', 'Two tasks; rework what fails.',
			'--request-id', 'e2e-codex-create-1', '--auto-accept', '--source-target', 'codex-src', '--json'], { asUser: true }));
		h.track(created.issueId);
		const runs = join(h.workspace, '.tutti', 'runs');
		const turnDirs = (): string[] => (existsSync(runs) ? readdirSync(runs) : []).filter((d) => d.startsWith('turn-'));
		/** Once the source agent's `n`th wake process has exited (its turns over), the worker of `taskId` may end. */
		const openGateAfterWake = async (n: number, taskId: string): Promise<void> => {
			await waitFor(() => {
				const dirs = turnDirs();
				return dirs.length >= n && dirs.every((d) => existsSync(join(runs, d, 'exit.json'))) ? true : undefined;
			}, { timeoutMs: 120_000, intervalMs: 100, what: `wake process ${n} to end (planner: ${JSON.stringify(planner.actions.map((a) => a.on))})` });
			writeFileSync(join(gates(), taskId), '');
		};
		await openGateAfterWake(1, 'good');
		await openGateAfterWake(2, 'flaky');
		await openGateAfterWake(3, 'flaky-fixed');
		const get = async (): Promise<PlanSnapshotDto> => expectOk<PlanSnapshotDto>(await h.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true }));
		const done = await waitFor(async () => {
			const snapshot = await get();
			const ended = planner.actions.at(-1)?.on === 'complete';
			return ended && snapshot.activeCheckpoint === null && snapshot.execution.status === 'pending_goal_review' ? snapshot : undefined;
		}, { timeoutMs: 200_000, intervalMs: 300, what: `the codex source agent to complete the plan (planner: ${JSON.stringify(planner.actions)}; errors: ${JSON.stringify(server.log.filter((e) => e.error).map((e) => e.error))})` });

		// What the agent did, in order (from the model's side): every command is an exec_command call of the real CLI.
		const did = planner.actions.map((a) => `${a.on} → ${a.did.startsWith('end:') ? 'end' : /^tutti plan issue (\w+)/.exec(a.did)?.[1]}`);
		assert.ok(planner.actions.every((a) => !a.did.startsWith('end: The command')), JSON.stringify(planner.actions, null, 1));
		assert.deepEqual(did.slice(0, 4), ['wake:initial_schedule → get', 'get:initial_schedule → mutate', 'mutate → schedule', 'schedule → end']);
		const verbs = did.join(' | ');
		assert.match(verbs, /get:task_failed → mutate \| mutate → schedule/, verbs);
		assert.match(verbs, /get:task_settled → (acknowledge|schedule)/, verbs);
		assert.match(verbs, /(wake:all_tasks_terminal|hook) → get \| get:all_tasks_terminal → complete \| complete → end$/, verbs);
		assert.ok(!verbs.includes('text →'), `every turn began with a wake or the hook's owed command: ${verbs}`);
		assert.match(planner.actions.find((a) => a.on === 'mutate')!.did, /--expected-graph-revision 2 /, 'the first schedule used the revision the mutation returned');

		const tasks = Object.fromEntries(done.tasks.map((t) => [t.taskId, t.status]));
		assert.deepEqual(tasks, { good: 'completed', flaky: 'failed', 'flaky-fixed': 'completed' });
		assert.equal(done.tasks.find((t) => t.taskId === 'flaky')!.supersededByTaskId, 'flaky-fixed');

		// One Codex thread across every wake: each model request carries it; the first Turn carried the skill; the last
		// one the whole conversation.
		assert.ok(server.log.every((e) => e.path.endsWith('/responses')), 'every model request went to the Responses API');
		const threads = new Set(server.log.map((e) => String(e.headers['session-id'])));
		assert.equal(threads.size, 1, `one thread across all wake turns: ${[...threads].join(', ')}`);
		const threadId = [...threads][0]!;
		assert.match(threadId, /^[0-9a-f-]{36}$/);
		assert.ok(JSON.stringify(server.log[0]!.body).includes('# Tutti CLI skill'), 'the first turn carries the skill');
		const last = server.log.at(-1)!.body as { input: { role?: string; type?: string }[] };
		assert.ok(last.input.filter((i) => i.type === 'function_call_output').length > 8, 'the last turn carries the earlier turns of the thread');

		// One codex app-server process per wake Turn, which starts the thread (the first) or resumes it, then runs the
		// wake's turn and any turn the Stop hook adds on the same thread. The last wake's process may still be finishing
		// its turn when Goal Review shows: count turns once every wake process has exited.
		await waitFor(() => (turnDirs().every((d) => existsSync(join(runs, d, 'exit.json'))) ? true : undefined),
			{ timeoutMs: 60_000, intervalMs: 100, what: 'every wake process to exit' });
		const wakes = planner.actions.filter((a) => a.on.startsWith('wake:')).length;
		const hookTurns = planner.actions.filter((a) => a.on === 'hook').length;
		assert.ok(wakes >= 4, `at least 4 wake turns (initial, settled, failed, settled): ${verbs}`);
		assert.equal(turnDirs().length, wakes, 'one source process per wake turn');
		const specs = turnDirs().map((d) => ({ dir: d, spec: JSON.parse(readFileSync(join(runs, d, 'spec.json'), 'utf8')) as TurnSpec }))
			.sort((a, b) => a.spec.launchedAtUnixMs - b.spec.launchedAtUnixMs);
		assert.deepEqual(specs.map((s) => [s.spec.args[0], s.spec.liveInput, s.spec.codexAppServer?.approvalPolicy]), specs.map(() => ['app-server', 'codex-app-server', 'never']));
		assert.deepEqual(specs.map((s) => s.spec.codexAppServer?.resumeThreadId ?? 'new'), ['new', ...specs.slice(1).map(() => threadId)]);
		let turns = 0;
		for (const { dir: d } of specs) {
			const methods = readFileSync(join(runs, d, 'stdout.log'), 'utf8').split('\n').filter((l) => l.startsWith('{'))
				.map((l) => (JSON.parse(l) as { method?: string }).method).filter((m) => m === 'turn/started' || m === 'turn/completed');
			assert.ok(methods.length >= 2 && methods.every((m, i) => m === (i % 2 === 0 ? 'turn/started' : 'turn/completed')), `${d}: whole turns, one after another: ${methods.join(', ')}`);
			turns += methods.length / 2;
		}
		assert.equal(turns, wakes + hookTurns, 'a turn per wake and per owed command the Stop hook handed back');
		console.log(`      codex source e2e: ${wakes} wake turns, ${hookTurns} turns from the Stop hook, ${server.log.length} model requests, ${((Date.now() - started) / 1000).toFixed(1)}s`);
	});
});
