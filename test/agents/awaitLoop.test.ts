// A real Claude Code agent waits for its next checkpoint through several bounded `tutti plan issue await` calls while
// the wait as a whole outlasts its Bash timeout: each call returns in time (state "waiting", exit 0, the same command
// in `next`), the agent repeats it, and the call after the developer's work lands answers the checkpoint. Bash's
// default (120 s in Claude Code) is shortened to 6 s and each await bound to 2.5 s so the test takes seconds, not
// minutes; background tasks are off, so a single call that outlived the Bash timeout would be killed.
import { strict as assert } from 'node:assert';
import { claudeBin, claudeEnv, isolatedEnv, makeAgentSandbox, spawnAgent } from './agentKit.js';
import { type Brain, startBrainServer } from './e2e/brainServer.js';
import { cliJs, type HostHandle, managedIssue, startHost, taskSpec, waitFor } from '../integration/harness.js';

/** The text of the newest tool_result in a Messages request ('' before the first tool call). */
function lastToolResult(body: unknown): string {
	const messages = (body as { messages?: { role: string; content: unknown }[] }).messages ?? [];
	for (let i = messages.length - 1; i >= 0; i--) {
		const content = messages[i]!.content;
		if (!Array.isArray(content)) { continue; }
		for (const block of content as { type?: string; content?: unknown }[]) {
			if (block.type !== 'tool_result') { continue; }
			const c = block.content;
			return typeof c === 'string' ? c : Array.isArray(c) ? (c as { text?: string }[]).map((x) => x.text ?? '').join('') : '';
		}
	}
	return '';
}

describe('real agents: an await loop longer than the Bash timeout', function () {
	this.timeout(120_000);
	let host: HostHandle;
	const sandbox = makeAgentSandbox('tutti-await-loop-');

	before(async () => { host = await startHost(); });
	after(async () => { await host.dispose(); sandbox.remove(); });

	it('completes across several bounded calls; the call after the task settles answers the checkpoint', async () => {
		const issue = await managedIssue(host);
		await issue.addTasks(taskSpec('a', 'gate'));
		await issue.scheduleOk(['a']);
		const awaitCommand = `${process.execPath} ${cliJs} plan issue await --issue-id ${issue.issueId}`;
		const results: string[] = [];
		const brain: Brain = ({ body, index }) => {
			const last = lastToolResult(body);
			if (index > 0) { results.push(last); }
			if (index === 0 || last.includes('"state":"waiting"')) {
				return { blocks: [{ type: 'tool', name: 'Bash', id: `toolu_await_${index}`, input: { command: awaitCommand, description: 'wait for the next checkpoint' } }] };
			}
			return { blocks: [{ type: 'text', text: 'The checkpoint arrived.' }] };
		};
		const server = await startBrainServer(brain);
		try {
			const env = {
				...isolatedEnv(sandbox.home), ...claudeEnv(server.url, sandbox.claudeConfigDir),
				TUTTI_IPC_HOOK: host.socket, TUTTI_SESSION_TOKEN: issue.source.token,
				TUTTI_AWAIT_TIMEOUT_MS: '2500', TUTTI_KEEPALIVE_MS: '1000',
				BASH_DEFAULT_TIMEOUT_MS: '6000', CLAUDE_CODE_DISABLE_BACKGROUND_TASKS: '1',
			};
			const started = Date.now();
			const agent = spawnAgent(claudeBin, ['-p', 'Wait for your next Tutti checkpoint.', '--output-format', 'stream-json', '--verbose', '--allowedTools', 'Bash'], sandbox.workspace, env, 90_000);
			// The task settles only once the wait has outlasted the Bash timeout through at least three bounded calls.
			await waitFor(() => (Date.now() - started > 7_000 && results.filter((r) => r.includes('"state":"waiting"')).length >= 3 ? true : undefined),
				{ timeoutMs: 60_000, what: 'three waiting answers and more than the Bash timeout' });
			issue.openGate('a', 0);
			const result = await agent.done;

			assert.equal(result.code, 0, result.stderr);
			// waitFor above already saw three waiting answers and more than 7 s of the test's clock; what it did not
			// see is the Host's side: each call advertises its own 2.5 s bound (under the Bash timeout) while the
			// waited time it reports is cumulative, from the durable entry time, so it grows across calls past 6 s.
			const waits = results.filter((r) => r.includes('"state":"waiting"'));
			const waited: number[] = [];
			for (const w of waits) {
				assert.match(w, /"advance_allowed":false/);
				assert.ok(w.includes(`"next":"tutti plan issue await --issue-id ${issue.issueId}"`), w);
				assert.ok(w.includes('"wait_timeout_seconds":3'), `each call is bounded by TUTTI_AWAIT_TIMEOUT_MS (2.5 s, advertised as 3): ${w}`);
				const seconds = /"waited_seconds":(\d+)/.exec(w);
				assert.ok(seconds, w);
				waited.push(Number(seconds[1]));
			}
			assert.deepEqual(waited, [...waited].sort((x, y) => x - y), `the reported wait only grows across calls (${waited.join(', ')})`);
			assert.ok(waited.at(-1)! >= 6, `the Host reports the whole wait, past the 6 s Bash timeout, not one call's (${waited.join(', ')} s)`);
			assert.ok(results.every((r) => !/timed out/i.test(r)), 'no call hit the Bash timeout');
			const final = results.at(-1) ?? '';
			assert.match(final, /"state":"checkpoint"/, final);
			assert.ok(final.includes('task_settled'), final);
		} finally {
			await server.close();
		}
	});
});
