// What a waiting agent is told is on disk first. A store read sees a commit at once, while its journal
// frame may still wait in memory behind the fsync of an earlier batch (database.ts, "Visibility note"); a Host
// killed -9 then loses that commit. The interleaving of the crash campaign's failure ("approval expired, yet its
// agent received allow"), held step by step: the journal is behind (an earlier batch's fdatasync is held), the
// developer's answer (or a Stop) commits in memory, the waiting call's poll fires. At the instant the agent gets its
// reply the store files are copied — what a Host killed right then restarts from — and must already hold the answer
// it was told.
import { strict as assert } from 'node:assert';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Caller, Result } from '../../../../src/protocol/controlPlane.js';
import { Store } from '../../../../src/store/database.js';
import { approvalRepository } from '../../../../src/store/repositories/approvalRepository.js';
import { HeldSyncs } from '../../store/faultyDisk.js';
import { insertIssue } from '../../store/storeTestKit.js';
import { SteppedWaitTimer } from '../await/steppedWaitTimer.js';
import { ServiceHarness } from '../services/serviceHarness.js';

describe('approval answers reach the agent only once they are on disk', () => {
	let h: ServiceHarness;
	let timer: SteppedWaitTimer;
	let disk: HeldSyncs;
	let issueId: string;
	const copies: string[] = [];

	beforeEach(async () => {
		disk = new HeldSyncs();
		disk.install();
		timer = SteppedWaitTimer.holdingUntilCommit();
		h = await ServiceHarness.open({ awaitTimer: timer });
		timer.attach(h.store);
		issueId = (await h.call('issue/create', { title: 'approvals' })).issueId;
	});
	afterEach(async () => {
		disk.uninstall();
		await h.close();
		for (const dir of copies.splice(0)) { rmSync(dir, { recursive: true, force: true }); }
	});

	/** A running Run asking about one tool call, and its agent parked in a wait. */
	async function agentWaiting(): Promise<{ runId: string; approvalId: string; waiting: Promise<Result<'approval/wait'>> }> {
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'ok' });
		await h.idle();
		const runId = h.runs.launches[0]!.runId;
		const run = await h.call('run/get', { runId });
		const agent: Caller = { kind: 'session', sessionId: run.agentSessionId, role: 'worker' };
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'npm publish' }, toolUseId: 'toolu_1' }, agent);
		const parked = timer.paused();
		const waiting = h.call('approval/wait', { approvalId: asked.approval.approvalId, waitMs: 30_000 }, agent);
		await parked;
		return { runId, approvalId: asked.approval.approvalId, waiting };
	}

	/** The journal falls behind: an unrelated write's batch is written and its fdatasync held (resolves with that write). */
	async function journalBehind(): Promise<{ earlier: Promise<unknown> }> {
		disk.hold();
		const held = disk.synced();
		const earlier = h.store.transaction((tx) => insertIssue(tx, 'a-write-ahead'));
		await held;
		return { earlier };
	}

	/** The store files as they are right now (what a Host killed -9 at this instant restarts from). */
	function copyStoreNow(): string {
		const copy = mkdtempSync(join(tmpdir(), 'tutti-killed-'));
		copies.push(copy);
		cpSync(h.store.paths.dir, join(copy, '.tutti'), { recursive: true });
		return copy;
	}

	async function recordedStatus(copy: string, approvalId: string): Promise<string> {
		const store = await Store.open({ dir: join(copy, '.tutti'), lease: false });
		try {
			return store.read((r) => approvalRepository.get(r, approvalId)?.status ?? 'missing');
		} finally {
			await store.close();
		}
	}

	/** The poll fires while the journal is behind; the held fdatasync then runs (its callback comes after the reply of a poll that does not wait). */
	async function pollFires(waiting: Promise<Result<'approval/wait'>>): Promise<{ reply: Result<'approval/wait'>; copy: string }> {
		const told = waiting.then((reply) => ({ reply, copy: copyStoreNow() }));
		timer.wake();
		disk.release();
		return told;
	}

	it("the developer's allow: the agent is told allow only once a Host killed at that instant finds it recorded", async () => {
		const { approvalId, waiting } = await agentWaiting();
		const { earlier } = await journalBehind();
		const answering = h.call('approval/answer', { approvalId, allow: true });
		const { reply, copy } = await pollFires(waiting);
		assert.deepEqual(reply.permission, { behavior: 'allow', updatedInput: { command: 'npm publish' } });
		assert.equal(await recordedStatus(copy, approvalId), 'allowed', 'the store a restarted Host reads says what the agent was told');
		assert.equal((await answering).approval.status, 'allowed');
		await earlier;
	});

	it("a Stop that cancels the request: the agent is told the denial only once the cancellation is on disk", async () => {
		const { runId, approvalId, waiting } = await agentWaiting();
		const { earlier } = await journalBehind();
		const stopping = h.call('run/stop', { runId });
		const { reply, copy } = await pollFires(waiting);
		assert.deepEqual(reply.permission, { behavior: 'deny', message: 'The request was canceled: the developer stopped this Run.' });
		assert.equal(await recordedStatus(copy, approvalId), 'canceled', 'a restarted Host cannot record another answer for it');
		await Promise.all([stopping, earlier]);
	});

	it('a second answer racing the first is refused only once the first is on disk (the refusal reports it)', async () => {
		const { approvalId, waiting } = await agentWaiting();
		const { earlier } = await journalBehind();
		const first = h.call('approval/answer', { approvalId, allow: true });
		const refused = h.call('approval/answer', { approvalId, deny: true, message: 'the racing answer' }).then(
			() => assert.fail('the second answer was taken'),
			(e: unknown) => ({ e, copy: copyStoreNow() }),
		);
		disk.release();
		const { e, copy } = await refused;
		assert.match((e as Error).message, /already answered: allowed once by the developer/);
		assert.equal(await recordedStatus(copy, approvalId), 'allowed', 'the answer the refusal reports is on disk when the developer reads it');
		await Promise.all([first, earlier]);
		assert.equal((await waiting).permission?.behavior, 'allow');
	});

	it('an answer recorded before the Run ends stays the answer: the end expires only what is still pending', async () => {
		const { runId, approvalId, waiting } = await agentWaiting();
		await h.call('approval/answer', { approvalId, allow: true });
		assert.equal((await waiting).permission?.behavior, 'allow');
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		assert.equal((await h.call('run/get', { runId })).status, 'completed');
		const listed = await h.call('approval/list', { issueId });
		assert.deepEqual(listed.approvals.map((a) => [a.approvalId, a.status, a.answer]), [[approvalId, 'allowed', 'allow_once']]);
	});
});
