// The CLI side of the agent-facing commands: one JSON document on stdout, keep-alive lines on stderr, exit codes;
// and `tutti hook stop` failing open on every problem.
import { strict as assert } from 'node:assert';
import { cliFailureResponse, hostAnswerSlackMs, runAgentJson, waitMsFrom } from '../../../../src/cli/agentJson.js';
import { hookOutput, runStopHook } from '../../../../src/cli/hookStop.js';
import { responseProblems } from '../../../../src/protocol/agentResponse.js';
import type { WireReasonCode } from '../../../../src/protocol/reasonCodes.js';

function io(env: Record<string, string> = {}): { env: Record<string, string>; out: string[]; err: string[]; stdout: (t: string) => void; stderr: (t: string) => void } {
	const out: string[] = [];
	const err: string[] = [];
	return { env, out, err, stdout: (t) => out.push(t), stderr: (t) => err.push(t) };
}

describe('CLI agent JSON and hook stop', () => {
	it('passes the bound from TUTTI_AWAIT_TIMEOUT_MS (never above 45 s) and prints keep-alive lines while waiting', async () => {
		assert.equal(waitMsFrom({}), undefined);
		assert.equal(waitMsFrom({ TUTTI_AWAIT_TIMEOUT_MS: '250' }), 250);
		assert.equal(waitMsFrom({ TUTTI_AWAIT_TIMEOUT_MS: '900000' }), 45_000);
		const t = io({ TUTTI_AWAIT_TIMEOUT_MS: '250', TUTTI_KEEPALIVE_MS: '10' });
		// The Host answers once the CLI has printed two keep-alive lines while it waited.
		const keptAlive = new Promise<void>((resolve) => {
			const write = t.stderr;
			t.stderr = (line) => { write(line); if (t.err.length >= 2) { resolve(); } };
		});
		let sent: Record<string, unknown> = {};
		const code = await runAgentJson(t, 'await/review', { issueId: 'i' }, async (p) => {
			sent = typeof p === 'function' ? p(60_000) : p;
			await keptAlive;
			return { ok: true, resultJson: '{"ok":true,"state":"waiting"}' };
		}, 'tutti await-review --issue-id i');
		assert.equal(code, 0);
		assert.deepEqual(sent, { issueId: 'i', waitMs: 250 });
		assert.deepEqual(t.out, ['{"ok":true,"state":"waiting"}\n']);
		assert.ok(t.err.length >= 2 && t.err.every((l) => /^tutti: still waiting/.test(l)), t.err.join(''));
	});

	it('shrinks the Host\'s wait by the time reaching it took, so its answer comes before the call\'s deadline', async () => {
		const t = io({ TUTTI_AWAIT_TIMEOUT_MS: '20000', TUTTI_KEEPALIVE_MS: '0' });
		const sent: unknown[] = [];
		let deadline: number | undefined;
		await runAgentJson(t, 'await/checkpoint', { issueId: 'i' }, async (p, deadlineMs) => {
			deadline = deadlineMs;
			assert.equal(typeof p, 'function');
			const at = p as (remainingMs: number) => Record<string, unknown>;
			sent.push(at(20_000 + hostAnswerSlackMs), at(9_000 + hostAnswerSlackMs), at(hostAnswerSlackMs - 1));
			return { ok: true, resultJson: '{"ok":true}' };
		}, 'tutti plan issue await --issue-id i');
		assert.equal(typeof deadline, 'number');
		assert.deepEqual(sent, [{ issueId: 'i', waitMs: 20_000 }, { issueId: 'i', waitMs: 9_000 }, { issueId: 'i', waitMs: 0 }]);
	});

	it('a long poll that cannot reach the Host prints the waiting response, retryable, with the same command (exit 0)', async () => {
		for (const method of ['await/review', 'await/checkpoint', 'await/next-action']) {
			const t = io();
			const code = await runAgentJson(t, method, { issueId: 'i' }, async () => ({ ok: false, error: { reasonCode: 'host_unavailable', message: 'no Host', hint: 'start it', retryable: true } }), 'tutti next-action --issue-id i');
			assert.equal(code, 0, method);
			assert.equal(t.out.length, 1);
			const doc = JSON.parse(t.out[0]!) as Record<string, unknown>;
			assert.deepEqual(responseProblems(doc as never), [], method);
			assert.equal(doc['state'], 'waiting');
			assert.equal(doc['retryable'], true);
			assert.equal(doc['advance_allowed'], false);
			assert.equal(doc['issue_id'], 'i');
			assert.equal(doc['next'], 'tutti next-action --issue-id i');
		}
	});

	it('turns other failures, and a transport failure of agent resume, into one valid agent failure whose recovery is the same command (exit 1)', async () => {
		const cases: Array<[string, WireReasonCode]> = [['agent/resume', 'host_unavailable'], ['await/next-action', 'unauthenticated']];
		for (const [method, reasonCode] of cases) {
			const t = io();
			const code = await runAgentJson(t, method, { issueId: 'i' }, async () => ({ ok: false, error: { reasonCode, message: 'no Host', hint: 'start it' } }), 'tutti next-action --issue-id i');
			assert.equal(code, 1, method);
			assert.equal(t.out.length, 1);
			const doc = JSON.parse(t.out[0]!) as Record<string, unknown>;
			assert.deepEqual(responseProblems(doc as never), []);
			assert.deepEqual(doc, cliFailureResponse(reasonCode, 'no Host', 'start it Then run the command in recovery.next.', 'tutti next-action --issue-id i'));
		}
	});

	it('hook stop prints the block, the release note, or {} — and {} on every failure', async () => {
		assert.equal(hookOutput('{"decision":"block","reason":"Run this now: tutti x"}'), '{"decision":"block","reason":"Run this now: tutti x"}');
		assert.equal(hookOutput('{"decision":"allow","systemMessage":"hand back"}'), '{"systemMessage":"hand back"}');
		assert.equal(hookOutput('{"decision":"allow"}'), '{}');
		const drain = async (): Promise<void> => { /* stdin drained */ };
		const cases: Array<[Record<string, string>, () => Promise<never> | Promise<{ ok: true; resultJson: string }>]> = [
			[{}, async () => { throw new Error('must not be called without a token'); }],
			[{ TUTTI_SESSION_TOKEN: 't' }, async () => { throw new Error('socket exploded'); }],
			[{ TUTTI_SESSION_TOKEN: 't' }, async () => ({ ok: true, resultJson: 'not json' })],
		];
		for (const [env, call] of cases) {
			const t = io(env);
			assert.equal(await runStopHook({ env, stdout: t.stdout, drainStdin: drain }, call), 0);
			assert.deepEqual(t.out, ['{}\n']);
		}
		const t = io({ TUTTI_SESSION_TOKEN: 't' });
		await runStopHook({ env: t.env, stdout: t.stdout, drainStdin: async () => { throw new Error('stdin closed badly'); } }, async () => ({ ok: true, resultJson: '{"decision":"block","reason":"r"}' }));
		assert.deepEqual(t.out, ['{}\n']);
	});
});
