// Approvals across faults: an `asker` agent (agentKit.ts) asks the developer about a tool call through the real
// `tutti mcp` and waits; then one fault per scenario — the Host killed -9 while the request is pending, the Host
// killed -9 while the developer's answer is in flight, the MCP server killed -9 (the agent starts a new one and
// asks again with the same tool_use_id), the agent killed -9 while it waits (with the Host up, and with the Host
// down), the Run stopped while it waits. Checked through the CLI (`approval list`, `run list`): each request ends
// answered exactly once (the agent received that one answer, and its Run ended accordingly) or expired/canceled
// (the agent received none and the Run is settled); never pending for a Run that ended, never answered twice, and
// one request per tool call however often it was resent.
import type { ApprovalDto } from '../../src/protocol/approvals.js';
import { methods } from '../../src/protocol/controlPlane.js';
import type { RunDto } from '../../src/protocol/dto.js';
import { expectOk, type HostHandle, standardTargets, startHost } from '../../test/integration/harness.js';
import { approvalAndBudgetTargets, askerAnswers, askerPids } from './agentKit.js';
import { call, CaseResult, cliRunList, prng, sleep } from './kit.js';

export const approvalScenarios = [
	'host-kill-pending', 'host-kill-answer-in-flight', 'mcp-killed', 'agent-killed', 'agent-killed-host-down', 'run-stopped',
] as const;
export type Scenario = typeof approvalScenarios[number];

export interface ApprovalsOptions {
	/** Each round runs every scenario once. */
	rounds: number;
	seed: number;
	/** The scenarios to run (default all). */
	scenarios?: readonly Scenario[];
}

