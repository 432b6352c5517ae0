// Concurrency: `sessions` (16) DISTINCT agent sessions, each opened with `session/open` under the user credential
// (its own token), each issuing `callsPerSession` (500) calls against ONE managed issue — 16 × 500 = 8000 calls.
//
// - Session 0 is the issue's source: it creates the plan (`plan/create`), and its calls are issued by 12 concurrent
//   lanes (the processes of one agent running parallel tool calls), the calls split evenly over the lanes (500 →
//   8 × 42 + 4 × 41). Each lane keeps its own last snapshot, so the lanes race each other's fences (stale graph
//   revision, inactive checkpoint or execution), schedules race acknowledges, and a lane refreshes after any
//   rejection. A schedule names up to two ready tasks, so a settlement checkpoint can be acknowledged while the
//   other Run still works (acknowledge needs running work or a later pending checkpoint). Every snapshot a lane
//   reads is published for the other sessions. Replays: an exact resend of one of the session's accepted requests
//   must return the identical result with replayed:true; a changed payload under a used request id must be
//   request_id_conflict. The lanes keep pace with the other sessions' progress (a lane issues its k-th of n calls
//   once the other sessions are k/n through theirs), so the races span the whole run.
// - Sessions 1..15 are other sessions (3 more `source`, 1 `reviewer`, the rest `worker`; workers and the reviewer
//   are bound to the issue), one lane each. Their calls mix plan/get, plan/mutate, plan/schedule and plan/acknowledge
//   fenced from the owner's last published snapshot, replays of their own earlier requests (exact and changed), resends
//   of the owner's accepted requests under their own token, and calls any agent session may make (`hello`,
//   `agent/resume`, `issue/list`, `issue/get`, `run/list`). None of their plan reads or writes of this issue may ever
//   be accepted: a source or worker gets wrong_source_session, the reviewer gets forbidden for writes (its allowlist)
//   and wrong_source_session for plan/get; the allowed calls must succeed and validate against the protocol.
// - Every 50th call of each session is `tutti plan issue get` through the real CLI with that session's token; the
//   rest go through a minimal socket client. No call may take longer than 30 s.
// Checks: zero lost updates (every acknowledged add is in the final graph, no task from another session is, graph
// revision = 1 + acknowledged mutations), the checkpoint invariants of the final snapshot, no hung call, and every
// rejection has a known reason code (src/core/errors.ts) with a message and a hint.
import { reasonCodes } from '../../src/core/errors.js';
import { methods, type Method } from '../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../src/protocol/dto.js';
import { requestId, standardTargets, startHost, type HostHandle } from '../../test/integration/harness.js';
import { call, CaseResult, cliPlanGet, prng, sleep, snapshotViolations, type Reply } from './kit.js';

export interface ConcurrencyOptions {
	/** Distinct agent sessions (session 0 owns the issue). */
	sessions: number;
	callsPerSession: number;
	seed: number;
}

type Role = 'source' | 'worker' | 'reviewer';

interface Session {
	index: number;
	role: Role;
	sessionId: string;
	caller: { token: string };
}

interface Sent {
	method: string;
	params: Record<string, unknown>;
	/** The accepted result (owner), or the rejection's reason code (other sessions). */
	result?: Record<string, unknown>;
	reasonCode?: string;
}

/** Lanes of the owner session (parallel tool calls of one agent). */
const ownerLanes = 12;
const callTimeoutMs = 30_000;
const knownReasons = new Set<string>(reasonCodes);
/** Calls any agent session may make (also inside a reviewer's allowlist). */
const allowedMethods = ['hello', 'agent/resume', 'issue/list', 'issue/get', 'run/list'] as const satisfies readonly Method[];

export async function concurrencyCase(options: ConcurrencyOptions): Promise<CaseResult> {
	const result = new CaseResult('Concurrency');
	const started = Date.now();
	const host = await startHost({ config: (gateDir) => ({ agentTargets: standardTargets(gateDir), maxParallelRuns: 4 }) });
	try {
		await run(host, options, result);
	} finally {
		await host.dispose().catch(() => undefined);
	}
	result.durationMs = Date.now() - started;
	return result;
}

/** Role of other session k (1-based): 3 more sources, one reviewer, the rest workers. */
function otherRole(k: number): Role {
	return k <= 3 ? 'source' : k === 4 ? 'reviewer' : 'worker';
}

