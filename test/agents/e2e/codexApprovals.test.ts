// End to end through the real Host and the real `codex app-server` (approvals `ask`, the default): a command the agent
// asks to run outside its sandbox (`require_escalated`) becomes a Tutti approval of the Run — the same durable inbox,
// `tutti approval list|answer` — and the developer's answer reaches the same turn through the Run's supervisor. Allow →
// the command runs and its output reaches the model; deny with a message → it does not run and the model is told the
// message; allow for the task → the next ask is granted without asking; allow with an edited command → the developer's
// command runs instead; a Stop while waiting cancels the request; a Host kill -9 while waiting loses nothing; a question
// (`request_user_input`) is listed as a question and answered with `tutti question answer`.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectOk, type HostHandle, methods } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { answerApproval, approvalsOf, codexTarget, killLeftovers, latestRunId, manualTask, pendingApproval, settledRun, startAgentHost, targetHome } from './e2eKit.js';

/** One escalated exec_command per entry, each after the previous one's output (or a steered note naming `after`), then a final text. */
function escalatedCalls(calls: { id: string; cmd: string; after?: string }[]): Script {
	const turns: Script['turns'] = calls.map((c, i) => ({
		...(i > 0 ? { when: { any_includes: c.after ?? calls[i - 1]!.id } } : {}),
		blocks: [{ type: 'tool' as const, name: 'exec_command', id: c.id, input: { cmd: c.cmd, sandbox_permissions: 'require_escalated', justification: `step ${i + 1}` } }],
	}));
	turns.push({ when: { last_user_includes: calls.at(-1)!.id }, blocks: [{ type: 'text', text: 'all steps done' }] });
	return { turns, default: { blocks: [{ type: 'text', text: 'done' }] } };
}

const requestText = (server: ScriptedServer, n: number): string => JSON.stringify(server.modelRequests()[n]?.body ?? null);

