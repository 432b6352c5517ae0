// Crash: kill -9 the Host at random points of a mixed workload (creates, manual task adds through the socket and
// through the real CLI, fenced mutations, schedules whose Runs settle, acknowledges, stops, $1-budget issues whose
// Runs cross it and whose launches are then refused (crashBudget.ts), agents waiting for the developer's answer
// through `tutti mcp` while answers race the kills (crashApprovals.ts)) and kill -9 Run supervisors at random
// points. After every restart the store is read only through the CLI and checked: every acknowledged command is
// present, no Run is lost or double-settled, checkpoint/backlog invariants hold, the spend is kept, every
// acknowledged answer is there and none changed.
// Then, in a git workspace, diamonds of worktree Runs and `issue integrate` under kill -9 (worktreeCrash.ts).
import type { PlanSnapshotDto } from '../../src/protocol/dto.js';
import { requestId, standardTargets, startHost, type HostHandle } from '../../test/integration/harness.js';
import {
	call, CaseResult, cliIssueIds, cliIssueTaskIds, cliPlanGet, cliRunList, prng, sleep, snapshotViolations, supervisorPidOf, type Reply,
} from './kit.js';
import { approvalAndBudgetTargets } from './agentKit.js';
import { ApprovalLane } from './crashApprovals.js';
import { BudgetLane } from './crashBudget.js';
import { worktreeCrash, worktreeTarget } from './worktreeCrash.js';

export interface CrashOptions {
	points: number;
	supervisorKills: number;
	seed: number;
	/** Stop starting new kill points after this long (the campaign must stop by itself). */
	budgetMs: number;
	/** Diamonds of worktree Runs with Host kills mid-Runs and mid-integrate (worktreeCrash.ts); 0 skips them. */
	worktreeRounds: number;
}

interface ManagedRecord {
	issueId: string;
	addedTaskIds: Set<string>;
	runIds: Set<string>;
	acknowledgedCheckpointIds: Set<string>;
	maxRevision: number;
	stopped: boolean;
}

const sleepTargetMs = 1500;

export async function crashCase(options: CrashOptions): Promise<CaseResult> {
	const result = new CaseResult('Crash');
	const started = Date.now();
	const random = prng(options.seed);
	const host = await startHost({
		config: (gateDir) => ({
			agentTargets: [
				...standardTargets(gateDir),
				{ id: 'sleep', adapter: 'command', argv: [process.execPath, '-e', `setTimeout(() => {}, ${sleepTargetMs})`] },
				worktreeTarget(),
				...approvalAndBudgetTargets(gateDir),
			],
			maxParallelRuns: 16,
		}),
	});
	try {
		await crashPoints(host, options, random, result);
		await supervisorKills(host, options, random, result);
		// Last: it makes the workspace a git repository (the phases above run in a plain folder).
		if (options.worktreeRounds > 0) { await worktreeCrash(host, options.worktreeRounds, random, result); }
	} finally {
		await host.dispose().catch(() => undefined);
	}
	result.durationMs = Date.now() - started;
	return result;
}

