// What a person reads without --json: the approvals table, and each approval under a Run's transcript with its
// answer and who gave it.
import assert from 'node:assert/strict';
import { formatHuman } from '../../../src/cli/humanOutput.js';

describe('cli: approvals in human output', () => {
	it('lists pending approvals as a table', () => {
		const text = formatHuman('approval/list', { approvals: [{ approvalId: 'approval-1', status: 'pending', tool: 'Bash', input: { command: 'git push' }, runId: 'run-1', answerLabel: 'not answered yet' }] });
		assert.equal(text, 'approval-1  pending  run-1  Bash `git push`  not answered yet\n');
		assert.equal(formatHuman('approval/list', { approvals: [] }), 'no approvals\n');
	});

	it('lists a question as a question, with its options', () => {
		const text = formatHuman('approval/list', { approvals: [{
			approvalId: 'approval-2', status: 'pending', tool: 'request_user_input', runId: 'run-1', answerLabel: 'not answered yet', kind: 'question',
			questions: [{ id: 'color', question: 'Which color?', options: [{ label: 'Red', description: '' }, { label: 'Blue', description: '' }] }, { id: 'name', question: 'Name?', options: [] }],
		}] });
		assert.equal(text, 'approval-2  pending  run-1  question: Which color? [Red | Blue] / Name?  not answered yet\n');
	});

	it("ends a Run's transcript with its approvals: the command or path, the answer and who gave it", () => {
		const text = formatHuman('run/transcript', {
			entries: [{ kind: 'assistant', text: 'Publishing.', tool: '' }],
			approvals: [
				{ tool: 'Bash', input: { command: 'npm publish' }, answerLabel: 'denied by the developer at 2026-12-01T10:00:00.000Z: not today' },
				{ tool: 'Edit', input: { file_path: 'src/a.ts' }, answerLabel: 'allowed once by the developer at 2026-12-01T10:01:00.000Z' },
			],
		});
		assert.equal(text, [
			'Publishing.',
			'approval Bash `npm publish`: denied by the developer at 2026-12-01T10:00:00.000Z: not today',
			'approval Edit src/a.ts: allowed once by the developer at 2026-12-01T10:01:00.000Z',
			'',
		].join('\n'));
	});
});
