// One Run's conversation with codex app-server (src/agents/codexAppServerSession.ts) against a fake server: the
// handshake and the thread, the prompt as turn/start and later messages as turn/steer (refused once the turn is
// over), echoes, the Stop hook's continuation turns, a person's interrupt, and failures.
import { strict as assert } from 'node:assert';
import { CodexAppServerClient } from '../../../src/agents/codexAppServerClient.js';
import { optedOutNotifications } from '../../../src/agents/codexAppServerProtocol.js';
import {
	type CodexAppServerPlan, CodexAppServerSession, type CodexSessionDeps, maxStopHookBlocks, type StopHookInput,
} from '../../../src/agents/codexAppServerSession.js';
import { FakePeer, type Json } from './codexAppServerPeer.js';

const thread = '01a23ade-30dd-70d3-96dd-b8e160237d85';
const plan: CodexAppServerPlan = { cwd: '/ws', sandbox: 'workspace-write', approvalPolicy: 'never', model: 'gpt-5.5', effort: 'high', execFallbackArgs: ['exec'] };

function session(peer: FakePeer, p: CodexAppServerPlan = plan, deps: CodexSessionDeps = {}): CodexAppServerSession {
	return new CodexAppServerSession((notifications) => new CodexAppServerClient({ input: peer.toClient, output: peer.fromClient, notifications }), p, deps);
}

/** Answers initialize and the thread request; returns the thread request. */
async function openThread(peer: FakePeer, s: CodexAppServerSession, method: 'thread/start' | 'thread/resume' = 'thread/start'): Promise<Json> {
	const opened = s.open();
	peer.answer(await peer.request('initialize'), { userAgent: 'codex' });
	const request = await peer.request(method);
	peer.answer(request, { thread: { id: thread }, model: 'gpt-5.5' });
	assert.equal(await opened, thread);
	return request;
}

/** Answers the n-th turn/start with turn `id` and announces it started. */
async function startTurn(peer: FakePeer, id: string, nth = 0): Promise<Json> {
	const starts = (): Json[] => peer.received.filter((m) => m.method === 'turn/start');
	await peer.next((m) => m.method === 'turn/start' && starts().indexOf(m) === nth);
	const request = starts()[nth]!;
	peer.answer(request, { turn: { id, status: 'inProgress', error: null } });
	peer.send({ method: 'turn/started', params: { threadId: thread, turn: { id, status: 'inProgress', error: null } } });
	return request;
}

function completeTurn(peer: FakePeer, id: string, status = 'completed', error: unknown = null): void {
	peer.send({ method: 'turn/completed', params: { threadId: thread, turn: { id, status, error } } });
}

const text = (t: string): unknown[] => [{ type: 'text', text: t, text_elements: [] }];

