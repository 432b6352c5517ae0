// Conformance: usage, cost and budgets over the real Host, sql.js and CLI processes. The agents are a stand-in
// `claude` (an executable speaking stream-json): each Turn reports usage and Claude Code's `total_cost_usd`, and as
// a managed source it drives the plan with the fixture source agent (wakes/fixtures/sourceAgent.mjs) first. Cases:
// a Run whose usage crosses the budget (nothing more starts; raising it resumes), a refused launch
// (budget_exceeded with its hint), a source wake that is not spent while over budget, and a restart that keeps the
// spend and launches nothing twice. A USD budget and a launch whose model has no known price (a codex target the
// price table does not know): refused before any process starts (budget_unavailable with its hint), shown as
// needs-you, a token-only budget goes on, and adding the price lets it go on.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Result } from '../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../src/protocol/dto.js';
import {
	addOps, expectError, expectOk, type HostConfig, type HostHandle, issueGet, methods, openSession, requestId, runGet, standardTargets,
	startHost, taskSpec, waitFor,
} from '../harness.js';

/** USD sums are floating point: equal to the cent fraction that matters. */
function near(actual: number | null | undefined, expected: number, what: string): void {
	assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-9, `${what}: expected ${expected}, got ${actual}`);
}

const sourceAgent = join(__dirname, '..', 'wakes', 'fixtures', 'sourceAgent.mjs');

/**
 * A stand-in Claude Code (`--input-format stream-json`): takes the first user message on stdin as its prompt, runs
 * $INNER_AGENT (if any) on it, then reports usage and a cost like claude -p, and exits when stdin closes.
 */
const claudeLike = `#!${process.execPath}
const { spawnSync } = require('child_process');
const args = process.argv.slice(2);
const after = (flag) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : '');
const sid = after('--session-id') || after('--resume');
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'system', subtype: 'init', session_id: sid, model: 'claude-opus-4-8[1m]' });
let prompt = null;
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
	if (prompt !== null) { return; }
	const m = JSON.parse(line);
	const content = m.message.content;
	prompt = typeof content === 'string' ? content : content.map((c) => c.text || '').join('');
	out({ type: 'user', isReplay: true, uuid: m.uuid, session_id: sid, message: m.message });
	if (process.env.INNER_AGENT) { spawnSync(process.execPath, [process.env.INNER_AGENT], { input: prompt, stdio: ['pipe', 2, 2] }); }
	out({ type: 'result', subtype: 'success', is_error: false, session_id: sid, result: 'done', total_cost_usd: Number(process.env.FAKE_COST_USD),
		usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 3000, cache_creation_input_tokens: 100 } });
}).on('close', () => process.exit(0));
`;

/** A stand-in `codex exec --json` (its targets say `"protocol": "exec"`): logs that it started, reports one Turn's usage (no model, no cost: like codex). */
const codexLike = `#!${process.execPath}
require('fs').appendFileSync(process.env.CODEX_LOG, JSON.stringify(process.argv.slice(2)) + '\\n');
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'thread.started', thread_id: '0199a213-81c0-7800-8aa1-bbab2a035a53' });
out({ type: 'item.completed', item: { id: 'item_0', type: 'agent_message', text: 'done' } });
out({ type: 'turn.completed', usage: { input_tokens: 2000, cached_input_tokens: 0, output_tokens: 300 } });
`;
/** The model the codex stand-in is launched with: no default price knows it. */
const unpricedModel = 'gpt-test-unpriced';

