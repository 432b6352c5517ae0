import assert from 'node:assert/strict';
import { approvalAction, approvalMessage, newlyPending } from '../../../src/extension/approvals/approvalText.js';
import type { ApprovalDto } from '../../../src/protocol/approvals.js';

function approval(id: string, tool: string, input: unknown, status: ApprovalDto['status'] = 'pending'): ApprovalDto {
	return {
		approvalId: id, issueId: 'i', taskId: 'build', runId: 'r', sessionId: 's', toolUseId: '', tool, input, requestedAtUnixMs: 1, status,
		answer: '', answeredBy: '', answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '', answerLabel: 'not answered yet',
	};
}

describe('extension/approvalText', () => {
	it('names the command for Bash, the path for file tools, and short JSON otherwise', () => {
		assert.equal(approvalAction(approval('a', 'Bash', { command: 'npm publish --tag next', description: 'x' })), 'run `npm publish --tag next`');
		assert.equal(approvalAction(approval('a', 'Edit', { file_path: 'src/a.ts', old_string: 'a', new_string: 'b' })), 'edit src/a.ts');
		assert.equal(approvalAction(approval('a', 'Write', { file_path: 'notes.md', content: 'hi' })), 'write notes.md');
		assert.equal(approvalAction(approval('a', 'WebFetch', { url: 'https://example.com' })), 'use WebFetch {"url":"https://example.com"}');
		assert.match(approvalAction(approval('a', 'Bash', { command: `echo ${'x'.repeat(1000)}` })), /^run `echo x+…`$/);
	});
	it('says what a codex agent asks: a command, a patch, a question', () => {
		assert.equal(approvalAction(approval('a', 'exec_command', { command: "/bin/bash -c 'make'", cwd: '/ws', reason: 'build' })), "run `/bin/bash -c 'make'`");
		assert.equal(approvalAction(approval('a', 'apply_patch', { changes: [{ path: '/ws/a.ts', diff: '' }, { path: '/ws/b.ts', diff: '' }] })), 'change /ws/a.ts, /ws/b.ts');
		assert.equal(approvalAction(approval('a', 'request_user_input', { questions: [{ id: 'c', question: 'Which color?' }] })), 'answer: Which color?');
	});
	it('says which task asks, in which issue', () => {
		assert.equal(approvalMessage(approval('a', 'Bash', { command: 'ls' }), 'Release'), 'Tutti: the agent of task build ("Release") asks to run `ls`.');
	});
	it('notifies each pending request once', () => {
		const seen = new Set<string>();
		assert.deepEqual(newlyPending([approval('a', 'Bash', {}), approval('b', 'Bash', {}, 'allowed')], seen).map((a) => a.approvalId), ['a']);
		assert.deepEqual(newlyPending([approval('a', 'Bash', {}), approval('c', 'Bash', {})], seen).map((a) => a.approvalId), ['c']);
	});
});