/** `tutti approval list --issue-id` through the real CLI. */
export async function cliApprovals(host: HostHandle, issueId: string): Promise<ApprovalDto[]> {
	return methods['approval/list'].result.parse(expectOk(await host.cli(['approval', 'list', '--issue-id', issueId, '--json'], { asUser: true }))).approvals;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) { return value; }
		if (Date.now() > deadline) { throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`); }
		await sleep(40);
	}
}

/** The pending request of the task's Run, once its agent asked (read over the socket: a poll, not a check). */
async function pendingOf(host: HostHandle, issueId: string, taskId: string): Promise<ApprovalDto> {
	return until(`the approval request of ${taskId}`, 30_000, async () => {
		const r = await call(host, 'approval/list', { issueId, status: 'pending' }, 'user');
		return r.ok ? (r.result as { approvals: ApprovalDto[] }).approvals.find((a) => a.taskId === taskId) : undefined;
	});
}

async function settledRun(host: HostHandle, issueId: string, taskId: string): Promise<RunDto> {
	return until(`the Run of ${taskId} to settle`, 30_000, async () => (await cliRunList(host, issueId)).find((r) => r.taskId === taskId && r.outcome !== null));
}

function kill(pid: number | undefined): void {
	if (pid === undefined) { return; }
	try {
		process.kill(pid, 'SIGKILL');
	} catch {
		// already gone
	}
}

export async function approvalsCase(options: ApprovalsOptions): Promise<CaseResult> {
	const result = new CaseResult('Approvals across faults');
	const random = prng(options.seed);
	const host = await startHost({ config: (gateDir) => ({ agentTargets: [...standardTargets(gateDir), ...approvalAndBudgetTargets(gateDir)], maxParallelRuns: 8 }) });
	const endings = new Map<string, number>();
	let hostKills = 0;
	let resent = 0;
	const tally: Tally = { twice: 0, lost: 0, pendingDead: 0 };
	try {
		const created = await call(host, 'issue/create', { title: 'Approvals across faults', autoAccept: true }, 'user');
		if (!created.ok) { throw new Error(`issue/create: ${created.message}`); }
		const issueId = (created.result as { issueId: string }).issueId;
		for (let round = 0; round < options.rounds; round++) {
			for (const scenario of options.scenarios ?? approvalScenarios) {
				const taskId = `ap${round}-${scenario}`;
				const where = `${scenario} (round ${round})`;
				try {
					const kills = await runScenario(host, issueId, taskId, scenario, random, result, tally, where);
					hostKills += kills.hostKills;
					resent += kills.resent;
					const ending = await checkEnding(host, issueId, taskId, result, tally, where);
					endings.set(`${scenario} → ${ending}`, (endings.get(`${scenario} → ${ending}`) ?? 0) + 1);
				} catch (error) {
					result.fail(`${where}: ${(error as Error).message}`);
				}
			}
		}
		// One more restart: every answer and every expiry is durable, none changed.
		const before = await cliApprovals(host, issueId);
		await host.kill9();
		await host.start();
		hostKills++;
		const after = new Map((await cliApprovals(host, issueId)).map((a) => [a.approvalId, a]));
		for (const a of before) {
			const b = after.get(a.approvalId);
			result.check(b !== undefined && b.status === a.status && b.answeredAtUnixMs === a.answeredAtUnixMs,
				`approval ${a.approvalId} (${a.taskId}) was ${a.status}@${a.answeredAtUnixMs} and is ${b?.status}@${b?.answeredAtUnixMs} after a restart`);
		}
		result.figure('scenarios × rounds', `${(options.scenarios ?? approvalScenarios).length} × ${options.rounds}`);
		result.figure('endings (scenario → approval status, agent answers received, Run outcome)', [...endings].map(([k, n]) => `${k} ×${n}`).join('; '));
		result.figure('approvals answered twice / lost / pending for an ended Run', `${tally.twice} / ${tally.lost} / ${tally.pendingDead}`);
		result.figure('Host kill -9 / MCP calls resent after a fault (same tool_use_id, same request)', `${hostKills} / ${resent}`);
	} finally {
		await host.dispose().catch(() => undefined);
	}
	return result;
}

/** Requests answered twice (or an agent that received two answers), acknowledged answers lost, requests left pending for an ended Run. */
interface Tally { twice: number; lost: number; pendingDead: number }

async function runScenario(host: HostHandle, issueId: string, taskId: string, scenario: Scenario, random: () => number, result: CaseResult,
	tally: Tally, where: string): Promise<{ hostKills: number; resent: number }> {
	const added = await call(host, 'task/add', { issueId, taskId, title: `Ask about ${taskId}`, agentTargetId: 'asker' }, 'user');
	if (!added.ok) { throw new Error(`task/add: ${added.reasonCode}`); }
	const pending = await pendingOf(host, issueId, taskId);
	let hostKills = 0;
	let resent = 0;
	switch (scenario) {
		case 'host-kill-pending': {
			// The waiting `tutti mcp` call rides out the kill and the restart, then gets the answer from the new Host.
			await sleep(random() * 300);
			await host.kill9();
			await host.start();
			hostKills++;
			expectOk(await host.cli(['approval', 'answer', '--approval-id', pending.approvalId, '--allow', '--as-user', '--json']));
			break;
		}
		case 'host-kill-answer-in-flight': {
			const allow = random() < 0.5;
			const answering = call(host, 'approval/answer', { approvalId: pending.approvalId, ...(allow ? { allow: true } : { deny: true, message: 'not now' }) }, 'user');
			await sleep(random() * 25);
			await host.kill9();
			const reply = await answering;
			await host.start();
			hostKills++;
			const after = (await cliApprovals(host, issueId)).find((a) => a.approvalId === pending.approvalId);
			if (reply.ok) {
				result.check(after?.status === (allow ? 'allowed' : 'denied'), `${where}: the answer was acknowledged, yet the request is ${after?.status} after the restart (lost)`);
				if (after?.status === 'pending') { tally.lost++; }
			}
			if (after?.status === 'pending') {
				// Cut before it was saved: the developer answers again, once.
				expectOk(await host.cli(['approval', 'answer', '--approval-id', pending.approvalId, allow ? '--allow' : '--deny', '--as-user', '--json']));
			}
			// A second answer is refused and reports the first.
			const again = await call(host, 'approval/answer', { approvalId: pending.approvalId, deny: true, message: 'second answer' }, 'user');
			result.check(!again.ok && again.reasonCode === 'approval_answered', `${where}: a second answer was not refused (${again.ok ? 'accepted' : again.reasonCode})`);
			if (again.ok) { tally.twice++; }
			break;
		}
		case 'mcp-killed': {
			const pids = await until(`${taskId}'s pids`, 10_000, async () => askerPids(host.gateDir, taskId));
			kill(pids.mcp);
			await until(`${taskId}'s second MCP server`, 15_000, async () => ((askerPids(host.gateDir, taskId)?.servers ?? 0) >= 2 ? true : undefined));
			resent++;
			// The resent call finds the same request (same tool_use_id); answer it once.
			await sleep(random() * 300);
			expectOk(await host.cli(['approval', 'answer', '--approval-id', pending.approvalId, '--deny', '--message', 'use a pull request', '--as-user', '--json']));
			break;
		}
		case 'agent-killed':
		case 'agent-killed-host-down': {
			const pids = await until(`${taskId}'s pids`, 10_000, async () => askerPids(host.gateDir, taskId));
			if (scenario === 'agent-killed-host-down') {
				await host.kill9();
				kill(pids.agent);
				await sleep(random() * 200);
				await host.start();
				hostKills++;
			} else {
				kill(pids.agent);
			}
			await settledRun(host, issueId, taskId);
			const late = await call(host, 'approval/answer', { approvalId: pending.approvalId, allow: true }, 'user');
			result.check(!late.ok && late.reasonCode === 'approval_answered', `${where}: an answer after the agent died was ${late.ok ? 'accepted' : late.reasonCode}, not refused`);
			if (late.ok) { tally.twice++; }
			break;
		}
		case 'run-stopped': {
			expectOk(await host.cli(['run', 'stop', '--run-id', pending.runId, '--as-user', '--json']));
			break;
		}
	}
	return { hostKills, resent };
}