async function crashPoints(host: HostHandle, options: CrashOptions, random: () => number, result: CaseResult): Promise<void> {
	const user = 'user' as const;
	const sourceReply = await call(host, 'session/open', { role: 'source' }, user);
	if (!sourceReply.ok) {
		throw new Error(`session/open: ${sourceReply.message}`);
	}
	const source = { token: (sourceReply.result as { token: string }).token };
	// The manual issue changes every 25 points, so a point's check reads a bounded issue (all are checked at the end).
	const manualIssues = new Map<string, Set<string>>();
	let manualIssueId = '';
	const newManual = async (): Promise<void> => {
		const manualReply = await call(host, 'issue/create', { title: 'Crash workload (manual)' }, user);
		if (manualReply.ok) {
			manualIssueId = (manualReply.result as { issueId: string }).issueId;
			manualIssues.set(manualIssueId, new Set());
		}
	};
	await newManual();
	if (manualIssueId === '') {
		throw new Error('issue/create of the manual issue failed');
	}
	const approvals = new ApprovalLane(host, result);
	await approvals.open();
	const budget = new BudgetLane(host, source, result);

	const createdIssues = new Map<string, string>();
	const managed: ManagedRecord[] = [];
	const settledOutcomes = new Map<string, string>();
	const tally = { lost: 0, settledTwice: 0 };
	let acknowledgedCommands = 0;
	let inFlightUnknown = 0;
	let cliRetriedAcrossKill = 0;
	const rejections = new Map<string, number>();
	let verifyMsTotal = 0;
	const loopStart = Date.now();
	let restartMsTotal = 0;
	let seq = 0;

	const newManaged = async (): Promise<ManagedRecord | undefined> => {
		const rid = requestId('crash-managed');
		const r = await call(host, 'plan/create', { title: rid, content: 'c', requestId: rid }, source);
		if (!r.ok) {
			return undefined;
		}
		const record: ManagedRecord = {
			issueId: (r.result as { issueId: string }).issueId, addedTaskIds: new Set(), runIds: new Set(), acknowledgedCheckpointIds: new Set(),
			maxRevision: (r.result as { graphRevision: number }).graphRevision, stopped: false,
		};
		managed.push(record);
		return record;
	};

	let current: ManagedRecord | undefined;
	let points = 0;
	// A point's CLI checks run during the next point's workload (awaited before its kill): what they compare against
	// is copied at the restart, so a later acknowledgement is never expected from an earlier read.
	let verifying: Promise<void> = Promise.resolve();
	/** Where a point's time goes (ms summed over the points), for RESULTS.md. */
	const phases = new Map<string, number>();
	for (let point = 0; point < options.points; point++) {
		if (Date.now() - loopStart > options.budgetMs) {
			result.notes.push(`Stopped after ${point} of ${options.points} Host kill points: the ${Math.round(options.budgetMs / 1000)} s budget of this case ran out on this machine.`);
			break;
		}
		points++;
		if (point > 0 && point % 50 === 0) {
			console.error(`  crash: ${point} points in ${Math.round((Date.now() - loopStart) / 1000)} s (${Math.round((Date.now() - loopStart) / point)} ms each), ${result.failures.length} violations`);
		}
		let phaseStart = Date.now();
		const phase = (name: string): void => {
			const now = Date.now();
			phases.set(name, (phases.get(name) ?? 0) + now - phaseStart);
			phaseStart = now;
		};
		// Each point: a fresh managed issue driven by the plan lane and, sometimes, one to stop mid-workload.
		if (point % 25 === 24) {
			await newManual();
		}
		const wantStop = random() < 0.15;
		const [fresh, toStop] = await Promise.all([
			point % 4 === 0 || current === undefined ? newManaged() : Promise.resolve(current),
			wantStop ? newManaged() : Promise.resolve(undefined),
			point % 5 === 0 ? budget.rotate() : Promise.resolve(),
		]);
		current = fresh;
		const driven = current;
		if (!driven) {
			result.fail(`point ${point}: could not create the managed issue`);
			continue;
		}
		phase('new issues');
		const manualTasks = manualIssues.get(manualIssueId)!;
		const pointManualIssueId = manualIssueId;
		let dead = false;
		const acked = (r: Reply): r is Extract<Reply, { ok: true }> => {
			if (r.ok) {
				acknowledgedCommands++;
				return true;
			}
			if (r.reasonCode === 'transport') {
				dead = true;
				inFlightUnknown++;
			} else {
				rejections.set(r.reasonCode, (rejections.get(r.reasonCode) ?? 0) + 1);
			}
			if (r.reasonCode === '') {
				result.fail(`point ${point}: a rejection without a reason code: ${r.message}`);
			}
			return false;
		};

		const createLane = async (): Promise<void> => {
			for (let i = 0; i < 3 && !dead; i++) {
				const rid = requestId('crash-create');
				const r = await call(host, 'plan/create', { title: rid, content: 'c', requestId: rid }, source);
				if (acked(r)) {
					createdIssues.set(rid, (r.result as { issueId: string }).issueId);
				}
			}
		};
		const socketTaskLane = async (): Promise<void> => {
			while (!dead) {
				const taskId = `s-${seq++}`;
				if (acked(await call(host, 'task/add', { issueId: pointManualIssueId, taskId, title: `T ${taskId}` }, user))) {
					manualTasks.add(taskId);
				}
			}
		};
		const cliTaskLane = async (): Promise<void> => {
			while (!dead) {
				const taskId = `c-${seq++}`;
				const r = await host.cli(['issue', 'task', 'add', '--issue-id', pointManualIssueId, '--task-id', taskId, '--title', `T ${taskId}`, '--json'],
					{ asUser: true });
				// A kill mid-call: the CLI retries the connection and completes against the restarted Host.
				if (r.code === 0) {
					acknowledgedCommands++;
					manualTasks.add(taskId);
					if (dead) {
						cliRetriedAcrossKill++;
					}
				} else {
					inFlightUnknown++;
				}
			}
		};
		const planLane = async (): Promise<void> => {
			let n = 0;
			while (!dead) {
				const g = await call(host, 'plan/get', { issueId: driven.issueId }, source);
				if (!g.ok) {
					acked(g);
					continue;
				}
				const s = g.result as PlanSnapshotDto;
				const fence = { issueId: driven.issueId, checkpointId: s.activeCheckpoint?.checkpointId ?? 'none', expectedGraphRevision: s.execution.graphRevision };
				if (s.allowedActions.includes('schedule') && s.readyTaskIds.length > 0) {
					const r = await call(host, 'plan/schedule', { ...fence, requestId: requestId('crash-schedule'), taskIds: s.readyTaskIds.slice(0, 2) }, source);
					if (acked(r)) {
						for (const runId of (r.result as { runIds: string[] }).runIds) {
							driven.runIds.add(runId);
						}
					}
				} else if (s.allowedActions.includes('acknowledge') && s.activeCheckpoint && s.activeCheckpoint.kind !== 'initial_schedule') {
					const r = await call(host, 'plan/acknowledge', { ...fence, requestId: requestId('crash-ack') }, source);
					if (acked(r)) {
						driven.acknowledgedCheckpointIds.add(fence.checkpointId);
					}
				} else if (s.allowedActions.includes('mutate') && n < 6) {
					const ids = [`m${seq++}`, `m${seq++}`];
					const ops = ids.map((taskId, i) => ({ kind: 'add', task: { taskId, title: taskId, agentTargetId: i === 1 && random() < 0.3 ? 'fail' : 'ok' } }));
					const r = await call(host, 'plan/mutate', { ...fence, requestId: requestId('crash-mutate'), operations: ops }, source);
					if (acked(r)) {
						n++;
						ids.forEach((id) => driven.addedTaskIds.add(id));
						driven.maxRevision = Math.max(driven.maxRevision, (r.result as { graphRevision: number }).graphRevision);
					}
				} else {
					await sleep(20);
				}
			}
		};
		const stopLane = async (): Promise<void> => {
			if (!toStop) {
				return;
			}
			await sleep(random() * 300);
			const g = await call(host, 'plan/get', { issueId: toStop.issueId }, source);
			if (!g.ok) {
				acked(g);
				return;
			}
			const s = g.result as PlanSnapshotDto;
			const r = await call(host, 'plan/stop', {
				issueId: toStop.issueId, checkpointId: s.activeCheckpoint?.checkpointId ?? 'none', expectedGraphRevision: s.execution.graphRevision,
				requestId: requestId('crash-stop'), reason: 'crash campaign stop',
			}, source);
			if (acked(r)) {
				toStop.stopped = true;
			}
		};

		const isDead = (): boolean => dead;
		const lanes = Promise.all([
			createLane(), socketTaskLane(), socketTaskLane(), planLane(), stopLane(),
			budget.lane(isDead, acked), approvals.lane(isDead, acked, random, point % 2 === 0),
		]);
		const cliLane = cliTaskLane();
		// Most points are short; every third runs long enough for a schedule (it replies after the launch) to be
		// acknowledged. The previous point's checks finish first.
		await Promise.all([sleep(point % 3 === 2 ? 300 + random() * 900 : 50 + random() * 350), verifying]);
		phase('workload (and the previous checks)');
		await host.kill9();
		dead = true;
		phase('kill -9 until exit');
		await lanes;
		phase('lanes see the kill');
		const restartStart = Date.now();
		try {
			await host.start();
		} catch (error) {
			result.fail(`point ${point}: the Host did not restart: ${(error as Error).message.slice(0, 500)}`);
			return;
		}
		restartMsTotal += Date.now() - restartStart;
		phase('Host restart to ready');

		// Verify through the CLI only: this point's issues and what was acknowledged so far. It runs during the next
		// point's workload: what it expects is copied before its first read (after the CLI call this kill cut has
		// completed against the new Host), so a later acknowledgement is never expected from an earlier read.
		const fullCheck = point % 10 === 9 || point === options.points - 1 || Date.now() - loopStart > options.budgetMs;
		const verifyStart = Date.now();
		verifying = (async (): Promise<void> => {
			await cliLane;
			const check = (toStop ? [driven, toStop] : [driven]).map((m) => ({
				...m, addedTaskIds: new Set(m.addedTaskIds), runIds: new Set(m.runIds), acknowledgedCheckpointIds: new Set(m.acknowledgedCheckpointIds),
			}));
			const expectedIssues = fullCheck ? new Map(createdIssues) : new Map<string, string>();
			const expectedTasks = new Set(manualTasks);
			// The budget and approval checks alternate between restarts (each is still checked after every second kill).
			const [issueIds, taskIds, snapshots, runLists] = await Promise.all([
				fullCheck ? cliIssueIds(host) : Promise.resolve(undefined), cliIssueTaskIds(host, pointManualIssueId),
				Promise.all(check.map((m) => cliPlanGet(host, m.issueId))), Promise.all(check.map((m) => cliRunList(host, m.issueId))),
				point % 2 === 0 ? budget.verify(point) : approvals.verify(point),
			]);
			verifyMsTotal += Date.now() - verifyStart;
			for (const [rid, issueId] of expectedIssues) {
				if (!issueIds!.has(issueId)) {
					tally.lost++;
					result.fail(`point ${point}: created issue ${issueId} (${rid}) was lost`);
				}
			}
			for (const taskId of expectedTasks) {
				if (!taskIds.has(taskId)) {
					tally.lost++;
					result.fail(`point ${point}: acknowledged task ${taskId} was lost`);
				}
			}
			check.forEach((m, i) => verifyManaged(point, m, snapshots[i]!, runLists[i]!, settledOutcomes, result, tally));
		})().catch((error: unknown) => result.fail(`point ${point}: the CLI checks failed: ${(error as Error).message.slice(0, 500)}`));
	}
	await verifying;
	const loopMs = Date.now() - loopStart;
	// Every asker Run answered and settled (the lane answers what is left), every spender Run settled.
	await approvals.finish();
	await budget.finish();
	// Every acknowledged manual task of every manual issue is there.
	for (const [issueId, tasks] of manualIssues) {
		const present = await cliIssueTaskIds(host, issueId);
		for (const taskId of tasks) {
			if (!present.has(taskId)) {
				tally.lost++;
				result.fail(`at the end: acknowledged task ${taskId} of ${issueId} was lost`);
			}
		}
	}

	result.figure('mean time per point (workload, kill, restart, CLI checks)', `${Math.round(loopMs / Math.max(1, points))} ms`);
	result.figure('mean time per point by phase', [...phases].map(([name, ms]) => `${name} ${Math.round(ms / Math.max(1, points))} ms`).join(', '));
	result.figure('mean CLI verification per point (runs during the next point\'s workload)', `${Math.round(verifyMsTotal / Math.max(1, points))} ms`);
	// No Run lost: every acknowledged Run settles (the `ok`/`fail` agents exit at once).
	const unsettled = new Set<string>();
	for (const m of managed) {
		for (const runId of m.runIds) {
			unsettled.add(runId);
		}
	}
	const allRuns = new Set<string>();
	const deadline = Date.now() + 60_000;
	let pending = [...managed];
	while (pending.length > 0 && Date.now() < deadline) {
		const next: ManagedRecord[] = [];
		for (let i = 0; i < pending.length; i += 4) {
			const batch = pending.slice(i, i + 4);
			const lists = await Promise.all(batch.map((m) => cliRunList(host, m.issueId)));
			batch.forEach((m, j) => {
				const runs = lists[j]!;
				for (const run of runs) {
					allRuns.add(run.runId);
				}
				for (const run of runs) {
					if (run.outcome !== null) {
						unsettled.delete(run.runId);
						const before = settledOutcomes.get(run.runId);
						if (before !== undefined && before !== `${run.outcome}@${run.completedAtUnixMs}`) {
							tally.settledTwice++;
							result.fail(`Run ${run.runId} settled twice (${before} then ${run.outcome}@${run.completedAtUnixMs})`);
						}
					}
				}
				if (runs.some((r) => r.outcome === null)) {
					next.push(m);
				}
			});
		}
		pending = next;
		if (pending.length > 0) {
			await sleep(500);
		}
	}
	result.check(pending.length === 0, `${pending.length} issues still had unsettled Runs 60 s after the last kill: ${pending.map((m) => m.issueId).slice(0, 3).join(', ')}`);
	result.check(unsettled.size === 0, `${unsettled.size} acknowledged Runs never settled: ${[...unsettled].slice(0, 5).join(', ')}`);
	const finalIssueIds = await cliIssueIds(host);
	for (const [rid, issueId] of createdIssues) {
		if (!finalIssueIds.has(issueId)) {
			tally.lost++;
			result.fail(`at the end: created issue ${issueId} (${rid}) was lost`);
		}
	}
	const finalSnapshots = await Promise.all(managed.filter((m) => m.stopped).map((m) => cliPlanGet(host, m.issueId)));
	for (const s of finalSnapshots) {
		result.check(s.execution.status === 'archived', `stopped issue ${s.issueId} ended ${s.execution.status}, not archived`);
	}
	const runCount = managed.reduce((n, m) => n + m.runIds.size, 0);
	result.figure('kill -9 points (Host)', points);
	result.figure('acknowledged commands', acknowledgedCommands);
	result.figure('acknowledged commands lost (issues, tasks, mutations, Runs missing afterwards)', tally.lost);
	result.figure('Runs settled more than once', tally.settledTwice);
	result.figure('commands cut by a kill (outcome unknown, not asserted)', inFlightUnknown);
	result.figure('rejections by reason code (fences raced by the workload)', [...rejections].map(([r, n]) => `${r} ×${n}`).join(', ') || 'none');
	result.figure('real-CLI commands that retried across a kill and were acknowledged', cliRetriedAcrossKill);
	result.figure('issues created / manual tasks added / managed issues', `${createdIssues.size} / ${[...manualIssues.values()].reduce((n, t) => n + t.size, 0)} / ${managed.length}`);
	result.figure('Runs with an acknowledged schedule / all Runs seen (every one settled exactly once)', `${runCount} / ${allRuns.size}`);
	result.figure('issues stopped (all archived)', finalSnapshots.length);
	result.figure('mean restart to ready after kill -9', `${Math.round(restartMsTotal / Math.max(1, points))} ms`);
}

