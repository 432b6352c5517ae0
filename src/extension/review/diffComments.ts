// Comments on a task's diff through VS Code's Comments API: a developer comments lines in the diff that Open Changes
// shows; Request changes sends them with the note as `path:line — comment` (reviewCommentBook.ts keeps them).
import * as path from 'node:path';
import * as vscode from 'vscode';
import { DisposableStore } from '../../core/lifecycle.js';
import { type ReviewComment, ReviewCommentBook, type ReviewCommentState } from './reviewCommentBook.js';

const stateKey = 'tutti.reviewComments';

/** A comment as VS Code draws it, carrying the book's id. */
class AgentComment implements vscode.Comment {
	readonly mode = vscode.CommentMode.Preview;
	readonly author = { name: 'You (for the agent)' };
	readonly contextValue = 'tutti.reviewComment';
	constructor(readonly commentId: string, readonly body: string, readonly thread: vscode.CommentThread) {}
}

/** The workspace-relative path of a file or git: document inside the workspace, or undefined. */
export function workspacePathOf(workspace: string | undefined, uri: vscode.Uri): string | undefined {
	if (workspace === undefined || (uri.scheme !== 'file' && uri.scheme !== 'git')) { return undefined; }
	const rel = path.relative(workspace, uri.fsPath);
	return rel === '' || rel.startsWith('..') || path.isAbsolute(rel) ? undefined : rel.split(path.sep).join('/');
}

export interface DiffComments extends vscode.Disposable {
	readonly book: ReviewCommentBook;
	/** The thread's "Comment for the Agent" button (`tutti.review.addComment`). */
	addComment(reply: unknown): void;
	/** A comment's trash button (`tutti.review.deleteComment`). */
	deleteComment(comment: unknown): void;
}

function isCommentReply(v: unknown): v is vscode.CommentReply {
	return typeof v === 'object' && v !== null && 'thread' in v && 'text' in v && typeof (v as { text: unknown }).text === 'string';
}

export function registerDiffComments(workspace: string | undefined, memento: vscode.Memento): DiffComments {
	const store = new DisposableStore();
	const saved = memento.get<ReviewCommentState>(stateKey);
	const book = store.add(new ReviewCommentBook(saved && Array.isArray(saved.comments) && Array.isArray(saved.reviews) ? saved : undefined));
	const drawn = new Map<string, AgentComment>();
	const controller = store.add(vscode.comments.createCommentController('tutti.review', 'Tutti review'));
	controller.options = { prompt: 'Comment for the agent (sent with Request changes)', placeHolder: 'What should change on this line?' };
	controller.commentingRangeProvider = {
		provideCommentingRanges(document: vscode.TextDocument): vscode.Range[] {
			const rel = workspacePathOf(workspace, document.uri);
			return rel !== undefined && book.taskFor(rel) !== undefined ? [new vscode.Range(0, 0, Math.max(0, document.lineCount - 1), 0)] : [];
		},
	};
	store.add(book.onDidChange(() => {
		void memento.update(stateKey, book.state());
		// A comment the book no longer has (sent with Request changes, or deleted) leaves its thread.
		const kept = new Map(book.state().comments.map((c) => [c.commentId, c.taskId] as const));
		for (const [id, comment] of drawn) {
			const taskId = kept.get(id);
			// A kept comment's thread follows its task's decision (accepted: not sent), still named by the task's title.
			if (taskId !== undefined) { comment.thread.label = book.labelOf(taskId); continue; }
			drawn.delete(id);
			comment.thread.comments = comment.thread.comments.filter((c) => c !== comment);
			if (comment.thread.comments.length === 0) { comment.thread.dispose(); }
		}
	}));
	const addComment = (reply: unknown): void => {
		if (!isCommentReply(reply)) { return; }
		const rel = workspacePathOf(workspace, reply.thread.uri);
		const taskId = rel === undefined ? undefined : book.taskFor(rel);
		if (rel === undefined || taskId === undefined) {
			void vscode.window.showErrorMessage('Tutti: comment on a task\'s diff (Open Changes) so the comment reaches its agent.');
			return;
		}
		let added: ReviewComment;
		try {
			added = book.add(taskId, rel, (reply.thread.range?.start.line ?? 0) + 1, reply.text);
		} catch (e) {
			void vscode.window.showErrorMessage(`Tutti: ${e instanceof Error ? e.message : String(e)}`);
			return;
		}
		const comment = new AgentComment(added.commentId, added.text, reply.thread);
		drawn.set(added.commentId, comment);
		reply.thread.comments = [...reply.thread.comments, comment];
		reply.thread.label = book.labelOf(taskId);
		reply.thread.canReply = true;
	};
	const deleteComment = (comment: unknown): void => {
		if (comment instanceof AgentComment) { book.remove(comment.commentId); }
	};
	return { book, addComment, deleteComment, dispose: () => store.dispose() };
}
