// End to end through the real Host and the real Codex CLI as a worker, in both protocols (`codex app-server`, the
// default, and `codex exec --json`): a task on a codex target runs a shell tool call (exec_command) in the
// workspace-write sandbox and its Run completes with the Turn's usage. Retries are off and config typos fatal
// (codexKit.codexTestArgs); CODEX_HOME is the test's own.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { HostHandle } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { codexTarget, killLeftovers, latestRunId, manualTask, runLog, settledRun, startAgentHost, targetHome } from './e2eKit.js';

for (const protocol of ['app-server', 'exec'] as const) {
	describe(`e2e: a codex worker through the Host (${protocol})`, function () {
		this.timeout(90_000);
		let dir: TempDir;
		let server: ScriptedServer;
		let host: HostHandle | undefined;

		before(async () => {
			dir = makeTempDir('tutti-e2e-codex-');
			server = await startScriptedServer({
				script: {
					turns: [
						{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_echo', input: { cmd: 'echo done > codex-out.txt' } }] },
						{ when: { last_user_includes: 'function_call_output' }, blocks: [{ type: 'text', text: 'Done: wrote codex-out.txt' }] },
					],
				},
			});
			host = await startAgentHost([codexTarget('codex-w', server.url, targetHome(dir, 'codex'), { protocol })]);
		});
		after(async () => {
			killLeftovers(host);
			await host?.dispose();
			await server.close();
			dir.remove();
		});

		it('runs a shell tool call and completes with its usage', async () => {
			const h = host!;
			const { issueId, taskId } = await manualTask(h, 'codex-echo', 'codex-w', 'Write done to codex-out.txt.');
			const run = await settledRun(h, await latestRunId(h, issueId, taskId));
			const log = await runLog(h, run.runId);
			assert.equal(run.status, 'completed', `${JSON.stringify(run)}\n${log.slice(-2000)}\n${await runLog(h, run.runId, 'stderr')}`);
			assert.equal(run.outcome, 'success');
			assert.match(run.outcomeLabel ?? '', /^Completed in /);
			assert.equal(readFileSync(join(h.workspace, 'codex-out.txt'), 'utf8'), 'done\n');
			assert.equal(run.summary, 'Done: wrote codex-out.txt');
			// Two scripted responses, each reporting 20 input and 10 output tokens.
			assert.equal(run.usage.inputTokens, 40);
			assert.equal(run.usage.outputTokens, 20);
			assert.equal(server.turnsUsed(), 2);
			const second = JSON.stringify(server.modelRequests()[1]!.body);
			assert.ok(second.includes('"call_id":"call_echo"') && second.includes('Process exited with code 0'), second.slice(-1500));
			const first = JSON.stringify(server.modelRequests()[0]!.body);
			assert.ok(first.includes(`do task ${taskId} of issue ${issueId}`), 'the worker prompt names the task');
			if (protocol === 'exec') {
				assert.ok(log.includes('"type":"turn.completed"') && log.includes('"type":"command_execution"'), log.slice(-1500));
			} else {
				assert.ok(log.includes('"method":"turn/completed"') && log.includes('"type":"commandExecution"'), log.slice(-1500));
			}
		});
	});
}