describe('conformance: usage, cost and budgets', function () {
	this.timeout(180_000);
	let host: HostHandle;
	let agentLog = '';
	let codexLog = '';
	let config: HostConfig;

	before(async () => {
		host = await startHost({
			config: (gateDir) => {
				const claude = join(gateDir, 'claude-like');
				writeFileSync(claude, claudeLike);
				chmodSync(claude, 0o755);
				agentLog = join(gateDir, 'source-agent.log');
				const codex = join(gateDir, 'codex-like');
				writeFileSync(codex, codexLike);
				chmodSync(codex, 0o755);
				codexLog = join(gateDir, 'codex.log');
				// The harness types command targets; a claude target is the same JSON with "path".
				const claudeTargets = [
					{ id: 'spender', adapter: 'claude', path: claude, env: { FAKE_COST_USD: '0.6' } },
					{ id: 'source', adapter: 'claude', path: claude, env: { FAKE_COST_USD: '0.4', INNER_AGENT: sourceAgent, SOURCE_AGENT_LOG: agentLog } },
					{ id: 'codex-unpriced', adapter: 'codex', path: codex, model: unpricedModel, isolation: 'none', env: { CODEX_LOG: codexLog }, protocol: 'exec' },
					// No model named: codex runs its own default, which Tutti cannot price.
					{ id: 'codex-source', adapter: 'codex', path: codex, isolation: 'none', env: { CODEX_LOG: `${codexLog}.source` }, protocol: 'exec' },
				] as unknown as HostConfig['agentTargets'];
				config = { agentTargets: [...standardTargets(gateDir), ...claudeTargets], maxParallelRuns: 8 };
				return config;
			},
		});
	});
	after(async () => { await host.dispose(); });

	const addTask = async (issueId: string, taskId: string, target: string, dependsOn: string[] = []): Promise<void> => {
		expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', taskId, '--title', `Task ${taskId}`, '--content', `Do ${taskId}.`,
			'--agent-target-id', target, ...dependsOn.flatMap((d) => ['--depends-on', d]), '--json'], { asUser: true }));
	};
	const codexStarts = (log = codexLog): number => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').length : 0);
	const statusOf = async (issueId: string, taskId: string): Promise<string> => (await issueGet(host, issueId)).tasks.find((t) => t.taskId === taskId)?.status ?? 'missing';

	it('a Run whose usage crosses the budget: nothing more starts, the issue says why, and raising the budget resumes', async () => {
		const created = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', 'Budgeted', '--auto-accept', '--budget-usd', '1', '--as-user', '--json'])));
		host.track(created.issueId);
		assert.equal(created.spend.budgetUsd, 1);
		assert.equal(created.spend.budgetState, 'within');
		const issueId = created.issueId;
		// Only the developer raises a budget: an agent session is refused.
		const agent = await openSession(host, 'source');
		expectError(await host.cli(['issue', 'update', '--issue-id', issueId, '--budget-usd', '100', '--json'], { token: agent.token }), 'forbidden');

		await addTask(issueId, 'a', 'spender');
		await addTask(issueId, 'b', 'spender', ['a']);
		await addTask(issueId, 'c', 'spender', ['b']);
		await waitFor(async () => (await statusOf(issueId, 'b')) === 'completed', { what: 'a and b to run (0.6 USD each)', timeoutMs: 60_000 });

		// A later dispatcher pass sees c ready: another issue's task is dispatched in the same pass (oldest issue first),
		// so once it has completed, c would have started by now if the budget let it.
		const other = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', 'No budget', '--auto-accept', '--as-user', '--json'])));
		host.track(other.issueId);
		await addTask(other.issueId, 'free', 'ok');
		await waitFor(async () => (await statusOf(other.issueId, 'free')) === 'completed', { what: 'the unbudgeted issue to run' });

		const blocked = await issueGet(host, issueId);
		const c = blocked.tasks.find((t) => t.taskId === 'c');
		assert.equal(c?.status, 'not_started', 'at or over the budget nothing more starts');
		assert.equal(c?.ready, true);
		near(blocked.spend.costUsd, 1.2, 'spent');
		assert.equal(blocked.spend.budgetState, 'exceeded');
		assert.equal(blocked.spend.budgetBlocker, 'budget reached: $1.20 of $1.00');
		assert.equal(blocked.attention.state, 'needs_you', 'a reached budget needs the developer');
		assert.deepEqual(blocked.attention.reasons.filter((x) => x.kind === 'budget_reached').map((x) => x.label), ['budget reached: $1.20 of $1.00']);
		near(blocked.spend.remainingUsd, 0, 'left');
		assert.deepEqual(blocked.spend.usage, { inputTokens: 2000, outputTokens: 400, cacheReadTokens: 6000, cacheWriteTokens: 200 });
		assert.equal(blocked.spend.tokens, 8600);
		const runA = await runGet(host, blocked.tasks.find((t) => t.taskId === 'a')!.latestRunId);
		near(runA.costUsd, 0.6, "run a's cost: the agent's own figure (total_cost_usd)");
		assert.deepEqual(runA.usage, { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 3000, cacheWriteTokens: 100 });

		const raised = methods['issue/update'].result.parse(expectOk(await host.cli(['issue', 'update', '--issue-id', issueId, '--budget-usd', '5', '--as-user', '--json'])));
		assert.equal(raised.spend.budgetState, 'within');
		near(raised.spend.remainingUsd, 3.8, 'left after raising');
		await waitFor(async () => (await statusOf(issueId, 'c')) === 'completed', { what: 'c to run once the budget was raised', timeoutMs: 60_000 });
		near((await issueGet(host, issueId)).spend.costUsd, 1.8, 'three Runs');
	});

	/** A managed issue with a USD budget whose source plans one task and schedules it: refused with `reason`. */
	async function scheduleOneTaskRefused(title: string, budgetUsd: string, task: ReturnType<typeof taskSpec>, reason: string) {
		const source = await openSession(host, 'source');
		const created = methods['plan/create'].result.parse(expectOk(await host.cli(['plan', 'issue', 'create', '--title', title, '--content', 'Plan one task.',
			'--request-id', requestId('create'), '--budget-usd', budgetUsd, '--json'], { token: source.token })));
		host.track(created.issueId);
		const fence = ['--issue-id', created.issueId, '--checkpoint-id', created.checkpointId];
		const mutated = methods['plan/mutate'].result.parse(expectOk(await host.cli(['plan', 'issue', 'mutate', ...fence, '--expected-graph-revision', String(created.graphRevision),
			'--request-id', requestId('mutate'), '--operations-json', JSON.stringify(addOps(task)), '--json'], { token: source.token })));
		const refused = expectError(await host.cli(['plan', 'issue', 'schedule', ...fence, '--expected-graph-revision', String(mutated.graphRevision),
			'--request-id', requestId('schedule'), '--task-ids-json', JSON.stringify([task.taskId]), '--json'], { token: source.token }), reason);
		return { source, created, refused };
	}

	it('a launch refused over budget answers budget_exceeded with the command that raises it', async () => {
		const { source, created, refused } = await scheduleOneTaskRefused('Zero budget', '0', taskSpec('t1'), 'budget_exceeded');
		assert.match(refused.message, /budget reached: \$0\.00 of \$0\.00/);
		assert.ok(refused.hint.includes(`tutti issue update --issue-id ${created.issueId} --budget-usd`), refused.hint);
		const snapshot = expectOk<Result<'plan/getCompact'>>(await host.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--json'], { token: source.token }));
		assert.equal(snapshot.spend.budgetState, 'exceeded');
		assert.equal(snapshot.tasks.find((t) => t.taskId === 't1')?.status, 'not_started', 'nothing was scheduled');
		// The agent's next step: the developer raises the budget (their command), the agent waits; it is never told to schedule.
		assert.ok(snapshot.recoveryHint.includes(`the developer's own command \`tutti issue update --issue-id ${created.issueId} --budget-usd <usd> --as-user\` (never run it yourself)`), snapshot.recoveryHint);
		assert.ok(snapshot.recoveryHint.includes(`\`tutti plan issue await --issue-id ${created.issueId}\``), snapshot.recoveryHint);
		assert.doesNotMatch(snapshot.recoveryHint, /plan issue schedule/);
	});

	it('a managed source wake is not spent over budget; a restart keeps the spend; raising the budget delivers it once', async () => {
		const created = methods['plan/create'].result.parse(expectOk(await host.cli(['plan', 'issue', 'create', '--title', 'Managed budget', '--content', 'Build, then test.',
			'--request-id', requestId('create'), '--auto-accept', '--source-target', 'source', '--budget-usd', '1', '--json'], { asUser: true })));
		host.track(created.issueId);
		const snapshot = async (): Promise<PlanSnapshotDto> => methods['plan/get'].result.parse(expectOk(await host.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true })));
		const log = (): { kind: string; commands: string[] }[] => (existsSync(agentLog)
			? readFileSync(agentLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { kind: string; commands: string[] }) : []);
		// Three source Turns at 0.40 each (initial_schedule, two task_settled) reach $1.20: the all_tasks_terminal wake waits.
		const held = await waitFor(async () => {
			const s = await snapshot();
			return s.activeCheckpoint?.kind === 'all_tasks_terminal' && s.activeWake?.lastError === 'budget reached: $1.20 of $1.00' ? s : undefined;
		}, { what: 'the all_tasks_terminal wake to be held by the budget', timeoutMs: 90_000 });
		assert.equal(held.activeWake?.status, 'prepared', 'the wake is not spent');
		assert.deepEqual(log().map((e) => e.kind), ['initial_schedule', 'task_settled', 'task_settled']);
		near(held.spend.costUsd, 1.2, 'three source Turns');
		assert.equal(held.spend.budgetBlocker, 'budget reached: $1.20 of $1.00');

		await host.restart();
		const restarted = await snapshot();
		near(restarted.spend.costUsd, 1.2, 'a restart keeps the spend (no Turn counted again)');
		assert.equal(restarted.activeWake?.status, 'prepared');

		expectOk(await host.cli(['issue', 'update', '--issue-id', created.issueId, '--budget-usd', '5', '--as-user', '--json']));
		const done = await waitFor(async () => {
			const s = await snapshot();
			// The agent writes its log line after its `complete` returned.
			return ['completed', 'pending_goal_review'].includes(s.execution.status) && log().some((e) => e.commands.includes('complete')) ? s : undefined;
		}, { what: 'the owed wake to be delivered and the plan completed', timeoutMs: 60_000 });
		assert.deepEqual(log().map((e) => e.kind), ['initial_schedule', 'task_settled', 'task_settled', 'all_tasks_terminal'], 'each wake ran once');
		// The last Turn's usage is recorded when its process exits (after its `complete`).
		const spent = await waitFor(async () => {
			const s = await snapshot();
			return s.spend.costUsd > 1.5 ? s.spend : undefined;
		}, { what: "the last source Turn's usage to be recorded" });
		near(spent.costUsd, 1.6, 'four source Turns, each counted once');
		assert.equal(done.spend.budgetState, 'within');
	});

	it('a source wake whose model has no known price is not spent under a USD budget: it waits, saying why', async () => {
		const created = methods['plan/create'].result.parse(expectOk(await host.cli(['plan', 'issue', 'create', '--title', 'Unpriced source', '--content', 'Plan it.',
			'--request-id', requestId('create'), '--source-target', 'codex-source', '--budget-usd', '5', '--json'], { asUser: true })));
		host.track(created.issueId);
		const held = await waitFor(async () => {
			const s = methods['plan/get'].result.parse(expectOk(await host.cli(['plan', 'issue', 'get', '--issue-id', created.issueId, '--full', '--json'], { asUser: true })));
			return s.activeWake?.lastError ? s : undefined;
		}, { what: 'the initial wake to say why it is held' });
		assert.equal(held.activeWake?.status, 'prepared', 'the wake is not spent');
		assert.equal(held.activeWake?.lastError, "the USD budget cannot be checked: agent target 'codex-source' names no model, so Tutti cannot price what it uses");
		assert.equal(held.spend.budgetState, 'unavailable');
		assert.equal(held.spend.budgetBlocker, held.activeWake?.lastError);
		assert.equal(codexStarts(`${codexLog}.source`), 0, 'no codex process was started');
		const issue = await issueGet(host, created.issueId);
		assert.equal(issue.attention.state, 'needs_you');
		// The developer chooses a token budget instead: the wake is delivered (the stand-in codex runs once).
		expectOk(await host.cli(['issue', 'update', '--issue-id', created.issueId, '--budget-usd', 'none', '--budget-tokens', '100000', '--as-user', '--json']));
		await waitFor(async () => codexStarts(`${codexLog}.source`) > 0, { what: 'the wake to be delivered once the budget can be counted' });
	});

	it("an independent reviewer whose model has no known price: the issue says so before Goal Review is reached", async () => {
		const source = await openSession(host, 'source');
		const created = methods['plan/create'].result.parse(expectOk(await host.cli(['plan', 'issue', 'create', '--title', 'Unpriced reviewer', '--content', 'Review it.',
			'--request-id', requestId('create'), '--review-target', 'codex-source', '--budget-usd', '5', '--json'], { token: source.token })));
		host.track(created.issueId);
		const issue = await issueGet(host, created.issueId);
		assert.equal(issue.spend.budgetState, 'unavailable');
		assert.equal(issue.spend.budgetBlocker, "the USD budget cannot be checked: agent target 'codex-source' names no model, so Tutti cannot price what it uses");
		assert.equal(issue.attention.state, 'needs_you');
	});

	it('a USD budget and a model with no known price: refused before launch (budget_unavailable), needs you; a token budget goes on; adding the price lets it go on', async () => {
		// Managed: the source's schedule is refused with the reason and a hint that names the ways out.
		const { created: managed, refused } = await scheduleOneTaskRefused('Unpriced managed', '5', taskSpec('t1', 'codex-unpriced'), 'budget_unavailable');
		assert.ok(refused.message.includes(`'codex-unpriced'`) && refused.message.includes(`'${unpricedModel}'`), refused.message);
		assert.ok(refused.hint.includes('tutti.modelPrices') && refused.hint.includes('modelPrices in .tutti/config.json'), refused.hint);
		assert.ok(refused.hint.includes('--budget-tokens'), `the hint names a token budget instead: ${refused.hint}`);
		assert.ok(refused.hint.includes(`tutti issue update --issue-id ${managed.issueId} --budget-usd none --as-user`), refused.hint);
		const managedNow = await issueGet(host, managed.issueId);
		assert.equal(managedNow.tasks.find((t) => t.taskId === 't1')?.status, 'not_started', 'nothing was scheduled');
		assert.equal(managedNow.spend.budgetState, 'unavailable', 'the issue says why');
		assert.ok(managedNow.spend.budgetBlocker.includes(`'${unpricedModel}'`), managedNow.spend.budgetBlocker);
		assert.equal(managedNow.attention.state, 'needs_you');
		assert.deepEqual(managedNow.attention.reasons.filter((x) => x.kind === 'budget_reached').map((x) => x.label), [managedNow.spend.budgetBlocker]);

		// Manual: the dispatcher does not start it (nothing is spawned), and the issue says why.
		const manual = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', 'Unpriced manual', '--auto-accept', '--budget-usd', '5', '--as-user', '--json'])));
		host.track(manual.issueId);
		await addTask(manual.issueId, 'u', 'codex-unpriced');
		// A token-only budget is not refused: the same target runs (its cost is unknown, its tokens count).
		const tokens = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', 'Token budget', '--auto-accept', '--budget-tokens', '100000', '--as-user', '--json'])));
		host.track(tokens.issueId);
		await addTask(tokens.issueId, 'v', 'codex-unpriced');
		await waitFor(async () => (await statusOf(tokens.issueId, 'v')) === 'completed', { what: 'the token-budget issue to run its codex task', timeoutMs: 60_000 });
		// Its task was added after the unpriced one, so a dispatcher pass that started it has seen the other already.
		assert.equal(codexStarts(), 1, 'only the token-budget Run started a codex process');
		const tokenIssue = await issueGet(host, tokens.issueId);
		assert.equal(tokenIssue.spend.tokens, 2300);
		assert.equal(tokenIssue.spend.budgetState, 'within');
		const blocked = await issueGet(host, manual.issueId);
		assert.equal(blocked.tasks.find((t) => t.taskId === 'u')?.status, 'not_started');
		assert.equal(blocked.spend.budgetState, 'unavailable');
		assert.ok(blocked.spend.budgetBlocker.includes(`'${unpricedModel}'`), blocked.spend.budgetBlocker);
		assert.equal(blocked.attention.state, 'needs_you');
		assert.ok(blocked.attention.reasons.some((x) => x.kind === 'budget_reached' && x.label === blocked.spend.budgetBlocker), JSON.stringify(blocked.attention.reasons));

		// The developer adds the model's price (headless: .tutti/config.json), which the running Host applies. A changed
		// config.json pauses every issue until the developer resumes (test/security/configChange.test.ts): the
		// developer made this change, so they resume the issue, and the task goes on.
		await host.applyConfig({ ...config, modelPrices: { [unpricedModel]: { inputPerMTok: 2, outputPerMTok: 10 } } });
		assert.match(host.stderr, /changed while Tutti ran[^]*What changed: modelPrices\./, host.stderr);
		expectOk(await host.cli(['issue', 'resume', '--issue-id', manual.issueId, '--json'], { asUser: true }));
		await waitFor(async () => (await statusOf(manual.issueId, 'u')) === 'completed', { what: 'the priced codex task to run', timeoutMs: 60_000 });
		const priced = await issueGet(host, manual.issueId);
		// 2000 input tokens at $2/MTok and 300 output tokens at $10/MTok.
		near(priced.spend.costUsd, 0.004 + 0.003, 'priced by the configured price');
		assert.equal(priced.spend.budgetState, 'within');
		near((await runGet(host, priced.tasks.find((t) => t.taskId === 'u')!.latestRunId)).costUsd, 0.007, "the Run's cost");
	});
});
