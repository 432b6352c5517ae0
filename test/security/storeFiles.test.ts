// Security: the store is private to this user. `.tutti/` is 0700 and `tutti.sqlite`, `tutti.journal` and
// `host.lease` are 0600 (they hold task text), also after a snapshot replaced them by rename, and a store made
// readable by all (an older Tutti, a copy) is tightened when the Host opens it. config.json stays as the developer
// made it.
import { strict as assert } from 'node:assert';
import { chmodSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type HostHandle, expectOk, manualIssue, startHost } from '../integration/harness.js';
import { modeOf, octal } from './securityKit.js';

function assertMode(path: string, expected: number, what: string): void {
	assert.equal(octal(modeOf(path)), octal(expected), `${what} (${path})`);
}

describe('security: store files are private', function () {
	this.timeout(60_000);
	let host: HostHandle;
	let tutti: string;

	before(async function () {
		host = await startHost();
		tutti = join(host.workspace, '.tutti');
	});

	after(async function () {
		await host?.dispose();
	});

	function assertPrivateStore(when: string): void {
		assertMode(tutti, 0o700, `.tutti/ ${when}`);
		for (const name of ['tutti.sqlite', 'tutti.journal']) {
			assertMode(join(tutti, name), 0o600, `${name} ${when}`);
		}
	}

	it('a new store: .tutti/ 0700, database, journal and lease 0600; config.json left as the developer made it', async function () {
		const configMode = modeOf(join(tutti, 'config.json'));
		const issueId = await manualIssue(host, 'Private store');
		expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 't', '--title', 'T', '--content', 'secret task text', '--agent-target-id', 'ok', '--json'], { asUser: true }));
		assertPrivateStore('of a new store');
		assertMode(join(tutti, 'host.lease'), 0o600, 'the lease');
		assertMode(join(tutti, 'config.json'), configMode, 'config.json is not the store\'s to change');
	});

	it('a snapshot written by rename keeps the database and the journal 0600', async function () {
		const before = statSync(join(tutti, 'tutti.sqlite')).ino;
		await host.stop(); // the closing Host writes a final snapshot (temp file, then rename)
		assert.notEqual(statSync(join(tutti, 'tutti.sqlite')).ino, before, 'the database file was replaced by a snapshot');
		assertPrivateStore('after the snapshot');
		await host.start();
	});

	it('a store readable by all is tightened when the Host opens it', async function () {
		await host.stop();
		chmodSync(tutti, 0o755);
		for (const name of ['tutti.sqlite', 'tutti.journal']) { chmodSync(join(tutti, name), 0o644); }
		chmodSync(join(tutti, 'config.json'), 0o644);
		await host.start();
		assertPrivateStore('after the Host reopened a 0644/0755 store');
		assertMode(join(tutti, 'host.lease'), 0o600, 'the lease');
		assertMode(join(tutti, 'config.json'), 0o644, 'config.json stays as the developer made it');
		const list = expectOk<{ issues: unknown[] }>(await host.cli(['issue', 'list', '--json'], { asUser: true }));
		assert.equal(list.issues.length, 1, 'the tightened store still holds its issue');
	});
});
