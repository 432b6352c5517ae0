// Concurrency: 16 agent sessions × N calls against one managed issue — fenced mutations from stale snapshots,
// schedules racing acknowledges, replays of earlier requests (same payload → replayed, other payload → conflict),
// and writes from sessions that do not own the issue. The bulk goes through a minimal socket client; every 50th
// call of each lane goes through the real CLI. Checks: zero lost updates, zero hung calls, every rejection has a
// known reason code with a message and a hint.
import { reasonCodes } from '../../src/core/errors.js';
import type { PlanSnapshotDto } from '../../src/protocol/dto.js';
import { requestId, standardTargets, startHost, type HostHandle } from '../../test/integration/harness.js';
import { call, CaseResult, cliPlanGet, prng, snapshotViolations, type Caller, type Reply } from './kit.js';

export interface ConcurrencyOptions {
	sessions: number;
	callsPerSession: number;
	seed: number;
}

interface Sent {
	method: string;
	params: Record<string, unknown>;
	result: Record<string, unknown>;
}

const knownReasons = new Set<string>(reasonCodes);

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

async function run(host: HostHandle, options: ConcurrencyOptions, result: CaseResult): Promise<void> {
	const open = async (role: string): Promise<{ token: string }> => {
		const r = await call(host, 'session/open', { role }, 'user');
		if (!r.ok) {
			throw new Error(`session/open: ${r.message}`);
		}
		return { token: (r.result as { token: string }).token };
	};
	const source = await open('source');
	const created = await call(host, 'plan/create', { title: 'Concurrency', content: 'c', requestId: requestId('conc') }, source);
	if (!created.ok) {
		throw new Error(`plan/create: ${created.message}`);
	}
	const issueId = (created.result as { issueId: string }).issueId;
	// Lanes 0..11 are processes of the source session (the only session that may write this issue, so they race each
	// other's fences); lanes 12..15 are other sessions: a second source session and workers, whose writes are refused.
	const others = [await open('source'), await open('worker'), await open('worker'), await open('worker')];
	const callers: Caller[] = Array.from({ length: options.sessions }, (_, i) => (i < options.sessions - others.length ? source : others[i - (options.sessions - others.length)]!));

	const addedTasks = new Set<string>();
	let mutations = 0;
	const reasons = new Map<string, number>();
	let calls = 0;
	let cliCalls = 0;
	let ok = 0;
	let replayChecks = 0;
	let hung = 0;
	const latencies: number[] = [];
	let seq = 0;

	const lane = async (laneIndex: number): Promise<void> => {
		const random = prng(options.seed + laneIndex);
		const caller = callers[laneIndex]!;
		const sent: Sent[] = [];
		let snapshot: PlanSnapshotDto | undefined;
		const fence = (): Record<string, unknown> => ({
			issueId, checkpointId: snapshot?.activeCheckpoint?.checkpointId ?? 'none', expectedGraphRevision: snapshot?.execution.graphRevision ?? 1,
		});
		for (let i = 0; i < options.callsPerSession; i++) {
			const dice = random();
			let method: string;
			let params: Record<string, unknown>;
			let replayOf: Sent | undefined;
			if (snapshot === undefined || dice < 0.3) {
				method = 'plan/get';
				params = { issueId };
			} else if (dice < 0.55) {
				const taskId = `t${seq++}`;
				method = 'plan/mutate';
				params = { ...fence(), requestId: requestId(`c${laneIndex}`), operationsJson: JSON.stringify([{ kind: 'add', task: { taskId, title: taskId, agentTargetId: 'ok' } }]) };
			} else if (dice < 0.7) {
				method = 'plan/schedule';
				params = { ...fence(), requestId: requestId(`c${laneIndex}`), taskIds: snapshot.readyTaskIds.length > 0 ? snapshot.readyTaskIds.slice(0, 1) : ['none'] };
			} else if (dice < 0.85) {
				method = 'plan/acknowledge';
				params = { ...fence(), requestId: requestId(`c${laneIndex}`) };
			} else if (sent.length > 0) {
				replayOf = sent[Math.floor(random() * sent.length)]!;
				method = replayOf.method;
				params = random() < 0.7 ? replayOf.params : { ...replayOf.params, expectedGraphRevision: Number(replayOf.params.expectedGraphRevision) + 1000 };
			} else {
				method = 'plan/get';
				params = { issueId };
			}
			const viaCli = i % 50 === 0 && method === 'plan/get';
			const t0 = Date.now();
			let reply: Reply;
			if (viaCli) {
				cliCalls++;
				try {
					reply = { ok: true, result: await cliPlanGet(host, issueId) };
				} catch (error) {
					reply = { ok: false, reasonCode: 'cli', message: (error as Error).message, hint: '' };
				}
			} else {
				reply = await call(host, method, params, caller, 30_000);
			}
			latencies.push(Date.now() - t0);
			calls++;
			if (reply.ok) {
				ok++;
				const value = reply.result as Record<string, unknown>;
				if (method === 'plan/get') {
					snapshot = value as unknown as PlanSnapshotDto;
				} else if (replayOf) {
					replayChecks++;
					const same = JSON.stringify({ ...value, replayed: undefined }) === JSON.stringify({ ...replayOf.result, replayed: undefined });
					result.check(value.replayed === true && same, `lane ${laneIndex}: a replay of ${method} did not return the original result: ${JSON.stringify(value).slice(0, 200)}`);
				} else {
					sent.push({ method, params, result: value });
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
			} else {
				if (reply.reasonCode === 'transport') {
					hung++;
					result.fail(`lane ${laneIndex}: ${method} got no reply within 30 s (${reply.message})`);
					continue;
				}
				reasons.set(reply.reasonCode, (reasons.get(reply.reasonCode) ?? 0) + 1);
				result.check(knownReasons.has(reply.reasonCode), `lane ${laneIndex}: ${method} rejected with an unknown reason code ${reply.reasonCode}`);
				result.check(reply.message !== '' && reply.hint !== '', `lane ${laneIndex}: ${method} rejection ${reply.reasonCode} without message or hint`);
				if (replayOf && params === replayOf.params) {
					result.fail(`lane ${laneIndex}: an exact replay of ${method} was rejected (${reply.reasonCode}) instead of replayed`);
				}
				if (replayOf && params !== replayOf.params) {
					result.check(reply.reasonCode === 'request_id_conflict', `lane ${laneIndex}: a changed payload under a used request id got ${reply.reasonCode}, not request_id_conflict`);
				}
				if (caller !== source && method !== 'plan/get') {
					result.check(['wrong_source_session', 'forbidden', 'request_id_conflict'].includes(reply.reasonCode), `lane ${laneIndex}: a non-owner write got ${reply.reasonCode}`);
				}
				if (method !== 'plan/get') {
					snapshot = undefined; // refresh the fence after any rejection, as the wake prompt tells agents
				}
			}
			if (caller !== source && reply.ok && method !== 'plan/get' && !replayOf) {
				result.fail(`lane ${laneIndex}: a session that does not own the issue wrote it (${method})`);
			}
		}
	};
	await Promise.all(Array.from({ length: options.sessions }, (_, i) => lane(i)));

	// Zero lost updates: every acknowledged add is in the graph, and the revision counts every committed mutation once.
	const final = await cliPlanGet(host, issueId);
	const present = new Set(final.tasks.map((t) => t.taskId));
	const lost = [...addedTasks].filter((t) => !present.has(t));
	result.check(lost.length === 0, `${lost.length} acknowledged mutations lost: ${lost.slice(0, 5).join(', ')}`);
	result.check(final.tasks.length === addedTasks.size, `the graph has ${final.tasks.length} tasks, ${addedTasks.size} adds were acknowledged`);
	result.check(final.execution.graphRevision === 1 + mutations, `graph revision ${final.execution.graphRevision} ≠ 1 + ${mutations} acknowledged mutations`);
	for (const problem of snapshotViolations(final)) {
		result.fail(`final snapshot: ${problem}`);
	}
	latencies.sort((a, b) => a - b);
	const pct = (p: number): number => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
	result.figure('sessions × calls', `${options.sessions} × ${options.callsPerSession} = ${calls} calls (${cliCalls} through the real CLI)`);
	result.figure('accepted / rejected / no reply', `${ok} / ${[...reasons.values()].reduce((a, b) => a + b, 0)} / ${hung}`);
	result.figure('rejections by reason code', [...reasons].sort((a, b) => b[1] - a[1]).map(([r, n]) => `${r} ×${n}`).join(', '));
	result.figure('acknowledged mutations (all present; revision = 1 + mutations)', `${mutations} (graph revision ${final.execution.graphRevision}, ${lost.length} lost)`);
	result.figure('replays checked (identical result, replayed:true)', replayChecks);
	result.figure('call latency p50 / p99 / max', `${pct(0.5)} / ${pct(0.99)} / ${latencies.at(-1) ?? 0} ms`);
}
