// Security: who may call each control-plane method, over the whole method table. Every method is classified here,
// as developer-only or open to agents (the type makes a new method a compile error until it is), and each is called
// through the real CLI against a real Host with an agent's own token: a developer-only call is refused `forbidden`
// with the developer-action message and hint (for a worker's token and for a source session's), and an agent call
// is never refused as a developer action — so moving a method from one list to the other turns this test red.
import { strict as assert } from 'node:assert';
import {
	type CliResult, type HostConfig, type HostHandle, type ManagedIssue, expectError, expectOk, managedIssue, manualIssue, methods, openSession,
	type Session, requestId, show, standardTargets, startHost,
} from '../integration/harness.js';
import type { Method } from '../../src/protocol/controlPlane.js';
import { type Policy, policy } from './methodPolicy.js';
import type { RunDto } from '../../src/protocol/dto.js';
import { addManualTask, rawPost, settledRunOf } from './securityKit.js';

/** `paused`: a manual issue that starts nothing (its task `waiting` stays not started); `fence`: the managed issue's own. */
interface Ids { manual: string; managed: string; paused: string; fence: string[]; runId: string; taskId: string; source: Session; worker: Session }

interface Call {
	method: Method;
	policy: Policy;
	/** The CLI words (without --json); the agent's token is added. */
	words: string[];
	/** Which agent token: a worker's (default) or the managed issue's source session's (plan commands). */
	as?: 'worker' | 'source';
	/** The refusal's message for a developer-only call (default: "<action> is a developer action"). */
	refusal?: RegExp;
}

