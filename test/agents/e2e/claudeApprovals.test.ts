// End to end through the real Host and the real Claude Code CLI: a Bash call outside the target's
// allowedTools makes claude call Tutti's permission prompt tool (`tutti mcp`), which records an approval request and
// waits; the developer's answer through `tutti approval answer` reaches the agent. Allow → the tool runs and its result
// reaches the model; allow with an edited input → the tool runs the developer's input; deny → the model receives the message; allow for the task → the next call is not asked; a Stop
// while waiting cancels the request; claude killed while waiting expires it; a Host restart while waiting loses nothing.
import { strict as assert } from 'node:assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectOk, type HostHandle } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import type { Script } from '../modelServer/script.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { answerApproval, approvalsOf, claudeTarget, killLeftovers, latestRunId, manualTask, pendingApproval, settledRun, startAgentHost, targetHome } from './e2eKit.js';

/** One Bash call per entry, each after the previous one's result, then a final text. */
function bashCalls(calls: { id: string; command: string }[]): Script {
	const turns: Script['turns'] = calls.map((c, i) => ({
		...(i > 0 ? { when: { last_user_includes: calls[i - 1]!.id } } : {}),
		blocks: [{ type: 'tool' as const, name: 'Bash', id: c.id, input: { command: c.command, description: `step ${i + 1}` } }],
	}));
	turns.push({ when: { last_user_includes: calls.at(-1)!.id }, blocks: [{ type: 'text', text: 'all steps done' }] });
	return { turns };
}

/** The last user message of the n-th model request (0-based), as JSON text. */
function lastUser(server: ScriptedServer, n: number): string {
	const body = server.modelRequests()[n]?.body as { messages?: { role: string }[] } | undefined;
	return JSON.stringify(body?.messages?.filter((m) => m.role === 'user').at(-1) ?? null);
}

