// Security: agents are started with an argument array, never a shell string built from task text. Hostile task
// titles and content (command substitution, backticks, `;`, `&&`, newlines) reach the agent as inert data and run
// nothing; codex exec gets the prompt in one argv element after `--`, without a shell; claude and codex app-server
// never get it in argv (it is their first input message).
import { strict as assert } from 'node:assert';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claudeCommandFor } from '../../src/agents/claude.js';
import { codexCommandFor } from '../../src/agents/codex.js';
import { commandForTarget } from '../../src/agents/command.js';
import type { RunLaunchSpec } from '../../src/core/runs/runProcessPort.js';
import { type HostHandle, manualIssue, startHost, standardTargets } from '../integration/harness.js';
import { addManualTask, recordOf, recorderTarget, settledRunOf } from './securityKit.js';

function hostileText(scratch: string): { text: string; markers: string[]; victim: string } {
	const markers = ['subst', 'backtick', 'semicolon', 'and', 'newline', 'dollar-brace'].map((m) => join(scratch, `pwned-${m}`));
	const victim = join(scratch, 'victim');
	const text = [
		`$(touch ${markers[0]})`,
		`\`touch ${markers[1]}\``,
		`; touch ${markers[2]}; rm -rf ${victim}`,
		`&& touch ${markers[3]} || rm -rf ${victim}`,
		`\ntouch ${markers[4]}\n`,
		`\${IFS}$(touch\${IFS}${markers[5]}) '"; rm -rf ${victim} #`,
	].join(' ');
	return { text, markers, victim };
}

describe('security: agents get an argument array, never a shell string from task text', function () {
	let host: HostHandle;
	let records: string;
	let scratch: string;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-argv-rec-'));
		scratch = mkdtempSync(join(tmpdir(), 'tutti-sec-argv-'));
		host = await startHost({ config: (gates) => ({ agentTargets: [...standardTargets(gates), recorderTarget('rec', records)], maxParallelRuns: 4 }) });
	});

	after(async function () {
		await host?.dispose();
		rmSync(records, { recursive: true, force: true });
		rmSync(scratch, { recursive: true, force: true });
	});

	it('a hostile task title and content run nothing and reach the agent verbatim on stdin', async function () {
		const { text, markers, victim } = hostileText(scratch);
		mkdirSync(victim);
		writeFileSync(join(victim, 'keep'), 'x');
		const issueId = await manualIssue(host, text.slice(0, 400));
		await addManualTask(host, issueId, 'hostile', ['--agent-target-id', 'rec', '--content', text]);
		expectUpdated(await host.cli(['issue', 'task', 'update', '--issue-id', issueId, '--task-id', 'hostile', '--title', text.replace(/\n/g, ' ').slice(0, 400), '--json'], { asUser: true }));
		const run = await settledRunOf(host, issueId, 'hostile');
		assert.equal(run.status, 'completed', run.errorMessage);
		const record = recordOf(records, 'hostile');
		assert.ok(record, 'the agent ran');
		assert.equal(record.stdin, text, 'the content arrives verbatim on stdin');
		assert.deepEqual(record.argv, ['fixed-arg'], 'the argument vector is the target\'s, with nothing from the task');
		for (const marker of markers) { assert.ok(!existsSync(marker), `${marker} must not exist: task text was executed`); }
		assert.ok(existsSync(join(victim, 'keep')), 'nothing was removed');
		const spec = JSON.parse(readFileSync(join(host.workspace, '.tutti', 'runs', run.runId, 'spec.json'), 'utf8')) as { shell: boolean; file: string; args: string[] };
		assert.equal(spec.shell, false, 'the supervisor starts the agent without a shell');
		assert.equal(spec.file, process.execPath);
		assert.ok(!JSON.stringify(spec.args).includes('pwned'), 'the task text is not part of the argument vector');
	});

	describe('adapters (pure)', function () {
		const hostile = hostileText('/nonexistent').text;
		const spec = (target: RunLaunchSpec['target']): RunLaunchSpec => ({
			runId: 'run-1', issueId: 'issue-1', taskId: 'task-1', target, cwd: '/w', stdinText: hostile, env: {},
			turn: { prompt: hostile },
		});

		it('command targets never use a shell unless the target itself says so', function () {
			const command = commandForTarget({ id: 'c', adapter: 'command', argv: ['agent', '--flag'] });
			assert.equal(command.shell, false);
			assert.deepEqual([command.file, ...command.args], ['agent', '--flag']);
			assert.equal(command.stdin, 'spec', 'the task text goes to stdin');
		});

		it('codex exec: no shell, and the prompt is exactly one argv element after --', function () {
			const command = codexCommandFor(spec({ id: 'codex', adapter: 'codex', protocol: 'exec' }));
			assert.equal(command.shell, false);
			assert.equal(command.args.at(-1), hostile, 'the whole prompt is one element');
			assert.equal(command.args.at(-2), '--', 'after --, so it can never be read as a flag');
			assert.equal(command.args.filter((a) => a.includes('pwned')).length, 1, 'the prompt appears once');
		});

		it('codex app-server: no shell, and the prompt never reaches argv: it is the turn\'s input, verbatim (the exec fallback keeps it after --)', function () {
			const command = codexCommandFor(spec({ id: 'codex', adapter: 'codex' }));
			assert.equal(command.shell, false);
			assert.equal(command.args.filter((a) => a.includes('pwned')).length, 0, 'nothing of the prompt is an argument');
			assert.equal(command.stdin, 'live');
			assert.equal(command.livePrompt, hostile, 'the whole prompt, as one message');
			assert.deepEqual(command.appServer?.execFallbackArgs.slice(-2), ['--', hostile]);
		});

		it('claude: no shell, and the prompt never reaches argv: it is the first stream-json message on stdin, verbatim', function () {
			const command = claudeCommandFor(spec({ id: 'claude', adapter: 'claude' }));
			assert.equal(command.shell, false);
			assert.equal(command.args.filter((a) => a.includes('pwned')).length, 0, 'nothing of the prompt is an argument');
			assert.equal(command.stdin, 'live');
			assert.equal(command.livePrompt, hostile, 'the whole prompt, as one message');
		});
	});
});

function expectUpdated(result: { code: number; stdout: string }): void {
	assert.equal(result.code, 0, result.stdout);
}
