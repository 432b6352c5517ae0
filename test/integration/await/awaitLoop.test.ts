// The bounded waits through the real CLI and Host: an await loop spanning several short calls
// (TUTTI_AWAIT_TIMEOUT_MS) while the developer's decision lands between calls; `agent resume`; `tutti hook stop`
// blocking with the owed command, allowing after Finish, and failing open when the Host is down.
import { strict as assert } from 'node:assert';
import { join } from 'node:path';
import {
	expectOk, type HostHandle, managedIssue, type ManagedIssue, show, standardTargets, startHost, taskSpec,
} from '../harness.js';

const shortWait = { TUTTI_AWAIT_TIMEOUT_MS: '300', TUTTI_KEEPALIVE_MS: '100' };

interface AgentJson {
	ok: boolean;
	state?: string;
	advance_allowed?: boolean;
	waited_seconds?: number;
	wait_timeout_seconds?: number;
	message?: string;
	next?: string;
}

describe('bounded waits through the CLI', function () {
	this.timeout(60_000);
	let host: HostHandle;
	let issue: ManagedIssue;

	before(async () => {
		host = await startHost({ config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 4, developerConfirmation: false, autoAcceptDefault: true } as never) });
		issue = await managedIssue(host);
	});
	after(async () => { await host.dispose(); });

	async function agent(args: string[], env: Record<string, string> = {}): Promise<{ code: number; json: AgentJson; stderr: string; stdout: string }> {
		const result = await issue.cli(args, { env });
		const lines = result.stdout.trim().split('\n');
		assert.equal(lines.length, 1, `exactly one JSON document on stdout: ${show(result)}`);
		return { code: result.code, json: JSON.parse(lines[0]!) as AgentJson, stderr: result.stderr, stdout: result.stdout };
	}

	async function hookStop(env: Record<string, string> = {}): Promise<{ code: number; stdout: string }> {
		const result = await issue.cli(['hook', 'stop'], { input: '{"hook_event_name":"Stop","stop_hook_active":false}', env });
		return { code: result.code, stdout: result.stdout.trim() };
	}

	it('loops over bounded calls to the checkpoint, then to completion, Finish and an allowed stop', async () => {
		const planGet = `tutti plan issue get --issue-id ${issue.issueId} --json`;
		// At the initial checkpoint: resume and the hook both name the snapshot read.
		const resumed = await agent(['agent', 'resume']);
		assert.equal(resumed.code, 0);
		assert.equal(resumed.json.next, planGet);
		const blocked = await hookStop();
		assert.equal(blocked.code, 0);
		assert.deepEqual(Object.keys(JSON.parse(blocked.stdout) as object), ['decision', 'reason']);
		assert.ok((JSON.parse(blocked.stdout) as { reason: string }).reason.endsWith(`Run this now: ${planGet}`), blocked.stdout);

		await issue.addTasks(taskSpec('a', 'gate', [], { autoAccept: true }));
		await issue.scheduleOk(['a']);
		// The source waits for its next checkpoint across several bounded calls; the task settles between calls.
		const first = await agent(['plan', 'issue', 'await', '--issue-id', issue.issueId], shortWait);
		assert.equal(first.code, 0, first.stdout);
		assert.equal(first.json.state, 'waiting');
		assert.equal(first.json.advance_allowed, false);
		assert.equal(first.json.wait_timeout_seconds, 1);
		assert.equal(first.json.next, `tutti plan issue await --issue-id ${issue.issueId}`);
		assert.match(first.stderr, /still waiting/, 'keep-alive lines on stderr');
		issue.openGate('a', 0);
		let answer = first;
		for (let calls = 1; answer.json.state === 'waiting'; calls++) {
			assert.ok(calls < 60, 'the checkpoint arrives');
			answer = await agent(['plan', 'issue', 'await', '--issue-id', issue.issueId], shortWait);
			assert.equal(answer.code, 0);
		}
		assert.equal(answer.json.state, 'checkpoint');
		assert.equal(answer.json.advance_allowed, true);
		assert.equal(answer.json.next, planGet);

		// Acknowledge up to the terminal checkpoint and complete (confirmation is off for this Host).
		let snapshot = await issue.get();
		while (snapshot.activeCheckpoint?.kind !== 'all_tasks_terminal') {
			await issue.acknowledgeOk();
			snapshot = await issue.get();
		}
		await issue.completeOk();

		// After completion: next-action waits across calls; the developer's Finish lands between two calls.
		const waiting1 = await agent(['next-action', '--issue-id', issue.issueId], shortWait);
		assert.equal(waiting1.code, 0);
		assert.equal(waiting1.json.state, 'waiting');
		assert.equal(waiting1.json.next, `tutti next-action --issue-id ${issue.issueId}`);
		assert.doesNotMatch(waiting1.json.message ?? '', /error|fail|timeout/i);
		const hookBefore = await hookStop();
		assert.match(hookBefore.stdout, /"decision":"block".*Run this now: tutti next-action --issue-id/);
		const waiting2 = await agent(['next-action', '--issue-id', issue.issueId], shortWait);
		assert.equal(waiting2.json.state, 'waiting');
		assert.ok((waiting2.json.waited_seconds ?? -1) >= (waiting1.json.waited_seconds ?? 0), 'the wait is cumulative');
		expectOk(await host.cli(['finish', '--issue-id', issue.issueId, '--as-user', '--json']));
		const finished = await agent(['next-action', '--issue-id', issue.issueId], shortWait);
		assert.equal(finished.code, 0);
		assert.equal(finished.json.state, 'finished');
		assert.equal(finished.json.next, undefined);
		assert.equal((await agent(['agent', 'resume'])).json.next, undefined);
		assert.deepEqual(await hookStop(), { code: 0, stdout: '{}' });
	});

	it('the hook fails open when the Host is down or the session is unknown', async () => {
		const down = await issue.cli(['hook', 'stop'], {
			input: '{}', env: { TUTTI_IPC_HOOK: join(host.base, 'no-such.sock'), TUTTI_HOOK_CONNECT_TIMEOUT_MS: '200' },
		});
		assert.deepEqual({ code: down.code, stdout: down.stdout.trim() }, { code: 0, stdout: '{}' });
		const unknown = await host.cli(['hook', 'stop'], { input: '{}', token: 'f'.repeat(64) });
		assert.deepEqual({ code: unknown.code, stdout: unknown.stdout.trim() }, { code: 0, stdout: '{}' });
		const noToken = await host.cli(['hook', 'stop'], { input: '{}' });
		assert.deepEqual({ code: noToken.code, stdout: noToken.stdout.trim() }, { code: 0, stdout: '{}' });
	});

	it('an await on an unknown issue is one JSON failure with a recovery, exit 1', async () => {
		const result = await agent(['await-review', '--issue-id', 'no-such-issue'], shortWait);
		assert.equal(result.code, 1);
		assert.equal(result.json.ok, false);
		assert.deepEqual((result.json as unknown as { recovery: unknown }).recovery, { hint: 'List the issues and use an existing id.', next: 'tutti issue list --json' });
	});
});