describe('e2e: codex app-server asks the developer (approvals)', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	let server: ScriptedServer | undefined;

	beforeEach(() => { dir = makeTempDir('tutti-e2e-codex-approvals-'); });
	afterEach(async () => {
		killLeftovers(host);
		await host?.dispose();
		host = undefined;
		await server?.close();
		server = undefined;
		dir.remove();
	});

	async function start(script: Script): Promise<HostHandle> {
		server = await startScriptedServer({ script });
		host = await startAgentHost([codexTarget('codex-ask', server.url, targetHome(dir, 'ask'))]);
		return host;
	}

	const approvals = approvalsOf;
	const answer = answerApproval;

	it('tutti agent list: approvals ask, messages into the turn', async () => {
		const h = await start({ turns: [] });
		const target = expectOk<Result<'agent/list'>>(await h.cli(['agent', 'list', '--json'], { asUser: true })).agentTargets[0]!;
		assert.deepEqual([target.protocol, target.approvals, target.messagesWhileRunning], ['app-server', 'ask', 'into-turn']);
	});

	it('allow: the command runs and its output reaches the model; run get shows the answer and who gave it', async () => {
		const h = await start(escalatedCalls([{ id: 'call_allow', cmd: 'echo approved > approved.txt && echo wrote-it' }]));
		const { issueId, taskId } = await manualTask(h, 'allow', 'codex-ask', 'Write approved.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		assert.deepEqual([asked.runId, asked.tool, asked.toolUseId.endsWith('/call_allow')], [runId, 'exec_command', true]);
		assert.match(String((asked.input as { command: string }).command), /echo approved > approved\.txt && echo wrote-it/);
		assert.equal((asked.input as { reason: string }).reason, 'step 1');
		assert.equal(existsSync(join(h.workspace, 'approved.txt')), false, 'nothing ran before the answer');
		await answer(h, asked.approvalId, '--allow');
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.summary], ['completed', 'all steps done'], JSON.stringify(run));
		assert.equal(readFileSync(join(h.workspace, 'approved.txt'), 'utf8'), 'approved\n');
		assert.match(requestText(server!, 1), /wrote-it/);
		assert.deepEqual(run.approvals?.map((a) => [a.status, a.answer, a.answeredBy]), [['allowed', 'allow_once', 'user']]);
	});

	it('deny with a message: the command does not run, and the model is told the message in the same turn', async () => {
		const h = await start(escalatedCalls([{ id: 'call_deny', cmd: 'rm -rf build && echo removed' }]));
		const { issueId, taskId } = await manualTask(h, 'deny', 'codex-ask', 'Clean the build.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await answer(h, asked.approvalId, '--deny', '--message', 'Not the build folder; use make clean');
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		const next = requestText(server!, 1);
		assert.match(next, /rejected by user/, 'app-server tells the model the call was rejected');
		assert.match(next, /The developer denied running `rm -rf build && echo removed`: Not the build folder; use make clean/);
		assert.equal(server!.modelRequests().length, 2, 'the same turn: no new Turn was started for the message');
		assert.deepEqual(run.approvals?.map((a) => [a.status, a.answer, a.message]), [['denied', 'deny', 'Not the build folder; use make clean']]);
	});

	it('allow for the task: the next command it asks for is granted without asking', async () => {
		const h = await start(escalatedCalls([{ id: 'call_one', cmd: 'echo one >> steps.txt' }, { id: 'call_two', cmd: 'echo two >> steps.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'grant', 'codex-ask', 'Write two steps.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await answer(h, asked.approvalId, '--allow', '--for-task');
		const run = await settledRun(h, runId);
		assert.equal(readFileSync(join(h.workspace, 'steps.txt'), 'utf8'), 'one\ntwo\n');
		assert.deepEqual(run.approvals?.map((a) => [a.toolUseId.split('/')[1], a.status, a.answer, a.answeredBy, a.grantedByApprovalId]), [
			['call_one', 'allowed', 'allow_for_task', 'user', ''],
			['call_two', 'allowed', 'task_grant', 'task_grant', asked.approvalId],
		]);
	});

	it('allow with an edited command: the asked command does not run; the agent is given the developer\'s, which runs without a second ask', async () => {
		const edited = 'echo edited > edited.txt';
		const h = await start(escalatedCalls([{ id: 'call_orig', cmd: 'echo original > original.txt' }, { id: 'call_edited', cmd: edited, after: 'allows this command instead' }]));
		const { issueId, taskId } = await manualTask(h, 'edit', 'codex-ask', 'Write a file.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await answer(h, asked.approvalId, '--allow', '--input-json', JSON.stringify({ command: edited }));
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(existsSync(join(h.workspace, 'original.txt')), false, 'the command as asked never ran');
		assert.equal(readFileSync(join(h.workspace, 'edited.txt'), 'utf8'), 'edited\n');
		assert.match(requestText(server!, 1), /allows this command instead: `echo edited > edited.txt`/);
		assert.deepEqual((await approvals(h, issueId)).map((a) => [a.status, (a.updatedInput as { command?: string } | null)?.command]), [['allowed', edited]], 'asked once');
	});

	it("a Stop while the agent waits cancels the request; the Run is the developer's cancellation and the command never runs", async () => {
		const h = await start(escalatedCalls([{ id: 'call_stop', cmd: 'echo late > late.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'stop', 'codex-ask', 'Write late.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		assert.equal(expectOk<Result<'run/stop'>>(await h.cli(['run', 'stop', '--run-id', runId, '--json'], { asUser: true })).answer, 'took');
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation'], JSON.stringify(run));
		assert.deepEqual(run.approvals?.map((a) => [a.approvalId, a.status, a.answeredBy]), [[asked.approvalId, 'canceled', 'host']]);
		assert.equal(existsSync(join(h.workspace, 'late.txt')), false);
		const refused = await h.cli(['approval', 'answer', '--approval-id', asked.approvalId, '--allow', '--json'], { asUser: true });
		assert.match(refused.stdout, /"reasonCode":"approval_answered"/);
	});

	it('a Host killed -9 while the agent waits: the request stays pending, and the answer given after the restart reaches the same turn', async () => {
		const h = await start(escalatedCalls([{ id: 'call_restart', cmd: 'echo after-restart > restart.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'restart', 'codex-ask', 'Write restart.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await h.kill9();
		await h.start();
		const again = await pendingApproval(h, issueId);
		assert.equal(again.approvalId, asked.approvalId, 'the same request, still pending');
		await answer(h, asked.approvalId, '--allow');
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(readFileSync(join(h.workspace, 'restart.txt'), 'utf8'), 'after-restart\n');
		assert.equal(server!.modelRequests().length, 2, 'the same turn went on: no turn run twice');
		assert.equal((await approvals(h, issueId)).length, 1);
	});

	it('a question (request_user_input) is listed as a question, and the answer given with `tutti question answer` reaches the model as the tool\'s result', async () => {
		const h = await start({ turns: [
			{ blocks: [{ type: 'tool', name: 'request_user_input', id: 'call_q', input: { questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] } }] },
			{ when: { last_user_includes: 'call_q' }, blocks: [{ type: 'text', text: 'got the answer' }] },
		] });
		const { issueId, taskId } = await manualTask(h, 'ask', 'codex-ask', 'Ask me a question.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		assert.deepEqual([asked.tool, asked.kind], ['request_user_input', 'question']);
		assert.deepEqual(asked.questions.map((q) => [q.id, q.header, q.question, q.options.map((o) => o.label)]), [['color', 'Color', 'Which color?', ['Red (Recommended)', 'Blue']]]);
		const listed = await h.cli(['approval', 'list', '--issue-id', issueId], { asUser: true });
		assert.match(listed.stdout, /pending .* question: Which color\? \[Red \(Recommended\) \| Blue\]/);
		const answered = methods['question/answer'].result.parse(expectOk(await h.cli(['question', 'answer', '--approval-id', asked.approvalId, '--answer', 'Blue', '--json'], { asUser: true })));
		assert.match(answered.approval.answerLabel, /^answered by the developer at .*: Blue$/);
		const run = await settledRun(h, runId);
		assert.equal(run.summary, 'got the answer', JSON.stringify(run));
		assert.match(requestText(server!, 1), /\{\\"answers\\":\{\\"color\\":\{\\"answers\\":\[\\"Blue\\"\]\}\}\}/);
	});
});
