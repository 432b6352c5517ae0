// What a person reads without --json: the approvals table, and each approval under a Run's transcript with its
// answer and who gave it.
import assert from 'node:assert/strict';
import { formatHuman } from '../../../src/cli/humanOutput.js';

describe('cli: approvals in human output', () => {
	it('lists pending approvals as a table', () => {
		const text = formatHuman('approval/list', { approvals: [{ approvalId: 'approval-1', status: 'pending', tool: 'Bash', runId: 'run-1', answerLabel: 'not answered yet' }] });
		assert.equal(text, 'approval-1  pending  Bash  run-1  not answered yet\n');
		assert.equal(formatHuman('approval/list', { approvals: [] }), 'no approvals\n');
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
