// What `tutti agent list` says about codex targets in exec mode (`messagesWhileRunning: "queued-until-turn-ends"`),
// checked against the pinned Codex CLI: `codex exec` reads its stdin up to the end BEFORE it starts the Turn (it appends it to the
// prompt), so nothing can be written into a running Turn; a message waits for the next `exec resume` Turn.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { codexAdapter } from '../../src/agents/codex.js';
import { type AgentSandbox, agentLaunchSpec, isolatedEnv, killGroup, makeAgentSandbox } from './agentKit.js';
import { waitFor } from '../waitFor.js';
import { codexTestTarget } from './codexKit.js';
import { type ScriptedServer, startScriptedServer } from './modelServer/server.js';

describe('agent tier: codex exec takes no input while it runs', function () {
	this.timeout(60_000);
	let sandbox: AgentSandbox;
	let server: ScriptedServer;

	beforeEach(async () => {
		sandbox = makeAgentSandbox('tutti-codex-stdin-');
		server = await startScriptedServer({ script: { turns: [{ blocks: [{ type: 'text', text: 'done' }] }] } });
	});
	afterEach(async () => {
		await server.close();
		sandbox.remove();
	});

	it('with stdin open it waits for its end before the first model request, and the text becomes part of the prompt', async () => {
		const command = codexAdapter.commandFor(agentLaunchSpec('run-1', codexTestTarget(server, sandbox, { protocol: 'exec' }), sandbox.workspace, { prompt: 'say done' }));
		const child = spawn(command.file, command.args, { cwd: sandbox.workspace, env: { ...isolatedEnv(sandbox.home), ...command.env }, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
		try {
			let stderr = '';
			child.stderr.setEncoding('utf8').on('data', (c: string) => { stderr += c; });
			child.stdout.resume();
			const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
			// It says so itself, and has asked the model nothing yet.
			await waitFor(() => (stderr.includes('Reading additional input from stdin') ? true : undefined), { what: 'codex to wait for stdin', timeoutMs: 30_000 });
			assert.equal(server.modelRequests().length, 0, 'no Turn runs while stdin is open');
			child.stdin.end('STEER-WHILE-WAITING-5521\n');
			assert.equal(await exited, 0, stderr);
			const requests = server.modelRequests();
			assert.equal(requests.length, 1);
			assert.ok(JSON.stringify(requests[0]!.body).includes('STEER-WHILE-WAITING-5521'), 'stdin was read into the first prompt, before the Turn');
		} finally {
			killGroup(child);
		}
	});
});
