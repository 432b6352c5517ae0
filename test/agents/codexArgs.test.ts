// The codex adapter's command (pure): argv, provider settings, sandbox/approval flags, resume, stdin, env and validation.
import assert from 'node:assert/strict';
import { choosesOwnSandbox, codexAdapter, codexAppServerLaunch, codexArgs } from '../../src/agents/codex.js';
import { adapterFor } from '../../src/agents/command.js';
import { codexStopHookCommandOf, codexStopHookConfig, stopHookLaunchArgs, withCodexStopHook } from '../../src/agents/stopHook.js';
import { DomainError } from '../../src/core/errors.js';
import type { AgentTargetConfig, AgentTurnInput, RunLaunchSpec } from '../../src/core/runs/runProcessPort.js';

const thread = '01a228e3-b8f1-7c2d-9e0f-1a2b3c4d5e6f';

function spec(target: Partial<AgentTargetConfig> = {}, turn: Partial<AgentTurnInput> | null = {}): RunLaunchSpec {
	return {
		runId: 'r1', issueId: 'i1', taskId: 't1', cwd: '/ws', stdinText: 'task content', env: { TUTTI_RUN_ID: 'r1' },
		target: { id: 'codex', adapter: 'codex', ...target },
		...(turn !== null ? { turn: { prompt: 'do the task', ...turn } } : {}),
	};
}

function invalid(fn: () => unknown, text: string): void {
	assert.throws(fn, (e: unknown) => e instanceof DomainError && e.reasonCode === 'invalid_input' && e.message.includes(text) && e.message.includes("'codex'"));
}

/** The values that follow each `-c`. */
function configs(args: string[]): string[] {
	return args.flatMap((a, i) => (args[i - 1] === '-c' ? [a] : []));
}

const defaultSandbox = ['-s', 'workspace-write', '-c', 'approval_policy="never"', '-c', 'sandbox_workspace_write.network_access=true'];

