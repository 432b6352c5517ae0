// Until the issue panel (src/extension/panels/issuePanel.ts) is wired in, "Open Issue" shows the issue as a
// Markdown preview of its export: the same facts, read-only.
import * as vscode from 'vscode';
import type { IssuePanelPort } from './commands/actionContext.js';
import { exportAsMarkdown } from './export/issueExport.js';
import type { ExtensionServices } from './services.js';

export function markdownIssuePanel(services: ExtensionServices): IssuePanelPort {
	return {
		async show(issueId: string): Promise<void> {
			const client = services.client();
			const [issue, runs] = await Promise.all([client.call('issue/get', { issueId }), client.call('run/list', { issueId })]);
			const plan = issue.planningSource === 'tutti' ? await client.call('plan/get', { issueId }) : null;
			const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: exportAsMarkdown({ exportedAtUnixMs: Date.now(), issue, plan, runs: runs.runs }) });
			await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
		},
	};
}
