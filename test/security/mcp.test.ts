// Security: `tutti mcp`, the stdio MCP server a claude Run starts for its permission prompts. Driven as the real
// process (`node dist/cli.js mcp`) with raw bytes on stdin: every malformed, oversize or unknown request gets the
// JSON-RPC error for it and the server goes on serving; a session asks and waits only for its own Run's approvals;
// and nothing it is given (tool, arguments, environment) lets it answer for the developer.
import { strict as assert } from 'node:assert';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type HostHandle, expectError, expectOk, manualIssue, methods, startHost, waitFor } from '../integration/harness.js';
import { McpProcess, mcpEnv, permissionOf, type Printed } from './mcpKit.js';
import { addManualTask, envOf, holderTarget, recordOf, releaseHolder, userCredentialOf } from './securityKit.js';
import type { ApprovalDto } from '../../src/protocol/approvals.js';

const parseError = -32700;
const invalidRequest = -32600;
const methodNotFound = -32601;
const invalidParams = -32602;
const MiB = 1024 * 1024;

function assertError(reply: Printed, code: number, id: string | number | null, what: string): void {
	assert.equal(reply.jsonrpc, '2.0', `${what}: a JSON-RPC 2.0 reply: ${JSON.stringify(reply).slice(0, 300)}`);
	assert.equal(reply.result, undefined, `${what}: no result`);
	assert.equal(reply.error?.code, code, `${what}: error code: ${JSON.stringify(reply).slice(0, 300)}`);
	assert.deepEqual(reply.id, id, `${what}: id`);
	assert.ok(typeof reply.error?.message === 'string' && reply.error.message.length > 0 && reply.error.message.length < 2000, `${what}: a short message`);
}

