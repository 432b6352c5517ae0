// Crash, budget lane: managed issues with a $1 budget whose `spender` Runs ($0.60 each, agentKit.ts) cross it while
// the Host is killed -9. The lane schedules whatever is ready; once the spend reached the budget a launch is refused
// with budget_exceeded. Checked through the CLI: the spend never goes down across a restart (kept), at the end it is
// the sum of the Runs' own costs (each Turn counted once), no Run was admitted after the Host recorded the spend that
// reached the budget, and no task ran twice.
import type { PlanSnapshotDto } from '../../src/protocol/dto.js';
import { type HostHandle, requestId } from '../../test/integration/harness.js';
import { spenderCostUsd } from './agentKit.js';
import { call, type CaseResult, type Caller, cliPlanGet, cliRunList, type Reply, sleep } from './kit.js';

const budgetUsd = 1;
const tasksPerIssue = 4;
const eps = 1e-9;

interface BudgetRecord {
	issueId: string;
	runIds: Set<string>;
	/** The highest spend a CLI read showed so far: a later read (after a restart) may not show less. */
	maxSpendSeen: number;
}

export class BudgetLane {
	readonly #records: BudgetRecord[] = [];
	#current: BudgetRecord | undefined;
	refusals = 0;
	acknowledged = 0;
	#spendDrops = 0;
	#launchesPastBudget = 0;
	/** Runs admitted after the crossing Turn's process ended but before the Host had seen it end (allowed). */
	#admittedBeforeCounted = 0;
	#countedTwice = 0;
	#launchedTwice = 0;
	/** Runs that ended without a Turn result (no cost): outcome and error. */
	readonly #uncharged: string[] = [];
	#seq = 0;

	constructor(private readonly host: HostHandle, private readonly source: Caller, private readonly result: CaseResult) {}

	/** A fresh budgeted issue (its tasks are added by the lane); undefined if the create was cut by a kill. */
	async rotate(): Promise<void> {
		const rid = requestId('crash-budget');
		const r = await call(this.host, 'plan/create', { title: rid, content: 'spend past the budget', requestId: rid, budgetUsd }, this.source);
		if (r.ok) {
			this.#current = { issueId: (r.result as { issueId: string }).issueId, runIds: new Set(), maxSpendSeen: 0 };
			this.#records.push(this.#current);
		}
	}

	/** Drives the current issue until `dead()`; `acked` counts the reply as the crash case does. */
	async lane(dead: () => boolean, acked: (r: Reply) => boolean): Promise<void> {
		const m = this.#current;
		if (!m) { return; }
		while (!dead()) {
			const g = await call(this.host, 'plan/get', { issueId: m.issueId }, this.source);
			if (!g.ok) { acked(g); continue; }
			const s = g.result as PlanSnapshotDto;
			const fence = { issueId: m.issueId, checkpointId: s.activeCheckpoint?.checkpointId ?? 'none', expectedGraphRevision: s.execution.graphRevision };
			if (s.tasks.length === 0 && s.allowedActions.includes('mutate')) {
				const ops = Array.from({ length: tasksPerIssue }, () => {
					const taskId = `b${this.#seq++}`;
					return { kind: 'add', task: { taskId, title: taskId, agentTargetId: 'spender' } };
				});
				acked(await call(this.host, 'plan/mutate', { ...fence, requestId: requestId('crash-budget-mutate'), operations: ops }, this.source));
			} else if (s.allowedActions.includes('schedule') && s.readyTaskIds.length > 0) {
				const r = await call(this.host, 'plan/schedule', { ...fence, requestId: requestId('crash-budget-schedule'), taskIds: s.readyTaskIds.slice(0, 2) }, this.source);
				if (r.ok) {
					this.acknowledged++;
					for (const runId of (r.result as { runIds: string[] }).runIds) { m.runIds.add(runId); }
				} else if (r.reasonCode === 'budget_exceeded') {
					this.refusals++;
					await sleep(100);
				} else {
					acked(r);
				}
			} else if (s.allowedActions.includes('acknowledge') && s.activeCheckpoint && s.activeCheckpoint.kind !== 'initial_schedule') {
				acked(await call(this.host, 'plan/acknowledge', { ...fence, requestId: requestId('crash-budget-ack') }, this.source));
			} else {
				await sleep(30);
			}
		}
	}

	/** After a restart: the current issue's spend is at least what was seen before, and no task has two Runs. */
	async verify(point: number): Promise<void> {
		const m = this.#current;
		if (!m) { return; }
		const runIds = [...m.runIds]; // copied before the read: a schedule acknowledged while it runs is not expected from it
		const [s, runs] = await Promise.all([cliPlanGet(this.host, m.issueId), cliRunList(this.host, m.issueId)]);
		this.#checkSpendKept(m, s.spend.costUsd, `point ${point}`);
		for (const runId of runIds) {
			this.result.check(runs.some((r) => r.runId === runId), `point ${point}: budget issue ${m.issueId}: acknowledged Run ${runId} was lost`);
		}
		this.#checkOneRunPerTask(runs, `point ${point}`, m.issueId);
	}

