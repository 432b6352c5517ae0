// `tutti host` follows `.tutti/config.json` while it runs (a real Host process from source, the real CLI over its
// socket): a broken save is refused with its line and column (or the setting's path) and the old targets stay; the
// same settings reformatted change nothing; a save with other settings (also one that replaces the file by a rename,
// as editors and git do) restarts the Host with it, and the config-change rule pauses every issue until the
// developer resumes.
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { runCli } from '../../../src/cli/runCli.js';
import { waitFor } from '../../waitFor.js';

const repoRoot = path.resolve(__dirname, '..', '..', '..');
const cliMain = path.join(repoRoot, 'src', 'cli', 'main.ts');
const tsx = pathToFileURL(require.resolve('tsx')).href;

const target = (id: string): object => ({ id, adapter: 'command', argv: ['true'] });

describe('tutti host follows .tutti/config.json', function () {
	this.timeout(120_000);
	let base: string;
	let workspace: string;
	let configFile: string;
	let cliEnv: Record<string, string | undefined>;
	let child: ChildProcess;
	let stderr = '';
	let issueId: string;

	const cli = async (argv: string[]): Promise<{ code: number; stdout: string }> => {
		let stdout = '';
		const code = await runCli([...argv, '--as-user', '--json'], { env: cliEnv, cwd: workspace, stdout: (t) => { stdout += t; }, stderr: () => undefined });
		return { code, stdout };
	};
	const targetIds = async (): Promise<string[] | undefined> => {
		const listed = await cli(['agent', 'list']);
		return listed.code === 0 ? (JSON.parse(listed.stdout) as { agentTargets: { id: string }[] }).agentTargets.map((t) => t.id) : undefined;
	};
	const paused = async (): Promise<boolean> => {
		const listed = await cli(['issue', 'list']);
		assert.equal(listed.code, 0, listed.stdout);
		return (JSON.parse(listed.stdout) as { issues: { issueId: string; dispatchPaused: boolean }[] }).issues.find((i) => i.issueId === issueId)!.dispatchPaused;
	};
	/** Waits for `text` in the Host's stderr after `from` (what it said before that point does not count). */
	const said = (text: string | RegExp, from: number): Promise<string> => waitFor(() => {
		const tail = stderr.slice(from);
		return (typeof text === 'string' ? tail.includes(text) : text.test(tail)) && tail;
	}, { what: `the Host to say ${String(text)}`, detail: () => stderr.slice(from) });

	before(async () => {
		base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-cr-')));
		workspace = path.join(base, 'ws');
		configFile = path.join(workspace, '.tutti', 'config.json');
		fs.mkdirSync(path.dirname(configFile), { recursive: true });
		fs.writeFileSync(configFile, JSON.stringify({ agentTargets: [target('a')] }, null, '\t'));
		const env: NodeJS.ProcessEnv = { ...process.env, XDG_RUNTIME_DIR: path.join(base, 'run'), XDG_STATE_HOME: path.join(base, 'state') };
		delete env['TUTTI_IPC_HOOK'];
		delete env['TUTTI_SESSION_TOKEN'];
		cliEnv = { XDG_RUNTIME_DIR: env['XDG_RUNTIME_DIR'] };
		child = spawn(process.execPath, ['--import', tsx, cliMain, 'host', '--workspace', workspace], { env, stdio: ['ignore', 'pipe', 'pipe'] });
		child.stderr!.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		let stdout = '';
		child.stdout!.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		const ready = await waitFor(() => stdout.includes('\n') && JSON.parse(stdout.split('\n')[0]!) as { ready?: boolean }, { what: 'the ready line', detail: () => stderr });
		assert.equal(ready.ready, true, stdout);
		const created = await cli(['issue', 'create', '--title', 'Runs on the config it was given']);
		assert.equal(created.code, 0, created.stdout);
		issueId = (JSON.parse(created.stdout) as { issueId: string }).issueId;
	});

	after(async () => {
		if (child.exitCode === null && child.signalCode === null) {
			const exited = new Promise((r) => child.once('exit', r));
			child.kill('SIGKILL');
			await exited;
		}
		fs.rmSync(base, { recursive: true, force: true });
	});

	it('refuses a save that is not JSON, naming the line and column, and keeps the old targets', async () => {
		const from = stderr.length;
		// Line 4, column 1: the `]` after a trailing comma (Node's own message gives no position for it).
		fs.writeFileSync(configFile, '{\n  "agentTargets": [\n    {"id": "b", "adapter": "command", "argv": ["true"]},\n]}\n');
		const refusal = await said('refused the change', from);
		assert.ok(refusal.includes(`${configFile}:4:1 is not valid JSON`), refusal);
		assert.match(refusal, /keeps running with the config it had/);
		assert.deepEqual(await targetIds(), ['a']);
		assert.equal(await paused(), false);
	});

	it('refuses a save that fails validation, naming the setting, and keeps the old targets', async () => {
		const from = stderr.length;
		fs.writeFileSync(configFile, JSON.stringify({ agentTargets: [target('a'), { id: 'b', adapter: 'shell' }] }));
		const refusal = await said('refused the change', from);
		assert.match(refusal, /agentTargets\[1\]\.adapter/);
		assert.deepEqual(await targetIds(), ['a']);
		assert.equal(await paused(), false);
	});

	it('the same settings written differently change nothing', async () => {
		const from = stderr.length;
		fs.writeFileSync(configFile, `  ${JSON.stringify({ agentTargets: [{ argv: ['true'], adapter: 'command', id: 'a' }] })}\n\n`);
		await said('was saved with the same settings: nothing to apply', from);
		assert.doesNotMatch(stderr.slice(from), /restarting the Host/);
		assert.deepEqual(await targetIds(), ['a']);
		assert.equal(await paused(), false);
	});

	it('a save with a new target restarts the Host with it and pauses every issue until the developer resumes', async () => {
		const from = stderr.length;
		fs.writeFileSync(configFile, JSON.stringify({ agentTargets: [target('a'), target('b')] }));
		await waitFor(async () => (await targetIds())?.includes('b'), { what: 'target b to be listed', detail: () => stderr.slice(from) });
		assert.deepEqual(await targetIds(), ['a', 'b']);
		assert.equal(await paused(), true, 'the issue is paused by the change');
		const notice = await said('changed while Tutti ran', from);
		assert.match(notice, /`\.tutti\/config\.json` changed while Tutti ran: nothing new runs until you resume\. What changed: agentTargets \(b\)\./);
		const resumed = await cli(['issue', 'resume', '--issue-id', issueId]);
		assert.equal(resumed.code, 0, resumed.stdout);
		assert.equal(await paused(), false);
	});

	it('a file replaced by a rename is applied too', async () => {
		const from = stderr.length;
		const staged = `${configFile}.tmp`;
		fs.writeFileSync(staged, JSON.stringify({ agentTargets: [target('a'), target('b'), target('c')] }));
		fs.renameSync(staged, configFile);
		await waitFor(async () => (await targetIds())?.includes('c'), { what: 'target c to be listed', detail: () => stderr.slice(from) });
		assert.equal(await paused(), true);
		assert.match(await said('changed while Tutti ran', from), /What changed: agentTargets \(c\)/);
	});
});
