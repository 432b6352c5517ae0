import { strict as assert } from 'node:assert';
import { readableTaskId, taskIdSlug } from '../../../../src/core/issues/readableTaskId.js';
import { worktreeTaskIdProblem } from '../../../../src/host/worktrees/worktreePaths.js';

describe('core/issues/readableTaskId', () => {
	it('a title becomes lowercase ASCII words joined by "-"', () => {
		const table: [string, string][] = [
			['Write the session timeout test', 'write-the-session-timeout-test'],
			['  Fix: README.md (typo) & links!  ', 'fix-readme-md-typo-links'],
			['Écrire le résumé', 'ecrire-le-resume'],
			['Add v2 API /users/{id}', 'add-v2-api-users-id'],
			['日本語のタイトル', 'task'],
			['---', 'task'],
		];
		for (const [title, slug] of table) { assert.equal(taskIdSlug(title), slug, title); }
	});

	it('a long title is cut at a word boundary, at most 48 characters; one long word is cut inside', () => {
		assert.equal(taskIdSlug('Make the scheduler fair across issues when many tasks are ready at once'), 'make-the-scheduler-fair-across-issues-when-many');
		assert.equal(taskIdSlug('x'.repeat(60)), 'x'.repeat(48));
	});

	it('a taken id gets the smallest free suffix -2, -3, …', () => {
		const taken = new Set(['write-tests', 'write-tests-2', 'write-tests-4']);
		assert.equal(readableTaskId('Write tests', (id) => taken.has(id)), 'write-tests-3');
		assert.equal(readableTaskId('Write docs', (id) => taken.has(id)), 'write-docs');
	});

	it('every id it makes can name a worktree folder and a git branch', () => {
		for (const title of ['Write tests', '...', 'a.lock', 'Ends with a dot.', `${'long '.repeat(30)}`, 'ÅÄÖ', '9 lives']) {
			assert.equal(worktreeTaskIdProblem(readableTaskId(title, () => false)), null, title);
			assert.equal(worktreeTaskIdProblem(readableTaskId(title, (id) => !id.endsWith('-2'))), null, title);
		}
	});
});
