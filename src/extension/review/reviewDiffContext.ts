// Keeps the context keys of the active editor's task diff (reviewDiffTabs.ts) in step: whether the active editor
// is one of Tutti's task diffs, which of the Host's task controls apply (Accept, Request changes) and how many
// comments wait to go with Request changes. package.json's editor/title menus read them.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import type { ExtensionServices } from '../services.js';
import { type ReviewDiff, ReviewDiffTabs } from './reviewDiffTabs.js';

export const reviewDiffContextKeys = {
	/** The active editor is a Tutti task diff. */
	active: 'tutti:reviewDiff',
	accept: 'tutti:reviewDiffAccept',
	requestChanges: 'tutti:reviewDiffRequestChanges',
	/** How many comments on that diff go with Request changes (a number). */
	comments: 'tutti:reviewDiffComments',
} as const;

export interface ReviewDiffs extends Disposable {
	readonly tabs: ReviewDiffTabs;
	/** The task of the active diff editor, if it is one of Tutti's. */
	active(): ReviewDiff | undefined;
	/** Reads the keys again now (after Accept from the title bar, so the buttons go at once). */
	refresh(): Promise<void>;
}

function activeTabTitle(): string | undefined {
	return vscode.window.tabGroups.activeTabGroup.activeTab?.label;
}

export function registerReviewDiffContext(services: ExtensionServices): ReviewDiffs {
	const store = new DisposableStore();
	const tabs = new ReviewDiffTabs();
	const last = new Map<string, boolean | number>();
	const set = (key: string, value: boolean | number): void => {
		if (last.get(key) === value) { return; }
		last.set(key, value);
		void vscode.commands.executeCommand('setContext', key, value);
	};
	let generation = 0;
	const update = async (): Promise<void> => {
		const mine = ++generation;
		const task = tabs.taskOf(activeTabTitle());
		set(reviewDiffContextKeys.active, task !== undefined);
		set(reviewDiffContextKeys.comments, task === undefined ? 0 : services.reviewComments.of(task.taskId).length);
		let controls = { accept: false, requestChanges: false };
		const client = services.connection.client;
		if (task !== undefined && client !== undefined) {
			// The Host's controls for that one task: the title bar draws them and decides nothing.
			const read = await client.call('issue/get', { issueId: task.issueId, taskId: task.taskId }).catch(() => undefined);
			controls = read?.tasks.find((t) => t.taskId === task.taskId)?.controls ?? controls;
		}
		if (mine !== generation) { return; }
		set(reviewDiffContextKeys.accept, controls.accept);
		set(reviewDiffContextKeys.requestChanges, controls.requestChanges);
	};
	const later = (): void => { void update(); };
	store.add(vscode.window.tabGroups.onDidChangeTabs(later));
	store.add(vscode.window.tabGroups.onDidChangeTabGroups(later));
	store.add(services.changes.onDidChange(later));
	store.add(services.reviewComments.onDidChange(later));
	later();
	return {
		tabs,
		active: () => tabs.taskOf(activeTabTitle()),
		refresh: update,
		dispose: () => store.dispose(),
	};
}
