// Security: an agent's question to the developer (codex `request_user_input`, filed as an approval of its Run) is the
// developer's to answer. A real Host and a live worker Run: the Run's own token files its question, then can neither
// answer it (`tutti question answer`, `tutti approval answer --answer`, an answer inside --input-json) nor make the
// Host answer it for the developer — an earlier allow-for-the-task of the same tool name never covers a question.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ApprovalDto } from '../../src/protocol/approvals.js';
import { type HostHandle, expectError, expectOk, manualIssue, methods, startHost, waitFor } from '../integration/harness.js';
import { addManualTask, envOf, holderTarget, rawPost, recordOf, releaseHolder } from './securityKit.js';

const question = { questions: [{ id: 'deploy', header: 'Deploy', question: 'Deploy to production now?', isOther: true, isSecret: false, options: [{ label: 'Yes', description: '' }, { label: 'No', description: '' }] }] };

describe('security: an agent\'s question is answered by the developer only', function () {
	this.timeout(120_000);
	let host: HostHandle;
	let records: string;
	let issueId: string;
	let agent: { token: string; runId: string; hook: string };

	async function ask(toolUseId: string): Promise<ApprovalDto> {
		const reply = await rawPost(agent.hook, 'approval/request', agent.token, { runId: agent.runId, tool: 'request_user_input', input: question, toolUseId });
		assert.equal(reply.status, 200, reply.body);
		return (JSON.parse(reply.body) as { result: { approval: ApprovalDto } }).result.approval;
	}

	async function shown(approvalId: string): Promise<ApprovalDto> {
		const list = methods['approval/list'].result.parse(expectOk(await host.cli(['approval', 'list', '--issue-id', issueId, '--json'], { asUser: true })));
		return list.approvals.find((a) => a.approvalId === approvalId)!;
	}

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-questions-'));
		host = await startHost({ config: { agentTargets: [holderTarget('hold', records)], maxParallelRuns: 2 } });
		issueId = await manualIssue(host, 'Questions');
		await addManualTask(host, issueId, 'q1', ['--agent-target-id', 'hold', '--content', 'wait']);
		const env = envOf(await waitFor(() => recordOf(records, 'q1'), { what: 'the agent of q1 started', timeoutMs: 20_000 }));
		agent = { token: env.get('TUTTI_SESSION_TOKEN')!, runId: env.get('TUTTI_RUN_ID')!, hook: env.get('TUTTI_IPC_HOOK')! };
	});

	after(async function () {
		if (records !== undefined) { releaseHolder(records, 'q1'); }
		await host?.dispose();
		if (records !== undefined) { rmSync(records, { recursive: true, force: true }); }
	});

	it('its own token cannot answer its question by any route; the developer can', async function () {
		const asked = await ask('call_q1');
		assert.deepEqual([asked.kind, asked.status, asked.questions.map((q) => q.question)], ['question', 'pending', ['Deploy to production now?']]);
		for (const args of [
			['question', 'answer', '--approval-id', asked.approvalId, '--answer', 'Yes'],
			['approval', 'answer', '--approval-id', asked.approvalId, '--answer', 'deploy=Yes'],
			['approval', 'answer', '--approval-id', asked.approvalId, '--allow', '--input-json', '{"answers":{"deploy":"Yes"}}'],
			['approval', 'answer', '--approval-id', asked.approvalId, '--allow'],
		]) {
			expectError(await host.cli([...args, '--json'], { token: agent.token }), 'forbidden');
			assert.equal((await shown(asked.approvalId)).status, 'pending', `still pending after ${args.join(' ')}`);
		}
		const answered = methods['question/answer'].result.parse(expectOk(await host.cli(['question', 'answer', '--approval-id', asked.approvalId, '--answer', 'No', '--json'], { asUser: true })));
		assert.deepEqual([answered.approval.status, answered.approval.answeredBy, answered.approval.updatedInput], ['allowed', 'user', { answers: { deploy: ['No'] } }]);
	});

	it('an allow for the task of a tool named like the question tool never answers a later question', async function () {
		// A tool call filed under the question tool's name with no questions in it is a tool call: the developer allows it for the task.
		const call = await rawPost(agent.hook, 'approval/request', agent.token, { runId: agent.runId, tool: 'request_user_input', input: { anything: true }, toolUseId: 'call_tool' });
		const tool = (JSON.parse(call.body) as { result: { approval: ApprovalDto } }).result.approval;
		assert.equal(tool.kind, 'tool');
		expectOk(await host.cli(['approval', 'answer', '--approval-id', tool.approvalId, '--allow', '--for-task', '--json'], { asUser: true }));
		const later = await ask('call_q2');
		assert.deepEqual([later.status, later.answeredBy], ['pending', ''], 'the question waits for the developer');
		const refused = expectError(await host.cli(['approval', 'answer', '--approval-id', later.approvalId, '--allow', '--for-task', '--json'], { asUser: true }), 'invalid_input');
		assert.match(refused.message, /is a question: it is answered each time/);
	});
});