const count = (map: Map<string, number>, key: string): void => {
	map.set(key, (map.get(key) ?? 0) + 1);
};
const byCount = (map: Map<string, number>): string => [...map].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ×${n}`).join(', ') || 'none';
const total = (map: Map<string, number>): number => [...map.values()].reduce((a, b) => a + b, 0);

function percentiles(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
	return `${pct(0.5)} / ${pct(0.99)} / ${sorted.at(-1) ?? 0} ms (${sorted.length} calls)`;
}

async function run(host: HostHandle, options: ConcurrencyOptions, result: CaseResult): Promise<void> {
	const open = async (index: number, role: Role, issueId?: string): Promise<Session> => {
		const r = await call(host, 'session/open', { role, ...(issueId !== undefined ? { issueId } : {}) }, 'user');
		if (!r.ok) {
			throw new Error(`session/open ${role}: ${r.message}`);
		}
		const opened = r.result as { sessionId: string; token: string };
		return { index, role, sessionId: opened.sessionId, caller: { token: opened.token } };
	};
	const owner = await open(0, 'source');
	const created = await call(host, 'plan/create', { title: 'Concurrency', content: 'c', requestId: requestId('conc') }, owner.caller);
	if (!created.ok) {
		throw new Error(`plan/create: ${created.message}`);
	}
	const issueId = (created.result as { issueId: string }).issueId;
	const others: Session[] = [];
	for (let k = 1; k < options.sessions; k++) {
		const role = otherRole(k);
		others.push(await open(k, role, role === 'source' ? undefined : issueId));
	}
	const all = [owner, ...others];
	result.check(new Set(all.map((s) => s.sessionId)).size === all.length && new Set(all.map((s) => s.caller.token)).size === all.length,
		`the ${all.length} sessions are not distinct (session ids or tokens repeat)`);

	// Shared state: the owner's last published snapshot, the owner's accepted requests, the figures.
	let published: PlanSnapshotDto | undefined;
	const ownerSent: Sent[] = [];
	const addedTasks = new Set<string>();
	let mutations = 0;
	let seq = 0;
	let ownerIssued = 0;
	let othersIssued = 0;
	const othersTotal = others.length * options.callsPerSession;
	let cliCalls = 0;
	let hung = 0;
	let replayChecks = 0;
	let conflictChecks = 0;
	const ownerAccepted = new Map<string, number>();
	const ownerRejected = new Map<string, number>();
	const othersRejected = new Map<string, number>();
	const othersAllowed = new Map<string, number>();
	let othersWritesAccepted = 0;
	let othersResendsOfOwner = 0;
	let othersReplays = 0;
	const socketLatencies: number[] = [];
	const cliLatencies: number[] = [];

	/** One call: through the socket, or `tutti plan issue get` through the real CLI with the session's token. */
	const send = async (session: Session, method: string, params: Record<string, unknown>, viaCli: boolean): Promise<Reply> => {
		const t0 = Date.now();
		let reply: Reply;
		if (viaCli) {
			cliCalls++;
			const cli = host.cli(['plan', 'issue', 'get', '--issue-id', issueId, '--json'], { token: session.caller.token });
			let timer: NodeJS.Timeout | undefined;
			const timeout = new Promise<'timeout'>((resolve) => { timer = setTimeout(() => resolve('timeout'), callTimeoutMs); });
			const outcome = await Promise.race([cli, timeout]).finally(() => clearTimeout(timer));
			if (outcome === 'timeout') {
				reply = { ok: false, reasonCode: 'transport', message: `the CLI did not exit within ${callTimeoutMs / 1000} s`, hint: '' };
			} else if (outcome.code === 0 && outcome.json !== undefined && !outcome.error) {
				const parsed = methods['plan/get'].result.safeParse(outcome.json);
				reply = parsed.success ? { ok: true, result: parsed.data } : { ok: false, reasonCode: 'cli', message: `invalid snapshot: ${parsed.error.message.slice(0, 200)}`, hint: '' };
			} else if (outcome.error) {
				result.check(outcome.code === 1, `session ${session.index}: CLI plan issue get rejected (${outcome.error.reasonCode}) with exit ${outcome.code}, not 1`);
				reply = { ok: false, reasonCode: outcome.error.reasonCode, message: outcome.error.message, hint: outcome.error.hint };
			} else {
				reply = { ok: false, reasonCode: 'cli', message: `exit ${outcome.code} without an error envelope: ${outcome.stderr.slice(0, 200)}`, hint: '' };
			}
			cliLatencies.push(Date.now() - t0);
		} else {
			reply = await call(host, method, params, session.caller, callTimeoutMs);
			socketLatencies.push(Date.now() - t0);
		}
		if (!reply.ok && reply.reasonCode === 'transport') {
			hung++;
			result.fail(`session ${session.index}: ${method} got no reply within ${callTimeoutMs / 1000} s (${reply.message})`);
		} else if (!reply.ok) {
			result.check(knownReasons.has(reply.reasonCode), `session ${session.index}: ${method} rejected with an unknown reason code ${reply.reasonCode}: ${reply.message.slice(0, 200)}`);
			result.check(reply.message !== '' && reply.hint !== '', `session ${session.index}: ${method} rejection ${reply.reasonCode} without message or hint`);
		}
		return reply;
	};

	const fenceOf = (s: PlanSnapshotDto | undefined): Record<string, unknown> => ({
		issueId, checkpointId: s?.activeCheckpoint?.checkpointId ?? 'none', expectedGraphRevision: s?.execution.graphRevision ?? 1,
	});

	// ---- Session 0: the owner, 12 lanes. ----
	const ownerLane = async (lane: number): Promise<void> => {
		const random = prng(options.seed + lane);
		const laneCalls = Math.floor(options.callsPerSession / ownerLanes) + (lane < options.callsPerSession % ownerLanes ? 1 : 0);
		let snapshot: PlanSnapshotDto | undefined;
		for (let j = 0; j < laneCalls; j++) {
			while (othersTotal > 0 && othersIssued / othersTotal < j / laneCalls) {
				await sleep(5);
			}
			const k = ownerIssued++;
			const viaCli = k % 50 === 0;
			const dice = random();
			let method: string;
			let params: Record<string, unknown>;
			let replayOf: Sent | undefined;
			if (viaCli || snapshot === undefined || dice < 0.3) {
				method = 'plan/get';
				params = { issueId };
			} else if (dice < 0.55) {
				const taskId = `t${seq++}`;
				method = 'plan/mutate';
				params = { ...fenceOf(snapshot), requestId: requestId(`c${lane}`), operations: [{ kind: 'add', task: { taskId, title: taskId, agentTargetId: 'ok' } }] };
			} else if (dice < 0.7) {
				method = 'plan/schedule';
				params = { ...fenceOf(snapshot), requestId: requestId(`c${lane}`), taskIds: snapshot.readyTaskIds.length > 0 ? snapshot.readyTaskIds.slice(0, 2) : ['none'] };
			} else if (dice < 0.85) {
				method = 'plan/acknowledge';
				params = { ...fenceOf(snapshot), requestId: requestId(`c${lane}`) };
			} else if (ownerSent.length > 0) {
				replayOf = ownerSent[Math.floor(random() * ownerSent.length)]!;
				method = replayOf.method;
				params = random() < 0.7 ? replayOf.params : { ...replayOf.params, expectedGraphRevision: Number(replayOf.params.expectedGraphRevision) + 1000 };
			} else {
				method = 'plan/get';
				params = { issueId };
			}
			const reply = await send(owner, method, params, viaCli);
			if (reply.ok) {
				count(ownerAccepted, replayOf ? `${method} replay` : method);
				const value = reply.result as Record<string, unknown>;
				if (method === 'plan/get') {
					snapshot = value as unknown as PlanSnapshotDto;
					published = snapshot;
				} else if (replayOf) {
					replayChecks++;
					const same = JSON.stringify({ ...value, replayed: undefined }) === JSON.stringify({ ...replayOf.result, replayed: undefined });
					result.check(params === replayOf.params, `owner lane ${lane}: a changed payload under a used request id was accepted (${method})`);
					result.check(value.replayed === true && same, `owner lane ${lane}: a replay of ${method} did not return the original result: ${JSON.stringify(value).slice(0, 200)}`);
				} else {
					ownerSent.push({ method, params, result: value });
					if (method === 'plan/mutate') {
						mutations++;
						for (const id of value.addedTaskIds as string[]) {
							addedTasks.add(id);
						}
					}
					if (typeof value.graphRevision === 'number' && snapshot) {
						snapshot = { ...snapshot, execution: { ...snapshot.execution, graphRevision: value.graphRevision } };
					}
				}
			} else if (reply.reasonCode !== 'transport') {
				count(ownerRejected, reply.reasonCode);
				result.check(!['wrong_source_session', 'forbidden'].includes(reply.reasonCode), `owner lane ${lane}: the issue's own source session got ${reply.reasonCode} for ${method}`);
				if (replayOf && params === replayOf.params) {
					result.fail(`owner lane ${lane}: an exact replay of ${method} was rejected (${reply.reasonCode}) instead of replayed`);
				}
				if (replayOf && params !== replayOf.params) {
					conflictChecks++;
					result.check(reply.reasonCode === 'request_id_conflict', `owner lane ${lane}: a changed payload under a used request id got ${reply.reasonCode}, not request_id_conflict`);
				}
				if (method !== 'plan/get') {
					snapshot = undefined; // refresh the fence after any rejection, as the wake prompt tells agents
				}
			}
		}
	};

	// ---- Sessions 1..15: other sessions, one lane each. ----
	const otherLane = async (session: Session): Promise<void> => {
		const random = prng(options.seed + 1000 + session.index);
		const sent: Sent[] = [];
		/** The reason code a write of this issue must get from this session. */
		const expectedWrite = session.role === 'reviewer' ? 'forbidden' : 'wrong_source_session';
		for (let i = 0; i < options.callsPerSession; i++) {
			othersIssued++;
			const viaCli = i % 50 === 0;
			const dice = random();
			let method: string;
			let params: Record<string, unknown>;
			let replayOf: Sent | undefined;
			let resendOfOwner = false;
			if (viaCli || dice < 0.1) {
				method = 'plan/get';
				params = { issueId };
			} else if (dice < 0.3) {
				const taskId = `x${session.index}-${i}`;
				method = 'plan/mutate';
				params = { ...fenceOf(published), requestId: requestId(`o${session.index}`), operations: [{ kind: 'add', task: { taskId, title: taskId, agentTargetId: 'ok' } }] };
			} else if (dice < 0.42) {
				method = 'plan/schedule';
				const ready = published?.readyTaskIds ?? [];
				params = { ...fenceOf(published), requestId: requestId(`o${session.index}`), taskIds: ready.length > 0 ? ready.slice(0, 1) : ['none'] };
			} else if (dice < 0.54) {
				method = 'plan/acknowledge';
				params = { ...fenceOf(published), requestId: requestId(`o${session.index}`) };
			} else if (dice < 0.66 && sent.length > 0) {
				replayOf = sent[Math.floor(random() * sent.length)]!;
				method = replayOf.method;
				params = random() < 0.7 ? replayOf.params : { ...replayOf.params, expectedGraphRevision: Number(replayOf.params.expectedGraphRevision) + 1000 };
			} else if (dice < 0.72 && ownerSent.length > 0) {
				// The owner's accepted request, resent verbatim under this session's token: not a replay for this caller.
				const original = ownerSent[Math.floor(random() * ownerSent.length)]!;
				resendOfOwner = true;
				method = original.method;
				params = original.params;
			} else {
				method = allowedMethods[Math.floor(random() * allowedMethods.length)]!;
				params = method === 'hello' ? { client: `lane-${session.index}`, protocol: 1 }
					: method === 'agent/resume' || method === 'issue/list' ? {}
						: { issueId };
			}
			const reply = await send(session, method, params, viaCli);
			if (!reply.ok && reply.reasonCode === 'transport') {
				continue;
			}
			const isAllowed = (allowedMethods as readonly string[]).includes(method);
			if (isAllowed) {
				if (!reply.ok) {
					result.fail(`session ${session.index} (${session.role}): ${method}, allowed for any agent session, was rejected: ${reply.reasonCode} ${reply.message.slice(0, 200)}`);
					continue;
				}
				count(othersAllowed, method);
				const parsed = methods[method as (typeof allowedMethods)[number]].result.safeParse(reply.result);
				result.check(parsed.success, `session ${session.index}: ${method} result does not match the protocol: ${parsed.error?.message.slice(0, 200)}`);
				if (method === 'hello') {
					const label = (reply.result as { caller?: string }).caller;
					result.check(label === `${session.role}:${session.sessionId}`, `session ${session.index}: hello names the caller ${label}, not ${session.role}:${session.sessionId}`);
				}
				continue;
			}
			if (reply.ok) {
				// Any accepted plan read or write of this issue by a session that does not own it is a violation.
				othersWritesAccepted++;
				result.fail(`session ${session.index} (${session.role}): a session that does not own the issue ${method === 'plan/get' ? 'read' : 'wrote'} it (${method}${replayOf ? ', replay' : ''}${resendOfOwner ? ', resend of the owner\'s request' : ''}): ${JSON.stringify(reply.result).slice(0, 200)}`);
				continue;
			}
			count(othersRejected, reply.reasonCode);
			const expected = method === 'plan/get' ? 'wrong_source_session' : expectedWrite;
			result.check(reply.reasonCode === expected, `session ${session.index} (${session.role}): ${method}${replayOf ? ' (replay)' : ''}${resendOfOwner ? ' (resend of the owner\'s request)' : ''} got ${reply.reasonCode}, not ${expected}`);
			if (replayOf) {
				othersReplays++;
				// A rejected request is never recorded: its replay, exact or changed, is rejected the same way (no conflict).
				result.check(reply.reasonCode === replayOf.reasonCode, `session ${session.index}: a replay of a rejected ${method} got ${reply.reasonCode}, first ${replayOf.reasonCode}`);
			} else if (resendOfOwner) {
				othersResendsOfOwner++;
			} else if (method !== 'plan/get') {
				sent.push({ method, params, reasonCode: reply.reasonCode });
			}
		}
	};

	await Promise.all([
		...Array.from({ length: ownerLanes }, (_, lane) => ownerLane(lane)),
		...others.map((s) => otherLane(s)),
	]);

	// Zero lost updates: every acknowledged add is in the graph, nothing else is, and the revision counts every
	// committed mutation once.
	const final = await cliPlanGet(host, issueId);
	const present = new Set(final.tasks.map((t) => t.taskId));
	const lost = [...addedTasks].filter((t) => !present.has(t));
	const foreign = final.tasks.filter((t) => t.taskId.startsWith('x')).map((t) => t.taskId);
	result.check(lost.length === 0, `${lost.length} acknowledged mutations lost: ${lost.slice(0, 5).join(', ')}`);
	result.check(foreign.length === 0, `${foreign.length} tasks added by sessions that do not own the issue: ${foreign.slice(0, 5).join(', ')}`);
	result.check(final.tasks.length === addedTasks.size, `the graph has ${final.tasks.length} tasks, ${addedTasks.size} adds were acknowledged`);
	result.check(final.execution.graphRevision === 1 + mutations, `graph revision ${final.execution.graphRevision} ≠ 1 + ${mutations} acknowledged mutations`);
	for (const problem of snapshotViolations(final)) {
		result.fail(`final snapshot: ${problem}`);
	}
	const calls = ownerIssued + othersIssued;
	const split = new Map<number, number>();
	for (let lane = 0; lane < ownerLanes; lane++) {
		const n = Math.floor(options.callsPerSession / ownerLanes) + (lane < options.callsPerSession % ownerLanes ? 1 : 0);
		split.set(n, (split.get(n) ?? 0) + 1);
	}
	const roles = new Map<string, number>();
	others.forEach((s) => count(roles, s.role));
	result.check(calls === options.sessions * options.callsPerSession, `${calls} calls issued, expected ${options.sessions} × ${options.callsPerSession}`);
	result.figure('distinct sessions × calls', `${all.length} distinct sessions × ${options.callsPerSession} calls = ${calls} calls (${cliCalls} through the real CLI with the session's own token)`);
	result.figure('sessions', `1 owner (source, created the plan) + ${[...roles].map(([r, n]) => `${n} ${r}`).join(' + ')}, each opened with session/open (own token)`);
	result.figure('owner calls', `${ownerIssued} calls over ${ownerLanes} concurrent lanes (${[...split].sort((a, b) => b[0] - a[0]).map(([n, l]) => `${l} × ${n}`).join(' + ')}), paced to the other sessions' progress`);
	result.figure('owner accepted / rejected', `${total(ownerAccepted)} (${byCount(ownerAccepted)}) / ${total(ownerRejected)}`);
	result.figure('owner rejections by reason code', byCount(ownerRejected));
	result.figure('other sessions: plan reads/writes accepted', `${othersWritesAccepted} (of ${total(othersRejected) + othersWritesAccepted}; ${othersReplays} replays of their own requests, ${othersResendsOfOwner} resends of the owner's requests)`);
	result.figure('other sessions: rejections by reason code', byCount(othersRejected));
	result.figure('other sessions: allowed calls (all accepted)', `${total(othersAllowed)} (${byCount(othersAllowed)})`);
	result.figure('no reply within 30 s', hung);
	result.figure('acknowledged mutations (all present; revision = 1 + mutations)', `${mutations} (graph revision ${final.execution.graphRevision}, ${lost.length} lost, ${foreign.length} foreign)`);
	result.figure('owner replays checked (identical result, replayed:true) / changed payloads → request_id_conflict', `${replayChecks} / ${conflictChecks}`);
	result.figure('socket call latency p50 / p99 / max', percentiles(socketLatencies));
	result.figure('CLI call latency p50 / p99 / max', percentiles(cliLatencies));
	result.figure('all calls latency p50 / p99 / max', percentiles([...socketLatencies, ...cliLatencies]));
}
