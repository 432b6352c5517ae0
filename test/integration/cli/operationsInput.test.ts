// Plans of any size: `--operations-json -` reads the operations from stdin and `--operations-file PATH`
// from a file (likewise `--task-ids-json -` / `--task-ids-file` for schedule), with the same strict checks and the
// request cap; real CLI processes against a real Host.
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	type HostHandle, type ManagedIssue, addOps, expectError, expectOk, managedIssue, methods, requestId, shareHost, taskSpec,
} from '../harness.js';

describe('CLI: operations from stdin and from a file', function () {
	this.timeout(120_000);
	let host!: HostHandle;
	shareHost((h) => { host = h; });

	async function fence(issue: ManagedIssue): Promise<string[]> {
		const s = await issue.getCompact();
		return ['--issue-id', issue.issueId, '--checkpoint-id', s.activeCheckpoint!.checkpointId, '--expected-graph-revision', String(s.execution.graphRevision),
			'--request-id', requestId('input'), '--json'];
	}

	const mutate = async (issue: ManagedIssue, args: string[], input?: string): ReturnType<ManagedIssue['cli']> =>
		issue.cli(['plan', 'issue', 'mutate', ...await fence(issue), ...args], input === undefined ? {} : { input });

	it('a 1,000-task plan goes through --operations-file (too long for one argv string)', async () => {
		const issue = await managedIssue(host);
		const operations = JSON.stringify(addOps(...Array.from({ length: 1000 }, (_, i) => taskSpec(`t${i}`, 'ok', i % 10 === 0 ? [] : [`t${i - 1}`],
			{ content: `Step ${i} of the plan: a paragraph of what to do, long enough to look like a real task description.` }))));
		assert.ok(Buffer.byteLength(operations) > 128 * 1024, `${operations.length} bytes is past Linux's 128 KiB argv string limit`);
		if (process.platform === 'linux') {
			await assert.rejects(issue.cli(['plan', 'issue', 'mutate', ...await fence(issue), '--operations-json', operations]), /E2BIG/);
		}
		const file = join(host.workspace, 'plan.json');
		writeFileSync(file, operations);
		const result = methods['plan/mutate'].result.parse(expectOk(await mutate(issue, ['--operations-file', 'plan.json'])));
		assert.equal(result.addedTaskIds.length, 1000);
		assert.equal(result.addedTaskIds[999], 't999');
		const s = await issue.getCompact();
		assert.equal(s.counts.notStarted, 1000);
		assert.equal(s.readyCount, 100);
	});

	it('--operations-json - reads stdin; --task-ids-json - and --task-ids-file likewise for schedule', async () => {
		const issue = await managedIssue(host);
		const added = methods['plan/mutate'].result.parse(expectOk(await mutate(issue, ['--operations-json', '-'], JSON.stringify(addOps(taskSpec('a'), taskSpec('b'))))));
		assert.deepEqual(added.addedTaskIds, ['a', 'b']);
		writeFileSync(join(host.workspace, 'ready.json'), '["b"]');
		const bad = await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-json', '-'], { input: '{"not":"an array"}' });
		assert.match(expectError(bad, 'invalid_input', 2).message, /--task-ids-json - \(stdin\): --task-ids-json must be a non-empty JSON array of task id strings/);
		const scheduled = methods['plan/schedule'].result.parse(expectOk(await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-json', '-'], { input: '["a"]' })));
		assert.equal(scheduled.runIds.length, 1);
		// The schedule answered the checkpoint; the next one opens when a's Run settles (under load, later than this line).
		await issue.waitSnapshot((s) => s.activeCheckpoint !== null, 'the checkpoint of a\'s settled Run');
		const fromFile = await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-file', 'ready.json']);
		assert.equal(methods['plan/schedule'].result.parse(expectOk(fromFile)).runIds.length, 1);
	});

	it('a schedule of all 5,000 tasks of a plan goes through --task-ids-file to the Host\'s own rules; 10,001 ids are refused naming the cap', async () => {
		const issue = await managedIssue(host);
		const taskIds = Array.from({ length: 5000 }, (_, i) => `t${i}`);
		writeFileSync(join(host.workspace, 'plan5k.json'), JSON.stringify(addOps(...taskIds.map((id) => taskSpec(id)))));
		expectOk(await mutate(issue, ['--operations-file', 'plan5k.json']));
		writeFileSync(join(host.workspace, 'all.json'), JSON.stringify(taskIds));
		const all = expectError(await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-file', 'all.json']), 'capacity_exhausted', 1);
		assert.match(all.message, /5000 new Run\(s\) with 0 already running exceeds maxParallelRuns/);
		writeFileSync(join(host.workspace, 'over.json'), JSON.stringify(Array.from({ length: 10_001 }, (_, i) => `t${i}`)));
		const over = expectError(await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-file', 'over.json']), 'invalid_input', 2);
		assert.match(over.message, /at most 10,000 task ids per schedule/);
		const first = methods['plan/schedule'].result.parse(expectOk(await issue.cli(['plan', 'issue', 'schedule', ...await fence(issue), '--task-ids-json', '-'], { input: '["t0","t1"]' })));
		assert.equal(first.runIds.length, 2);
	});

	it('bad JSON from stdin gets the same strict answer as on the command line, and changes nothing', async () => {
		const issue = await managedIssue(host);
		const inline = expectError(await mutate(issue, ['--operations-json', '[{"op":"add"}']), 'invalid_mutation_operation', 2);
		const piped = expectError(await mutate(issue, ['--operations-json', '-'], '[{"op":"add"}'), 'invalid_mutation_operation', 2);
		assert.equal(piped.message, inline.message);
		writeFileSync(join(host.workspace, 'aliased.json'), '[{"op":"add","replacement":{}}]');
		const aliased = expectError(await mutate(issue, ['--operations-file', 'aliased.json']), 'invalid_mutation_operation', 2);
		assert.match(aliased.message, /op and replacement are not supported/);
		assert.equal((await issue.getCompact()).execution.graphRevision, 1);
	});

	it('an empty stream, a missing file, both flags and an over-cap file are refused before the Host is asked', async () => {
		const issue = await managedIssue(host);
		const empty = expectError(await mutate(issue, ['--operations-json', '-'], ''), 'invalid_input', 2);
		assert.match(empty.message, /--operations-json - \(stdin\) is empty/);
		const blank = expectError(await mutate(issue, ['--operations-json', '-'], ' \n'), 'invalid_input', 2);
		assert.match(blank.message, /is empty/);
		const missing = expectError(await mutate(issue, ['--operations-file', 'no-such-plan.json']), 'invalid_input', 2);
		assert.match(missing.message, /cannot read --operations-file no-such-plan\.json \(ENOENT\)/);
		const both = expectError(await mutate(issue, ['--operations-json', '[]', '--operations-file', 'plan.json']), 'invalid_input', 2);
		assert.match(both.message, /either --operations-json or --operations-file, not both/);
		writeFileSync(join(host.workspace, 'huge.json'), `[${' '.repeat(8 * 1024 * 1024)}]`);
		const huge = expectError(await mutate(issue, ['--operations-file', 'huge.json']), 'invalid_input', 2);
		assert.match(huge.message, /is 8388610 bytes, over the Host's request cap of 8388608 bytes \(8 MiB, a plan of about 5,000 tasks\)/);
		const piped = expectError(await mutate(issue, ['--operations-json', '-'], `[${' '.repeat(8 * 1024 * 1024)}]`), 'invalid_input', 2);
		assert.match(piped.message, /more than 8388608 bytes, over the Host's request cap/);
		assert.equal((await issue.getCompact()).execution.graphRevision, 1);
	});
});

describe('CLI: plan issue get (compact, --full, --task-id) and issue get filters', function () {
	this.timeout(60_000);
	let host!: HostHandle;
	shareHost((h) => { host = h; });

	it('answers the compact form by default, everything with --full, one task with --task-id', async () => {
		const issue = await managedIssue(host);
		await issue.mutateOk(addOps(taskSpec('a', 'ok', [], { content: 'The details of a' }), taskSpec('b', 'ok', ['a'])));
		const compact = await issue.getCompact();
		assert.deepEqual(compact.readyTaskIds, ['a']);
		assert.deepEqual(compact.tasks.map((t) => t.taskId), ['a', 'b']);
		assert.ok(!('content' in compact.tasks[0]!));
		assert.equal((await issue.getCompact()).sinceRevision, compact.taskRevision, 'the Host remembers what this session read');
		const full = await issue.get();
		assert.equal(full.tasks.find((t) => t.taskId === 'a')?.content, 'The details of a');
		const one = methods['plan/getTask'].result.parse(expectOk(await issue.cli(['plan', 'issue', 'get', '--issue-id', issue.issueId, '--task-id', 'b', '--json'])));
		assert.deepEqual([one.task.taskId, one.task.blockerReason, one.task.dependencyTaskIds], ['b', 'dependency_unsatisfied', ['a']]);
		const both = await issue.cli(['plan', 'issue', 'get', '--issue-id', issue.issueId, '--task-id', 'b', '--full', '--json']);
		assert.match(expectError(both, 'invalid_input', 2).message, /cannot be combined/);

		const byStatus = methods['issue/get'].result.parse(expectOk(await issue.cli(['issue', 'get', '--issue-id', issue.issueId, '--status', 'not_started', '--json'])));
		assert.deepEqual(byStatus.tasks.map((t) => t.taskId), ['a', 'b']);
		const none = methods['issue/get'].result.parse(expectOk(await issue.cli(['issue', 'get', '--issue-id', issue.issueId, '--status', 'running', '--json'])));
		assert.deepEqual(none.tasks, []);
		assert.equal(none.counts.notStarted, 2, 'the counts stay the issue\'s');
		const single = methods['issue/get'].result.parse(expectOk(await issue.cli(['issue', 'get', '--issue-id', issue.issueId, '--task-id', 'b', '--json'])));
		assert.deepEqual(single.tasks.map((t) => t.taskId), ['b']);
		expectError(await issue.cli(['issue', 'get', '--issue-id', issue.issueId, '--task-id', 'zz', '--json']), 'task_not_found', 1);
	});
});
