// `tutti turn list` (the Agents view's list) through the real CLI against a real Host with real Run processes: a
// worker of one issue working in its gated Run, and the source agent of another issue waiting in `tutti await-review`
// while its task awaits the developer; each with its issue, task, state, since and controls; a settled Run and a
// source that stopped waiting leave the list.
import { strict as assert } from 'node:assert';
import {
	expectOk, type HostHandle, managedIssue, manualIssue, methods, show, standardTargets, startHost, taskSpec, waitFor,
} from '../harness.js';
import type { AgentTurnDto } from '../../../src/protocol/dto.js';

describe('turn/list: every agent at work or waiting, across issues', function () {
	this.timeout(90_000);
	let host: HostHandle;
	before(async () => { host = await startHost({ config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 4 }) }); });
	afterEach(() => { host.releaseAll(); });
	after(async () => { await host.dispose(); });

	async function turns(token?: string): Promise<AgentTurnDto[]> {
		const result = await host.cli(['turn', 'list', '--json'], token === undefined ? { asUser: true } : { token });
		return methods['turn/list'].result.parse(expectOk(result)).turns;
	}

	it('lists a working worker of one issue and the waiting source agent of another, then neither once they are done', async () => {
		const manual = await manualIssue(host, 'Ship the cache');
		expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', manual, '--task-id', 'warm', '--title', 'Warm the cache', '--agent-target-id', 'gate', '--as-user', '--json']));
		await waitFor(() => host.gateStarted(manual, 'warm'), { what: 'the gated worker to start' });

		const managed = await managedIssue(host, 'Plan the release');
		await managed.mutateOk([{ kind: 'add', task: taskSpec('notes', 'gate2') }]);
		await managed.scheduleOk(['notes']);
		await waitFor(() => host.gateStarted(managed.issueId, 'notes'), { what: 'the managed task to start' });
		host.openGate(managed.issueId, 'notes');
		await waitFor(async () => (await managed.get()).tasks.find((t) => t.taskId === 'notes')?.status === 'pending_acceptance', { what: 'the managed task to await acceptance' });
		// The source agent waits for the developer's review in a bounded call (at most 45 s; the acceptance below ends it).
		const waiting = managed.cli(['await-review', '--issue-id', managed.issueId]);

		const listed = await waitFor(async () => {
			const all = await turns();
			return all.some((t) => t.role === 'source') ? all : undefined;
		}, { what: 'the source agent waiting in await-review', timeoutMs: 30_000 });
		const worker = listed.find((t) => t.role === 'worker');
		const source = listed.find((t) => t.role === 'source');
		assert.equal(listed.length, 2, JSON.stringify(listed));
		assert.deepEqual(
			[worker?.issueTitle, worker?.taskTitle, worker?.state, worker?.label, worker?.controls, worker?.agentTargetId],
			['Ship the cache', 'Warm the cache', 'working', 'Working', { stopRun: true, stopSource: false, transcript: true }, 'gate'],
		);
		assert.ok(worker!.sinceUnixMs > 0 && worker!.sinceUnixMs <= Date.now(), `since ${worker!.sinceUnixMs}`);
		assert.match(worker!.runId, /\S/);
		assert.deepEqual(
			[source?.issueTitle, source?.taskId, source?.state, source?.label, source?.controls, source?.runId],
			['Plan the release', '', 'waiting_on_you', 'Waiting on you: in tutti await-review', { stopRun: false, stopSource: true, transcript: false }, ''],
		);
		assert.deepEqual(listed.map((t) => t.issueTitle), ['Plan the release', 'Ship the cache'], 'ordered by issue');
		const human = await host.cli(['turn', 'list', '--as-user']);
		assert.match(human.stdout, /worker\s+Ship the cache\s+Warm the cache\s+Working/, show(human));

		// An agent's own token reads the same list: it grants nothing (each control stays the developer's command).
		assert.deepEqual((await turns(managed.source.token)).map((t) => t.key).sort(), listed.map((t) => t.key).sort());

		expectOk(await host.cli(['review', 'accept', '--issue-id', managed.issueId, '--task-id', 'notes', '--as-user', '--json']));
		expectOk(await waiting);
		host.openGate(manual, 'warm');
		await waitFor(async () => ((await turns()).length === 0 ? true : undefined), { what: 'the list to empty once the Run settled and the source stopped waiting' });
	});
});
