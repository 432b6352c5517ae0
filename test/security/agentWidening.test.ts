// Security (issue 20, items 1, 4, 5): an agent narrows what it was given, never widens it. Through the real CLI and a
// real Host, with a worker's token and a source session's: a permission mode wider than the task's target runs with
// by default (codex danger-full-access, claude bypassPermissions/acceptEdits) is refused `forbidden` on task add and
// update, on plan mutate add and update, and when a rework would inherit it; auto-accept on an issue that asks the
// developer, and a plan without the developer's confirmation, are the developer's too; issue create honours the
// autoAcceptDefault setting for every creator; `issue update --auto-accept` is the developer's. A fake claude/codex
// executable records the argv it was started with, so the tests see what reached the agent process (codex in exec mode);
// a fake codex app-server records the thread its supervisor started, so the tests see the sandbox the thread got.
import { strict as assert } from 'node:assert';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	type CliResult, type HostConfig, type HostHandle, type ManagedIssue, expectError, expectOk, issueGet, managedIssue, methods, openSession,
	requestId, type Session, standardTargets, startHost, taskIn, taskSpec, waitFor,
} from '../integration/harness.js';
import { recordOf } from './securityKit.js';

/** A Node script at `<dir>/bin/<name>`, executable. */
function nodeBin(dir: string, name: string, lines: string[]): string {
	mkdirSync(join(dir, 'bin'), { recursive: true });
	const file = join(dir, 'bin', name);
	writeFileSync(file, [`#!${process.execPath}`, "const fs = require('node:fs');", "const path = require('node:path');", ...lines].join('\n'));
	chmodSync(file, 0o755);
	return file;
}

/** An executable that stands in for `claude` / `codex`: it writes `<RECORD_DIR>/<TUTTI_TASK_ID>.json` with its argv. */
function fakeAgentBin(dir: string): string {
	return nodeBin(dir, 'fake-agent', [
		"fs.writeFileSync(path.join(process.env.RECORD_DIR, process.env.TUTTI_TASK_ID + '.json'), JSON.stringify({ argv: process.argv.slice(2) }));",
	]);
}

/**
 * A stand-in for `codex app-server`: it answers the supervisor's JSON-RPC, writes `<RECORD_DIR>/<TUTTI_TASK_ID>.json`
 * with its argv and the params of the thread it was asked to start, and completes the turn at once.
 */
function fakeAppServerBin(dir: string): string {
	return nodeBin(dir, 'fake-app-server', [
		"const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');",
		"let rest = '';",
		"process.stdin.setEncoding('utf8').on('data', (c) => { rest += c; let nl; while ((nl = rest.indexOf('\\n')) >= 0) { const m = JSON.parse(rest.slice(0, nl)); rest = rest.slice(nl + 1); on(m); } });",
		'function on(m) {',
		"  if (m.method === 'initialize') { send({ id: m.id, result: { userAgent: 'fake' } }); }",
		"  if (m.method === 'thread/start' || m.method === 'thread/resume') {",
		"    fs.writeFileSync(path.join(process.env.RECORD_DIR, process.env.TUTTI_TASK_ID + '.json'), JSON.stringify({ argv: process.argv.slice(2), thread: m.params }));",
		"    send({ id: m.id, result: { thread: { id: '01a23ade-30dd-70d3-96dd-b8e160237d85' } } });",
		'  }',
		"  if (m.method === 'turn/start') {",
		"    const turn = { id: 'turn-1', status: 'inProgress', error: null };",
		"    send({ id: m.id, result: { turn } });",
		"    send({ method: 'turn/completed', params: { threadId: m.params.threadId, turn: { ...turn, status: 'completed' } } });",
		'  }',
		'}',
	]);
}

interface Targets { codex: object; claude: object; codexFull: (args: string[]) => object; appServer: object }

