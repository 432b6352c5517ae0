// Security: a store that came with the folder runs nothing by itself. A repository can ship `.tutti/config.json`,
// `tutti.sqlite` and `tutti.journal` holding an issue with a queued task; a plain `tutti host` used to dispatch it at
// once. Now a store this machine did not create or open at this path before (src/host/knownStores.ts) opens with
// every issue's dispatch paused as the developer's own pause, says so on the ready line and in `hello`, and nothing
// of it launches until the developer resumes. A store this machine knows opens as before.
import { strict as assert } from 'node:assert';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { protocolVersion } from '../../src/protocol/controlPlane.js';
import type { IssueDto, RunDto } from '../../src/protocol/dto.js';
import { Store } from '../../src/store/database.js';
import { issueRepository } from '../../src/store/repositories/issueRepository.js';
import { type AgentTarget, type HostConfig, type HostHandle, expectOk, manualIssue, startHost, waitFor } from '../integration/harness.js';
import { addManualTask, rawPost, userCredentialOf } from './securityKit.js';

const headline = /This store came with the folder: nothing runs until you resume\./;

/** A command target that leaves `<dir>/<task id>` behind: the mark that a task of it ran. */
function markTarget(dir: string): AgentTarget {
	const script = "require('fs').writeFileSync(require('path').join(process.env.MARKS, process.env.TUTTI_TASK_ID), String(Date.now()))";
	return { id: 'mark', adapter: 'command', argv: [process.execPath, '-e', script], env: { MARKS: dir } };
}

/** What a clone delivers: the config and the store files, nothing else (no lease, no Run directories). */
function copyStore(from: string, to: string): void {
	mkdirSync(join(to, '.tutti'), { recursive: true });
	for (const name of ['config.json', 'tutti.sqlite', 'tutti.journal']) {
		copyFileSync(join(from, '.tutti', name), join(to, '.tutti', name));
	}
}

async function issueOf(host: HostHandle, issueId: string): Promise<IssueDto> {
	return expectOk<IssueDto>(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true }));
}

async function runsOf(host: HostHandle, issueId: string): Promise<RunDto[]> {
	return expectOk<{ runs: RunDto[] }>(await host.cli(['run', 'list', '--issue-id', issueId, '--json'], { asUser: true })).runs;
}

