// Where this machine's agent paths live: tutti.agentPaths is machine-scoped and read from the user's settings only,
// so a folder's .vscode/settings.json (repository content) cannot point an agent target at another executable; the
// user's own value is what the Host merges.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings } from '../../../src/extension/settings/readSettings.js';
import { hostConfigFromSettings } from '../../../src/extension/settings/tuttiSettings.js';
import { waitFor } from './suiteKit.js';

function folderSettingsFile(): string {
	return path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.vscode', 'settings.json');
}

describe('settings: tutti.agentPaths', () => {
	let saved = '';
	before(() => { saved = fs.readFileSync(folderSettingsFile(), 'utf8'); });
	after(async () => {
		fs.writeFileSync(folderSettingsFile(), saved);
		await vscode.workspace.getConfiguration('tutti').update('agentPaths', undefined, vscode.ConfigurationTarget.Global);
	});

	it('a folder\'s settings cannot set it: VS Code and Tutti ignore it there', async () => {
		const settings = JSON.parse(saved) as Record<string, unknown>;
		const target = (settings['tutti.agentTargets'] as { id: string }[])[0]!;
		fs.writeFileSync(folderSettingsFile(), JSON.stringify({ ...settings, 'tutti.agentPaths': { [target.id]: '/planted/by/the/repository' }, 'tutti.probe': 1 }, null, '\t'));
		// The folder's file was read again (an unrelated key in it shows), and its agentPaths is not taken.
		await waitFor('the folder settings to be read again', () => (vscode.workspace.getConfiguration('tutti').inspect('probe')?.workspaceValue === 1 ? true : undefined));
		assert.equal(readSettings().agentPaths, undefined);
		const { config } = hostConfigFromSettings(readSettings());
		assert.ok(!JSON.stringify(config.agentTargets).includes('/planted/'), JSON.stringify(config.agentTargets));
	});

	it('the user\'s own value is read and merged into the targets', async () => {
		const settings = JSON.parse(saved) as Record<string, unknown>;
		const target = (settings['tutti.agentTargets'] as { id: string; argv: string[] }[])[0]!;
		await vscode.workspace.getConfiguration('tutti').update('agentPaths', { [target.id]: process.execPath }, vscode.ConfigurationTarget.Global);
		await waitFor('the user value', () => ((readSettings().agentPaths as Record<string, string> | undefined)?.[target.id] === process.execPath ? true : undefined));
		const merged = hostConfigFromSettings(readSettings()).config.agentTargets.find((t) => t.id === target.id);
		assert.equal(merged?.argv?.[0], process.execPath);
	});
});
