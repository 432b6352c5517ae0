// The status bar item ("1 needs you · 2 agent working") and the notification shown when an issue starts needing the
// developer, with a button that opens that issue (or the board when several do). Both draw the Host's attention
// state (boardModel.ts) and derive nothing. `tutti.notifications` (all / needsYou / off) says which are shown.
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { inSentence } from '../../core/attention/vocabulary.js';
import { commandIds } from '../commands/ids.js';
import type { ExtensionServices } from '../services.js';
import {
	type BoardIssue, type BoardModel, buildBoard, needsYouMessage, newlyDone, newlyNeedingYou, statusIcon, statusSummary,
} from '../views/boardModel.js';

export type NotificationLevel = 'all' | 'needsYou' | 'off';

export function notificationLevel(value: unknown): NotificationLevel {
	return value === 'all' || value === 'off' ? value : 'needsYou';
}

export function registerStatusBar(services: ExtensionServices): Disposable {
	const store = new DisposableStore();
	const item = store.add(vscode.window.createStatusBarItem('tutti.status', vscode.StatusBarAlignment.Left, 50));
	item.name = 'Tutti';
	item.command = 'tutti.issueBoard.focus';
	let previous: BoardModel | undefined;

	const render = (): void => {
		const state = services.connection.state;
		const current = services.changes.current;
		if (services.connection.client === undefined || current === undefined) {
			const waiting = state.kind === 'noStore' || state.kind === 'unknownStore';
			item.text = waiting ? '$(circle-large-outline) Tutti' : state.kind === 'failed' ? '$(error) Tutti' : '$(loading~spin) Tutti';
			item.tooltip = state.kind === 'unknownStore' ? 'This folder came with a Tutti store: nothing starts until you start Tutti here'
				: state.kind === 'noStore' ? 'Tutti is not started in this folder' : state.kind === 'failed' ? `Tutti could not start: ${state.message}` : 'Tutti is starting';
			item.backgroundColor = undefined;
			if (state.kind === 'noFolder') {
				item.hide();
			} else {
				item.show();
			}
			return;
		}
		const model = buildBoard(current.issues, current.executions);
		const summary = statusSummary(model);
		item.text = `$(${statusIcon(model)}) Tutti: ${summary}${state.kind === 'viewer' ? ' (viewer)' : ''}`;
		const lines = model.groups.flatMap((g) => g.issues).filter((i) => i.group !== 'done').map((i) => `${i.title}: ${i.stateLabel}`);
		item.tooltip = [...lines.slice(0, 8), lines.length > 8 ? `… and ${lines.length - 8} more` : '', 'Click for the board'].filter((l) => l !== '').join('\n');
		// The warning colour only for a failure or a stall, never for a review that simply waits for the developer.
		item.backgroundColor = model.stalled ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
		item.accessibilityInformation = { label: `Tutti: ${summary}` };
		item.show();
		const level = notificationLevel(vscode.workspace.getConfiguration('tutti').get('notifications'));
		if (level !== 'off') {
			notify(newlyNeedingYou(previous, model));
		}
		if (level === 'all') {
			for (const done of newlyDone(previous, model)) {
				void vscode.window.showInformationMessage(`Tutti: "${done.title}" is ${inSentence(done.stateLabel)}.`);
			}
		}
		previous = model;
	};

	const notify = (items: readonly BoardIssue[]): void => {
		if (items.length === 0) {
			return;
		}
		const single = items.length === 1 ? items[0] : undefined;
		const button = single ? 'Open Issue' : 'Show Board';
		const message = needsYouMessage(items);
		const shown = items.some((i) => i.stalled) ? vscode.window.showWarningMessage(message, button) : vscode.window.showInformationMessage(message, button);
		void shown.then((choice) => {
			if (choice === 'Open Issue' && single) {
				void vscode.commands.executeCommand(commandIds.openIssue, single.issueId);
			} else if (choice === 'Show Board') {
				void vscode.commands.executeCommand('tutti.issueBoard.focus');
			}
		});
	};

	store.add(services.changes.onDidChange(render));
	store.add(services.connection.onDidChange(() => {
		previous = undefined;
		render();
	}));
	render();
	return store;
}