describe('security: tutti mcp (the real process on stdio)', function () {
	this.timeout(120_000);

	describe('malformed, oversize and unknown requests', function () {
		let mcp: McpProcess;
		let pings = 0;

		/** The server still answers the next valid request, and nothing else comes before that answer. */
		async function stillServes(what: string): Promise<void> {
			const id = `ping-${++pings}`;
			const reply = await mcp.call(id, 'ping');
			assert.deepEqual(reply.result, {}, `${what}: then a ping is answered`);
		}

		before(async function () {
			// A socket nobody listens on: nothing in this block may reach a Host.
			mcp = new McpProcess(mcpEnv({ TUTTI_IPC_HOOK: '/nonexistent/tutti.sock', TUTTI_SESSION_TOKEN: 'x'.repeat(64), TUTTI_RUN_ID: 'run-x' }));
			await mcp.initialize();
		});

		after(async function () {
			mcp.kill();
		});

		it('a line that is not JSON is a parse error (id null), and the next request is served', async function () {
			for (const line of ['not json at all', '{"jsonrpc":"2.0","id":1,"method":', '{"jsonrpc":"2.0","id":1,"method":"ping"}}', '\u0000\u0001\u00ff', '{\'jsonrpc\':\'2.0\'}']) {
				await mcp.write(`${line}\n`);
				assertError(await mcp.next(), parseError, null, JSON.stringify(line));
				await stillServes(JSON.stringify(line));
			}
		});

		it('JSON that is not a JSON-RPC 2.0 message is an invalid request (with its id when it has one)', async function () {
			const cases: [unknown, string | number | null][] = [
				[{ jsonrpc: '1.0', id: 2, method: 'ping' }, 2],
				[{ id: 3, method: 'ping' }, 3],
				[{ jsonrpc: '2.0', id: 4 }, 4],
				[{ jsonrpc: '2.0', id: 5, method: 7 }, 5],
				[{ jsonrpc: '2.0', id: 'six', method: ['tools/call'] }, 'six'],
				[{ jsonrpc: '2.0', id: { nested: 1 }, method: 'ping' }, null],
				[{ jsonrpc: '2.0', id: true, method: 'ping' }, null],
				[{ jsonrpc: '2.0', method: 42 }, null],
				[[{ jsonrpc: '2.0', id: 8, method: 'ping' }], null],
				['a string', null],
				[42, null],
				[null, null],
			];
			for (const [message, id] of cases) {
				await mcp.send(message);
				assertError(await mcp.next(), invalidRequest, id, JSON.stringify(message));
				await stillServes(JSON.stringify(message));
			}
		});

		it('wrong parameter types are invalid params, naming the request', async function () {
			const cases: [string, unknown][] = [
				['tools/call', { name: 7, arguments: {} }],
				['tools/call', { name: 'approve', arguments: 'rm -rf /' }],
				['tools/call', { name: 'approve', arguments: { tool_name: 'Bash', input: 'rm -rf /' } }],
				['tools/call', { name: 'approve', arguments: { tool_name: ['Bash'], input: {} } }],
				['tools/call', { name: 'approve', arguments: { tool_name: 'Bash', input: {}, tool_use_id: 12 } }],
				['tools/call', { arguments: {} }],
				['initialize', { protocolVersion: 5, capabilities: 'all' }],
			];
			let n = 0;
			for (const [method, params] of cases) {
				const id = `bad-params-${++n}`;
				assertError(await mcp.call(id, method, params), invalidParams, id, `${method} ${JSON.stringify(params)}`);
				await stillServes(`${method} ${JSON.stringify(params)}`);
			}
		});

		it('an unknown method is method-not-found and an unknown tool is invalid params; an unknown notification gets no reply', async function () {
			for (const method of ['tools/delete', 'approval/answer', 'resources/read', 'sampling/createMessage', '__proto__', 'x'.repeat(10_000)]) {
				const reply = await mcp.call('unknown-method', method, {});
				assertError(reply, methodNotFound, 'unknown-method', method.slice(0, 40));
				await stillServes(method.slice(0, 40));
			}
			for (const name of ['allow', 'approval_answer', 'answer', 'Bash', '', 'approve '.repeat(1000)]) {
				const reply = await mcp.call('unknown-tool', 'tools/call', { name, arguments: { tool_name: 'Bash', input: { command: 'ls' } } });
				assertError(reply, invalidParams, 'unknown-tool', name.slice(0, 40));
				assert.ok(reply.error!.message.length < 400, 'the tool name is not echoed back whole');
				await stillServes(name.slice(0, 40));
			}
			// A notification (no id) is never answered, known or not: the next message is the ping's reply.
			await mcp.send({ jsonrpc: '2.0', method: 'notifications/whatever', params: { x: 1 } });
			await mcp.send({ jsonrpc: '2.0', method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Bash', input: {} } } });
			await stillServes('notifications');
		});

		it('a tool input of many MB is denied without asking anyone, and the server goes on', async function () {
			const content = 'x'.repeat(12 * MiB);
			await mcp.send({ jsonrpc: '2.0', id: 'big-input', method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Write', input: { file_path: 'big.txt', content }, tool_use_id: 'toolu_big' } } });
			const reply = await mcp.next();
			assert.equal(reply.id, 'big-input');
			const answer = permissionOf(reply);
			assert.equal(answer.behavior, 'deny');
			assert.match(answer.message ?? '', /Tutti did not ask the developer: the Write input is \d+ characters, over the 262144/);
			await stillServes('a 12 MiB tool input');
		});

		it('a line of many MB that is not a request is refused, and a line over the cap is refused whole without being buffered', async function () {
			await mcp.write(`${'y'.repeat(12 * MiB)}\n`);
			assertError(await mcp.next(), parseError, null, 'a 12 MiB line of garbage');
			await stillServes('a 12 MiB line of garbage');
			// Over the line cap (32 MiB): refused as too large, in pieces as a pipe delivers it, and the next line is read afresh.
			const piece = Buffer.alloc(4 * MiB, 'z');
			await mcp.write('{"jsonrpc":"2.0","id":"huge","method":"ping","params":{"pad":"');
			for (let i = 0; i < 10; i++) { await mcp.write(piece); }
			await mcp.write('"}}\n');
			const reply = await mcp.next();
			assertError(reply, invalidRequest, null, 'a 40 MiB line');
			assert.match(reply.error!.message, /over \d+ bytes|too large/i);
			await stillServes('a 40 MiB line');
			assert.ok(mcp.running, 'the server is still running');
			assert.deepEqual(mcp.strayLines, [], 'the server printed nothing but JSON-RPC on stdout');
		});
	});

	describe('against a real Host', function () {
		let host: HostHandle;
		let records: string;
		let issueId: string;
		const live: McpProcess[] = [];
		/** Each Run's identity as its agent received it. */
		const agents = new Map<string, { token: string; runId: string; sessionId: string; hook: string }>();

		function mcpFor(taskId: string, override: Record<string, string> = {}, drop: string[] = []): McpProcess {
			const agent = agents.get(taskId)!;
			const env: Record<string, string> = { TUTTI_IPC_HOOK: agent.hook, TUTTI_SESSION_TOKEN: agent.token, TUTTI_RUN_ID: agent.runId, XDG_RUNTIME_DIR: host.runtimeDir, ...override };
			for (const name of drop) { delete env[name]; }
			const mcp = new McpProcess(mcpEnv(env));
			live.push(mcp);
			return mcp;
		}

		async function approvals(): Promise<ApprovalDto[]> {
			return methods['approval/list'].result.parse(expectOk(await host.cli(['approval', 'list', '--issue-id', issueId, '--json'], { asUser: true }))).approvals;
		}

		async function pendingOf(runId: string, toolUseId: string): Promise<ApprovalDto> {
			return waitFor(async () => (await approvals()).find((a) => a.runId === runId && a.toolUseId === toolUseId && a.status === 'pending'),
				{ what: `the pending approval ${toolUseId} of ${runId}`, timeoutMs: 20_000 });
		}

		before(async function () {
			records = mkdtempSync(join(tmpdir(), 'tutti-sec-mcp-'));
			host = await startHost({ config: { agentTargets: [holderTarget('hold', records)], maxParallelRuns: 4 } });
			issueId = await manualIssue(host, 'Approvals over tutti mcp');
			for (const taskId of ['a1', 'b1']) {
				await addManualTask(host, issueId, taskId, ['--agent-target-id', 'hold', '--content', 'wait']);
			}
			for (const taskId of ['a1', 'b1']) {
				const record = await waitFor(() => recordOf(records, taskId), { what: `the agent of ${taskId} started`, timeoutMs: 20_000 });
				const env = envOf(record);
				agents.set(taskId, { token: env.get('TUTTI_SESSION_TOKEN')!, runId: env.get('TUTTI_RUN_ID')!, sessionId: env.get('TUTTI_SESSION_ID')!, hook: env.get('TUTTI_IPC_HOOK')! });
			}
			assert.notEqual(agents.get('a1')!.token, agents.get('b1')!.token);
		});

		after(async function () {
			for (const mcp of live) { mcp.kill(); }
			if (records !== undefined) {
				for (const taskId of ['a1', 'b1']) { releaseHolder(records, taskId); }
			}
			await host?.dispose();
			if (records !== undefined) { rmSync(records, { recursive: true, force: true }); }
		});

		it("a session asks and waits only for its own Run: another Run's id or approval is refused and nothing of it leaks", async function () {
			const a = agents.get('a1')!;
			const b = agents.get('b1')!;
			const secret = `SECRET-${a.runId}-do-not-leak`;
			const mcpA = mcpFor('a1');
			await mcpA.initialize();
			await mcpA.send({ jsonrpc: '2.0', id: 'own', method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Bash', input: { command: `echo ${secret}` }, tool_use_id: 'toolu_shared' } } });
			const own = await pendingOf(a.runId, 'toolu_shared');
			assert.equal(own.sessionId, a.sessionId, "the request is the asking session's");

			// A's token naming B's Run (TUTTI_RUN_ID swapped): denied with the reason, and no request exists for B's Run.
			const crossed = mcpFor('a1', { TUTTI_RUN_ID: b.runId });
			await crossed.initialize();
			// Whichever comes first: its answer, or (the fence broken) a request filed under B's Run, which would wait forever.
			let crossedAnswered = false;
			const reply = crossed.call('crossed', 'tools/call', { name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'toolu_crossed' } })
				.finally(() => { crossedAnswered = true; });
			const filed = waitFor(async () => crossedAnswered || (await approvals()).some((x) => x.runId === b.runId), { what: 'an answer or a request', timeoutMs: 60_000 });
			await Promise.race([reply, filed]);
			assert.deepEqual((await approvals()).filter((x) => x.runId === b.runId).map((x) => x.tool), [], "nothing was asked for B's Run");
			const denial = permissionOf(await reply);
			assert.equal(denial.behavior, 'deny');
			assert.match(denial.message ?? '', new RegExp(`Run ${b.runId} belongs to another agent session`));
			await filed;

			// B's own server reusing A's tool_use_id gets a request of its own, never A's (nor A's input).
			const mcpB = mcpFor('b1');
			await mcpB.initialize();
			await mcpB.send({ jsonrpc: '2.0', id: 'b-own', method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Read', input: { file_path: 'b.txt' }, tool_use_id: 'toolu_shared' } } });
			const bOwn = await pendingOf(b.runId, 'toolu_shared');
			assert.notEqual(bOwn.approvalId, own.approvalId);
			assert.deepEqual(bOwn.input, { file_path: 'b.txt' });

			// On the control plane: B's token may neither wait on A's approval nor ask for A's Run; the refusals name no input.
			const waits = await host.cli(['approval', 'wait', '--approval-id', own.approvalId, '--json'], { token: b.token });
			const asks = await host.cli(['approval', 'request', '--run-id', a.runId, '--tool', 'Bash', '--input', 'rm -rf .', '--json'], { token: b.token });
			for (const refused of [waits, asks]) {
				const error = expectError(refused, 'forbidden');
				assert.match(error.message, /belongs to another agent session/);
				assert.ok(!`${refused.stdout}${refused.stderr}`.includes(secret), 'the refusal carries nothing of the other request');
			}
			assert.equal((await approvals()).filter((x) => x.runId === a.runId).length, 1, "no request was added to A's Run");

			// Only A's own answer reaches A: the developer denies it and A's server returns exactly that.
			expectOk(await host.cli(['approval', 'answer', '--approval-id', own.approvalId, '--deny', '--message', 'not now', '--json'], { asUser: true }));
			const answered = await mcpA.next();
			assert.equal(answered.id, 'own');
			assert.deepEqual(permissionOf(answered), { behavior: 'deny', message: 'not now' });
			assert.equal((await approvals()).find((x) => x.approvalId === bOwn.approvalId)?.status, 'pending', "B's request is untouched");
		});

		it("nothing in its arguments or environment lets tutti mcp answer: it waits for the developer's --as-user answer", async function () {
			const a = agents.get('a1')!;
			const credential = userCredentialOf(host);
			const tempting = {
				TUTTI_AS_USER: '1', TUTTI_USER_TOKEN: credential, TUTTI_USER_CREDENTIAL: credential, TUTTI_APPROVE: 'allow', TUTTI_AUTO_APPROVE: '1',
				TUTTI_PERMISSION: 'allow', TUTTI_APPROVAL_ANSWER: 'allow', TUTTI_DEVELOPER: '1',
			};
			const mcp = mcpFor('a1', tempting);
			await mcp.initialize();
			const input = { command: 'git push --force origin main' };
			await mcp.send({
				jsonrpc: '2.0', id: 'tempted', method: 'tools/call',
				params: {
					name: 'approve',
					arguments: { tool_name: 'Bash', input, tool_use_id: 'toolu_tempted', behavior: 'allow', answer: 'allow', allow: true, as_user: true, updatedInput: {} },
					_meta: { asUser: true, answer: 'allow' },
				},
			});
			const pending = await pendingOf(a.runId, 'toolu_tempted');
			assert.equal(pending.answeredBy, '');
			// Still waiting: the next thing it says is the reply to a ping, not an answer of its own.
			assert.deepEqual((await mcp.call('still-waiting', 'ping')).result, {});
			// The agent's own token cannot answer it either.
			expectError(await host.cli(['approval', 'answer', '--approval-id', pending.approvalId, '--allow', '--json'], { token: a.token }), 'forbidden');
			assert.equal((await approvals()).find((x) => x.approvalId === pending.approvalId)?.status, 'pending');

			expectOk(await host.cli(['approval', 'answer', '--approval-id', pending.approvalId, '--allow', '--json'], { asUser: true }));
			const reply = await mcp.next();
			assert.equal(reply.id, 'tempted');
			assert.deepEqual(permissionOf(reply), { behavior: 'allow', updatedInput: input }, 'the agent gets its own input back, as the developer allowed it');
			const answered = (await approvals()).find((x) => x.approvalId === pending.approvalId)!;
			assert.equal(answered.answeredBy, 'user');
		});

		it('without its session token it cannot ask at all, even with the user credential readable next to the socket', async function () {
			const a = agents.get('a1')!;
			const before = (await approvals()).length;
			const mcp = mcpFor('a1', {}, ['TUTTI_SESSION_TOKEN']);
			await mcp.initialize();
			const answer = permissionOf(await mcp.call('tokenless', 'tools/call', { name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'ls' }, tool_use_id: 'toolu_tokenless' } }));
			assert.equal(answer.behavior, 'deny');
			assert.match(answer.message ?? '', /could not ask the developer/);
			assert.equal((await approvals()).length, before, 'no request was made');
			assert.ok(a.runId.length > 0);
		});

		it('its code asks and waits, and nothing else: no approval/answer call and no developer credential', function () {
			const dir = resolve(__dirname, '../../src/cli/mcp');
			for (const file of readdirSync(dir)) {
				const text = readFileSync(join(dir, file), 'utf8');
				assert.ok(!text.includes("'approval/answer'"), `${file} never calls approval/answer`);
				assert.ok(!/asUser:\s*true/.test(text), `${file} never sends the developer's credential`);
				assert.ok(!/readUserToken|userTokenPath/.test(text), `${file} never reads the developer's credential`);
			}
		});
	});
});
