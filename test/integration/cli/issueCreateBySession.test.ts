// `tutti issue create` works for any session, not only the developer's `--as-user` (manual issues are
// edited by "the developer (or any agent)"): a worker's and a source's session token each create a manual issue
// through the real CLI, and the developer sees them.
import { strict as assert } from 'node:assert';
import { expectOk, type HostHandle, openSession, shareHost } from '../harness.js';

interface IssueDto {
	issueId: string;
	title: string;
	planningSource: string;
}

describe('tutti issue create by an agent session', function () {
	this.timeout(60_000);
	let host: HostHandle;
	shareHost((h) => { host = h; });

	it('a worker and a source session each create a manual issue with their own token', async () => {
		for (const role of ['worker', 'source'] as const) {
			const session = await openSession(host, role);
			const created = expectOk<IssueDto>(await host.cli(['issue', 'create', '--title', `by a ${role}`, '--content', 'found while working', '--json'], { token: session.token }));
			assert.equal(created.title, `by a ${role}`);
			assert.equal(created.planningSource, 'manual');
			const listed = expectOk<{ issues: IssueDto[] }>(await host.cli(['issue', 'list', '--json'], { asUser: true }));
			assert.ok(listed.issues.some((issue) => issue.issueId === created.issueId), `the developer sees ${created.issueId}`);
		}
	});
});
