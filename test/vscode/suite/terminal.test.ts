// Terminal integration: the environment collection (stable values only), the `tutti` shim on PATH running the
// bundled CLI with VS Code's own Node, and the CLI in a real VS Code terminal changing the store.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ownerReady, tutti, waitFor } from './suiteKit.js';

/** Runs a shell command line in a real terminal (with the collection applied) and waits for it to exit. */
async function inTerminal(commandLine: string, env: Record<string, string> = {}): Promise<void> {
	const terminal = vscode.window.createTerminal({ name: 'tutti-suite', shellPath: '/bin/sh', shellArgs: ['-c', commandLine], env });
	try {
		await waitFor(`the terminal running ${commandLine} to exit`, () => (terminal.exitStatus ? true : undefined), 30_000);
	} finally {
		terminal.dispose();
	}
}

describe('terminal integration', () => {
	let scratch: string;
	before(async () => {
		await ownerReady();
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-suite-term-'));
	});
	after(() => fs.rmSync(scratch, { recursive: true, force: true }));

	it('the environment collection holds TUTTI_IPC_HOOK (the socket path) and prepends the shim directory to PATH', async () => {
		const { services, environment } = await tutti();
		const state = services.connection.state;
		assert.equal(state.kind, 'owner');
		const hook = environment.get('TUTTI_IPC_HOOK');
		assert.equal(hook?.type, vscode.EnvironmentVariableMutatorType.Replace);
		assert.equal(hook?.value, state.kind === 'owner' ? state.host.socketPath : '');
		const pathEntry = environment.get('PATH');
		assert.equal(pathEntry?.type, vscode.EnvironmentVariableMutatorType.Prepend);
		assert.ok(fs.existsSync(path.join(pathEntry!.value.replace(new RegExp(`${path.delimiter}$`), ''), 'tutti')), 'the shim exists');
		const collected: string[] = [];
		environment.forEach((variable) => collected.push(variable));
		assert.deepEqual(collected.sort(), ['PATH', 'TUTTI_IPC_HOOK'], 'nothing volatile (tokens, ports, versioned paths) in the collection');
	});

	it('a terminal sees TUTTI_IPC_HOOK and finds `tutti` (the shim) first on PATH', async () => {
		const out = path.join(scratch, 'env.txt');
		await inTerminal(`printf '%s\\n%s\\n' "$TUTTI_IPC_HOOK" "$(command -v tutti)" > '${out}'`);
		const [hook, tuttiPath] = fs.readFileSync(out, 'utf8').trim().split('\n');
		const { services, environment } = await tutti();
		assert.equal(hook, environment.get('TUTTI_IPC_HOOK')?.value);
		assert.ok(tuttiPath?.endsWith(`${path.sep}bin${path.sep}tutti`), `tutti resolves to ${tuttiPath}`);
		assert.match(fs.readFileSync(tuttiPath!, 'utf8'), /ELECTRON_RUN_AS_NODE=1 exec .*dist\/cli\.js/);
		assert.ok(services.workspace);
	});

	it('`tutti issue create --as-user` in a VS Code terminal changes the store (seen through the api and the board state)', async () => {
		const { services } = await tutti();
		const out = path.join(scratch, 'create.json');
		await inTerminal(`tutti issue create --title 'Made in a terminal' --as-user --json > '${out}' 2>&1`);
		const created = JSON.parse(fs.readFileSync(out, 'utf8')) as { issueId?: string };
		assert.ok(created.issueId, fs.readFileSync(out, 'utf8'));
		const listed = await services.client().call('issue/list', {});
		assert.ok(listed.issues.some((i) => i.issueId === created.issueId && i.title === 'Made in a terminal'));
		await waitFor('the change source to publish the new issue', () => services.changes.current?.issues.some((i) => i.issueId === created.issueId) ? true : undefined);
	});
});
