// Comments a developer writes on a task's diff (VS Code's Comments API draws them; this keeps them, vscode-free).
// Opening a task's changes makes its files commentable for that task; Request changes sends the task's comments
// with the note as `path:line — comment` lines, and then clears them. Persisted so a window reload keeps them.
import { Emitter, type Event } from '../../core/events.js';
import type { Disposable } from '../../core/lifecycle.js';

export interface ReviewComment {
	readonly commentId: string;
	readonly taskId: string;
	/** The file's path relative to the workspace, with `/` separators. */
	readonly path: string;
	/** 1-based line. */
	readonly line: number;
	readonly text: string;
}

/** What the book persists (workspace state): the comments and which task's diff each file was opened for. */
export interface ReviewCommentState {
	readonly comments: readonly ReviewComment[];
	readonly reviews: readonly { readonly taskId: string; readonly files: readonly string[]; readonly title?: string; readonly accepted?: boolean }[];
}

/** Bounds: one comment's text, and how many comments one task keeps. */
export const reviewCommentLimits = { textChars: 2_000, perTask: 200 } as const;

export class ReviewCommentBook implements Disposable {
	readonly #comments = new Map<string, ReviewComment>();
	/** Most recently opened last: a file in two tasks' diffs belongs to the one opened last. */
	#reviews: { taskId: string; files: Set<string>; title: string; accepted: boolean }[] = [];
	#next = 0;
	readonly #onDidChange = new Emitter<void>();
	readonly onDidChange: Event<void> = this.#onDidChange.event;

	constructor(state?: ReviewCommentState) {
		for (const c of state?.comments ?? []) { this.#comments.set(c.commentId, c); }
		this.#reviews = (state?.reviews ?? []).map((r) => ({ taskId: r.taskId, files: new Set(r.files), title: typeof r.title === 'string' ? r.title : '', accepted: r.accepted === true }));
		this.#next = this.#comments.size;
	}

	/** The task's diff was opened on these files: they can be commented for it. `title`: the task's, to name its threads. */
	openReview(taskId: string, files: readonly string[], title = ''): void {
		this.#reviews = [...this.#reviews.filter((r) => r.taskId !== taskId), { taskId, files: new Set(files.map(normalize)), title, accepted: false }];
		this.#onDidChange.fire();
	}

	/** The developer accepted the task: its comments stay (nothing is lost) but will not be sent; its threads say so. */
	markAccepted(taskId: string): void {
		const review = this.#reviews.find((r) => r.taskId === taskId);
		if (review === undefined || review.accepted) { return; }
		review.accepted = true;
		this.#onDidChange.fire();
	}

	/** The label of the task's comment threads, by its title and whether its comments still go with Request changes. */
	labelOf(taskId: string): string {
		return threadLabel(this.titleOf(taskId), taskId, this.#reviews.find((r) => r.taskId === taskId)?.accepted === true);
	}

	/** The title of the task whose diff was opened ('' when it was not given). */
	titleOf(taskId: string): string {
		return this.#reviews.find((r) => r.taskId === taskId)?.title ?? '';
	}

	/** The task whose open diff shows `path`, if any. */
	taskFor(path: string): string | undefined {
		const p = normalize(path);
		for (let i = this.#reviews.length - 1; i >= 0; i--) {
			if (this.#reviews[i]!.files.has(p)) { return this.#reviews[i]!.taskId; }
		}
		return undefined;
	}

	/** Adds a comment; refuses an empty one and more than the task's limit. */
	add(taskId: string, path: string, line: number, text: string): ReviewComment {
		const body = text.trim();
		if (body === '') { throw new Error('Write a comment first.'); }
		if (this.of(taskId).length >= reviewCommentLimits.perTask) {
			throw new Error(`A task keeps at most ${reviewCommentLimits.perTask} comments: request changes with these first.`);
		}
		const comment: ReviewComment = {
			commentId: `c${++this.#next}-${Date.now().toString(36)}`, taskId, path: normalize(path), line: Math.max(1, Math.floor(line)),
			text: body.length > reviewCommentLimits.textChars ? body.slice(0, reviewCommentLimits.textChars) : body,
		};
		this.#comments.set(comment.commentId, comment);
		this.#onDidChange.fire();
		return comment;
	}

	remove(commentId: string): void {
		if (this.#comments.delete(commentId)) { this.#onDidChange.fire(); }
	}

	/** The task's comments in file and line order. */
	of(taskId: string): ReviewComment[] {
		return [...this.#comments.values()].filter((c) => c.taskId === taskId)
			.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : a.line - b.line));
	}

	/** Forgets the task's comments (they were sent). */
	clear(taskId: string): ReviewComment[] {
		const gone = this.of(taskId);
		for (const c of gone) { this.#comments.delete(c.commentId); }
		if (gone.length > 0) { this.#onDidChange.fire(); }
		return gone;
	}

	state(): ReviewCommentState {
		return { comments: [...this.#comments.values()], reviews: this.#reviews.map((r) => ({ taskId: r.taskId, files: [...r.files], title: r.title, ...(r.accepted ? { accepted: true } : {}) })) };
	}

	dispose(): void {
		this.#onDidChange.dispose();
	}
}

function normalize(path: string): string {
	return path.replace(/\\/g, '/').replace(/^\.\//, '');
}

/**
 * A comment thread is named by its task's title ("For “Write the notes” · sent with Request changes"); once the task
 * was accepted its comments are kept but not sent, and the label says so.
 */
export function threadLabel(taskTitle: string, taskId: string, accepted = false): string {
	return `For ${taskTitle !== '' ? `“${taskTitle}”` : `task ${taskId}`} · ${accepted ? 'not sent: you accepted the task' : 'sent with Request changes'}`;
}

/** The note sent with Request changes: the developer's words, then each diff comment as `path:line — comment`. */
export function noteWithComments(note: string, comments: readonly Pick<ReviewComment, 'path' | 'line' | 'text'>[]): string {
	if (comments.length === 0) { return note; }
	const lines = comments.map((c) => `- ${c.path}:${c.line} — ${c.text.replace(/\s*\n\s*/g, ' ')}`);
	const head = note.trim() === '' ? '' : `${note.trimEnd()}\n\n`;
	return `${head}Comments on the diff:\n${lines.join('\n')}`;
}