function agentTargets(records: string): Targets {
	const path = fakeAgentBin(records);
	const env = { RECORD_DIR: records };
	return {
		codex: { id: 'codex', adapter: 'codex', path, env, protocol: 'exec' },
		claude: { id: 'claude', adapter: 'claude', path, env },
		// The developer's own target whose args choose full access: its default is danger-full-access.
		codexFull: (args) => ({ id: 'codex-full', adapter: 'codex', path, env, args, protocol: 'exec' }),
		appServer: { id: 'codex-as', adapter: 'codex', path: fakeAppServerBin(records), env },
	};
}

function configOf(gates: string, targets: Targets, autoAcceptDefault: boolean, fullArgs = ['--sandbox', 'danger-full-access']): HostConfig {
	return {
		agentTargets: [...standardTargets(gates), targets.codex, targets.claude, targets.codexFull(fullArgs), targets.appServer],
		maxParallelRuns: 4, autoAcceptDefault, developerConfirmation: true,
	} as unknown as HostConfig;
}

const widerHint = (mode: string): RegExp => new RegExp(`developer can set it with the developer's own command \`tutti issue task update --issue-id \\S+ --task-id \\S+ --permission-mode-id ${mode} --as-user\``);

/** The argv the fake agent of `taskId` was started with. */
function argvOf(records: string, taskId: string): Promise<string[]> {
	return waitFor(() => recordOf(records, taskId)?.argv, { what: `the agent of ${taskId} to start`, timeoutMs: 20_000, intervalMs: 50 });
}