describe('security: a store that came with the folder runs nothing until the developer resumes', function () {
	this.timeout(90_000);
	let marks: string;
	let config: HostConfig;
	let origin: HostHandle;
	let clone: HostHandle | undefined;
	let cloneDir: string;
	let shippedIssue: string;
	let ownIssue: string;

	before(async function () {
		marks = mkdtempSync(join(tmpdir(), 'tutti-sec-arrival-marks-'));
		cloneDir = mkdtempSync(join(tmpdir(), 'tutti-sec-arrival-clone-'));
		config = { agentTargets: [markTarget(marks)], maxParallelRuns: 4 };
		origin = await startHost({ config });
		assert.equal(origin.notice, undefined, `a store the Host creates is this machine's own (${origin.notice})`);
		// The origin: an issue of its own that ran, and one holding a queued task (paused while it was added).
		ownIssue = await manualIssue(origin, 'Own issue');
		await addManualTask(origin, ownIssue, 'own1', ['--content', 'ran at the origin', '--agent-target-id', 'mark']);
		await waitFor(() => existsSync(join(marks, 'own1')), { what: 'the origin\'s own task to run' });
		shippedIssue = await manualIssue(origin, 'Shipped issue');
		expectOk(await origin.cli(['issue', 'pause', '--issue-id', shippedIssue, '--json'], { asUser: true }));
		await addManualTask(origin, shippedIssue, 'queued1', ['--content', 'runs in whoever opens the clone', '--agent-target-id', 'mark']);
		await origin.stop();
		copyStore(origin.workspace, cloneDir);
		// What a repository author ships: the issue unpaused, its task queued, ready to dispatch.
		const crafted = await Store.open({ dir: join(cloneDir, '.tutti') });
		await crafted.transaction((tx) => {
			const issue = issueRepository.get(tx, shippedIssue)!;
			issueRepository.update(tx, { ...issue, dispatchPaused: false });
			// A managed issue with no execution (nothing can dispatch it; its pause is refused): the Host still starts.
			issueRepository.insert(tx, { ...issue, issueId: 'issue-orphan', title: 'No execution', planningSource: 'tutti', sourceSessionId: '', dispatchPaused: false });
		});
		await crafted.close();
	});

	after(async function () {
		await clone?.dispose();
		await origin?.dispose();
		rmSync(marks, { recursive: true, force: true });
		rmSync(cloneDir, { recursive: true, force: true });
	});

	it('opens paused, says so on the ready line and in hello, and launches nothing before the developer resumes', async function () {
		clone = await startHost({ workspace: cloneDir, config });
		assert.deepEqual((await runsOf(clone, shippedIssue)).map((r) => r.taskId), [], 'no Run of the queued task was started');
		assert.equal(existsSync(join(marks, 'queued1')), false, 'the queued task never ran');
		const issue = await issueOf(clone, shippedIssue);
		assert.equal(issue.dispatchPaused, true, 'every issue came up paused');
		assert.match(clone.notice ?? '', headline, 'the ready line says the store came with the folder');
		const hello = await rawPost(clone.socket, 'hello', userCredentialOf(clone), { client: 'security-test', protocol: protocolVersion });
		assert.match((JSON.parse(hello.body) as { result?: { notice?: string } }).result?.notice ?? '', headline, `hello says so too (${hello.body})`);
		assert.match(clone.stderr, headline, 'and so does the Host\'s log');
		assert.match(clone.stderr, /issue issue-orphan .*could not be paused/, 'an issue the pause refuses is named, and the Host still starts');
		// A request an agent could not make: the developer's own resume lets it run.
		expectOk(await clone.cli(['issue', 'resume', '--issue-id', shippedIssue, '--json'], { asUser: true }));
		await waitFor(() => existsSync(join(marks, 'queued1')), { what: 'the queued task to run after the developer resumed' });
		assert.equal((await runsOf(clone, shippedIssue)).length, 1, 'one Run, started by the resume');
		expectOk(await clone.cli(['issue', 'resume', '--issue-id', ownIssue, '--json'], { asUser: true }));
		const after = await rawPost(clone.socket, 'hello', userCredentialOf(clone), { client: 'security-test', protocol: protocolVersion });
		assert.equal((JSON.parse(after.body) as { result?: { notice?: string } }).result?.notice, undefined, 'once every paused issue is resumed, hello no longer says nothing runs');
	});

	it('once opened here, the clone opens as before: no notice, the developer\'s resume stands', async function () {
		await clone!.restart();
		assert.equal(clone!.notice, undefined, `no notice for a store this machine opened (${clone!.notice})`);
		assert.equal((await issueOf(clone!, shippedIssue)).dispatchPaused, false);
	});

	it('a store this machine created opens as before, its issues not paused', async function () {
		await origin.start();
		assert.equal(origin.notice, undefined, `no notice at the origin (${origin.notice})`);
		assert.equal((await issueOf(origin, ownIssue)).dispatchPaused, false, 'the origin\'s own issue is not paused');
		await addManualTask(origin, ownIssue, 'own2', ['--content', 'runs at once', '--agent-target-id', 'mark']);
		await waitFor(() => existsSync(join(marks, 'own2')), { what: 'a new task at the origin to run' });
	});

	it('a store whose lease names another machine is refused; once the developer removes the lease it opens paused', async function () {
		const other = mkdtempSync(join(tmpdir(), 'tutti-sec-arrival-other-'));
		try {
			await origin.stop();
			copyStore(origin.workspace, other);
			const lease = join(other, '.tutti', 'host.lease');
			writeFileSync(lease, JSON.stringify({ pid: 1, nonce: 'shipped', startedAt: Date.now(), hostname: `not-${hostname()}` }));
			await assert.rejects(startHost({ workspace: other, config }), /Another Tutti Host[^]*on host not-/);
			rmSync(lease);
			const opened = await startHost({ workspace: other, config });
			try {
				assert.match(opened.notice ?? '', headline);
				assert.equal((await issueOf(opened, ownIssue)).dispatchPaused, true, 'the origin\'s unpaused issue is paused in the copy');
			} finally {
				await opened.dispose();
			}
		} finally {
			rmSync(other, { recursive: true, force: true });
		}
	});
});
