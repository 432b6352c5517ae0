// End to end through the real Host and the real Claude Code CLI: a managed issue whose claude source session Tutti
// starts itself (`plan issue create --source-target claude-src --as-user`). Driven by the source planner (its tool
// inputs are computed from the wake prompt and the JSON of the last tool_result), the agent runs `tutti plan issue
// get`, `mutate` (two tasks on a command target) and `schedule` as Bash tool calls; the workers settle (one fails);
// each next wake arrives as a new claude process that resumes the same session; the agent acknowledges, reworks the
// failed task, schedules the replacement and completes.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../src/protocol/dto.js';
import { expectOk, type HostHandle, waitFor } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type BrainServer, startBrainServer } from './brainServer.js';
import { claudeTarget, killLeftovers, startAgentHost, targetHome } from './e2eKit.js';
import { sourcePlanner } from './sourcePlanner.js';

// A worker that reads the task content on stdin and fails (exit 3) when it asks for a failure.
const worker = 'const s=require("fs").readFileSync(0,"utf8");process.exit(s.includes("PLEASE FAIL")?3:0)';

describe('e2e: a claude source session started by Tutti plans, schedules, reworks and completes', function () {
	this.timeout(150_000);
	let dir: TempDir;
	let server: BrainServer;
	let host: HostHandle | undefined;
	const planner = sourcePlanner({
		tasks: [
			{ taskId: 'good', title: 'Good', content: 'Works the first time.', agentTargetId: 'cmd' },
			{ taskId: 'flaky', title: 'Flaky', content: 'PLEASE FAIL the first time.', agentTargetId: 'cmd' },
		],
		fixedContent: 'Fixed: works now.',
	});

	before(async () => {
		dir = makeTempDir('tutti-e2e-src-');
		server = await startBrainServer(planner.brain);
		host = await startAgentHost([
			claudeTarget('claude-src', server.url, targetHome(dir, 'claude-src')),
			{ id: 'cmd', adapter: 'command', argv: [process.execPath, '-e', worker] },
		]);
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		await server.close();
		dir.remove();
	});

	it('drives the plan through wake Turns (--resume) to Goal Review', async () => {
		const started = Date.now();
		const h = host!;
		const created = expectOk<Result<'plan/create'>>(await h.cli(['plan', 'issue', 'create', '--title', 'Ship it', '--content', 'Two tasks; rework what fails.',
			'--request-id', 'e2e-create-1', '--auto-accept', '--source-target', 'claude-src', '--json'], { asUser: true }));
		h.track(created.issueId);
		assert.equal(created.checkpointId, `tutti-execution:${created.issueId}:checkpoint:initial-schedule`);
		const get = async (): Promise<PlanSnapshotDto> => expectOk<PlanSnapshotDto>(await h.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true }));
		const done = await waitFor(async () => {
			const snapshot = await get();
			const ended = planner.actions.at(-1)?.on === 'complete';
			return ended && snapshot.activeCheckpoint === null && ['completed', 'pending_goal_review'].includes(snapshot.execution.status) ? snapshot : undefined;
		}, { timeoutMs: 120_000, intervalMs: 300, what: `the claude source agent to complete the plan (planner: ${JSON.stringify(planner.actions)})` });

		// What the agent did, in order (from the model's side): every command is a Bash tool call of the real CLI.
		const did = planner.actions.map((a) => `${a.on} → ${a.did.startsWith('end:') ? 'end' : /^tutti plan issue (\w+)/.exec(a.did)?.[1]}`);
		assert.ok(planner.actions.every((a) => !a.did.startsWith('end: The command')), JSON.stringify(planner.actions, null, 1));
		assert.deepEqual(did.slice(0, 4), ['wake:initial_schedule → get', 'get:initial_schedule → mutate', 'mutate → schedule', 'schedule → end']);
		const verbs = did.join(' | ');
		assert.match(verbs, /get:task_failed → mutate \| mutate → schedule/, verbs);
		assert.match(verbs, /get:task_settled → (acknowledge|schedule)/, verbs);
		assert.match(verbs, /wake:all_tasks_terminal → get \| get:all_tasks_terminal → complete \| complete → end$/, verbs);
		// The first schedule used the revision the mutation returned (1 → 2).
		const firstSchedule = planner.actions.find((a) => a.on === 'mutate')!.did;
		assert.match(firstSchedule, /--expected-graph-revision 2 /);

		const tasks = Object.fromEntries(done.tasks.map((t) => [t.taskId, t.status]));
		assert.deepEqual(tasks, { good: 'completed', flaky: 'failed', 'flaky-fixed': 'completed' });
		assert.equal(done.tasks.find((t) => t.taskId === 'flaky')!.supersededByTaskId, 'flaky-fixed');

		// Every wake after the first was a new claude process resuming the same session (same session header, the
		// earlier conversation in the request); the first carried the planning prompt with the injected skill.
		const wakeRequests = server.log.filter((e) => JSON.stringify(e.body).includes('TUTTI_MODE_CHECKPOINT_WAKE'));
		const sessionIds = new Set(server.log.map((e) => e.headers['x-claude-code-session-id']));
		assert.equal(sessionIds.size, 1, `one provider session across all wake Turns: ${[...sessionIds].join(', ')}`);
		const wakes = planner.actions.filter((a) => a.on.startsWith('wake:')).length;
		assert.ok(wakes >= 4, `at least 4 wake Turns (initial, settled, failed, goal review): ${wakes}`);
		const firstBody = JSON.stringify(server.log[0]!.body);
		assert.ok(firstBody.includes('# Tutti CLI skill'), 'the first Turn carries the skill');
		const last = server.log.at(-1)!.body as { messages: { role: string }[] };
		assert.ok(last.messages.filter((m) => m.role === 'user').length > 8, 'the last Turn resumed the whole conversation');
		assert.ok(wakeRequests.length >= wakes);
		const turnDirs = readdirSync(join(h.workspace, '.tutti', 'runs')).filter((d) => d.startsWith('turn-'));
		assert.equal(turnDirs.length, wakes, 'one source process per wake Turn');
		const specs = turnDirs.map((d) => JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', d, 'spec.json'), 'utf8')) as { args: string[]; launchedAtUnixMs: number })
			.sort((a, b) => a.launchedAtUnixMs - b.launchedAtUnixMs);
		const sessionFlag = (args: string[]): string => args.includes('--resume') ? `resume:${args[args.indexOf('--resume') + 1]}` : `new:${args[args.indexOf('--session-id') + 1]}`;
		const flags = specs.map((s) => sessionFlag(s.args));
		const sessionId = [...sessionIds][0] as string;
		assert.deepEqual(flags, [`new:${sessionId}`, ...specs.slice(1).map(() => `resume:${sessionId}`)]);
		console.log(`      source e2e: ${wakes} wake Turns, ${server.log.length} model requests, ${((Date.now() - started) / 1000).toFixed(1)}s`);
	});
});