describe('codex app-server session', () => {
	it('initializes (opting out of deltas), starts the thread with the plan, starts the turn with the prompt, and ends with it', async () => {
		const peer = new FakePeer();
		const s = session(peer);
		const start = await openThread(peer, s);
		assert.deepEqual((await peer.next((m) => m.method === 'initialize')).params, {
			clientInfo: { name: 'tutti', title: 'Tutti', version: '1' },
			capabilities: { experimentalApi: false, requestAttestation: false, optOutNotificationMethods: [...optedOutNotifications] },
		});
		assert.ok(peer.received.some((m) => m.method === 'initialized' && !('id' in m)), 'the initialized notification');
		assert.deepEqual(start.params, { cwd: '/ws', approvalPolicy: 'never', sandbox: 'workspace-write', model: 'gpt-5.5' });
		const sent = s.send('do the task', 'prompt-uuid');
		const turnStart = await startTurn(peer, 'u1');
		assert.equal(await sent, 'started');
		assert.deepEqual(turnStart.params, { threadId: thread, input: text('do the task'), clientUserMessageId: 'prompt-uuid', effort: 'high' });
		completeTurn(peer, 'u1');
		assert.deepEqual(await s.done, { threadId: thread, lastTurn: { id: 'u1', status: 'completed', error: '' }, failure: '' });
	});

	it('resumes the thread of an earlier Turn, without its history', async () => {
		const peer = new FakePeer();
		const s = session(peer, { ...plan, resumeThreadId: thread, sandbox: undefined, approvalPolicy: undefined } as CodexAppServerPlan);
		const resume = await openThread(peer, s, 'thread/resume');
		assert.deepEqual(resume.params, { cwd: '/ws', model: 'gpt-5.5', threadId: thread, excludeTurns: true });
	});

	it('steers later messages into the running turn, reports echoes, and refuses messages once the turn is over', async () => {
		const peer = new FakePeer();
		const echoes: string[] = [];
		let closed = 0;
		const s = session(peer, plan, { onUserMessage: (id) => echoes.push(id), onInputClosed: () => { closed += 1; } });
		await openThread(peer, s);
		void s.send('prompt', 'p');
		await startTurn(peer, 'u1');
		peer.send({ method: 'item/started', params: { threadId: thread, turnId: 'u1', item: { type: 'userMessage', id: 'i1', clientId: 'p', content: [] } } });
		const steered = s.send('use tabs', 'm1');
		const steer = await peer.request('turn/steer');
		assert.deepEqual(steer.params, { threadId: thread, expectedTurnId: 'u1', input: text('use tabs'), clientUserMessageId: 'm1' });
		peer.answer(steer, { turnId: 'u1' });
		assert.equal(await steered, 'steered');
		peer.send({ method: 'item/started', params: { threadId: thread, turnId: 'u1', item: { type: 'userMessage', id: 'i2', clientId: 'm1', content: [] } } });
		// A steer that races the turn's end is refused by the server; the message then waits for the next Turn.
		const raced = s.send('late', 'm2');
		peer.send({ id: (await peer.next((m) => m.method === 'turn/steer' && m.id !== steer.id)).id, error: { code: -32600, message: 'no active turn to steer' } });
		assert.equal(await raced, 'refused');
		completeTurn(peer, 'u1');
		await s.done;
		assert.deepEqual(echoes, ['p', 'm1']);
		assert.equal(closed, 1);
		assert.equal(await s.send('after', 'm3'), 'refused');
	});

	it('a message right behind the prompt waits for the turn to start, then is steered into it', async () => {
		const peer = new FakePeer();
		const s = session(peer);
		await openThread(peer, s);
		const prompt = s.send('prompt', 'p');
		const next = s.send('right behind', 'm1');
		await startTurn(peer, 'u1');
		assert.equal(await prompt, 'started');
		const steer = await peer.request('turn/steer');
		assert.deepEqual(steer.params, { threadId: thread, expectedTurnId: 'u1', input: text('right behind'), clientUserMessageId: 'm1' });
		peer.answer(steer, { turnId: 'u1' });
		assert.equal(await next, 'steered');
	});

	it('plays the Stop hook: a block starts another turn with its reason (stop_hook_active then true); a release ends the session', async () => {
		const peer = new FakePeer();
		const inputs: StopHookInput[] = [];
		const verdicts = [{ block: true as const, reason: 'Run this now: tutti plan issue get' }, { block: false as const }];
		const s = session(peer, { ...plan, stopHookCommand: 'tutti hook stop' }, { runStopHook: async (command, input) => { assert.equal(command, 'tutti hook stop'); inputs.push(input); return verdicts.shift()!; } });
		await openThread(peer, s);
		void s.send('prompt', 'p');
		await startTurn(peer, 'u1');
		peer.send({ method: 'item/completed', params: { threadId: thread, turnId: 'u1', item: { type: 'agentMessage', id: 'a1', text: 'first answer' } } });
		completeTurn(peer, 'u1');
		const second = await startTurn(peer, 'u2', 1);
		assert.deepEqual(second.params, { threadId: thread, input: text('Run this now: tutti plan issue get'), effort: 'high' });
		completeTurn(peer, 'u2');
		assert.deepEqual((await s.done).lastTurn, { id: 'u2', status: 'completed', error: '' });
		assert.deepEqual(inputs, [
			{ session_id: thread, turn_id: 'u1', cwd: '/ws', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'first answer' },
			{ session_id: thread, turn_id: 'u2', cwd: '/ws', hook_event_name: 'Stop', stop_hook_active: true, last_assistant_message: '' },
		]);
	});

	it(`stops playing a hook that never releases after ${maxStopHookBlocks} blocks`, async () => {
		const peer = new FakePeer();
		let calls = 0;
		const s = session(peer, { ...plan, stopHookCommand: 'loop' }, { runStopHook: async () => { calls += 1; return { block: true, reason: 'again' }; } });
		await openThread(peer, s);
		void s.send('prompt', 'p');
		for (let n = 0; n <= maxStopHookBlocks; n++) {
			await startTurn(peer, `u${n}`, n);
			completeTurn(peer, `u${n}`);
		}
		await s.done;
		assert.equal(calls, maxStopHookBlocks);
		assert.equal(peer.received.filter((m) => m.method === 'turn/start').length, maxStopHookBlocks + 1);
	});

	it('interrupts the running turn on a Stop: true once the server reports it ended; no hook runs after it', async () => {
		const peer = new FakePeer();
		let hooks = 0;
		const s = session(peer, { ...plan, stopHookCommand: 'h' }, { runStopHook: async () => { hooks += 1; return { block: false }; } });
		await openThread(peer, s);
		void s.send('prompt', 'p');
		await startTurn(peer, 'u1');
		const interrupted = s.interrupt();
		const request = await peer.request('turn/interrupt');
		assert.deepEqual(request.params, { threadId: thread, turnId: 'u1' });
		peer.answer(request, {});
		completeTurn(peer, 'u1', 'interrupted');
		assert.equal(await interrupted, true);
		assert.deepEqual((await s.done).lastTurn, { id: 'u1', status: 'interrupted', error: '' });
		assert.equal(hooks, 0);
		assert.equal(await session(new FakePeer()).interrupt(), false, 'nothing to interrupt before a turn');
	});

	it('ends with the reason when the thread cannot be opened, or the server ends before its turn completed', async () => {
		const peer = new FakePeer();
		const s = session(peer, { ...plan, resumeThreadId: thread });
		const opened = s.open();
		peer.answer(await peer.request('initialize'), { userAgent: 'codex' });
		peer.send({ id: (await peer.request('thread/resume')).id, error: { code: -32600, message: `no rollout found for thread id ${thread}` } });
		await assert.rejects(opened);
		assert.equal((await s.done).failure, `could not open the Codex thread: codex app-server thread/resume: no rollout found for thread id ${thread}`);

		const peer2 = new FakePeer();
		const s2 = session(peer2);
		await openThread(peer2, s2);
		void s2.send('prompt', 'p');
		await startTurn(peer2, 'u1');
		peer2.end();
		assert.equal((await s2.done).failure, 'the codex app-server process ended before its turn completed');
	});
});
