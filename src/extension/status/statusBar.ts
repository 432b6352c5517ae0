// The status bar item ("2 running · 1 needs you") and the notification shown when an issue starts needing the
// developer, with a button that opens that issue (or the board when several do).
import * as vscode from 'vscode';
import { DisposableStore, type Disposable } from '../../core/lifecycle.js';
import { commandIds } from '../commands/ids.js';
import type { ExtensionServices } from '../services.js';
import { type BoardModel, buildBoard, needsYouMessage, newlyNeedingYou, statusSummary } from '../views/boardModel.js';

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
			item.text = state.kind === 'noStore' ? '$(circle-large-outline) Tutti' : state.kind === 'failed' ? '$(error) Tutti' : '$(loading~spin) Tutti';
			item.tooltip = state.kind === 'noStore' ? 'Tutti is not started in this folder' : state.kind === 'failed' ? `Tutti could not start: ${state.message}` : 'Tutti is starting';
			item.backgroundColor = undefined;
			if (state.kind === 'noFolder') {
				item.hide();
			} else {
				item.show();
			}
			return;
		}
		const model = buildBoard(current.issues, current.executions);
		const icon = model.runningRunCount > 0 ? '$(sync~spin)' : model.needsYouCount > 0 ? '$(bell-dot)' : '$(check)';
		item.text = `${icon} Tutti: ${statusSummary(model)}${state.kind === 'viewer' ? ' (viewer)' : ''}`;
		item.tooltip = `${model.runningRunCount} Run${model.runningRunCount === 1 ? '' : 's'} running · ${model.needsYouCount} issue${model.needsYouCount === 1 ? ' needs' : 's need'} you — click for the board`;
		item.backgroundColor = model.needsYouCount > 0 ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
		item.accessibilityInformation = { label: `Tutti: ${statusSummary(model)}` };
		item.show();
		notify(newlyNeedingYou(previous, model));
		previous = model;
	};

	const notify = (items: ReturnType<typeof newlyNeedingYou>): void => {
		if (items.length === 0) {
			return;
		}
		const single = items.length === 1 ? items[0] : undefined;
		const button = single ? 'Open Issue' : 'Show Board';
		void vscode.window.showInformationMessage(needsYouMessage(items), button).then((choice) => {
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
