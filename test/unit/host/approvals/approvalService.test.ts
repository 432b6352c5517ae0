// Approval requests over a real store: answered once, allow-for-task grants, a person's Stop cancels the
// open requests of its Run, a Run that ends expires them, waits are bounded and end with the answer, and only the
// developer answers.
import { strict as assert } from 'node:assert';
import { afterEach, beforeEach, describe, it } from 'mocha';
import type { Caller } from '../../../../src/protocol/controlPlane.js';
import { rejects, ServiceHarness } from '../services/serviceHarness.js';
import { SteppedWaitTimer } from '../await/steppedWaitTimer.js';

describe('approval service', () => {
	let h: ServiceHarness;
	let timer: SteppedWaitTimer;
	let issueId: string;

	beforeEach(async () => {
		timer = SteppedWaitTimer.holdingUntilCommit();
		h = await ServiceHarness.open({ awaitTimer: timer });
		timer.attach(h.store);
		issueId = (await h.call('issue/create', { title: 'approvals' })).issueId;
	});
	afterEach(async () => { await h.close(); });

	/** A running Run of task `taskId` and the caller of its worker session. */
	async function running(taskId = 'a'): Promise<{ runId: string; agent: Caller }> {
		await h.call('task/add', { issueId, taskId, title: taskId, agentTargetId: 'ok' });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === taskId);
		assert.ok(launch, `task ${taskId} was launched`);
		const run = await h.call('run/get', { runId: launch.runId });
		return { runId: run.runId, agent: { kind: 'session', sessionId: run.agentSessionId, role: 'worker' } };
	}

	it('a request waits for the developer; the wait ends with the allow, and the input the tool runs with', async () => {
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'npm publish' }, toolUseId: 'toolu_1' }, agent);
		assert.equal(asked.approval.status, 'pending');
		assert.equal(asked.permission, null);
		assert.deepEqual((await h.call('approval/list', {})).approvals.map((a) => a.approvalId), [asked.approval.approvalId]);
		assert.equal((await h.call('issue/get', { issueId })).pendingApprovalCount, 1, 'the issue says an agent waits on you');

		const parked = timer.paused();
		const waiting = h.call('approval/wait', { approvalId: asked.approval.approvalId, waitMs: 30_000 }, agent);
		await parked;
		const answered = await h.call('approval/answer', { approvalId: asked.approval.approvalId, allow: true });
		assert.deepEqual([answered.approval.status, answered.approval.answer, answered.approval.answeredBy], ['allowed', 'allow_once', 'user']);
		const got = await waiting;
		assert.deepEqual(got.permission, { behavior: 'allow', updatedInput: { command: 'npm publish' } });
		assert.deepEqual((await h.call('approval/list', {})).approvals, [], 'nothing is pending any more');
		assert.equal((await h.call('issue/get', { issueId })).pendingApprovalCount, undefined);
	});

	it('a wait that gets no answer returns pending within its bound', async () => {
		await h.close();
		timer = SteppedWaitTimer.elapsing();
		h = await ServiceHarness.open({ awaitTimer: timer });
		issueId = (await h.call('issue/create', { title: 'approvals' })).issueId;
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'ls' } }, agent);
		const got = await h.call('approval/wait', { approvalId: asked.approval.approvalId }, agent);
		assert.equal(got.permission, null);
		assert.equal(got.approval.status, 'pending');
		assert.equal(timer.t, 45_000);
	});

	it('is answered once: a second answer is refused and reports the first', async () => {
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'git push' } }, agent);
		await h.call('approval/answer', { approvalId: asked.approval.approvalId, deny: true, message: 'Open a pull request instead' });
		const refused = await rejects(h.call('approval/answer', { approvalId: asked.approval.approvalId, allow: true }), 'approval_answered');
		assert.match(refused.message, /already answered: denied by the developer at .*: Open a pull request instead/);
		assert.equal((refused.details['approval'] as { answer: string }).answer, 'deny');
		const got = await h.call('approval/wait', { approvalId: asked.approval.approvalId, waitMs: 0 }, agent);
		assert.deepEqual(got.permission, { behavior: 'deny', message: 'Open a pull request instead' });
	});

	it('allow for the task: later calls of that tool in the task are allowed without asking, recorded as such; other tools still ask', async () => {
		const { runId, agent } = await running();
		const first = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'npm test' } }, agent);
		await h.call('approval/answer', { approvalId: first.approval.approvalId, allow: true, forTask: true });
		const second = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'npm run lint' } }, agent);
		assert.deepEqual(second.permission, { behavior: 'allow', updatedInput: { command: 'npm run lint' } });
		assert.deepEqual([second.approval.status, second.approval.answer, second.approval.answeredBy, second.approval.grantedByApprovalId],
			['allowed', 'task_grant', 'task_grant', first.approval.approvalId]);
		assert.match(second.approval.answerLabel, /allowed without asking/);
		const other = await h.call('approval/request', { runId, tool: 'Write', input: { file_path: 'a.txt', content: 'x' } }, agent);
		assert.equal(other.approval.status, 'pending');
		const run = await h.call('run/get', { runId });
		assert.deepEqual(run.approvals?.map((a) => [a.tool, a.status, a.answer]), [['Bash', 'allowed', 'allow_for_task'], ['Bash', 'allowed', 'task_grant'], ['Write', 'pending', '']]);
		const transcript = await h.call('run/transcript', { runId });
		assert.deepEqual(transcript.approvals?.map((a) => [a.tool, a.answerLabel.replace(/ at \S+Z$/, '')]), [
			['Bash', 'allowed for the rest of the task by the developer'],
			['Bash', `allowed without asking: the developer allowed this tool for the task (approval ${first.approval.approvalId})`],
			['Write', 'not answered yet'],
		]);
	});

	it("a person's Stop while the agent waits cancels the Run's open requests and the wait ends with a denial", async () => {
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'rm -rf build' } }, agent);
		const parked = timer.paused();
		const waiting = h.call('approval/wait', { approvalId: asked.approval.approvalId, waitMs: 30_000 }, agent);
		await parked;
		await h.call('run/stop', { runId });
		const got = await waiting;
		assert.equal(got.approval.status, 'canceled');
		assert.deepEqual(got.permission, { behavior: 'deny', message: 'The request was canceled: the developer stopped this Run.' });
		await rejects(h.call('approval/answer', { approvalId: asked.approval.approvalId, allow: true }), 'approval_answered');
	});

	it('an agent that ends on the denial before the Stop\'s signal reaches it is still the developer\'s cancellation', async () => {
		const { runId, agent } = await running();
		await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'make' } }, agent);
		// The canceled request's denial reaches the agent first: it exits 5 on it, so the interrupt finds no process.
		const interrupt = h.runs.interrupt.bind(h.runs);
		h.runs.interrupt = async (id) => { h.runs.exit(id, { exitCode: 5 }); return interrupt(id); };
		const stop = await h.call('run/stop', { runId });
		assert.equal(stop.answer, 'took');
		await h.idle();
		const run = await h.call('run/get', { runId });
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.match(run.outcomeLabel ?? '', /you stopped this/);
	});

	it('a Run that ends with a request open: the request shows as expired and cannot be answered', async () => {
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'make' } }, agent);
		h.runs.exit(runId, { exitCode: 0 });
		await h.idle();
		const listed = await h.call('approval/list', { issueId });
		assert.deepEqual(listed.approvals.map((a) => [a.status, a.answeredBy]), [['expired', 'host']]);
		assert.deepEqual((await h.call('approval/list', {})).approvals, [], 'an expired request is not pending');
		assert.equal((await h.call('issue/get', { issueId })).pendingApprovalCount, undefined);
		await rejects(h.call('approval/answer', { approvalId: asked.approval.approvalId, allow: true }), 'approval_answered');
	});

	it('a request resent with the same tool call id finds its request (a reconnect after a Host restart)', async () => {
		const { runId, agent } = await running();
		const first = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'ls' }, toolUseId: 'toolu_9' }, agent);
		const again = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'ls' }, toolUseId: 'toolu_9' }, agent);
		assert.equal(again.approval.approvalId, first.approval.approvalId);
		assert.equal((await h.call('approval/list', { issueId })).approvals.length, 1);
	});

	it('only the developer answers; only the Run\'s own session asks and waits', async () => {
		const { runId, agent } = await running('a');
		const other = await running('b');
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: {} }, agent);
		await rejects(h.call('approval/answer', { approvalId: asked.approval.approvalId, allow: true }, agent), 'forbidden');
		await rejects(h.call('approval/request', { runId, tool: 'Bash', input: {} }, other.agent), 'forbidden');
		await rejects(h.call('approval/wait', { approvalId: asked.approval.approvalId, waitMs: 0 }, other.agent), 'forbidden');
	});

	it('refuses a malformed answer and an oversize input', async () => {
		const { runId, agent } = await running();
		const asked = await h.call('approval/request', { runId, tool: 'Bash', input: {} }, agent);
		const id = asked.approval.approvalId;
		await rejects(h.call('approval/answer', { approvalId: id }), 'invalid_input');
		await rejects(h.call('approval/answer', { approvalId: id, allow: true, deny: true }), 'invalid_input');
		await rejects(h.call('approval/answer', { approvalId: id, deny: true, forTask: true }), 'invalid_input');
		await rejects(h.call('approval/answer', { approvalId: 'nope', allow: true }), 'approval_not_found');
		await rejects(h.call('approval/request', { runId, tool: 'Write', input: { content: 'x'.repeat(300_000) } }, agent), 'invalid_input');
	});

	describe("an agent's question (request_user_input)", () => {
		const color = { id: 'color', header: 'Color', question: 'Which color?', isOther: true, isSecret: false, options: [{ label: 'Red (Recommended)', description: '' }, { label: 'Blue', description: '' }] };
		const size = { id: 'size', header: 'Size', question: 'Which size?', isOther: true, isSecret: false, options: null };

		async function asked(questions: unknown[], toolUseId = 'q1'): Promise<{ approvalId: string; agent: Caller; runId: string }> {
			const { runId, agent } = await running();
			const reply = await h.call('approval/request', { runId, tool: 'request_user_input', input: { questions }, toolUseId }, agent);
			return { approvalId: reply.approval.approvalId, agent, runId };
		}

		it('is listed as a question with what it asks, and the answers reach the agent as its input', async () => {
			const { approvalId, agent } = await asked([color, size]);
			const [listed] = (await h.call('approval/list', {})).approvals;
			assert.deepEqual([listed?.kind, listed?.questions.map((q) => [q.id, q.question, q.options.map((o) => o.label)])],
				['question', [['color', 'Which color?', ['Red (Recommended)', 'Blue']], ['size', 'Which size?', []]]]);
			const answered = await h.call('approval/answer', { approvalId, answers: ['color=Blue', 'size=Large'] });
			assert.deepEqual([answered.approval.status, answered.approval.answer, answered.approval.updatedInput], ['allowed', 'allow_once', { answers: { color: ['Blue'], size: ['Large'] } }]);
			assert.match(answered.approval.answerLabel, /^answered by the developer at .*: color: Blue; size: Large$/);
			const got = await h.call('approval/wait', { approvalId, waitMs: 0 }, agent);
			assert.deepEqual(got.permission, { behavior: 'allow', updatedInput: { answers: { color: ['Blue'], size: ['Large'] } } });
		});

		it('question/answer answers it; a plain allow takes the recommended option; a decline tells the agent so', async () => {
			const one = await asked([color], 'q1');
			const byAlias = await h.call('question/answer', { approvalId: one.approvalId, answers: ['Blue'] });
			assert.deepEqual(byAlias.approval.updatedInput, { answers: { color: ['Blue'] } });
			const two = await h.call('approval/request', { runId: one.runId, tool: 'request_user_input', input: { questions: [color] }, toolUseId: 'q2' }, one.agent);
			const plain = await h.call('approval/answer', { approvalId: two.approval.approvalId, allow: true });
			assert.deepEqual(plain.approval.updatedInput, { answers: { color: ['Red (Recommended)'] } });
			const three = await h.call('approval/request', { runId: one.runId, tool: 'request_user_input', input: { questions: [color] }, toolUseId: 'q3' }, one.agent);
			const declined = await h.call('approval/answer', { approvalId: three.approval.approvalId, deny: true });
			assert.match(declined.approval.answerLabel, /^declined by the developer at .*: The developer declined to answer\.$/);
			assert.deepEqual((await h.call('approval/wait', { approvalId: three.approval.approvalId, waitMs: 0 }, one.agent)).permission, { behavior: 'deny', message: 'The developer declined to answer.' });
		});

		it('refuses answers that do not fit, answers for a tool call, and allow-for-the-task of a question; nothing is recorded', async () => {
			const { approvalId, agent, runId } = await asked([color, size]);
			await rejects(h.call('approval/answer', { approvalId, allow: true }), 'invalid_input'); // size has no option to pick
			await rejects(h.call('approval/answer', { approvalId, answers: ['Blue'] }), 'invalid_input');
			await rejects(h.call('approval/answer', { approvalId, answers: ['color=Blue'] }), 'invalid_input');
			await rejects(h.call('approval/answer', { approvalId, answers: ['color=Blue', 'size=L'], forTask: true }), 'invalid_input');
			await rejects(h.call('approval/answer', { approvalId, answers: ['color=Blue', 'size=L'], deny: true }), 'invalid_input');
			await rejects(h.call('approval/answer', { approvalId, answers: ['color=Blue', 'size=L'], updatedInput: { answers: {} } }), 'invalid_input');
			await rejects(h.call('question/answer', { approvalId, answers: ['color=Blue', 'size=L'] }, agent), 'forbidden');
			const tool = await h.call('approval/request', { runId, tool: 'Bash', input: { command: 'ls' } }, agent);
			await rejects(h.call('question/answer', { approvalId: tool.approval.approvalId, answers: ['yes'] }), 'invalid_input');
			await rejects(h.call('approval/answer', { approvalId: tool.approval.approvalId, answers: ['yes'] }), 'invalid_input');
			assert.deepEqual((await h.call('approval/list', {})).approvals.map((a) => a.status), ['pending', 'pending']);
		});

		it('an allow for the task of the same tool name never answers a question', async () => {
			const { runId, agent } = await running();
			const call = await h.call('approval/request', { runId, tool: 'request_user_input', input: { note: 'no questions here' } }, agent);
			assert.equal(call.approval.kind, 'tool');
			await h.call('approval/answer', { approvalId: call.approval.approvalId, allow: true, forTask: true });
			const question = await h.call('approval/request', { runId, tool: 'request_user_input', input: { questions: [color] } }, agent);
			assert.deepEqual([question.approval.status, question.permission], ['pending', null]);
		});
	});
});
