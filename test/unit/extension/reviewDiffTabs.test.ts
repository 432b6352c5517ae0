// The diff editors of Open Changes are known by their titles, one task each; the title bar's Request Changes says
// how many comments go with it, one command per count, each contributed with the `when` clause that picks it.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { commandIds } from '../../../src/extension/commands/ids.js';
import { ReviewDiffTabs, maxCountedComments, requestChangesCommandFor, requestChangesCommands } from '../../../src/extension/review/reviewDiffTabs.js';

interface Manifest {
	contributes: { commands: { command: string; title: string }[]; menus: Record<string, { command: string; when: string }[]> };
}
const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as Manifest;

describe('extension/review/reviewDiffTabs', () => {
	it('binds each diff title to its task; a title another task holds gets the task id', () => {
		const tabs = new ReviewDiffTabs();
		const notes = { issueId: 'I', taskId: 'notes', taskTitle: 'Write the notes' };
		const rework = { issueId: 'I', taskId: 'notes-2', taskTitle: 'Write the notes' };
		assert.equal(tabs.titleFor(notes), 'Changes of "Write the notes"');
		assert.equal(tabs.titleFor(notes), 'Changes of "Write the notes"', 'the same task, the same title');
		assert.equal(tabs.titleFor(rework), 'Changes of "Write the notes" · notes-2');
		assert.equal(tabs.titleFor(notes, 'in progress'), 'Changes of "Write the notes" (in progress)');
		assert.deepEqual([tabs.taskOf('Changes of "Write the notes"'), tabs.taskOf('Changes of "Write the notes" · notes-2'), tabs.taskOf('README.md'), tabs.taskOf(undefined)],
			[notes, rework, undefined, undefined]);
		// The multi-file diff editor's tab says how many files it shows.
		assert.deepEqual([tabs.taskOf('Changes of "Write the notes" (4 files)'), tabs.taskOf('Changes of "Write the notes" · notes-2 (1 file)')], [notes, rework]);
	});

	it('Request Changes says how many comments go with it', () => {
		assert.deepEqual([0, 1, 2, maxCountedComments, maxCountedComments + 1, 250].map((n) => requestChangesCommandFor(n).title), [
			'Request Changes…', 'Request Changes (1 comment)', 'Request Changes (2 comments)', 'Request Changes (9 comments)', 'Request Changes (10+ comments)', 'Request Changes (10+ comments)',
		]);
	});

	it('each count\'s command is contributed with its title and shown in the diff\'s title bar for exactly that count', () => {
		const registered = new Set<string>(Object.values(commandIds));
		const titleBar = manifest.contributes.menus['editor/title'] ?? [];
		for (const [n, c] of requestChangesCommands().entries()) {
			assert.ok(registered.has(c.id), `${c.id} is a command id`);
			assert.equal(manifest.contributes.commands.find((x) => x.command === c.id)?.title, c.title);
			const when = titleBar.find((m) => m.command === c.id)?.when ?? '';
			assert.match(when, /tutti:reviewDiff && tutti:reviewDiffRequestChanges/);
			assert.ok(when.endsWith(n <= maxCountedComments ? `tutti:reviewDiffComments == ${n}` : `tutti:reviewDiffComments >= ${maxCountedComments + 1}`), when);
			assert.equal(manifest.contributes.menus['commandPalette']?.find((m) => m.command === c.id)?.when, 'false', 'not in the palette');
		}
		assert.equal(titleBar.find((m) => m.command === commandIds.diffAcceptTask)?.when, 'tutti:reviewDiff && tutti:reviewDiffAccept');
	});
});
