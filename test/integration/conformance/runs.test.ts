// Conformance: manual issues (the dispatcher within maxParallelRuns, dependencies) and Runs as real processes
// (Stop outcome and answer, failure exit codes, run log), through the real CLI.
import { strict as assert } from 'node:assert';
import {
	expectError, expectOk, issueGet, manualIssue, methods, runGet, standardTargets, shareHost, waitFor,
	type HostHandle,
} from '../harness.js';

const maxParallelRuns = 2;

describe('conformance: manual issues and Runs', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; }, { config: (gateDir) => ({ agentTargets: standardTargets(gateDir), maxParallelRuns }) });

	const addTask = async (issueId: string, taskId: string, target: string, dependsOn: string[] = []): Promise<void> => {
		const args = ['issue', 'task', 'add', '--issue-id', issueId, '--task-id', taskId, '--title', `Task ${taskId}`, '--agent-target-id', target,
			...dependsOn.flatMap((d) => ['--depends-on', d]), '--json'];
		const task = methods['task/add'].result.parse(expectOk(await host.cli(args, { asUser: true })));
		assert.equal(task.taskId, taskId);
		assert.deepEqual(task.dependencyTaskIds, dependsOn);
	};

	it('the dispatcher runs ready tasks within maxParallelRuns and respects dependencies', async function () {
		const issueId = await manualIssue(host, 'Dispatcher', true);
		await addTask(issueId, 'a', 'gate');
		await addTask(issueId, 'b', 'gate');
		await addTask(issueId, 'c', 'gate');
		await addTask(issueId, 'd', 'gate', ['a']);
		let maxSeen = 0;
		const observe = async (): Promise<Map<string, string>> => {
			const issue = await issueGet(host, issueId);
			const status = new Map(issue.tasks.map((t) => [t.taskId, t.status]));
			const running = issue.tasks.filter((t) => t.status === 'running').length;
			maxSeen = Math.max(maxSeen, running);
			assert.ok(running <= maxParallelRuns, `at most ${maxParallelRuns} Runs at once, saw ${running}`);
			if (status.get('d') !== 'not_started') {
				assert.equal(status.get('a'), 'completed', 'd starts only after its dependency completed');
			}
			return status;
		};
		const runningIds = async (): Promise<string[]> => [...(await observe())].filter(([, s]) => s === 'running').map(([id]) => id);

		const firstWave = await waitFor(async () => {
			const ids = await runningIds();
			return ids.length === maxParallelRuns ? ids : undefined;
		}, { what: 'the dispatcher to fill its capacity' });
		// A gated Run never ends by itself, so a third Run started over capacity would still be running at every later
		// observe() (each asserts the bound) until this test opens a gate: no waiting is needed to see it.
		assert.deepEqual((await runningIds()).sort(), [...firstWave].sort(), 'no third Run starts while two run');

		// Finish the running tasks one at a time; the dispatcher refills from what is ready.
		const finished = new Set<string>();
		for (let round = 0; round < 4; round++) {
			const ids = await waitFor(async () => {
				const r = (await runningIds()).filter((id) => !finished.has(id));
				return r.length > 0 ? r : undefined;
			}, { what: `a running task (round ${round})` });
			const next = ids.sort()[0]!;
			host.openGate(issueId, next, 0);
			finished.add(next);
			await waitFor(async () => (await observe()).get(next) === 'completed', { what: `${next} to complete` });
		}
		const final = await observe();
		assert.deepEqual([...final.values()], ['completed', 'completed', 'completed', 'completed']);
		assert.equal(maxSeen, maxParallelRuns);
		const issue = await issueGet(host, issueId);
		const runOf = (id: string): string => issue.tasks.find((t) => t.taskId === id)!.latestRunId;
		const [runA, runD] = await Promise.all([runGet(host, runOf('a')), runGet(host, runOf('d'))]);
		assert.ok(runD.startedAtUnixMs >= runA.completedAtUnixMs, 'the dependent Run started after its dependency ended');
		assert.equal(runA.outcome, 'success');
		assert.match(runA.outcomeLabel ?? '', /^Completed in /);
	});

	it('run stop on a sleeping command: cancellation, "Interrupted after …", stop answer "took"', async function () {
		const issueId = await manualIssue(host);
		await addTask(issueId, 's', 'gate');
		await waitFor(() => host.gateStarted(issueId, 's') || undefined, { what: 'the sleeping command to start' });
		const runId = (await issueGet(host, issueId)).tasks[0]!.latestRunId;
		const stop = methods['run/stop'].result.parse(expectOk(await host.cli(['run', 'stop', '--run-id', runId, '--as-user', '--json'])));
		assert.equal(stop.runId, runId);
		assert.equal(stop.answer, 'took');
		assert.ok(stop.eventId.length > 0);
		const run = await waitFor(async () => {
			const r = await runGet(host, runId);
			return r.outcome !== null ? r : undefined;
		}, { what: 'the stopped Run to settle' });
		assert.equal(run.status, 'canceled');
		assert.equal(run.outcome, 'cancellation');
		assert.match(run.outcomeLabel ?? '', /^Interrupted after /);
		assert.equal(run.stopNotes.length, 1);
		assert.equal(run.stopNotes[0]!.eventId, stop.eventId);
		assert.equal(run.stopNotes[0]!.answer, 'took');
		assert.equal(run.stopNotes[0]!.reason, 'person');
		assert.ok(run.completedAtUnixMs >= run.startedAtUnixMs);
		assert.equal((await issueGet(host, issueId)).tasks[0]!.status, 'canceled');

		// A later press that does nothing never overwrites the answer of the Stop that took.
		await host.cli(['run', 'stop', '--run-id', runId, '--as-user', '--json']);
		const after = await runGet(host, runId);
		assert.equal(after.outcome, 'cancellation');
		assert.equal(after.stopNotes.find((n) => n.eventId === stop.eventId)?.answer, 'took');
	});

	it('a command that exits 3 fails with "Failed after …"; failed parents never satisfy a dependency', async function () {
		const issueId = await manualIssue(host);
		await addTask(issueId, 'f', 'fail');
		await addTask(issueId, 'g', 'ok', ['f']);
		const failed = await waitFor(async () => {
			const issue = await issueGet(host, issueId);
			const f = issue.tasks.find((t) => t.taskId === 'f')!;
			return f.status === 'failed' ? f : undefined;
		}, { what: 'f to fail' });
		const run = await runGet(host, failed.latestRunId);
		assert.equal(run.outcome, 'failure');
		assert.equal(run.exitCode, 3);
		assert.match(run.outcomeLabel ?? '', /^Failed after /);
		assert.equal(run.stopNotes.length, 0);
		const log = await host.cli(['run', 'log', '--run-id', failed.latestRunId, '--stream', 'stderr'], { asUser: true });
		assert.equal(log.code, 0, log.stderr);
		assert.match(log.stdout, /boom/);
		// A task added now is started by a dispatcher pass that reads the issue after f failed and starts every ready
		// task of it: once h has run, that pass has passed g over.
		await addTask(issueId, 'h', 'ok');
		await waitFor(async () => (await issueGet(host, issueId)).tasks.find((t) => t.taskId === 'h')!.status === 'completed', { what: 'h to complete' });
		const g = (await issueGet(host, issueId)).tasks.find((t) => t.taskId === 'g')!;
		assert.equal(g.status, 'not_started');
		assert.equal(g.latestRunId, '');
		expectError(await host.cli(['run', 'get', '--run-id', 'no-such-run', '--json'], { asUser: true }), 'run_not_found', 1);
	});
});