/** One answer as the agent received it: `allow`, or `deny: <message>`. */
export function received(answer: { behavior: string; message?: string }): string {
	return answer.behavior === 'deny' ? `deny: ${answer.message ?? ''}` : answer.behavior;
}

/** How the task's one request ended; checks it against what the agent received and the Run's outcome. */
async function checkEnding(host: HostHandle, issueId: string, taskId: string, result: CaseResult, tally: Tally, where: string): Promise<string> {
	const run = await settledRun(host, issueId, taskId);
	const approvals = (await cliApprovals(host, issueId)).filter((a) => a.taskId === taskId);
	const answers = askerAnswers(host.gateDir, taskId);
	result.check(approvals.length === 1, `${where}: ${approvals.length} approval requests for one tool call`);
	const a = approvals[0];
	if (!a) { return 'no request'; }
	if (a.status === 'pending') { tally.pendingDead++; }
	result.check(a.status !== 'pending', `${where}: approval ${a.approvalId} is still pending though its Run ended (${run.outcome})`);
	if (a.status === 'allowed' || a.status === 'denied') {
		// The developer's own answer: an allow, or a deny carrying the developer's message (not an error's).
		const expected = a.status === 'allowed' ? 'allow' : `deny: ${a.message}`;
		result.check(answers.length === 1 && received(answers[0]!) === expected,
			`${where}: approval ${a.status} (${a.message}), but the agent received ${answers.length} answers (${answers.map(received).join(', ')})`);
		if (answers.length > 1) { tally.twice++; }
		if (answers.length === 0) { tally.lost++; }
		result.check(run.outcome === (a.status === 'allowed' ? 'success' : 'failure'), `${where}: approval ${a.status} but the Run ended ${run.outcome}`);
	} else {
		// An agent still alive when its request closed receives that closing as a denial (one at most).
		result.check(answers.length === 0 || (answers.length === 1 && answers[0]!.behavior === 'deny'),
			`${where}: approval ${a.status}, yet the agent received ${answers.map((x) => x.behavior).join(', ')}`);
		result.check(a.answeredAtUnixMs > 0 && a.answeredBy === 'host', `${where}: approval ${a.status} without the Host's closing record (${a.answeredBy}@${a.answeredAtUnixMs})`);
		// Only a Stop cancels a request: the Run is the developer's cancellation, even when the agent ended on the
		// denial before the Stop's signal reached it.
		if (a.status === 'canceled') { result.check(run.outcome === 'cancellation', `${where}: approval canceled by a Stop, but the Run ended ${run.outcome}`); }
	}
	return `${a.status}, ${answers.length} received, ${run.outcome}`;
}