describe('e2e: claude asks the developer through tutti mcp (approvals)', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	let server: ScriptedServer | undefined;

	beforeEach(() => { dir = makeTempDir('tutti-e2e-approvals-'); });
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
		// The default allowedTools (the tutti CLI only): any other Bash call asks.
		host = await startAgentHost([claudeTarget('claude-ask', server.url, targetHome(dir, 'ask'))]);
		return host;
	}

	const approvals = approvalsOf;
	const answer = answerApproval;

	it('allow: the tool runs and its result reaches the model; run get shows the answer and who gave it', async () => {
		const h = await start(bashCalls([{ id: 'toolu_allow', command: 'echo approved > approved.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'allow', 'claude-ask', 'Write approved.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		assert.deepEqual([asked.tool, asked.runId, asked.taskId, asked.toolUseId], ['Bash', runId, taskId, 'toolu_allow']);
		assert.equal((asked.input as { command?: string }).command, 'echo approved > approved.txt');
		assert.equal(existsSync(join(h.workspace, 'approved.txt')), false, 'nothing ran before the answer');

		await answer(h, asked.approvalId, '--allow');
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(readFileSync(join(h.workspace, 'approved.txt'), 'utf8'), 'approved\n');
		assert.ok(lastUser(server!, 1).includes('"tool_use_id":"toolu_allow"') && lastUser(server!, 1).includes('"is_error":false'), lastUser(server!, 1));
		assert.deepEqual(run.approvals?.map((a) => [a.tool, a.status, a.answer, a.answeredBy]), [['Bash', 'allowed', 'allow_once', 'user']]);
	});

	it('allow with an edited input: the tool runs what the developer wrote, not what the agent asked', async () => {
		const h = await start(bashCalls([{ id: 'toolu_edit', command: 'echo agent > edited.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'edit', 'claude-ask', 'Write edited.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		const edited = { ...(asked.input as Record<string, unknown>), command: 'echo developer > edited.txt' };
		const answered = await answer(h, asked.approvalId, '--allow', '--input-json', JSON.stringify(edited));
		assert.deepEqual(answered.updatedInput, edited);
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(readFileSync(join(h.workspace, 'edited.txt'), 'utf8'), 'developer\n', 'the edited command ran');
		assert.deepEqual(run.approvals?.map((a) => [a.status, a.answer, a.answeredBy]), [['allowed', 'allow_once', 'user']]);
	});

	it('deny: the tool does not run and the model receives the message', async () => {
		const h = await start(bashCalls([{ id: 'toolu_deny', command: 'echo no > denied.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'deny', 'claude-ask', 'Write denied.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await answer(h, asked.approvalId, '--deny', '--message', 'Not on this machine: let CI do it');
		const run = await settledRun(h, runId);
		assert.equal(existsSync(join(h.workspace, 'denied.txt')), false);
		const seen = lastUser(server!, 1);
		assert.ok(seen.includes('Not on this machine: let CI do it') && seen.includes('"is_error":true'), seen);
		assert.deepEqual(run.approvals?.map((a) => [a.status, a.answer, a.message]), [['denied', 'deny', 'Not on this machine: let CI do it']]);
	});

	it('allow for the task: the second Bash call is not asked, and is recorded as allowed by the grant', async () => {
		const h = await start(bashCalls([{ id: 'toolu_one', command: 'echo one >> steps.txt' }, { id: 'toolu_two', command: 'echo two >> steps.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'grant', 'claude-ask', 'Write two steps.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await answer(h, asked.approvalId, '--allow', '--for-task');
		const run = await settledRun(h, runId);
		assert.equal(readFileSync(join(h.workspace, 'steps.txt'), 'utf8'), 'one\ntwo\n');
		assert.deepEqual(run.approvals?.map((a) => [a.toolUseId, a.status, a.answer, a.answeredBy, a.grantedByApprovalId]), [
			['toolu_one', 'allowed', 'allow_for_task', 'user', ''],
			['toolu_two', 'allowed', 'task_grant', 'task_grant', asked.approvalId],
		]);
		assert.ok(lastUser(server!, 2).includes('"tool_use_id":"toolu_two"') && lastUser(server!, 2).includes('"is_error":false'), lastUser(server!, 2));
	});

	it('a Stop while the agent waits cancels the request and the Run is the developer\'s cancellation', async () => {
		const h = await start(bashCalls([{ id: 'toolu_stop', command: 'echo late > late.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'stop', 'claude-ask', 'Write late.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		expectOk(await h.cli(['run', 'stop', '--run-id', runId, '--json'], { asUser: true }));
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['canceled', 'cancellation']);
		assert.deepEqual(run.approvals?.map((a) => [a.approvalId, a.status, a.answeredBy]), [[asked.approvalId, 'canceled', 'host']]);
		assert.equal(existsSync(join(h.workspace, 'late.txt')), false);
		const refused = await h.cli(['approval', 'answer', '--approval-id', asked.approvalId, '--allow', '--json'], { asUser: true });
		assert.match(refused.stdout, /"reasonCode":"approval_answered"/);
	});

	it('claude killed while it waits: the request ends expired (never pending for a dead Run) and cannot be answered', async () => {
		const h = await start(bashCalls([{ id: 'toolu_killed', command: 'echo never > killed.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'killed', 'claude-ask', 'Write killed.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		// kill -9 of the agent's whole process group (claude and the tutti mcp it started), not through Tutti.
		const pid = JSON.parse(readFileSync(join(h.workspace, '.tutti', 'runs', runId, 'pid.json'), 'utf8')) as { agentPgid: number };
		process.kill(-pid.agentPgid, 'SIGKILL');
		const run = await settledRun(h, runId);
		assert.deepEqual([run.status, run.outcome], ['failed', 'failure'], 'the agent died on its own: a failure, not the developer\'s cancellation');
		assert.deepEqual(run.approvals?.map((a) => [a.approvalId, a.status, a.answeredBy]), [[asked.approvalId, 'expired', 'host']]);
		assert.deepEqual((await approvals(h, issueId)).map((a) => a.status), ['expired']);
		const refused = await h.cli(['approval', 'answer', '--approval-id', asked.approvalId, '--allow', '--json'], { asUser: true });
		assert.match(refused.stdout, /"reasonCode":"approval_answered"/);
		assert.equal(existsSync(join(h.workspace, 'killed.txt')), false, 'the tool never ran');
	});

	it('a Host restart while the agent waits: the request stays pending, and the answer given after it still reaches the agent', async () => {
		const h = await start(bashCalls([{ id: 'toolu_restart', command: 'echo after-restart > restart.txt' }]));
		const { issueId, taskId } = await manualTask(h, 'restart', 'claude-ask', 'Write restart.txt.');
		const runId = await latestRunId(h, issueId, taskId);
		const asked = await pendingApproval(h, issueId);
		await h.stop();
		await h.start();
		const again = await pendingApproval(h, issueId);
		assert.equal(again.approvalId, asked.approvalId, 'the same request, still pending');
		await answer(h, asked.approvalId, '--allow');
		const run = await settledRun(h, runId);
		assert.equal(run.status, 'completed', JSON.stringify(run));
		assert.equal(readFileSync(join(h.workspace, 'restart.txt'), 'utf8'), 'after-restart\n');
		assert.equal((await approvals(h, issueId)).length, 1, 'the reconnecting MCP call found its request instead of making another');
	});
});