/** One or more calls of every method, with real ids so no "not found" can hide a refusal. */
function callsFor(ids: Ids): Call[] {
	const { manual, managed, runId, taskId } = ids;
	const dev = (method: Method, words: string[], action: string, extra: Partial<Call> = {}): Call =>
		({ method, policy: 'developer', words, refusal: new RegExp(`^${action.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')} is a developer action; an agent session \\(role (worker|source)\\) cannot perform it\\.$`), ...extra });
	const agent = (method: Method, words: string[], extra: Partial<Call> = {}): Call => ({ method, policy: 'agent', words, ...extra });
	const fence = ['--checkpoint-id', 'cp-none', '--expected-graph-revision', '1', '--request-id', requestId('dev')];
	return [
		// ---- developer only ----
		dev('session/open', ['session', 'open', '--role', 'worker'], 'session open'),
		dev('session/stop', ['session', 'stop', '--session-id', ids.source.sessionId], 'session stop'),
		dev('issue/pause', ['issue', 'pause', '--issue-id', manual], 'issue pause'),
		// Checks are the developer's: an agent can neither set, change, nor drop (an empty list) them, on an issue or a task.
		dev('issue/setChecks', ['issue', 'checks', '--issue-id', manual, '--checks-json', '[{"argv":["true"]}]'], 'issue checks'),
		dev('issue/setChecks', ['issue', 'checks', '--issue-id', managed, '--checks-json', '[]'], 'issue checks', { as: 'source' }),
		dev('issue/setChecks', ['issue', 'checks', '--issue-id', manual, '--task-id', taskId, '--checks-json', '[]'], 'issue checks'),
		dev('issue/resume', ['issue', 'resume', '--issue-id', manual], 'issue resume'),
		dev('issue/stop', ['issue', 'stop', '--issue-id', manual], 'issue stop'),
		dev('issue/update', ['issue', 'update', '--issue-id', manual, '--budget-usd', '100'], 'issue update --budget-usd/--budget-tokens'),
		dev('issue/update', ['issue', 'update', '--issue-id', manual, '--budget-tokens', 'none'], 'issue update --budget-usd/--budget-tokens'),
		dev('issue/update', ['issue', 'update', '--issue-id', managed, '--budget-usd', '0'], 'issue update --budget-usd/--budget-tokens', { as: 'source' }),
		dev('issue/update', ['issue', 'update', '--issue-id', manual, '--dispatch-paused=false'], 'issue resume'),
		dev('issue/create', ['issue', 'create', '--title', 'Unbounded', '--budget-usd', 'none'], '', { refusal: /^issue create: only the developer may create an issue without a USD budget or above the default of \$5\.00/ }),
		dev('issue/create', ['issue', 'create', '--title', 'Too dear', '--budget-usd', '50'], '', { refusal: /^issue create: only the developer may create an issue without a USD budget or above the default/ }),
		dev('plan/create', ['plan', 'issue', 'create', '--title', 'T', '--content', 'C', '--request-id', requestId('create'), '--source-target', 'ok'], '',
			{ as: 'source', refusal: /^plan issue create --source-target is a developer action/ }),
		dev('issue/update', ['issue', 'update', '--issue-id', manual, '--auto-accept', 'true'], 'issue update --auto-accept'),
		dev('issue/update', ['issue', 'update', '--issue-id', managed, '--auto-accept', 'false'], 'issue update --auto-accept', { as: 'source' }),
		dev('issue/create', ['issue', 'create', '--title', 'Self-accepting', '--auto-accept'], '', { refusal: /^issue create --auto-accept: auto-accept is off by the developer's setting autoAcceptDefault/ }),
		dev('plan/create', ['plan', 'issue', 'create', '--title', 'T', '--content', 'C', '--request-id', requestId('create'), '--auto-accept'], '',
			{ as: 'source', refusal: /^plan issue create --auto-accept: auto-accept is off by the developer's setting/ }),
		dev('plan/create', ['plan', 'issue', 'create', '--title', 'T', '--content', 'C', '--request-id', requestId('create'), '--developer-confirmation=false'], '',
			{ as: 'source', refusal: /^plan issue create --developer-confirmation=false: Goal Review waits for the developer's confirmation/ }),
		dev('task/add', ['issue', 'task', 'add', '--issue-id', manual, '--task-id', 'wide', '--title', 'Wide', '--agent-target-id', 'codex', '--permission-mode-id', 'danger-full-access'], '',
			{ refusal: /^issue task add: task wide: the permission mode 'danger-full-access' is wider than agent target 'codex' runs with by default/ }),
		dev('task/update', ['issue', 'task', 'update', '--issue-id', ids.paused, '--task-id', 'waiting', '--permission-mode-id', 'danger-full-access'], '',
			{ refusal: /^issue task update: task waiting: the permission mode 'danger-full-access' is wider than agent target 'codex'/ }),
		dev('task/add', ['issue', 'task', 'add', '--issue-id', manual, '--task-id', 'accepting', '--title', 'Accepting', '--agent-target-id', 'ok', '--auto-accept'], '',
			{ refusal: /^issue task add: task accepting: auto-accept is off for issue/ }),
		dev('plan/mutate', ['plan', 'issue', 'mutate', '--issue-id', managed, '--operations-json', JSON.stringify([{ kind: 'add', task: { taskId: 'wide', title: 'Wide', agentTargetId: 'codex', permissionModeId: 'danger-full-access' } }]), ...ids.fence], '',
			{ as: 'source', refusal: /^plan issue mutate: task wide: the permission mode 'danger-full-access' is wider/ }),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual], 'issue integrate'),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual, '--into', 'main', '--accepted-only'], 'issue integrate'),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual, '--skip-checks'], 'issue integrate'),
		dev('issue/finish', ['finish', '--issue-id', managed], 'finish', { as: 'source' }),
		dev('issue/finish', ['finish', '--issue-id', managed, '--remove-worktrees'], 'finish'),
		dev('issue/finish', ['finish', '--issue-id', manual, '--without-integrating'], 'finish'),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual, '--push'], 'issue integrate'),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual, '--push', 'origin', '--squash', 'issue'], 'issue integrate', { as: 'source' }),
		dev('issue/integrate', ['issue', 'integrate', '--issue-id', manual, '--squash'], 'issue integrate'),
		dev('issue/followUp', ['follow-up', '--issue-id', managed, '--text', 'more'], 'follow-up', { as: 'source' }),
		dev('review/accept', ['review', 'accept', '--issue-id', manual, '--task-id', taskId], 'review accept'),
		dev('review/requestChanges', ['review', 'request-changes', '--issue-id', manual, '--task-id', taskId, '--note', 'redo'], 'review request-changes'),
		dev('goal/confirm', ['goal', 'confirm', '--issue-id', managed], 'goal confirm', { as: 'source' }),
		dev('goal/requestChanges', ['goal', 'request-changes', '--issue-id', managed, '--note', 'redo'], 'goal request-changes', { as: 'source' }),
		dev('goalReview/switchToSelf', ['goal-review', 'switch-to-self', '--issue-id', managed, '--reason', 'faster'], 'goal-review switch-to-self', { as: 'source' }),
		dev('run/stop', ['run', 'stop', '--run-id', runId], 'run stop'),
		dev('run/send', ['run', 'send', '--run-id', runId, '--text', 'hello'], 'run send'),
		dev('run/resume-queue', ['run', 'resume-queue', '--run-id', runId], 'run resume-queue'),
		dev('worktree/remove', ['worktree', 'remove', '--issue-id', manual, '--task-id', taskId], 'worktree remove'),
		dev('worktree/prune', ['worktree', 'prune'], 'worktree prune'),
		dev('worktree/prune', ['worktree', 'prune', '--issue-id', manual], 'worktree prune', { as: 'source' }),
		dev('task/retry', ['task', 'retry', '--issue-id', manual, '--task-id', taskId], 'task retry'),
		dev('task/retry', ['task', 'retry', '--issue-id', manual, '--task-id', taskId, '--note', 'again', '--permission-mode-id', 'plan'], 'task retry'),
		dev('task/updateFromBase', ['task', 'update-from-base', '--issue-id', manual, '--task-id', taskId], 'task update-from-base'),
		dev('task/updateFromBase', ['task', 'update-from-base', '--issue-id', managed, '--task-id', taskId, '--into', 'main'], 'task update-from-base', { as: 'source' }),
		dev('approval/answer', ['approval', 'answer', '--approval-id', 'approval-any', '--allow'], 'approval answer'),
		dev('approval/answer', ['approval', 'answer', '--approval-id', 'approval-any', '--allow', '--for-task'], 'approval answer'),
		dev('approval/answer', ['approval', 'answer', '--approval-id', 'approval-any', '--deny', '--message', 'no'], 'approval answer', { as: 'source' }),
		dev('approval/answer', ['approval', 'answer', '--approval-id', 'approval-any', '--answer', 'Blue'], 'approval answer'),
		dev('question/answer', ['question', 'answer', '--approval-id', 'approval-any', '--answer', 'Blue'], 'question answer'),
		dev('question/answer', ['question', 'answer', '--approval-id', 'approval-any', '--answer', 'color=Blue'], 'question answer', { as: 'source' }),
		// ---- open to agents (their other fences may still refuse, never as a developer action) ----
		agent('hello', []),
		agent('agent/list', ['agent', 'list']),
		agent('session/state', ['session', 'state', '--session-id', ids.worker.sessionId]),
		agent('agent/resume', ['agent', 'resume']),
		agent('hook/stop', ['hook', 'stop']),
		agent('issue/create', ['issue', 'create', '--title', 'Within the default budget', '--budget-usd', '1']),
		agent('issue/get', ['issue', 'get', '--issue-id', manual]),
		agent('issue/list', ['issue', 'list']),
		agent('issue/update', ['issue', 'update', '--issue-id', manual, '--title', 'Renamed by an agent']),
		agent('task/add', ['issue', 'task', 'add', '--issue-id', manual, '--task-id', 'agent-added', '--title', 'Added by an agent', '--agent-target-id', 'ok']),
		agent('task/update', ['issue', 'task', 'update', '--issue-id', manual, '--task-id', 'agent-added', '--title', 'Renamed']),
		agent('task/delete', ['issue', 'task', 'delete', '--issue-id', manual, '--task-id', 'agent-added']),
		agent('plan/create', ['plan', 'issue', 'create', '--title', 'From a source', '--content', 'C', '--request-id', requestId('create')], { as: 'source' }),
		agent('plan/get', ['plan', 'issue', 'get', '--issue-id', managed, '--full'], { as: 'source' }),
		agent('plan/getCompact', ['plan', 'issue', 'get', '--issue-id', managed], { as: 'source' }),
		agent('plan/getTask', ['plan', 'issue', 'get', '--issue-id', managed, '--task-id', 'none'], { as: 'source' }),
		agent('plan/schedule', ['plan', 'issue', 'schedule', '--issue-id', managed, '--task-ids-json', '["none"]', ...fence], { as: 'source' }),
		agent('plan/mutate', ['plan', 'issue', 'mutate', '--issue-id', managed, '--operations-json', '[]', ...fence], { as: 'source' }),
		agent('plan/acknowledge', ['plan', 'issue', 'acknowledge', '--issue-id', managed, ...fence], { as: 'source' }),
		agent('plan/complete', ['plan', 'issue', 'complete', '--issue-id', managed, '--decision', 'goal_satisfied', ...fence], { as: 'source' }),
		agent('plan/stop', ['plan', 'issue', 'stop', '--issue-id', managed, '--reason', 'r', ...fence], { as: 'source' }),
		agent('plan/pause', ['plan', 'issue', 'pause', '--issue-id', managed], { as: 'source' }),
		agent('plan/resume', ['plan', 'issue', 'resume', '--issue-id', managed], { as: 'source' }),
		agent('goalReview/verdict', ['goal-review', 'verdict', '--issue-id', managed, '--review-id', 'review-none', '--verdict', 'goal_satisfied', '--summary', 's', ...fence]),
		agent('run/get', ['run', 'get', '--run-id', runId]),
		agent('run/list', ['run', 'list', '--issue-id', manual]),
		agent('run/log', ['run', 'log', '--run-id', runId]),
		agent('run/transcript', ['run', 'transcript', '--run-id', runId]),
		agent('run/report', ['run', 'report', '--run-id', runId, '--event', 'exited']),
		agent('run/queue', ['run', 'queue', '--run-id', runId]),
		agent('await/review', ['await-review', '--issue-id', manual]),
		agent('await/checkpoint', ['plan', 'issue', 'await', '--issue-id', managed], { as: 'source' }),
		agent('await/next-action', ['next-action', '--issue-id', managed], { as: 'source' }),
		agent('approval/request', ['approval', 'request', '--run-id', runId, '--tool', 'Bash', '--input', 'ls']),
		agent('approval/wait', ['approval', 'wait', '--approval-id', 'approval-none']),
		agent('approval/list', ['approval', 'list']),
		agent('issue/changes', ['issue', 'changes', '--issue-id', manual]),
		agent('turn/list', ['turn', 'list']),
	];
}

