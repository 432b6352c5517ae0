// Concurrency that writes: `manualWriters` developers' clients, each with its own manual issue, and `managedWriters`
// source agents, each with its own managed issue and session, race one another and the dispatcher until each has
// `writesPerWriter` ACCEPTED durable writes:
// - a manual writer adds tasks (every 5th with the `ok` target, so the dispatcher starts real Runs that settle into
//   pending_acceptance), renames tasks that never run, and accepts its settled tasks (review/accept);
// - a managed writer mutates its plan (add and update operations, fenced by its own last revision) and, every 25th
//   write, schedules its ready tasks (Runs start; the execution then waits for the next checkpoint, where it goes on).
// Checks afterwards, through the real CLI: every acknowledged write is present (each task added, with the title of its
// last acknowledged rename; each accepted task accepted; a managed plan's revision = 1 + its acknowledged mutations),
// no call hung (30 s bound: no deadlock), every rejection has a known reason code. Figures: write latency p50/p99/max.
import { reasonCodes } from '../../src/core/errors.js';
import type { PlanSnapshotDto } from '../../src/protocol/dto.js';
import { requestId, standardTargets, startHost, type HostHandle } from '../../test/integration/harness.js';
import { call, CaseResult, cliPlanGet, prng, type Caller } from './kit.js';

export interface WritersOptions {
	manualWriters: number;
	managedWriters: number;
	writesPerWriter: number;
	seed: number;
}

const callTimeoutMs = 30_000;
const knownReasons = new Set<string>(reasonCodes);

interface Tally {
	latencies: number[];
	rejected: Map<string, number>;
	hung: number;
	unknownReasons: string[];
}

