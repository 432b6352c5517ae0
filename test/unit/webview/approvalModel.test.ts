// The panel's approvals: the command for Bash, the path and a diff for Edit / MultiEdit / Write, JSON otherwise;
// pending ones first; and the detail draws Allow once / Allow for task / Deny only for a pending request.
import assert from 'node:assert/strict';
import { approvalBody, approvalModels } from '../../../webview/issuePanel/approvalModel.js';
import { renderDetail } from '../../../webview/issuePanel/renderDetail.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import type { ApprovalDto } from '../../../src/protocol/approvals.js';
import { aRun, aSnapshot, aTask, anIssue } from './builders.js';

function anApproval(approvalId: string, tool: string, input: unknown, over: Partial<ApprovalDto> = {}): ApprovalDto {
	return {
		approvalId, issueId: 'i1', taskId: 't1', runId: 'r1', sessionId: 's', toolUseId: '', tool, input, kind: 'tool', questions: [], requestedAtUnixMs: 1, status: 'pending',
		answer: '', answeredBy: '', answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '', answerLabel: 'not answered yet', ...over,
	};
}

describe('panel approvals', () => {
	it('shows the command of a Bash call, and the path with a diff of an edit or a write', () => {
		assert.deepEqual(approvalBody('Bash', { command: 'git push --force', description: 'push' }), { kind: 'command', command: 'git push --force' });
		assert.deepEqual(approvalBody('Edit', { file_path: 'src/a.ts', old_string: 'let a = 1;', new_string: 'const a = 1;\nexport { a };' }), {
			kind: 'file', path: 'src/a.ts', diff: [{ sign: '-', text: 'let a = 1;' }, { sign: '+', text: 'const a = 1;' }, { sign: '+', text: 'export { a };' }],
		});
		assert.deepEqual(approvalBody('MultiEdit', { file_path: 'b.md', edits: [{ old_string: 'x', new_string: 'y' }, { old_string: 'p', new_string: 'q' }] }).kind, 'file');
		assert.deepEqual(approvalBody('Write', { file_path: 'new.txt', content: 'hello' }), { kind: 'file', path: 'new.txt', diff: [{ sign: '+', text: 'hello' }] });
		assert.deepEqual(approvalBody('WebFetch', { url: 'https://example.com' }), { kind: 'json', text: '{\n  "url": "https://example.com"\n}' });
		assert.deepEqual(approvalBody('exec_command', { command: "/bin/bash -c 'make'", cwd: '/ws' }), { kind: 'command', command: "/bin/bash -c 'make'" }, "codex's shell tool");
	});

	it('lists the pending requests first, then the answered ones, newest first', () => {
		const run = aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, approvals: [
			anApproval('a1', 'Bash', { command: 'ls' }, { status: 'allowed', requestedAtUnixMs: 1, answerLabel: 'allowed once by the developer' }),
			anApproval('a2', 'Bash', { command: 'rm -rf build' }, { requestedAtUnixMs: 2 }),
			anApproval('a3', 'Write', { file_path: 'x', content: '' }, { status: 'denied', requestedAtUnixMs: 3 }),
		] });
		assert.deepEqual(approvalModels([run]).map((a) => [a.approvalId, a.pending]), [['a2', true], ['a3', false], ['a1', false]]);
	});

	it('the task detail asks with Allow once / Allow for task / Deny for a pending request only', () => {
		const snapshot = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, approvals: [
			anApproval('a2', 'Bash', { command: 'npm publish' }),
			anApproval('a1', 'Bash', { command: 'ls' }, { status: 'allowed', answerLabel: 'allowed once by the developer' }),
		] })] });
		const detail = derivePanelModel(snapshot, { selectedTaskId: 't1', showHistory: false }).detail;
		const text = JSON.stringify(renderDetail(detail));
		assert.match(text, /The agent asks you \(1\)/);
		assert.match(text, /\$ npm publish/);
		for (const action of ['approval/allow', 'approval/allowForTask', 'approval/deny']) {
			assert.equal(text.split(`"data-action":"${action}"`).length - 1, 1, `${action} once, for the pending request`);
		}
		assert.match(text, /allowed once by the developer/);
	});

	it("a question reads as a question: its text and options, a button per option, a typed answer and Decline; no Allow for task", () => {
		const questions = [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red', description: 'warm' }, { label: 'Blue', description: '' }], isOther: true, isSecret: false }];
		const asked = anApproval('q1', 'request_user_input', { questions }, { kind: 'question', questions });
		assert.deepEqual(approvalModels([aRun('r1', 't1', { approvals: [asked] })])[0]!.body, { kind: 'question', questions });
		const snapshot = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, approvals: [asked] })] });
		const text = JSON.stringify(renderDetail(derivePanelModel(snapshot, { selectedTaskId: 't1', showHistory: false }).detail));
		assert.match(text, /"Question"/);
		assert.match(text, /Color: .*Which color\?/);
		assert.match(text, / — warm/);
		assert.deepEqual([...text.matchAll(/"data-answer":"([^"]*)"/g)].map((m) => m[1]), ['color=Red', 'color=Blue']);
		for (const action of ['question/answer', 'approval/deny']) {
			assert.equal(text.split(`"data-action":"${action}"`).length - 1, 1, `${action} once`);
		}
		for (const action of ['approval/allow', 'approval/allowForTask']) {
			assert.equal(text.includes(`"data-action":"${action}"`), false, `no ${action} for a question`);
		}
	});
});