function verifyManaged(point: number, m: ManagedRecord, s: PlanSnapshotDto, runs: { runId: string; outcome: string | null; completedAtUnixMs: number }[],
	settledOutcomes: Map<string, string>, result: CaseResult, tally: { lost: number; settledTwice: number }): void {
	for (const problem of snapshotViolations(s)) {
		result.fail(`point ${point}: ${m.issueId}: ${problem}`);
	}
	const taskIds = new Set(s.tasks.map((t) => t.taskId));
	for (const taskId of m.addedTaskIds) {
		if (!taskIds.has(taskId)) {
			tally.lost++;
			result.fail(`point ${point}: ${m.issueId}: acknowledged mutation adding ${taskId} was lost`);
		}
	}
	result.check(s.execution.graphRevision >= m.maxRevision, `point ${point}: ${m.issueId}: graph revision ${s.execution.graphRevision} < acknowledged ${m.maxRevision}`);
	for (const checkpointId of m.acknowledgedCheckpointIds) {
		result.check(!s.checkpoints.some((c) => c.checkpointId === checkpointId), `point ${point}: acknowledged checkpoint ${checkpointId} is open again`);
	}
	if (m.stopped) {
		result.check(s.execution.status === 'archiving' || s.execution.status === 'archived', `point ${point}: stopped ${m.issueId} is ${s.execution.status}`);
	}
	const runIds = new Set(runs.map((r) => r.runId));
	for (const runId of m.runIds) {
		if (!runIds.has(runId)) {
			tally.lost++;
			result.fail(`point ${point}: acknowledged Run ${runId} was lost`);
		}
	}
	for (const run of runs) {
		if (run.outcome !== null) {
			const fact = `${run.outcome}@${run.completedAtUnixMs}`;
			const before = settledOutcomes.get(run.runId);
			if (before !== undefined && before !== fact) {
				tally.settledTwice++;
				result.fail(`point ${point}: Run ${run.runId} settled twice (${before} then ${fact})`);
			}
			settledOutcomes.set(run.runId, fact);
		}
	}
}