function percentiles(values: number[]): string {
	const sorted = [...values].sort((a, b) => a - b);
	const pct = (p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
	return `${pct(0.5)} / ${pct(0.99)} / ${sorted.at(-1) ?? 0} ms (${sorted.length} writes)`;
}

/** One call; its latency counts when it is an accepted write. */
async function write(host: HostHandle, tally: Tally, method: string, params: unknown, caller: Caller): Promise<Record<string, unknown> | null> {
	const started = Date.now();
	const reply = await call(host, method, params, caller, callTimeoutMs);
	if (reply.ok) {
		tally.latencies.push(Date.now() - started);
		return reply.result as Record<string, unknown>;
	}
	if (reply.transport !== undefined) { tally.hung += 1; }
	if (!knownReasons.has(reply.reasonCode) && reply.transport === undefined) { tally.unknownReasons.push(`${method}: ${reply.reasonCode}`); }
	tally.rejected.set(`${method} ${reply.reasonCode}`, (tally.rejected.get(`${method} ${reply.reasonCode}`) ?? 0) + 1);
	return null;
}

interface ManualExpectation { issueId: string; titles: Map<string, string>; accepted: Set<string> }
interface ManagedExpectation { issueId: string; titles: Map<string, string>; mutations: number; caller: Caller }

async function manualWriter(host: HostHandle, index: number, options: WritersOptions, tally: Tally): Promise<ManualExpectation> {
	const random = prng(options.seed * 31 + index);
	const created = await write(host, tally, 'issue/create', { title: `Writer ${index}`, autoAccept: false }, 'user');
	if (created === null) { throw new Error(`writer ${index}: issue/create refused`); }
	const issueId = String(created['issueId']);
	const expected: ManualExpectation = { issueId, titles: new Map(), accepted: new Set() };
	const renamable: string[] = [];
	let acked = 1;
	let next = 0;
	for (let attempt = 0; acked < options.writesPerWriter && attempt < options.writesPerWriter * 4; attempt++) {
		const roll = random();
		if (roll < 0.2) {
			// Accept a settled task, if one waits (the dispatcher ran it meanwhile).
			const issue = await call(host, 'issue/get', { issueId, status: 'pending_acceptance' }, 'user', callTimeoutMs);
			const pending = issue.ok ? (issue.result as { tasks: { taskId: string; status: string }[] }).tasks.filter((t) => t.status === 'pending_acceptance') : [];
			const task = pending[Math.floor(random() * pending.length)];
			if (task !== undefined && await write(host, tally, 'review/accept', { issueId, taskId: task.taskId }, 'user') !== null) {
				expected.accepted.add(task.taskId);
				acked += 1;
				continue;
			}
		}
		if (roll < 0.6 || renamable.length === 0) {
			const taskId = `w${index}-t${next++}`;
			const runs = next % 5 === 0;
			const title = `Task ${taskId}`;
			if (await write(host, tally, 'task/add', { issueId, taskId, title, ...(runs ? { agentTargetId: 'ok' } : {}) }, 'user') !== null) {
				expected.titles.set(taskId, title);
				if (!runs) { renamable.push(taskId); }
				acked += 1;
			}
			continue;
		}
		const taskId = renamable[Math.floor(random() * renamable.length)]!;
		const title = `Renamed ${taskId} #${attempt}`;
		if (await write(host, tally, 'task/update', { issueId, taskId, title }, 'user') !== null) {
			expected.titles.set(taskId, title);
			acked += 1;
		}
	}
	if (acked < options.writesPerWriter) { throw new Error(`writer ${index}: only ${acked} of ${options.writesPerWriter} writes accepted`); }
	return expected;
}

async function managedWriter(host: HostHandle, index: number, options: WritersOptions, tally: Tally): Promise<ManagedExpectation> {
	const random = prng(options.seed * 37 + index);
	const opened = await call(host, 'session/open', { role: 'source' }, 'user', callTimeoutMs);
	if (!opened.ok) { throw new Error(`managed writer ${index}: session/open refused: ${opened.message}`); }
	const caller: Caller = { token: (opened.result as { token: string }).token };
	const created = await write(host, tally, 'plan/create', { title: `Managed writer ${index}`, content: 'writes', requestId: requestId(`mw${index}`) }, caller);
	if (created === null) { throw new Error(`managed writer ${index}: plan/create refused`); }
	const issueId = String(created['issueId']);
	const expected: ManagedExpectation = { issueId, titles: new Map(), mutations: 0, caller };
	let acked = 1;
	let next = 0;
	for (let attempt = 0; acked < options.writesPerWriter && attempt < options.writesPerWriter * 4; attempt++) {
		const plan = await call(host, 'plan/getCompact', { issueId }, caller, callTimeoutMs);
		if (!plan.ok) { continue; }
		const snapshot = plan.result as { execution: { graphRevision: number; activeCheckpointId: string | null }; readyTaskIds: string[] };
		const checkpointId = snapshot.execution.activeCheckpointId;
		if (checkpointId === null) { continue; } // Runs are working: the next settlement opens a checkpoint
		const fence = { issueId, checkpointId, expectedGraphRevision: snapshot.execution.graphRevision, requestId: requestId(`mw${index}-${attempt}`) };
		if (acked % 25 === 0 && snapshot.readyTaskIds.length > 0) {
			if (await write(host, tally, 'plan/schedule', { ...fence, taskIds: snapshot.readyTaskIds.slice(0, 3) }, caller) !== null) { acked += 1; }
			continue;
		}
		const known = [...expected.titles.keys()];
		const update = known.length > 0 && random() < 0.4;
		const taskId = update ? known[Math.floor(random() * known.length)]! : `m${index}-t${next++}`;
		const title = update ? `Renamed ${taskId} #${attempt}` : `Task ${taskId}`;
		const operation = update ? { kind: 'update', taskId, task: { title } } : { kind: 'add', task: { taskId, title, agentTargetId: 'ok' } };
		if (await write(host, tally, 'plan/mutate', { ...fence, operations: [operation] }, caller) !== null) {
			expected.titles.set(taskId, title);
			expected.mutations += 1;
			acked += 1;
		}
	}
	if (acked < options.writesPerWriter) { throw new Error(`managed writer ${index}: only ${acked} of ${options.writesPerWriter} writes accepted`); }
	return expected;
}

export async function writersCase(options: WritersOptions): Promise<CaseResult> {
	const result = new CaseResult('Concurrency that writes');
	const host = await startHost({ config: (gateDir) => ({ agentTargets: standardTargets(gateDir), maxParallelRuns: 4 }) });
	const tally: Tally = { latencies: [], rejected: new Map(), hung: 0, unknownReasons: [] };
	try {
		const [manual, managed] = await Promise.all([
			Promise.all(Array.from({ length: options.manualWriters }, (_, i) => manualWriter(host, i, options, tally))),
			Promise.all(Array.from({ length: options.managedWriters }, (_, i) => managedWriter(host, i, options, tally))),
		]);
		let lost = 0;
		let checkedTasks = 0;
		for (const m of manual) {
			const issue = await call(host, 'issue/get', { issueId: m.issueId }, 'user', callTimeoutMs);
			if (!issue.ok) { result.fail(`issue ${m.issueId} cannot be read: ${issue.message}`); continue; }
			const tasks = new Map((issue.result as { tasks: { taskId: string; title: string; acceptanceState: string }[] }).tasks.map((t) => [t.taskId, t]));
			for (const [taskId, title] of m.titles) {
				checkedTasks += 1;
				const task = tasks.get(taskId);
				if (task?.title !== title) { lost += 1; result.fail(`${m.issueId}/${taskId}: acknowledged title "${title}", found ${task ? `"${task.title}"` : 'no task'}`); }
			}
			for (const taskId of m.accepted) {
				if (tasks.get(taskId)?.acceptanceState !== 'user_accepted') { lost += 1; result.fail(`${m.issueId}/${taskId}: the acknowledged accept is not recorded`); }
			}
		}
		for (const m of managed) {
			const plan: PlanSnapshotDto = await cliPlanGet(host, m.issueId);
			const tasks = new Map(plan.tasks.map((t) => [t.taskId, t]));
			for (const [taskId, title] of m.titles) {
				checkedTasks += 1;
				if (tasks.get(taskId)?.title !== title) { lost += 1; result.fail(`${m.issueId}/${taskId}: acknowledged title "${title}" not found`); }
			}
			if (plan.execution.graphRevision !== 1 + m.mutations) {
				result.fail(`${m.issueId}: graph revision ${plan.execution.graphRevision}, but 1 + ${m.mutations} acknowledged mutations`);
			}
		}
		result.check(tally.hung === 0, `${tally.hung} calls got no reply within ${callTimeoutMs / 1000} s`);
		result.check(tally.unknownReasons.length === 0, `unknown reason codes: ${tally.unknownReasons.slice(0, 5).join(', ')}`);
		const writers = options.manualWriters + options.managedWriters;
		result.figure('writers', `${writers}: ${options.manualWriters} on their own manual issue (user credential), ${options.managedWriters} source sessions on their own managed issue`);
		result.figure('accepted durable writes', `${tally.latencies.length} (${options.writesPerWriter} per writer: task add/update, review accept; plan create/mutate/schedule)`);
		result.figure('acknowledged writes missing afterwards', `${lost} (of ${checkedTasks} tasks and every accept and revision checked through the real CLI)`);
		result.figure('rejected attempts (races with the dispatcher and the fences)', [...tally.rejected].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ×${n}`).join(', ') || 'none');
		result.figure('no reply within 30 s (deadlock)', String(tally.hung));
		result.figure('write latency p50 / p99 / max', percentiles(tally.latencies));
	} finally {
		await host.dispose().catch(() => undefined);
	}
	return result;
}