describe('codex adapter: command for a Turn', () => {
	it('is the adapter adapterFor gives codex targets', () => {
		assert.equal(adapterFor({ id: 'c', adapter: 'codex' }), codexAdapter);
	});

	it('exec: runs exec --json without a login shell (it would reset PATH), the default sandbox, stdin /dev/null, codex on PATH, the prompt last after --', () => {
		const command = codexAdapter.commandFor(spec({ protocol: 'exec' }));
		assert.deepEqual(command, {
			file: 'codex',
			args: ['exec', '--json', '--skip-git-repo-check', '-c', 'allow_login_shell=false', ...defaultSandbox, '--', 'do the task'],
			shell: false,
			env: {},
			stdin: 'devnull',
		});
	});

	it('uses target.path, passes target.env through, and appends extra args then target args before the prompt', () => {
		const command = codexAdapter.commandFor(spec(
			{ path: '/opt/codex', env: { CODEX_HOME: '/h' }, args: ['--strict-config', '-c', 'analytics.enabled=false'], protocol: 'exec' },
			{ extraArgs: ['-c', 'notify=["x"]'] },
		));
		assert.equal(command.file, '/opt/codex');
		assert.deepEqual(command.env, { CODEX_HOME: '/h' });
		assert.deepEqual(command.args.slice(-7), ['-c', 'notify=["x"]', '--strict-config', '-c', 'analytics.enabled=false', '--', 'do the task']);
	});

	it('takes the model from the Turn over the target, and the effort as model_reasoning_effort', () => {
		assert.deepEqual(codexArgs(spec({ model: 'gpt-5.5' })).slice(11, 13), ['-m', 'gpt-5.5']);
		const args = codexArgs(spec({ model: 'gpt-5.5' }, { model: 'gpt-6-sol', reasoningEffort: 'high' }));
		assert.equal(args[args.indexOf('-m') + 1], 'gpt-6-sol');
		assert.ok(configs(args).includes('model_reasoning_effort="high"'));
		invalid(() => codexArgs(spec({}, { reasoningEffort: 'extreme' })), "reasoning effort 'extreme'");
	});

	it('defines the responses provider from the target env OPENAI_BASE_URL (env_key only when the target gives a key)', () => {
		const args = codexArgs(spec({ env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' } }));
		assert.deepEqual(configs(args).slice(-2), [
			'model_provider="tutti"',
			'model_providers.tutti={name="tutti",base_url="http://127.0.0.1:9/v1",wire_api="responses"}',
		]);
		const keyed = codexArgs(spec({ env: { OPENAI_BASE_URL: 'https://llm.example/v1', OPENAI_API_KEY: 'k' } }));
		assert.ok(configs(keyed).includes('model_providers.tutti={name="tutti",base_url="https://llm.example/v1",wire_api="responses",env_key="OPENAI_API_KEY"}'));
		assert.ok(!configs(codexArgs(spec())).some((c) => c.startsWith('model_provider')), 'no base URL: Codex keeps its own provider');
		invalid(() => codexArgs(spec({ env: { OPENAI_BASE_URL: 'file:///etc' } })), 'not an http(s) URL');
		invalid(() => codexArgs(spec({ env: { OPENAI_BASE_URL: 'http://x/"]\nmodel="y' } })), 'not an http(s) URL');
	});

	it('maps the permission mode to sandbox flags; a bad mode is refused', () => {
		assert.deepEqual(codexArgs(spec({}, { permissionModeId: 'read-only' })).slice(5, 9), ['-s', 'read-only', '-c', 'approval_policy="never"']);
		assert.deepEqual(codexArgs(spec({}, { permissionModeId: 'workspace-write' })).slice(5, 11), defaultSandbox);
		const full = codexArgs(spec({}, { permissionModeId: 'danger-full-access' }));
		assert.equal(full[5], '--dangerously-bypass-approvals-and-sandbox');
		assert.ok(!full.includes('-s'));
		invalid(() => codexArgs(spec({}, { permissionModeId: 'bypassPermissions' })), "permission mode 'bypassPermissions'");
	});

	it('adds no sandbox flags of its own when the target args choose them', () => {
		for (const own of [['--dangerously-bypass-approvals-and-sandbox'], ['-s', 'read-only'], ['--sandbox=read-only'], ['-c', 'approval_policy="on-request"'], ['-c', 'sandbox_mode="read-only"']]) {
			const args = codexArgs(spec({ args: own }));
			assert.ok(!args.includes('workspace-write') && !args.includes('sandbox_workspace_write.network_access=true'), own.join(' '));
			assert.ok(!args.includes('approval_policy="never"'), own.join(' '));
		}
		assert.ok(!choosesOwnSandbox(['-c', 'analytics.enabled=false', '--strict-config']));
	});

	it('resumes a thread with `resume <id>` after the options, and refuses an id that is not a thread id', () => {
		const args = codexArgs(spec({}, { resumeProviderSessionId: thread, prompt: 'next' }));
		assert.deepEqual(args.slice(-4), ['resume', thread, '--', 'next']);
		invalid(() => codexArgs(spec({}, { resumeProviderSessionId: '--yolo' })), "thread to resume '--yolo'");
	});

	it('keeps a prompt that looks like a flag a prompt; falls back to the task content without a Turn', () => {
		assert.deepEqual(codexArgs(spec({}, { prompt: '--help me' })).slice(-2), ['--', '--help me']);
		assert.deepEqual(codexArgs(spec({}, null)).slice(-2), ['--', 'task content']);
	});

	it('keeps the Stop hook insertion point: hook flags land right after exec', () => {
		const args = withCodexStopHook(codexArgs(spec()), 'tutti hook stop');
		assert.equal(args[0], 'exec');
		assert.equal(args[1], '-c');
		assert.match(args[2]!, /^hooks\.Stop=/);
		assert.deepEqual(args.slice(-2), ['--', 'do the task']);
	});

	it('refuses a bad target: wrong adapter, empty path, empty prompt, NUL characters, bad env', () => {
		invalid(() => codexAdapter.commandFor({ ...spec(), target: { id: 'codex', adapter: 'claude' } }), "not 'codex'");
		invalid(() => codexAdapter.commandFor(spec({ path: ' ' })), '"path" is empty');
		invalid(() => codexArgs(spec({}, { prompt: '  ' })), 'no prompt');
		invalid(() => codexArgs(spec({}, { prompt: 'a\0b' })), 'NUL');
		invalid(() => codexArgs(spec({ args: ['a\0'] })), 'NUL');
		invalid(() => codexAdapter.commandFor(spec({ env: { 'A=B': 'x' } })), "'A=B'");
	});
});

describe('codex adapter: app-server (the default protocol)', () => {
	it('runs `codex app-server` without a login shell, with network in the default sandbox; the prompt is live input and the plan holds the thread', () => {
		const command = codexAdapter.commandFor(spec());
		assert.deepEqual(command, {
			file: 'codex',
			args: ['app-server', '-c', 'allow_login_shell=false', '-c', 'sandbox_workspace_write.network_access=true', '--enable', 'default_mode_request_user_input'],
			shell: false,
			env: {},
			stdin: 'live',
			livePrompt: 'do the task',
			appServer: { cwd: '/ws', sandbox: 'workspace-write', approvalPolicy: 'on-request', askDeveloper: true, execFallbackArgs: codexArgs(spec()) },
		});
		assert.equal(codexAdapter.commandFor(spec({}, null)).livePrompt, 'task content', 'no Turn: the task content is the prompt');
	});

	it('puts model, effort and the thread to resume in the plan; provider, extra and target args on the command line', () => {
		const { args, plan } = codexAppServerLaunch(spec(
			{ model: 'gpt-5.5', env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, args: ['--strict-config'] },
			{ model: 'gpt-6-sol', reasoningEffort: 'high', resumeProviderSessionId: thread, extraArgs: ['-c', 'notify=["x"]'] },
		));
		assert.deepEqual(plan, {
			cwd: '/ws', sandbox: 'workspace-write', approvalPolicy: 'on-request', askDeveloper: true, model: 'gpt-6-sol', effort: 'high', resumeThreadId: thread,
			execFallbackArgs: codexArgs(spec(
				{ model: 'gpt-5.5', env: { OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }, args: ['--strict-config'] },
				{ model: 'gpt-6-sol', reasoningEffort: 'high', resumeProviderSessionId: thread, extraArgs: ['-c', 'notify=["x"]'] },
			)),
		});
		assert.deepEqual(args.slice(7), [
			'-c', 'model_provider="tutti"', '-c', 'model_providers.tutti={name="tutti",base_url="http://127.0.0.1:9/v1",wire_api="responses"}',
			'-c', 'notify=["x"]', '--strict-config',
		]);
		assert.equal(codexAppServerLaunch(spec({ model: 'gpt-5.5' })).plan.model, 'gpt-5.5', 'the target model without a Turn model');
	});

	it('maps the permission mode to the thread sandbox (network only where the workspace is writable); a bad mode is refused', () => {
		const read = codexAppServerLaunch(spec({}, { permissionModeId: 'read-only' }));
		assert.deepEqual([read.plan.sandbox, read.plan.approvalPolicy], ['read-only', 'on-request']);
		assert.ok(!read.args.includes('sandbox_workspace_write.network_access=true'));
		assert.equal(codexAppServerLaunch(spec({}, { permissionModeId: 'workspace-write' })).plan.sandbox, 'workspace-write');
		assert.equal(codexAppServerLaunch(spec({}, { permissionModeId: 'danger-full-access' })).plan.sandbox, 'danger-full-access');
		invalid(() => codexAppServerLaunch(spec({}, { permissionModeId: 'yolo' })), "permission mode 'yolo'");
	});

	it("turns a target's exec options for sandbox, approvals and model into the thread's settings; -c config passes through", () => {
		const ro = codexAppServerLaunch(spec({ args: ['-c', 'sandbox_mode="read-only"'] }));
		assert.deepEqual([ro.plan.sandbox, ro.plan.approvalPolicy], ['read-only', 'on-request']);
		assert.deepEqual(ro.args.slice(3), ['--enable', 'default_mode_request_user_input', '-c', 'sandbox_mode="read-only"'], 'no network flag for a read-only sandbox');
		const full = codexAppServerLaunch(spec({ args: ['--sandbox', 'danger-full-access', '-m', 'gpt-6-sol', '--strict-config'] }));
		assert.deepEqual([full.plan.sandbox, full.plan.approvalPolicy, full.plan.model, full.plan.askDeveloper], ['danger-full-access', 'never', 'gpt-6-sol', undefined]);
		assert.deepEqual(full.args.slice(3), ['--strict-config'], 'the exec options are not passed to app-server; nothing is asked with full access');
		assert.equal(codexAppServerLaunch(spec({ args: ['--yolo'] })).plan.sandbox, 'danger-full-access');
		const never = codexAppServerLaunch(spec({ args: ['-s', 'workspace-write', '-a', 'never'] }));
		assert.deepEqual([never.plan.sandbox, never.plan.approvalPolicy, never.plan.askDeveloper], ['workspace-write', 'never', undefined]);
		assert.equal(codexAppServerLaunch(spec({ args: ['-c', 'approval_policy="untrusted"'] })).plan.approvalPolicy, 'untrusted');
		const narrowed = codexAppServerLaunch(spec({ args: ['--sandbox=danger-full-access'] }, { permissionModeId: 'read-only' }));
		assert.equal(narrowed.plan.sandbox, 'read-only', "the task's mode (never wider: the Host checks) wins over the target's default");
	});

	it("asks the developer only in a worker Turn of a target whose approvals are `ask` (the default), and not with full access", () => {
		const wake = codexAppServerLaunch({ ...spec(), env: {} });
		assert.deepEqual([wake.plan.approvalPolicy, wake.plan.askDeveloper, wake.args.includes('default_mode_request_user_input')], ['never', undefined, false], 'a wake Turn has no Run to ask for');
		const quiet = codexAppServerLaunch(spec({ approvals: 'allowed-tools-only' }));
		assert.deepEqual([quiet.plan.approvalPolicy, quiet.plan.askDeveloper], ['never', undefined]);
		const full = codexAppServerLaunch(spec({}, { permissionModeId: 'danger-full-access' }));
		assert.deepEqual([full.plan.approvalPolicy, full.plan.askDeveloper], ['never', undefined]);
	});

	it('refuses an exec option app-server does not take, and an approval policy it does not know', () => {
		invalid(() => codexAppServerLaunch(spec({ args: ['--skip-git-repo-check'] })), "'--skip-git-repo-check', a codex exec option that codex app-server does not take");
		invalid(() => codexAppServerLaunch(spec({ args: ['--output-schema=x.json'] })), "'--output-schema=x.json'");
		invalid(() => codexAppServerLaunch(spec({ args: ['--listen', 'ws://127.0.0.1:1'] })), "'--listen'");
		invalid(() => codexAppServerLaunch(spec({ args: ['-a', 'on-failure'] })), "the approval policy 'on-failure' is not one codex app-server takes");
		assert.doesNotThrow(() => codexArgs(spec({ args: ['--skip-git-repo-check'], protocol: 'exec' })), 'exec keeps taking them');
	});

	it("takes Tutti's Stop hook out of the flags (app-server runs no untrusted hook): the supervisor runs the same command", () => {
		const command = 'node "/opt/my dir/cli.js" hook stop # \\ "q" é\n';
		const { args, plan } = codexAppServerLaunch(spec({}, { extraArgs: [...stopHookLaunchArgs('codex', command), '-c', 'notify=["x"]'] }));
		assert.equal(plan.stopHookCommand, command);
		assert.ok(!args.some((a) => a.startsWith('hooks.Stop') || a === '--dangerously-bypass-hook-trust'), args.join(' '));
		assert.deepEqual(args.slice(-2), ['-c', 'notify=["x"]']);
		assert.ok(plan.execFallbackArgs.includes('--dangerously-bypass-hook-trust'), 'the exec fallback keeps Codex running the hook itself');
	});

	it('reads back only a Stop hook value it wrote', () => {
		for (const command of ['tutti hook stop', 'a"b\\c', 'tab\there', '\u0001ctl', '']) {
			assert.equal(codexStopHookCommandOf(codexStopHookConfig(command)), command);
		}
		for (const value of ['hooks.Stop=[]', 'hooks.Stop=[{hooks=[{type="command",command="x"}]}]x', 'hooks.Stop=[{hooks=[{type="command",command="a"b"}]}]',
			'hooks.Stop=[{hooks=[{type="command",command="\\q"}]}]', 'notify=["x"]']) {
			assert.equal(codexStopHookCommandOf(value), undefined, value);
		}
	});

	it('validates as exec does: a bad thread, effort or prompt is refused', () => {
		invalid(() => codexAdapter.commandFor(spec({}, { resumeProviderSessionId: 'not-a-thread' })), 'not a Codex thread id');
		invalid(() => codexAdapter.commandFor(spec({}, { reasoningEffort: 'extreme' })), "reasoning effort 'extreme'");
		invalid(() => codexAdapter.commandFor(spec({}, { prompt: ' ' })), 'no prompt');
	});
});
