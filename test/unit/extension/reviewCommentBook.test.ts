// Comments on a task's diff (src/extension/review/reviewCommentBook.ts): which task a file's comment belongs to,
// the note Request changes sends (`path:line — comment`), bounds, and the state a window reload restores.
import { strict as assert } from 'node:assert';
import { noteWithComments, ReviewCommentBook, reviewCommentLimits, threadLabel } from '../../../src/extension/review/reviewCommentBook.js';

describe('review comments on a task diff', () => {
	it('belongs to the task whose diff shows the file, the most recently opened one when two do', () => {
		const book = new ReviewCommentBook();
		assert.equal(book.taskFor('src/a.ts'), undefined, 'a file outside every open diff cannot be commented');
		book.openReview('t1', ['src/a.ts', 'README.md']);
		book.openReview('t2', ['./src/a.ts']);
		assert.equal(book.taskFor('src/a.ts'), 't2');
		assert.equal(book.taskFor('README.md'), 't1');
		assert.equal(book.taskFor('src\\a.ts'), 't2', 'Windows separators name the same file');
		book.openReview('t1', ['src/a.ts']);
		assert.equal(book.taskFor('src/a.ts'), 't1', 'opening t1 again makes it the latest');
	});

	it('sends the note, then each comment as `path:line — comment` in file and line order', () => {
		const book = new ReviewCommentBook();
		book.add('t1', 'src/b.ts', 9, 'Handle the empty list');
		book.add('t1', 'src/a.ts', 12, 'Name this\n  sumOf');
		book.add('t1', 'src/a.ts', 3, 'Off by one');
		book.add('t2', 'src/a.ts', 1, 'Not this task');
		assert.equal(noteWithComments('Please fix the edge cases.', book.of('t1')), [
			'Please fix the edge cases.',
			'',
			'Comments on the diff:',
			'- src/a.ts:3 — Off by one',
			'- src/a.ts:12 — Name this sumOf',
			'- src/b.ts:9 — Handle the empty list',
		].join('\n'));
		assert.equal(noteWithComments('Just the note', []), 'Just the note');
	});

	it('clears a task\'s comments once sent, leaving other tasks\' comments', () => {
		const book = new ReviewCommentBook();
		let changes = 0;
		book.onDidChange(() => { changes++; });
		const a = book.add('t1', 'a.ts', 1, 'x');
		book.add('t2', 'a.ts', 1, 'y');
		assert.deepEqual(book.clear('t1').map((c) => c.commentId), [a.commentId]);
		assert.deepEqual(book.of('t1'), []);
		assert.equal(book.of('t2').length, 1);
		assert.equal(changes, 3);
	});

	it('refuses an empty comment and more than a task keeps; bounds the text', () => {
		const book = new ReviewCommentBook();
		assert.throws(() => book.add('t1', 'a.ts', 1, '   '), /Write a comment first/);
		assert.equal(book.add('t1', 'a.ts', 1, 'y'.repeat(5_000)).text.length, reviewCommentLimits.textChars);
		for (let i = 1; i < reviewCommentLimits.perTask; i++) { book.add('t1', 'a.ts', i + 1, `c${i}`); }
		assert.throws(() => book.add('t1', 'a.ts', 1, 'one too many'), /at most 200 comments/);
	});

	it('restores its comments and open reviews from the saved state', () => {
		const book = new ReviewCommentBook();
		book.openReview('t1', ['a.ts']);
		const c = book.add('t1', 'a.ts', 4, 'keep me');
		const again = new ReviewCommentBook(JSON.parse(JSON.stringify(book.state())) as ReturnType<ReviewCommentBook['state']>);
		assert.equal(again.taskFor('a.ts'), 't1');
		assert.deepEqual(again.of('t1'), [c]);
		const next = again.add('t1', 'a.ts', 5, 'new');
		assert.notEqual(next.commentId, c.commentId, 'ids never repeat after a restore');
	});

	it('names a comment thread by its task\'s title, kept across a restore (the task id when no title was given)', () => {
		const book = new ReviewCommentBook();
		book.openReview('notes', ['docs/NOTES.md'], 'Write the release notes');
		book.openReview('old', ['a.ts']);
		const again = new ReviewCommentBook(JSON.parse(JSON.stringify(book.state())) as ReturnType<ReviewCommentBook['state']>);
		assert.deepEqual([again.titleOf('notes'), again.titleOf('old'), again.titleOf('never')], ['Write the release notes', '', '']);
		assert.equal(threadLabel(again.titleOf('notes'), 'notes'), 'For “Write the release notes” · sent with Request changes');
		assert.equal(threadLabel('', 'old'), 'For task old · sent with Request changes');
	});

	it('after Accept a thread keeps its task\'s title and its comments, and says they are not sent; a new review of the task (a rework) sends them again', () => {
		const book = new ReviewCommentBook();
		book.openReview('rules', ['src/lint/rules.ts'], 'Tighten the lint rules');
		const c = book.add('rules', 'src/lint/rules.ts', 2, 'Keep eqeqeq, but say why');
		book.markAccepted('rules');
		assert.equal(book.labelOf('rules'), 'For “Tighten the lint rules” · not sent: you accepted the task');
		assert.deepEqual(book.of('rules'), [c], 'nothing is lost');
		const again = new ReviewCommentBook(JSON.parse(JSON.stringify(book.state())) as ReturnType<ReviewCommentBook['state']>);
		assert.equal(again.labelOf('rules'), 'For “Tighten the lint rules” · not sent: you accepted the task', 'kept across a restore');
		again.openReview('rules', ['src/lint/rules.ts'], 'Tighten the lint rules');
		assert.equal(again.labelOf('rules'), 'For “Tighten the lint rules” · sent with Request changes');
		book.markAccepted('never-opened');
		assert.equal(book.labelOf('never-opened'), 'For task never-opened · sent with Request changes');
	});
});
