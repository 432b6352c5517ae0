// The facts docs/codex-app-server.md states about the pinned `codex app-server`, each observed here again with the
// real CLI against the scripted Responses server, through Tutti's own client (no supervisor, no Host): the handshake,
// a turn and its usage, steering, interrupting (and what a signal does instead), resuming in a new process, the
// approval requests and what each decision does, and questions to the user. When Codex changes one of them, this
// file says which.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { codexProviderArgs } from '../../src/agents/codex.js';
import { CodexAppServerClient, type CodexAppServerClientOptions, CodexAppServerError } from '../../src/agents/codexAppServerClient.js';
import { optedOutNotifications, textInputOf } from '../../src/agents/codexAppServerProtocol.js';
import { type AgentSandbox, codexBin, isolatedEnv, jsonLines, killGroup, makeAgentSandbox, pinnedVersions } from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { codexTestArgs, codexTestTarget, pidsWithArg } from './codexKit.js';
import type { Script } from './modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

type Json = Record<string, unknown>;

interface Server {
	child: ChildProcess;
	client: CodexAppServerClient;
	/** Every line the server wrote, parsed. */
	lines: Json[];
	exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

describe(`codex app-server ${pinnedVersions.codex}: the observed protocol`, function () {
	this.timeout(60_000);
	let sandbox: AgentSandbox;
	let model: ScriptedServer | undefined;
	const servers: Server[] = [];

	beforeEach(() => { sandbox = makeAgentSandbox('tutti-codex-as-'); });
	afterEach(async () => {
		for (const s of servers.splice(0)) { s.client.dispose(); killGroup(s.child); }
		await model?.close();
		model = undefined;
		sandbox.remove();
	});

	/** `codex app-server` as the adapter starts it (provider, no retries, strict config), with Tutti's client on its stdio. */
	async function start(script: Script, extraArgs: string[] = [], options: Partial<CodexAppServerClientOptions> = {}): Promise<Server> {
		model ??= await startScriptedServer({ script });
		const target = codexTestTarget(model, sandbox);
		const codexHome = join(sandbox.home, 'codex-home');
		mkdirSync(codexHome, { recursive: true });
		const args = ['app-server', '-c', 'allow_login_shell=false', ...codexProviderArgs(target), ...codexTestArgs, ...extraArgs];
		const child = spawn(codexBin, args, { cwd: sandbox.workspace, env: { ...isolatedEnv(sandbox.home), CODEX_HOME: codexHome }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
		const lines: Json[] = [];
		const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
		const client = new CodexAppServerClient({ input: child.stdout!, output: child.stdin!, onServerLine: (l) => lines.push(...jsonLines(l)), ...options });
		const server = { child, client, lines, exited };
		servers.push(server);
		const hello = await client.request('initialize', { clientInfo: { name: 'tutti', title: 'Tutti', version: '1' }, capabilities: { experimentalApi: false, requestAttestation: false, optOutNotificationMethods: [...optedOutNotifications] } });
		assert.match(hello.userAgent, new RegExp(`^tutti/${pinnedVersions.codex.replace(/\./g, '\\.')} `));
		client.notify('initialized');
		return server;
	}

	async function thread(s: Server, params: { approvalPolicy?: 'never' | 'on-request'; sandbox?: 'read-only' | 'workspace-write' | 'danger-full-access' } = {}): Promise<string> {
		return (await s.client.request('thread/start', { cwd: sandbox.workspace, approvalPolicy: 'never', sandbox: 'danger-full-access', model: 'gpt-5.5', ...params })).thread.id;
	}

	async function turn(s: Server, threadId: string, prompt: string): Promise<string> {
		return (await s.client.request('turn/start', { threadId, input: [textInputOf(prompt)] })).turn.id;
	}

	const completion = (s: Server, turnId: string): Promise<Json> => waitFor(() => {
		const done = s.lines.find((l) => l.method === 'turn/completed' && ((l.params as Json).turn as Json).id === turnId);
		return done === undefined ? undefined : (done.params as Json).turn as Json;
	}, { what: `turn ${turnId} to complete`, timeoutMs: 30_000 });

	const seen = (s: Server, method: string, pred: (params: Json) => boolean = () => true): Promise<Json> =>
		waitFor(() => s.lines.map((l) => (l.method === method ? l.params as Json : undefined)).find((p) => p !== undefined && pred(p)), { what: method, timeoutMs: 30_000 });

	it('answers initialize with its user agent, refuses a second one, and refuses anything before it', async () => {
		model = await startScriptedServer({ script: { turns: [] } });
		const target = codexTestTarget(model, sandbox);
		mkdirSync(join(sandbox.home, 'codex-home'), { recursive: true });
		const child = spawn(codexBin, ['app-server', ...codexProviderArgs(target), ...codexTestArgs], { cwd: sandbox.workspace, env: { ...isolatedEnv(sandbox.home), CODEX_HOME: join(sandbox.home, 'codex-home') }, stdio: ['pipe', 'pipe', 'ignore'], detached: true });
		const client = new CodexAppServerClient({ input: child.stdout, output: child.stdin });
		servers.push({ child, client, lines: [], exited: new Promise(() => undefined) });
		await assert.rejects(client.request('thread/start', { cwd: sandbox.workspace }), /Not initialized/);
		const init = { clientInfo: { name: 'tutti', title: null, version: '1' }, capabilities: { experimentalApi: false, requestAttestation: false } };
		await client.request('initialize', init);
		await assert.rejects(client.request('initialize', init), /Already initialized/);
	});

	it('runs a turn: turn/started, items, a usage update per model response (cached input inside input), turn/completed; stdin closed ends it with 0', async () => {
		const s = await start({ turns: [
			{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_1', input: { cmd: 'echo hi > out.txt' } }] },
			{ when: { last_user_includes: 'call_1' }, blocks: [{ type: 'text', text: 'All done.' }], responses_usage: { input_tokens: 100, cached_tokens: 40, output_tokens: 7 } },
		] });
		const threadId = await thread(s);
		const turnId = await turn(s, threadId, 'write it');
		assert.deepEqual(await completion(s, turnId), { ...(await completion(s, turnId)), id: turnId, status: 'completed', error: null });
		assert.ok(existsSync(join(sandbox.workspace, 'out.txt')));
		const usage = s.lines.filter((l) => l.method === 'thread/tokenUsage/updated').map((l) => ((l.params as Json).tokenUsage as Json).last as Json);
		assert.deepEqual(usage.map((u) => [u.inputTokens, u.cachedInputTokens, u.outputTokens]), [[20, 0, 10], [100, 40, 7]]);
		assert.ok(!s.lines.some((l) => l.method === 'item/agentMessage/delta'), 'opted out of deltas');
		s.child.stdin!.end();
		assert.deepEqual(await s.exited, { code: 0, signal: null });
	});

	it('steers into the running turn (the message comes back as a userMessage item with its clientId and reaches the next request); refuses a wrong turn and an ended one', async () => {
		const s = await start({ turns: [
			{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_wait', input: { cmd: 'sleep 1.5; echo slept' } }] },
			{ when: { last_user_includes: 'STEERED' }, blocks: [{ type: 'text', text: 'saw it' }] },
		], default: { blocks: [{ type: 'text', text: 'UNEXPECTED: no steer' }] } });
		const threadId = await thread(s);
		const turnId = await turn(s, threadId, 'wait');
		await seen(s, 'item/started', (p) => (p.item as Json).type === 'commandExecution');
		assert.deepEqual(await s.client.request('turn/steer', { threadId, expectedTurnId: turnId, input: [textInputOf('STEERED: say saw it')], clientUserMessageId: 'm1' }), { turnId });
		await assert.rejects(s.client.request('turn/steer', { threadId, expectedTurnId: 'other', input: [textInputOf('x')], clientUserMessageId: 'm2' }), /expected active turn id `other`/);
		await seen(s, 'item/started', (p) => (p.item as Json).type === 'userMessage' && (p.item as Json).clientId === 'm1');
		assert.equal((await completion(s, turnId)).status, 'completed');
		assert.ok(JSON.stringify(model!.modelRequests()[1]!.body).includes('STEERED: say saw it'));
		await assert.rejects(s.client.request('turn/steer', { threadId, expectedTurnId: turnId, input: [textInputOf('late')], clientUserMessageId: 'm3' }), /no active turn to steer/);
		await assert.rejects(s.client.request('turn/interrupt', { threadId, turnId }), /no active turn to interrupt/);
	});

	it('turn/interrupt ends the turn as interrupted and closing stdin ends the server and its command; SIGINT instead orphans the command', async () => {
		const marker = `43.${String(process.pid)}`;
		const script: Script = { turns: [], default: { blocks: [{ type: 'tool', name: 'exec_command', id: 'call_sleep', input: { cmd: `sleep ${marker}; echo slept` } }] } };
		const s = await start(script);
		const threadId = await thread(s);
		const turnId = await turn(s, threadId, 'sleep');
		await waitFor(() => (pidsWithArg(marker).length > 0 ? true : undefined), { what: 'the command', timeoutMs: 30_000 });
		assert.deepEqual(await s.client.request('turn/interrupt', { threadId, turnId }), {});
		assert.equal((await completion(s, turnId)).status, 'interrupted');
		// Whether the command outlives the interrupt while the server lives varies ("Any running unified exec processes
		// may still be running in the background", Codex tells the model); closing stdin always ends it.
		s.child.stdin!.end();
		assert.deepEqual(await s.exited, { code: 0, signal: null });
		await waitFor(() => (pidsWithArg(marker).length === 0 ? true : undefined), { what: 'the command to end with the server', timeoutMs: 10_000 });

		const again = await start(script);
		await turn(again, await thread(again), 'sleep');
		await waitFor(() => (pidsWithArg(marker).length > 0 ? true : undefined), { what: 'the command', timeoutMs: 30_000 });
		process.kill(-again.child.pid!, 'SIGINT');
		assert.deepEqual(await again.exited, { code: null, signal: 'SIGINT' });
		try {
			assert.ok(pidsWithArg(marker).length > 0, 'SIGINT to the group leaves the command (its own session) running');
		} finally {
			for (const pid of pidsWithArg(marker)) { try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ } }
		}
	});

	it('resumes a thread in a new process (the earlier turn in the next request; its usage sent once for the earlier turn); an unknown thread has no rollout', async () => {
		const s = await start({ turns: [
			{ blocks: [{ type: 'text', text: 'first answer' }] },
			{ when: { last_user_includes: 'second' }, blocks: [{ type: 'text', text: 'second answer' }] },
		] });
		const threadId = await thread(s);
		const first = await turn(s, threadId, 'first');
		await completion(s, first);
		s.child.stdin!.end();
		await s.exited;
		const t = await start({ turns: [] });
		await assert.rejects(t.client.request('thread/resume', { threadId: '01a23adf-0000-7000-8000-000000000000', cwd: sandbox.workspace, excludeTurns: true }), /no rollout found/);
		assert.equal((await t.client.request('thread/resume', { threadId, cwd: sandbox.workspace, excludeTurns: true })).thread.id, threadId);
		await seen(t, 'thread/tokenUsage/updated', (p) => p.turnId === first);
		const second = await turn(t, threadId, 'second');
		assert.equal((await completion(t, second)).status, 'completed');
		assert.ok(JSON.stringify(model!.modelRequests()[1]!.body).includes('first answer'));
	});

	describe('approvals (approval policy on-request, read-only sandbox): the agent asks to escalate', () => {
		const escalate: Script = { turns: [
			{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_esc', input: { cmd: 'echo hi > out.txt && echo wrote', sandbox_permissions: 'require_escalated', justification: 'write a file' } }] },
			{ when: { last_user_includes: 'call_esc' }, blocks: [{ type: 'text', text: 'after the answer' }] },
		] };

		for (const [decision, ran, status, output] of [
			['accept', true, 'completed', /wrote/],
			['acceptForSession', true, 'completed', /wrote/],
			['decline', false, 'completed', /rejected by user/],
			['cancel', false, 'interrupted', null],
		] as const) {
			it(`item/commandExecution/requestApproval answered ${decision}: the command ${ran ? 'runs' : 'does not run'}, the turn ends ${status}`, async () => {
				const asked: Json[] = [];
				const s = await start(escalate, [], { handlers: { 'item/commandExecution/requestApproval': async (params) => { asked.push(params); return { decision }; } } });
				const turnId = await turn(s, await thread(s, { approvalPolicy: 'on-request', sandbox: 'read-only' }), 'write');
				assert.equal((await completion(s, turnId)).status, status);
				assert.equal(asked.length, 1);
				assert.deepEqual({ ...asked[0], threadId: '', turnId: '' }, { threadId: '', turnId: '', itemId: 'call_esc', command: "/bin/bash -c 'echo hi > out.txt && echo wrote'", cwd: sandbox.workspace, reason: 'write a file' });
				assert.equal(existsSync(join(sandbox.workspace, 'out.txt')), ran);
				if (output !== null) { assert.match(JSON.stringify(model!.modelRequests()[1]!.body), output); } else { assert.equal(model!.modelRequests().length, 1); }
			});
		}

		it('item/fileChange/requestApproval for apply_patch (the changes come in the item before it)', async () => {
			const asked: Json[] = [];
			const s = await start({ turns: [
				{ blocks: [{ type: 'custom_tool', name: 'apply_patch', id: 'call_p', input: '*** Begin Patch\n*** Add File: hello.txt\n+hello\n*** End Patch\n' }] },
				{ when: { last_user_includes: 'call_p' }, blocks: [{ type: 'text', text: 'patched' }] },
			] }, [], { handlers: { 'item/fileChange/requestApproval': async (params) => { asked.push(params); return { decision: 'accept' }; } } });
			const turnId = await turn(s, await thread(s, { approvalPolicy: 'on-request', sandbox: 'read-only' }), 'patch');
			assert.equal((await completion(s, turnId)).status, 'completed');
			assert.deepEqual({ ...asked[0], threadId: '', turnId: '' }, { threadId: '', turnId: '', itemId: 'call_p', reason: null, grantRoot: null });
			const item = await seen(s, 'item/started', (p) => (p.item as Json).id === 'call_p');
			assert.deepEqual(((item.item as Json).changes as Json[]).map((c) => c.path), [join(sandbox.workspace, 'hello.txt')]);
			assert.ok(existsSync(join(sandbox.workspace, 'hello.txt')));
		});

		it('with approval policy never nothing is asked: the sandbox refusal goes back to the model', async () => {
			const s = await start(escalate, [], { handlers: { 'item/commandExecution/requestApproval': async () => assert.fail('asked') } });
			const turnId = await turn(s, await thread(s, { approvalPolicy: 'never', sandbox: 'read-only' }), 'write');
			assert.equal((await completion(s, turnId)).status, 'completed');
			assert.equal(existsSync(join(sandbox.workspace, 'out.txt')), false);
		});
	});

	describe('questions: request_user_input', () => {
		const ask: Script = { turns: [
			{ blocks: [{ type: 'tool', name: 'request_user_input', id: 'call_q', input: { questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] } }] },
			{ when: { last_user_includes: 'call_q' }, blocks: [{ type: 'text', text: 'got it' }] },
		] };

		it('is unavailable in the default mode: the model is told so', async () => {
			const s = await start(ask);
			const turnId = await turn(s, await thread(s), 'ask me');
			await completion(s, turnId);
			assert.match(JSON.stringify(model!.modelRequests()[1]!.body), /request_user_input is unavailable in Default mode/);
		});

		it('with --enable default_mode_request_user_input: item/tool/requestUserInput, and the answers reach the model as the tool output', async () => {
			const asked: Json[] = [];
			const s = await start(ask, ['--enable', 'default_mode_request_user_input'], {
				handlers: { 'item/tool/requestUserInput': async (params) => { asked.push(params); return { answers: { color: { answers: ['Blue'] } } }; } },
			});
			const turnId = await turn(s, await thread(s), 'ask me');
			assert.equal((await completion(s, turnId)).status, 'completed');
			assert.deepEqual((asked[0]!.questions as Json[])[0], { id: 'color', header: 'Color', question: 'Which color?', isOther: true, isSecret: false, options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] });
			assert.match(JSON.stringify(model!.modelRequests()[1]!.body), /\{\\"answers\\":\{\\"color\\":\{\\"answers\\":\[\\"Blue\\"\]\}\}\}/);
		});
	});

	it('a failed model request: an error notification (willRetry false), then turn/completed failed with the error', async () => {
		const s = await start({ turns: [], default: { blocks: [], http_error: { status: 500 } } });
		const turnId = await turn(s, await thread(s), 'fail');
		const done = await completion(s, turnId);
		assert.equal(done.status, 'failed');
		const error = await seen(s, 'error');
		assert.equal(error.willRetry, false);
		assert.equal((done.error as Json).message, (error.error as Json).message);
		assert.ok(s.client instanceof CodexAppServerClient && !(done instanceof CodexAppServerError));
	});
});