	#checkSpendKept(m: BudgetRecord, spend: number, where: string): void {
		if (spend + eps < m.maxSpendSeen) {
			this.#spendDrops++;
			this.result.fail(`${where}: budget issue ${m.issueId}: the spend went down from $${m.maxSpendSeen} to $${spend} (not kept across a restart)`);
		}
		m.maxSpendSeen = Math.max(m.maxSpendSeen, spend);
	}

	#checkOneRunPerTask(runs: { taskId: string }[], where: string, issueId: string): void {
		const perTask = new Map<string, number>();
		for (const r of runs) { perTask.set(r.taskId, (perTask.get(r.taskId) ?? 0) + 1); }
		for (const [taskId, n] of perTask) {
			if (n > 1) {
				this.#launchedTwice++;
				this.result.fail(`${where}: budget issue ${issueId}: task ${taskId} was launched ${n} times`);
			}
		}
	}

	/** At the end (every Run settled): spend = Σ the Runs' costs; no launch after the spend reached the budget. */
	async finish(): Promise<void> {
		let runsTotal = 0;
		let crossed = 0;
		// Spender Runs end within a second; wait (bounded) for every one to settle.
		const deadline = Date.now() + 60_000;
		for (const m of this.#records) {
			while (Date.now() < deadline && (await cliRunList(this.host, m.issueId)).some((r) => r.outcome === null)) { await sleep(200); }
		}
		for (const m of this.#records) {
			const [s, runs] = await Promise.all([cliPlanGet(this.host, m.issueId), cliRunList(this.host, m.issueId)]);
			const where = `at the end: budget issue ${m.issueId}`;
			this.#checkSpendKept(m, s.spend.costUsd, 'at the end');
			this.#checkOneRunPerTask(runs, 'at the end', m.issueId);
			runsTotal += runs.length;
			const unsettled = runs.filter((r) => r.outcome === null);
			this.result.check(unsettled.length === 0, `${where}: ${unsettled.length} Runs never settled`);
			const sum = runs.reduce((n, r) => n + (r.costUsd ?? 0), 0);
			if (Math.abs(sum - s.spend.costUsd) > eps) {
				this.#countedTwice++;
				this.result.fail(`${where}: the issue's spend $${s.spend.costUsd} is not the sum of its Runs' costs $${sum}`);
			}
			for (const r of runs) {
				// A Run whose Turn reported its result cost one Turn; one cut before (its launch, by a kill) none.
				const cost = r.costUsd ?? 0;
				const fine = Math.abs(cost - spenderCostUsd) < eps || (cost === 0 && r.outcome !== 'success');
				if (!fine) {
					this.result.fail(`${where}: Run ${r.runId} (${r.outcome}: ${r.errorMessage}) cost $${r.costUsd}, not one Turn's $${spenderCostUsd}`);
				}
				if (cost === 0) { this.#uncharged.push(`${r.outcome}: ${r.errorMessage}`.slice(0, 160)); }
			}
			// The instant the spend reached the budget: when the Host recorded the usage of the Turn that crossed it
			// (spend.reachedAtUnixMs). No Run may be admitted after it. The crossing Turn's process may have ended a
			// few ms earlier: a Run admitted in between was admitted while, to the Host, that Turn was still running
			// (a running Turn finishes: fail closed only for what is launched) — counted apart, not a violation.
			const reachedAt = s.spend.reachedAtUnixMs;
			let cumulative = 0;
			let processEndedAt = Number.POSITIVE_INFINITY;
			for (const r of [...runs].filter((x) => x.outcome !== null).sort((a, b) => a.completedAtUnixMs - b.completedAtUnixMs)) {
				cumulative += r.costUsd ?? 0;
				if (cumulative + eps >= budgetUsd) { processEndedAt = r.completedAtUnixMs; break; }
			}
			this.result.check((reachedAt === null) === (processEndedAt === Number.POSITIVE_INFINITY),
				`${where}: the Host says the budget was ${reachedAt === null ? 'not reached' : `reached at ${reachedAt}`}, the Runs' costs say ${processEndedAt === Number.POSITIVE_INFINITY ? 'not' : 'it was'}`);
			if (reachedAt !== null) { crossed++; }
			for (const r of runs) {
				if (reachedAt !== null && r.createdAtUnixMs > reachedAt) {
					this.#launchesPastBudget++;
					this.result.fail(`${where}: Run ${r.runId} (${r.taskId}) was admitted at ${r.createdAtUnixMs}, after the spend reached the $${budgetUsd} budget at ${reachedAt}`);
				} else if (r.createdAtUnixMs > processEndedAt) {
					this.#admittedBeforeCounted++;
				}
			}
			this.result.check(s.spend.costUsd < budgetUsd + eps || s.spend.budgetState === 'exceeded', `${where}: spend $${s.spend.costUsd} over the budget yet the issue says ${s.spend.budgetState}`);
		}
		this.result.figure('budget: $1 issues / spender Runs ($0.60 each) / issues whose Runs crossed the budget', `${this.#records.length} / ${runsTotal} / ${crossed}`);
		this.result.figure('budget: spender Runs without a Turn result (no cost)', this.#uncharged.length === 0 ? 'none' : `${this.#uncharged.length}: ${[...new Set(this.#uncharged)].slice(0, 5).join('; ')}`);
		this.result.figure('budget: launches refused with budget_exceeded / acknowledged schedules', `${this.refusals} / ${this.acknowledged}`);
		this.result.figure('budget: Runs admitted after the crossing Turn\'s process ended, before the Host counted it (allowed: to the Host it was still running)', this.#admittedBeforeCounted);
		this.result.figure('budget: spend lower after a restart than before / spend ≠ Σ Run costs (a Turn counted twice or lost) / launches after the budget was reached / tasks launched twice',
			`${this.#spendDrops} / ${this.#countedTwice} / ${this.#launchesPastBudget} / ${this.#launchedTwice}`);
	}
}