describe('security: agents narrow their launch settings, never widen them', function () {
	this.timeout(180_000);
	let host: HostHandle;
	let hostAccepting: HostHandle;
	let records: string;
	let targets: Targets;
	let worker: Session;

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-widen-'));
		targets = agentTargets(records);
		[host, hostAccepting] = await Promise.all([
			startHost({ config: (gates) => configOf(gates, targets, false) }),
			startHost({ config: (gates) => configOf(gates, targets, true) }),
		]);
		worker = await openSession(host, 'worker');
	});

	after(async function () {
		await Promise.all([host?.dispose(), hostAccepting?.dispose()]);
		rmSync(records, { recursive: true, force: true });
	});

	/** A manual issue the developer created; paused: nothing starts until `issue resume --as-user`. */
	async function developerIssue(title: string, extra: string[] = [], on: HostHandle = host): Promise<string> {
		const issue = methods['issue/create'].result.parse(expectOk(await on.cli(['issue', 'create', '--title', title, ...extra, '--as-user', '--json'])));
		on.track(issue.issueId);
		return issue.issueId;
	}

	function taskAdd(issueId: string, taskId: string, flags: string[], token: string | 'user' = worker.token): Promise<CliResult> {
		const words = ['issue', 'task', 'add', '--issue-id', issueId, '--task-id', taskId, '--title', `Task ${taskId}`, '--content', `Do ${taskId}.`, ...flags, '--json'];
		return host.cli(words, token === 'user' ? { asUser: true } : { token });
	}

	function taskUpdate(issueId: string, taskId: string, flags: string[], token: string | 'user' = worker.token): Promise<CliResult> {
		return host.cli(['issue', 'task', 'update', '--issue-id', issueId, '--task-id', taskId, ...flags, '--json'], token === 'user' ? { asUser: true } : { token });
	}

	it('issue task add: a mode wider than the target\'s default is refused to a worker and to a source session, with the developer\'s command in the hint', async function () {
		const issueId = await developerIssue('Wider modes on add', ['--dispatch-paused']);
		const source = await openSession(host, 'source');
		const attempts: [string, string, string, string][] = [
			['w-codex', 'codex', 'danger-full-access', 'workspace-write'],
			['w-claude', 'claude', 'bypassPermissions', 'default'],
			['w-edits', 'claude', 'acceptEdits', 'default'],
		];
		for (const [taskId, target, mode, targetDefault] of attempts) {
			for (const token of [worker.token, source.token]) {
				const error = expectError(await taskAdd(issueId, taskId, ['--agent-target-id', target, '--permission-mode-id', mode], token), 'forbidden');
				assert.match(error.message, new RegExp(`the permission mode '${mode}' is wider than agent target '${target}' runs with by default \\('${targetDefault}'\\)`));
				assert.match(error.hint, widerHint(mode));
				assert.match(error.hint, /never use --as-user/, 'the agent is told not to use the credential itself');
			}
		}
		assert.deepEqual((await issueGet(host, issueId)).tasks, [], 'no task was added');
	});

	it('narrower modes are accepted, and the agent process gets them (never the bypass flags)', async function () {
		const issueId = await developerIssue('Narrower modes');
		expectOk(await taskAdd(issueId, 'n-codex', ['--agent-target-id', 'codex', '--permission-mode-id', 'read-only']));
		expectOk(await taskAdd(issueId, 'n-claude', ['--agent-target-id', 'claude', '--permission-mode-id', 'plan']));
		expectOk(await taskAdd(issueId, 'n-default', ['--agent-target-id', 'codex']));
		const codex = await argvOf(records, 'n-codex');
		assert.ok(codex.join(' ').includes('-s read-only'), codex.join(' '));
		assert.ok(!codex.includes('--dangerously-bypass-approvals-and-sandbox'));
		const claude = await argvOf(records, 'n-claude');
		assert.ok(claude.join(' ').includes('--permission-mode plan'), claude.join(' '));
		assert.ok(!claude.includes('bypassPermissions') && !claude.includes('--dangerously-skip-permissions'));
		const implicit = await argvOf(records, 'n-default');
		assert.ok(implicit.join(' ').includes('-s workspace-write'), implicit.join(' '));
	});

	it('issue task update: refused to an agent; the developer widens it with --as-user and the agent process gets it', async function () {
		const issueId = await developerIssue('Wider modes on update', ['--dispatch-paused']);
		expectOk(await taskAdd(issueId, 'u-codex', ['--agent-target-id', 'codex'], 'user'));
		expectOk(await taskAdd(issueId, 'u-claude', ['--agent-target-id', 'claude'], 'user'));
		expectOk(await taskAdd(issueId, 'u-move', ['--agent-target-id', 'ok'], 'user'));
		for (const [taskId, mode] of [['u-codex', 'danger-full-access'], ['u-claude', 'bypassPermissions']] as const) {
			const error = expectError(await taskUpdate(issueId, taskId, ['--permission-mode-id', mode]), 'forbidden');
			assert.match(error.hint, widerHint(mode));
		}
		// Moving a task to another target with a mode wider than that target's default: refused too.
		expectError(await taskUpdate(issueId, 'u-move', ['--agent-target-id', 'codex', '--permission-mode-id', 'danger-full-access']), 'forbidden');
		const unchanged = (await issueGet(host, issueId)).tasks;
		assert.deepEqual(unchanged.map((t) => [t.taskId, t.agentTargetId, t.permissionModeId]), [['u-codex', 'codex', ''], ['u-claude', 'claude', ''], ['u-move', 'ok', '']]);
		// The developer widens both; an agent's later write that leaves the mode as it is stays allowed.
		expectOk(await taskUpdate(issueId, 'u-codex', ['--permission-mode-id', 'danger-full-access'], 'user'));
		expectOk(await taskUpdate(issueId, 'u-claude', ['--permission-mode-id', 'bypassPermissions'], 'user'));
		expectOk(await taskUpdate(issueId, 'u-codex', ['--title', 'Renamed by an agent', '--permission-mode-id', 'danger-full-access']));
		expectOk(await taskUpdate(issueId, 'u-move', ['--title', 'Still on ok']));
		expectOk(await host.cli(['issue', 'resume', '--issue-id', issueId, '--as-user', '--json']));
		assert.ok((await argvOf(records, 'u-codex')).includes('--dangerously-bypass-approvals-and-sandbox'), 'the developer\'s mode reached codex');
		assert.ok((await argvOf(records, 'u-claude')).join(' ').includes('--permission-mode bypassPermissions'), 'the developer\'s mode reached claude');
	});

	it('codex app-server: the thread gets the narrowed mode, the default, or the mode the developer widened; the agent cannot widen it', async function () {
		const issueId = await developerIssue('app-server sandboxes', ['--dispatch-paused']);
		expectOk(await taskAdd(issueId, 'as-ro', ['--agent-target-id', 'codex-as', '--permission-mode-id', 'read-only']));
		expectOk(await taskAdd(issueId, 'as-default', ['--agent-target-id', 'codex-as']));
		expectError(await taskAdd(issueId, 'as-wide', ['--agent-target-id', 'codex-as', '--permission-mode-id', 'danger-full-access']), 'forbidden');
		expectOk(await taskAdd(issueId, 'as-wide', ['--agent-target-id', 'codex-as', '--permission-mode-id', 'danger-full-access'], 'user'));
		expectOk(await host.cli(['issue', 'resume', '--issue-id', issueId, '--as-user', '--json']));
		const thread = async (taskId: string): Promise<{ argv: string[]; thread: { sandbox: string; approvalPolicy: string } }> =>
			waitFor(() => recordOf(records, taskId) as never, { what: `the thread of ${taskId}`, timeoutMs: 20_000, intervalMs: 50 });
		// A command outside the sandbox is asked of the developer (on-request); with full access nothing is asked.
		assert.deepEqual((await thread('as-ro')).thread, { ...(await thread('as-ro')).thread, sandbox: 'read-only', approvalPolicy: 'on-request' });
		assert.equal((await thread('as-default')).thread.sandbox, 'workspace-write');
		assert.deepEqual([(await thread('as-wide')).thread.sandbox, (await thread('as-wide')).thread.approvalPolicy], ['danger-full-access', 'never'], "the developer's mode reached the thread");
		for (const taskId of ['as-ro', 'as-default', 'as-wide']) {
			assert.equal((await thread(taskId)).argv[0], 'app-server');
			assert.ok(!(await thread(taskId)).argv.some((a) => a.includes('dangerously')), 'no bypass flag ever reaches app-server');
		}
	});

	it("an agent may pick the developer's own wider target: its mode is compared with that target's default", async function () {
		const issueId = await developerIssue('The developer\'s wide target');
		expectOk(await taskAdd(issueId, 't-full', ['--agent-target-id', 'codex-full', '--permission-mode-id', 'danger-full-access']));
		expectOk(await taskAdd(issueId, 't-full-ro', ['--agent-target-id', 'codex-full', '--permission-mode-id', 'read-only']));
		assert.ok((await argvOf(records, 't-full')).join(' ').includes('danger-full-access'), 'the target the developer configured');
		assert.ok((await argvOf(records, 't-full-ro')).join(' ').includes('-s read-only'), 'narrowed by the agent');
	});

	it('plan issue mutate: add and update with a wider mode or auto-accept are refused; nothing changes', async function () {
		const issue: ManagedIssue = await managedIssue(host, 'Wider modes on mutate');
		await issue.addTasks(taskSpec('m-keep', 'codex'));
		const before = await issue.get();
		const refused: [unknown[], RegExp][] = [
			[[{ kind: 'add', task: taskSpec('m-codex', 'codex', [], { permissionModeId: 'danger-full-access' }) }], /wider than agent target 'codex'/],
			[[{ kind: 'add', task: taskSpec('m-claude', 'claude', [], { permissionModeId: 'bypassPermissions' }) }], /wider than agent target 'claude'/],
			[[{ kind: 'add', task: taskSpec('m-accept', 'codex', [], { autoAccept: true }) }], /auto-accept is off for issue/],
			[[{ kind: 'update', taskId: 'm-keep', task: { permissionModeId: 'danger-full-access' } }], /wider than agent target 'codex'/],
			[[{ kind: 'update', taskId: 'm-keep', task: { autoAccept: true } }], /auto-accept is off for issue/],
			[[{ kind: 'add', task: taskSpec('m-fine', 'codex') }, { kind: 'update', taskId: 'm-keep', task: { agentTargetId: 'claude', permissionModeId: 'acceptEdits' } }], /wider than agent target 'claude'/],
		];
		for (const [ops, message] of refused) {
			const error = expectError(await issue.mutate(ops), 'forbidden');
			assert.match(error.message, message, JSON.stringify(ops));
			assert.match(error.hint, /the developer (can configure an agent target|can turn auto-accept on)/, error.hint);
		}
		const after = await issue.get();
		assert.equal(after.execution.graphRevision, before.execution.graphRevision, 'no refused mutation changed the graph');
		assert.deepEqual(after.tasks.map((t) => t.taskId), ['m-keep']);
		// Narrowing is the agent's to do.
		await issue.mutateOk([{ kind: 'update', taskId: 'm-keep', task: { permissionModeId: 'read-only' } }]);
		assert.equal(taskIn(await issue.get(), 'm-keep').permissionModeId, 'read-only');
	});

	it('plan issue create by an agent cannot switch off the developer\'s confirmation or turn on auto-accept', async function () {
		const source = await openSession(host, 'source');
		const count = async (): Promise<number> => expectOk<{ issues: unknown[] }>(await host.cli(['issue', 'list', '--json'], { asUser: true })).issues.length;
		const before = await count();
		const create = (flags: string[]): Promise<CliResult> =>
			host.cli(['plan', 'issue', 'create', '--title', 'Self-confirming', '--content', 'C', '--request-id', requestId('create'), ...flags, '--json'], { token: source.token });
		const noConfirmation = expectError(await create(['--developer-confirmation=false']), 'forbidden');
		assert.match(noConfirmation.message, /cannot switch it off/);
		assert.match(noConfirmation.hint, /Only the developer switches the confirmation off/);
		const autoAccept = expectError(await create(['--auto-accept']), 'forbidden');
		assert.match(autoAccept.message, /auto-accept is off by the developer's setting autoAcceptDefault/);
		expectError(await create(['--developer-confirmation=false', '--auto-accept']), 'forbidden');
		assert.equal(await count(), before, 'nothing was created');
		// Asking for the developer's control is always allowed.
		const created = methods['plan/create'].result.parse(expectOk(await create(['--developer-confirmation=true', '--auto-accept=false'])));
		host.track(created.issueId);
		assert.equal((await issueGet(host, created.issueId)).autoAcceptDefault, false);
	});

	it('issue task add with --auto-accept by an agent: refused where the issue asks the developer, allowed where the developer turned it on', async function () {
		const asking = await developerIssue('Asks the developer', ['--dispatch-paused', '--auto-accept=false']);
		const error = expectError(await taskAdd(asking, 'a-accept', ['--agent-target-id', 'ok', '--auto-accept']), 'forbidden');
		assert.match(error.hint, /the developer can turn auto-accept on with the developer's own command `tutti issue update --issue-id \S+ --auto-accept true --as-user`/);
		expectOk(await taskAdd(asking, 'a-plain', ['--agent-target-id', 'ok']));
		expectError(await taskUpdate(asking, 'a-plain', ['--auto-accept']), 'forbidden');
		assert.deepEqual((await issueGet(host, asking)).tasks.map((t) => [t.taskId, t.autoAccept]), [['a-plain', false]]);
		const accepting = await developerIssue('Auto-accepts', ['--dispatch-paused', '--auto-accept']);
		expectOk(await taskAdd(accepting, 'a-ok', ['--agent-target-id', 'ok', '--auto-accept']));
	});

	it('issue create honours autoAcceptDefault for the developer and for agents (off and on)', async function () {
		const defaults = async (on: HostHandle, token: string | 'user', flags: string[] = []): Promise<CliResult> =>
			on.cli(['issue', 'create', '--title', 'Default', ...flags, '--json'], token === 'user' ? { asUser: true } : { token });
		const created = (result: CliResult, on: HostHandle): boolean => {
			const issue = methods['issue/create'].result.parse(expectOk(result));
			on.track(issue.issueId);
			return issue.autoAcceptDefault;
		};
		const otherWorker = await openSession(hostAccepting, 'worker');
		assert.equal(created(await defaults(host, 'user'), host), false, 'setting off: the developer\'s issue asks the developer');
		assert.equal(created(await defaults(host, worker.token), host), false, 'setting off: an agent\'s issue asks the developer');
		assert.equal(created(await defaults(host, 'user', ['--auto-accept']), host), true, 'the developer may turn it on');
		const refused = expectError(await defaults(host, worker.token, ['--auto-accept']), 'forbidden');
		assert.match(refused.message, /^issue create --auto-accept: auto-accept is off by the developer's setting/);
		assert.equal(created(await defaults(hostAccepting, 'user'), hostAccepting), true, 'setting on: the developer\'s issue auto-accepts');
		assert.equal(created(await defaults(hostAccepting, otherWorker.token), hostAccepting), true, 'setting on: an agent\'s issue auto-accepts');
		assert.equal(created(await defaults(hostAccepting, otherWorker.token, ['--auto-accept']), hostAccepting), true, 'asking for the default is allowed');
		assert.equal(created(await defaults(hostAccepting, otherWorker.token, ['--auto-accept=false']), hostAccepting), false, 'an agent may ask for the developer\'s confirmation');
	});

	it('issue update --auto-accept is the developer\'s: it changes the issue and its unfinished tasks; an agent is refused', async function () {
		const issueId = await developerIssue('Turn auto-accept on later', ['--dispatch-paused']);
		expectOk(await taskAdd(issueId, 'x-later', ['--agent-target-id', 'ok'], 'user'));
		assert.equal((await issueGet(host, issueId)).tasks[0]!.autoAccept, false);
		for (const value of ['true', 'false']) {
			const error = expectError(await host.cli(['issue', 'update', '--issue-id', issueId, '--auto-accept', value, '--json'], { token: worker.token }), 'forbidden');
			assert.match(error.message, /^issue update --auto-accept is a developer action/);
		}
		assert.equal((await issueGet(host, issueId)).autoAcceptDefault, false, 'the agent changed nothing');
		const updated = methods['issue/update'].result.parse(expectOk(await host.cli(['issue', 'update', '--issue-id', issueId, '--auto-accept', 'true', '--as-user', '--json'])));
		assert.equal(updated.autoAcceptDefault, true);
		assert.equal((await issueGet(host, issueId)).tasks[0]!.autoAccept, true, 'the not-started task follows the issue');
		// Also on a managed issue, where the generic writers are guarded.
		const managed = await managedIssue(host, 'Managed auto-accept');
		expectError(await host.cli(['issue', 'update', '--issue-id', managed.issueId, '--auto-accept', 'true', '--json'], { token: managed.source.token }), 'forbidden');
		expectOk(await host.cli(['issue', 'update', '--issue-id', managed.issueId, '--auto-accept', 'true', '--as-user', '--json']));
		await managed.addTasks(taskSpec('x-managed', 'ok', [], { autoAccept: true }));
		assert.equal(taskIn(await managed.get(), 'x-managed').autoAccept, true, 'the source may now ask for what the developer allowed');
	});

	// Last: it restarts the Host with a narrower configuration.
	it('a rework does not inherit a mode wider than its target\'s default (the developer narrowed the target since)', async function () {
		const issue = await managedIssue(host, 'Rework inheritance');
		await issue.addTasks(taskSpec('r-old', 'codex-full', [], { permissionModeId: 'danger-full-access' }));
		// The developer takes full access away from the target; the task an agent wrote earlier still names it.
		await host.applyConfig(configOf(host.gateDir, targets, false, []));
		const before = await issue.get();
		const error = expectError(await issue.mutate([{ kind: 'rework', taskId: 'r-old', task: { taskId: 'r-new' } }]), 'forbidden');
		assert.match(error.message, /task r-new: the permission mode 'danger-full-access' is wider than agent target 'codex-full' runs with by default \('workspace-write'\)/);
		assert.equal((await issue.get()).execution.graphRevision, before.execution.graphRevision, 'nothing changed');
		// Giving the mode explicitly (the target's default) is the agent's way on.
		await issue.mutateOk([{ kind: 'rework', taskId: 'r-old', task: { taskId: 'r-new', permissionModeId: '' } }]);
		assert.equal(taskIn(await issue.get(), 'r-new').permissionModeId, '');
	});
});
