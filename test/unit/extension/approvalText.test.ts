import assert from 'node:assert/strict';
import { approvalAction, approvalMessage, newlyPending, questionButtons } from '../../../src/extension/approvals/approvalText.js';
import type { ApprovalDto } from '../../../src/protocol/approvals.js';

function approval(id: string, tool: string, input: unknown, status: ApprovalDto['status'] = 'pending'): ApprovalDto {
	return {
		approvalId: id, issueId: 'i', taskId: 'build', runId: 'r', sessionId: 's', toolUseId: '', tool, input, kind: 'tool', questions: [], requestedAtUnixMs: 1, status,
		answer: '', answeredBy: '', answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '', answerLabel: 'not answered yet',
	};
}

/** A question as the Host lists it (kind 'question', its questions read from the input). */
function question(questions: { id: string; question: string; options?: string[]; isOther?: boolean }[]): ApprovalDto {
	return {
		...approval('q', 'request_user_input', { questions }), kind: 'question',
		questions: questions.map((q) => ({ id: q.id, header: '', question: q.question, options: (q.options ?? []).map((label) => ({ label, description: '' })), isOther: q.isOther ?? true, isSecret: false })),
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
		assert.equal(approvalAction(question([{ id: 'c', question: 'Which color?' }])), 'answer: Which color?');
	});
	it('says which task asks, in which issue', () => {
		assert.equal(approvalMessage(approval('a', 'Bash', { command: 'ls' }), 'Release'), 'Tutti: the agent of task build ("Release") asks to run `ls`.');
	});
	it('reads a question as a question, with its options', () => {
		assert.equal(approvalMessage(question([{ id: 'c', question: 'Which color?', options: ['Red (Recommended)', 'Blue'] }]), 'Release'),
			'Tutti: the agent of task build ("Release") asks: Which color? (Red (Recommended) · Blue)');
		assert.equal(approvalMessage(question([{ id: 'a', question: 'Name?' }, { id: 'b', question: 'Size?', options: ['S', 'L'] }]), undefined),
			'Tutti: the agent of task build asks: Name? / Size? (S · L)');
	});
	it("offers a question's options as buttons when they fit, else Answer…; Decline always", () => {
		const titles = (q: ApprovalDto): string[] => questionButtons(q).map((b) => `${b.kind}:${b.title}${b.kind === 'option' ? `=${b.answer}` : ''}`);
		assert.deepEqual(titles(question([{ id: 'c', question: 'Which color?', options: ['Red', 'Blue'] }])),
			['option:Red=c=Red', 'option:Blue=c=Blue', 'answer:Other…', 'decline:Decline']);
		assert.deepEqual(titles(question([{ id: 'c', question: 'Which?', options: ['A', 'B', 'C'], isOther: false }])), ['option:A=c=A', 'option:B=c=B', 'option:C=c=C', 'decline:Decline']);
		assert.deepEqual(titles(question([{ id: 'c', question: 'Which?', options: ['A', 'B', 'C', 'D'] }])), ['answer:Answer…', 'decline:Decline'], 'four options do not fit');
		assert.deepEqual(titles(question([{ id: 'n', question: 'Name?' }])), ['answer:Answer…', 'decline:Decline'], 'a free answer');
		assert.deepEqual(titles(question([{ id: 'a', question: 'A?', options: ['x'] }, { id: 'b', question: 'B?', options: ['y'] }])), ['answer:Answer…', 'decline:Decline'], 'several questions');
	});
	it('notifies each pending request once', () => {
		const seen = new Set<string>();
		assert.deepEqual(newlyPending([approval('a', 'Bash', {}), approval('b', 'Bash', {}, 'allowed')], seen).map((a) => a.approvalId), ['a']);
		assert.deepEqual(newlyPending([approval('a', 'Bash', {}), approval('c', 'Bash', {})], seen).map((a) => a.approvalId), ['c']);
	});
});