/** kill -9 the supervisor of a sleeping Run at a random instant (sometimes the Host too); the Run settles once. */
async function supervisorKills(host: HostHandle, options: CrashOptions, random: () => number, result: CaseResult): Promise<void> {
	const issue = await call(host, 'issue/create', { title: 'Supervisor kills', autoAccept: true }, 'user');
	if (!issue.ok) {
		throw new Error(`issue/create: ${issue.message}`);
	}
	const issueId = (issue.result as { issueId: string }).issueId;
	const outcomes = new Map<string, number>();
	let withHost = 0;
	for (let i = 0; i < options.supervisorKills; i++) {
		const taskId = `sup-${i}`;
		const added = await call(host, 'task/add', { issueId, taskId, title: taskId, agentTargetId: 'sleep' }, 'user');
		if (!added.ok) {
			result.fail(`supervisor kill ${i}: task/add: ${added.reasonCode}`);
			continue;
		}
		// The dispatcher starts it; wait for its supervisor's pid.json.
		let runId: string | undefined;
		let pid: number | undefined;
		const deadline = Date.now() + 15_000;
		while (pid === undefined && Date.now() < deadline) {
			const list = await call(host, 'run/list', { issueId }, 'user');
			runId = list.ok ? (list.result as { runs: { runId: string; taskId: string }[] }).runs.find((r) => r.taskId === taskId)?.runId : undefined;
			pid = runId === undefined ? undefined : supervisorPidOf(host, runId);
			if (pid === undefined) {
				await sleep(25);
			}
		}
		if (runId === undefined || pid === undefined) {
			result.fail(`supervisor kill ${i}: the Run never started`);
			continue;
		}
		await sleep(random() * (sleepTargetMs + 200));
		const alsoHost = random() < 0.35;
		try {
			process.kill(pid, 'SIGKILL');
		} catch {
			// already exited: the Run settles from its exit record
		}
		if (alsoHost) {
			withHost++;
			await host.kill9();
			await host.start();
		}
		// Settles exactly once, and stays settled.
		let settled: { outcome: string | null; completedAtUnixMs: number; status: string } | undefined;
		const until = Date.now() + 20_000;
		while (Date.now() < until) {
			const run = (await cliRunList(host, issueId)).find((r) => r.runId === runId);
			if (run && run.outcome !== null) {
				settled = run;
				break;
			}
			await sleep(200);
		}
		if (!settled) {
			result.fail(`supervisor kill ${i}: Run ${runId} never settled (lost)`);
			continue;
		}
		outcomes.set(settled.outcome!, (outcomes.get(settled.outcome!) ?? 0) + 1);
		result.check(settled.outcome === 'failure' || settled.outcome === 'success', `supervisor kill ${i}: outcome ${settled.outcome} (expected failure, or success if it had exited)`);
		await sleep(300);
		const again = (await cliRunList(host, issueId)).find((r) => r.runId === runId);
		result.check(again?.outcome === settled.outcome && again.completedAtUnixMs === settled.completedAtUnixMs, `supervisor kill ${i}: Run ${runId} settled twice`);
		const runs = await cliRunList(host, issueId);
		result.check(runs.filter((r) => r.taskId === taskId).length === 1, `supervisor kill ${i}: task ${taskId} has ${runs.filter((r) => r.taskId === taskId).length} Runs`);
	}
	result.figure('kill -9 points (supervisor)', `${options.supervisorKills} (${withHost} with the Host killed too)`);
	result.figure('supervisor-kill outcomes', [...outcomes].map(([o, n]) => `${o} ${n}`).join(', ') || 'none');
}
