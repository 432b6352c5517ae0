// End to end through the real Host and the real Claude Code CLI, auto-accept off: a claude source session Tutti
// starts itself plans a then b (b depends on a). When a settles into the developer's review, the wake prompt says
// only the developer accepts it, nothing is ready, and the agent ends its turn — its Stop hook lets it, since Tutti
// wakes it with the decision. The developer's Accept then wakes it at once on a task_accepted checkpoint, and it
// schedules b. An agent cannot turn auto-accept on, so b waits for the developer too; its Accept leads the plan to
// Goal Review.
import { strict as assert } from 'node:assert';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../src/protocol/dto.js';
import { expectOk, type HostHandle, waitFor } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type BrainServer, startBrainServer } from './brainServer.js';
import { claudeTarget, killLeftovers, startAgentHost, targetHome } from './e2eKit.js';
import { sourcePlanner } from './sourcePlanner.js';

describe('e2e: auto-accept off — the claude source waits for the developer, whose Accept wakes it', function () {
	this.timeout(150_000);
	let dir: TempDir;
	let server: BrainServer;
	let host: HostHandle | undefined;
	const planner = sourcePlanner({
		tasks: [
			{ taskId: 'a', title: 'A', content: 'First.', agentTargetId: 'cmd' },
			{ taskId: 'b', title: 'B', content: 'Second.', agentTargetId: 'cmd', dependencyTaskIds: ['a'] },
		],
		fixedContent: 'unused',
	});

	before(async () => {
		dir = makeTempDir('tutti-e2e-review-');
		server = await startBrainServer(planner.brain);
		host = await startAgentHost([
			claudeTarget('claude-src', server.url, targetHome(dir, 'claude-src')),
			{ id: 'cmd', adapter: 'command', argv: [process.execPath, '-e', 'process.exit(0)'] },
		]);
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		await server.close();
		dir.remove();
	});

	it('ends its turn at the review, and the Accept starts its next Turn with what the developer decided', async () => {
		const h = host!;
		const created = expectOk<Result<'plan/create'>>(await h.cli(['plan', 'issue', 'create', '--title', 'Reviewed', '--content', 'a then b.',
			'--request-id', 'e2e-review-1', '--auto-accept=false', '--source-target', 'claude-src', '--json'], { asUser: true }));
		h.track(created.issueId);
		const get = async (): Promise<PlanSnapshotDto> => expectOk<PlanSnapshotDto>(await h.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true }));
		const did = (): string[] => planner.actions.map((a) => `${a.on} → ${a.did.startsWith('end:') ? 'end' : /^tutti plan issue (\w+)/.exec(a.did)?.[1]}`);

		await waitFor(() => (planner.actions.some((a) => a.on === 'get:task_settled' && a.did.startsWith('end:')) ? true : undefined),
			{ timeoutMs: 90_000, intervalMs: 300, what: `the source to end its turn at a's review (planner: ${JSON.stringify(planner.actions)})` });
		const waiting = await get();
		assert.equal(waiting.tasks.find((t) => t.taskId === 'a')?.status, 'pending_acceptance');
		assert.equal(waiting.activeCheckpoint?.kind, 'task_settled');
		assert.match(waiting.activeWake?.prompt ?? '', /only the developer accepts it/);
		assert.doesNotMatch(waiting.activeWake?.prompt ?? '', /accepts this result/);
		assert.match(waiting.recoveryHint, /^Only the developer can move next/);
		assert.deepEqual(did().slice(0, 5), ['wake:initial_schedule → get', 'get:initial_schedule → mutate', 'mutate → schedule', 'schedule → end', 'wake:task_settled → get']);
		assert.equal(did()[5], 'get:task_settled → end');

		const accepted = expectOk<Result<'review/accept'>>(await h.cli(['review', 'accept', '--issue-id', created.issueId, '--task-id', 'a', '--note', 'Good.', '--json'], { asUser: true }));
		assert.match(accepted.checkpointId, /:checkpoint:accepted:/);
		await waitFor(async () => ((await get()).tasks.find((t) => t.taskId === 'b')?.status === 'pending_acceptance' ? true : undefined),
			{ timeoutMs: 90_000, intervalMs: 300, what: `b to wait for the developer (planner: ${JSON.stringify(planner.actions)})` });
		expectOk(await h.cli(['review', 'accept', '--issue-id', created.issueId, '--task-id', 'b', '--json'], { asUser: true }));
		const done = await waitFor(async () => {
			const snapshot = await get();
			return planner.actions.at(-1)?.on === 'complete' && snapshot.activeCheckpoint === null ? snapshot : undefined;
		}, { timeoutMs: 90_000, intervalMs: 300, what: `the source to complete after the Accept (planner: ${JSON.stringify(planner.actions)})` });
		const verbs = did().join(' | ');
		assert.match(verbs, /get:task_settled → end \| wake:task_accepted → get \| get:task_accepted → schedule/, verbs);
		// Nothing happened between the turn that ended at the review and the Accept's wake: the Stop hook let it end
		// (a block would show as a 'text' step) and no Turn was spent on it.
		const review = did().indexOf('get:task_settled → end');
		assert.equal(did()[review + 1], 'wake:task_accepted → get', verbs);
		assert.equal(planner.actions.filter((a) => a.on === 'wake:task_settled').length, 2, `one wake per settlement, none in between: ${verbs}`);
		assert.deepEqual(Object.fromEntries(done.tasks.map((t) => [t.taskId, t.status])), { a: 'completed', b: 'completed' });
	});
});