/** What the developer-action fence answers: the refusal names the action and hands the decision to the developer. */
const forbiddenHint = /^An agent session acts only on its own work .* never use --as-user .*; tell the developer what you need/;
const developerRefusal = /is a developer action|only the developer may/;

describe('security: developer actions, method by method', function () {
	this.timeout(180_000);
	let host: HostHandle;
	let ids: Ids;
	let issue: ManagedIssue;

	before(async function () {
		// A default budget, so creating an issue without one (or above it) is the developer's call.
		// A codex target (never started here): a permission mode wider than its default is the developer's.
		const codex = { id: 'codex', adapter: 'codex', path: '/nonexistent/codex' };
		const config = (gates: string): HostConfig => ({ agentTargets: [...standardTargets(gates), codex], maxParallelRuns: 4, defaultBudgetUsd: 5 } as unknown as HostConfig);
		host = await startHost({ config });
		issue = await managedIssue(host, 'Developer actions (managed)');
		// It asks the developer for each task (so auto-accept is the developer's to turn on).
		const manual = await manualIssue(host, 'Developer actions (manual)', false);
		const taskId = await addManualTask(host, manual, 'done1', ['--agent-target-id', 'ok']);
		const run: RunDto = await settledRunOf(host, manual, taskId);
		const paused = methods['issue/create'].result.parse(expectOk(await host.cli(['issue', 'create', '--title', 'Paused', '--dispatch-paused', '--as-user', '--json']))).issueId;
		await addManualTask(host, paused, 'waiting', ['--agent-target-id', 'codex']);
		const snapshot = await issue.get();
		const fence = ['--checkpoint-id', snapshot.activeCheckpoint!.checkpointId, '--expected-graph-revision', String(snapshot.execution.graphRevision), '--request-id', requestId('wide')];
		ids = { manual, managed: issue.issueId, paused, fence, runId: run.runId, taskId, source: issue.source, worker: await openSession(host, 'worker') };
	});

	after(async function () {
		await host?.dispose();
	});

	async function callAsAgent(call: Call): Promise<CliResult | { method: string; status: number; body: string }> {
		const token = call.as === 'source' ? ids.source.token : ids.worker.token;
		if (call.words.length === 0) {
			const reply = await rawPost(host.socket, call.method, token, { client: 'security-test', protocol: 1 });
			return { method: call.method, status: reply.status, body: reply.body };
		}
		return host.cli([...call.words, '--json'], { token, env: { TUTTI_AWAIT_TIMEOUT_MS: '200' }, input: '{}' });
	}

	it('every method of the control plane is classified, and each has a call here', function () {
		const all = Object.keys(methods).sort();
		assert.deepEqual(Object.keys(policy).sort(), all, 'policy names every method');
		const called = new Set(callsFor(placeholderIds()).map((c) => c.method));
		assert.deepEqual(all.filter((m) => !called.has(m as Method)), [], 'every method is called');
		for (const call of callsFor(placeholderIds())) {
			if (policy[call.method] === 'developer') { assert.equal(call.policy, 'developer', `${call.method} is developer-only in every variant`); }
		}
	});

	it("a developer-only call with an agent's own token is refused `forbidden`, with the developer-action message and hint", async function () {
		const calls = callsFor(ids).filter((c) => c.policy === 'developer');
		const before = expectOk<{ issues: unknown[] }>(await host.cli(['issue', 'list', '--json'], { asUser: true })).issues.length;
		for (let i = 0; i < calls.length; i += 4) {
			const batch = calls.slice(i, i + 4);
			const results = await Promise.all(batch.map(async (call) => [call, await callAsAgent(call)] as const));
			for (const [call, result] of results) {
				assert.ok('code' in result);
				const error = expectError(result, 'forbidden');
				assert.match(error.message, call.refusal!, `${call.words.join(' ')}: ${show(result)}`);
				assert.match(error.hint, forbiddenHint, `${call.words.join(' ')}: the hint hands it to the developer`);
			}
		}
		// The same calls for the other kind of agent token: refused the same way.
		for (const call of calls) {
			const other: Call = { ...call, as: call.as === 'source' ? 'worker' : 'source' };
			const result = await callAsAgent(other);
			assert.ok('code' in result);
			// A plan command's other fence (wrong_source_session) may answer first for a worker; never success.
			const error = expectError(result, call.method === 'plan/create' || call.method === 'plan/mutate' ? ['forbidden', 'wrong_source_session'] : 'forbidden');
			assert.ok(error.reasonCode !== 'forbidden' || call.refusal!.test(error.message), `${other.as} token, ${call.words.join(' ')}: ${show(result)}`);
		}
		// Nothing happened: no issue was created, the source session is not stopped, the manual issue is not paused.
		assert.equal(expectOk<{ issues: unknown[] }>(await host.cli(['issue', 'list', '--json'], { asUser: true })).issues.length, before);
		const manual = methods['issue/get'].result.parse(expectOk(await host.cli(['issue', 'get', '--issue-id', ids.manual, '--json'], { asUser: true })));
		assert.equal(manual.dispatchPaused, false, 'the manual issue was neither paused nor stopped');
		assert.equal(manual.spend.budgetUsd, 5, 'its budget is unchanged');
		expectOk(await issue.getRaw());
	});

	it('the controls the Host shows grant nothing: an agent that reads Accept on a task still cannot accept it', async function () {
		const read = async (token: string): Promise<{ status: string; accept: boolean }> => {
			const got = methods['issue/get'].result.parse(expectOk(await host.cli(['issue', 'get', '--issue-id', ids.manual, '--json'], { token })));
			const task = got.tasks.find((t) => t.taskId === ids.taskId)!;
			return { status: task.status, accept: task.controls.accept };
		};
		assert.deepEqual(await read(ids.worker.token), { status: 'pending_acceptance', accept: true }, 'the worker reads what the developer may press');
		const refused = await host.cli(['review', 'accept', '--issue-id', ids.manual, '--task-id', ids.taskId, '--json'], { token: ids.worker.token });
		expectError(refused, 'forbidden');
		assert.deepEqual(await read(ids.worker.token), { status: 'pending_acceptance', accept: true }, 'nothing was accepted');
	});

	it('an agent call is never refused as a developer action', async function () {
		const calls = callsFor(ids).filter((c) => c.policy === 'agent');
		for (const call of calls) {
			const result = await callAsAgent(call);
			const text = 'code' in result ? `${result.stdout}\n${result.stderr}` : result.body;
			assert.ok(!developerRefusal.test(text), `${call.method} (${call.words.join(' ')}) is open to agents, but: ${text.slice(0, 600)}`);
			// It reached the Host: a command line the CLI itself refuses would prove nothing.
			assert.ok(!/unknown option|required option|too many arguments/.test(text), `${call.method}: the call must reach the Host: ${text.slice(0, 600)}`);
			if ('status' in result) { assert.equal(result.status, 200, `${call.method}: ${result.body}`); }
		}
	});
});

function placeholderIds(): Ids {
	const session = { sessionId: 's', token: 't' };
	return { manual: 'm', managed: 'g', paused: 'p', fence: [], runId: 'r', taskId: 't', source: session, worker: session };
}
