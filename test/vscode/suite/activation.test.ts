// Activation in a folder without a store, then "Start in Folder": the Host runs in this extension host.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { commandIds } from '../../../src/extension/commands/ids.js';
import { tutti, waitFor } from './suiteKit.js';

describe('activation', () => {
	it('activates on startup and, in a folder without a store, waits for "Start in Folder" without creating anything', async () => {
		const { services } = await tutti();
		const workspace = services.workspace!;
		await waitFor('the connection to settle', () => (services.connection.state.kind === 'starting' ? undefined : services.connection.state));
		assert.equal(services.connection.state.kind, 'noStore');
		assert.equal(fs.existsSync(path.join(workspace, '.tutti')), false);
		assert.throws(() => services.client(), /Start in Folder/);
	});

	it('Start in Folder creates the store and runs the Host in this window, with the settings as its config', async () => {
		const { services } = await tutti();
		assert.equal(await vscode.commands.executeCommand(commandIds.startInFolder), 'owner');
		const state = services.connection.state;
		assert.equal(state.kind, 'owner');
		assert.ok(fs.existsSync(path.join(services.workspace!, '.tutti', 'tutti.sqlite')) || fs.existsSync(path.join(services.workspace!, '.tutti', 'tutti.journal')));
		if (state.kind === 'owner') {
			assert.equal(state.host.pid, process.pid, 'the Host runs in the extension host');
			assert.deepEqual(state.host.config.agentTargets.map((t) => t.id), ['sh', 'slow', 'fail', 'tests-fail', 'asker'], 'tutti.agentTargets from the workspace settings');
			assert.equal(state.host.config.maxParallelRuns, 3, 'tutti.maxParallelRuns from the workspace settings');
		}
		const hello = await services.client().call('hello', { client: 'vscode-suite', protocol: 1 });
		assert.equal(hello.workspace, services.workspace);
	});
});
