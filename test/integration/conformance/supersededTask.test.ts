// A superseded task is kept as history, so it stays readable by id: `tutti issue get --task-id` answers it (with the
// task that replaced it), while the plain task list shows only the active tasks. Real Host, real CLI.
import { strict as assert } from 'node:assert';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectError, expectOk, type HostHandle, issueGet, managedIssue, methods, shareHost, taskSpec } from '../harness.js';

describe('conformance: a superseded task stays readable with issue get --task-id', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('issue get --task-id answers a reworked task (superseded, by its replacement); the list shows the replacement only', async () => {
		const issue = await managedIssue(host, 'Superseded history');
		await issue.mutateOk([{ kind: 'add', task: taskSpec('a', 'gate') }]);
		await issue.mutateOk([{ kind: 'rework', taskId: 'a', task: { taskId: 'a2', title: 'A again' } }]);

		const getTask = async (taskId: string, options: { asUser: true } | { token: string }): Promise<Result<'issue/get'>> =>
			methods['issue/get'].result.parse(expectOk(await host.cli(['issue', 'get', '--issue-id', issue.issueId, '--task-id', taskId, '--json'], options)));
		for (const options of [{ asUser: true } as const, { token: issue.source.token }]) {
			const old = await getTask('a', options);
			assert.deepEqual(old.tasks.map((t) => [t.taskId, t.superseded, t.supersededByTaskId, t.title]), [['a', true, 'a2', 'Task a']]);
			const replacement = await getTask('a2', options);
			assert.deepEqual(replacement.tasks.map((t) => [t.taskId, t.superseded, t.title]), [['a2', false, 'A again']]);
		}
		assert.deepEqual((await issueGet(host, issue.issueId)).tasks.map((t) => t.taskId), ['a2'], 'history is not in the plain list');

		const missing = expectError(await host.cli(['issue', 'get', '--issue-id', issue.issueId, '--task-id', 'nope', '--json'], { asUser: true }), 'task_not_found', 1);
		assert.match(missing.message, /has no task nope/);
	});
});
