// The manual-issue dispatcher: a pass starts every ready task of unpaused manual issues within the workspace's
// capacity, oldest issue first and by sortIndex within an issue. Managed issues are never touched (every decision
// there is the source agent's). Once the Host has started, every store commit asks for a pass (hostServices.ts), so
// no write path needs a trigger of its own; requests coalesce into one async loop: a request during a pass asks for
// one more pass, never a second concurrent one.
import { readyTaskIds } from '../../core/graph/blockers.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { Issue, Task } from '../../core/model.js';
import type { Store } from '../../store/database.js';
import { dispatchRepository } from '../../store/repositories/dispatchRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { IssueTaskView } from '../../store/taskCache.js';
import type { Reader } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import type { RunAdmission } from '../runs/runAdmission.js';
import { hasAcceptedParentCommits } from '../delivery/acceptanceChanges.js';
import { issueBudgetDecision, launchBudgetGate, launchModelOf } from '../usage/issueSpend.js';

export const defaultMaxParallelRuns = 4;

export interface DispatcherDeps {
	store: Store;
	config: HostConfig;
	admission: Pick<RunAdmission, 'admit' | 'launch' | 'reopenChangedParents' | 'countEndedTurns'>;
	log(line: string): void;
}

interface Selection {
	issue: Issue;
	tasks: Task[];
}

export class Dispatcher implements Disposable {
	readonly #d: DispatcherDeps;
	#wanted = false;
	#loop: Promise<void> | undefined;
	readonly #launches = new Set<Promise<void>>();
	#disposed = false;

	constructor(deps: DispatcherDeps) {
		this.#d = deps;
	}

	get capacity(): number {
		const n = this.#d.config.maxParallelRuns;
		return Number.isInteger(n) && n > 0 ? n : defaultMaxParallelRuns;
	}

	/** Run a pass soon (coalesced with any pending one): every commit asks for one once the Host has started. */
	trigger(): void {
		if (this.#disposed) { return; }
		this.#wanted = true;
		this.#loop ??= this.#run();
	}

	isIdle(): boolean {
		return this.#loop === undefined && this.#launches.size === 0;
	}

	/** Resolves when no pass is running or wanted and every launch it started has returned. */
	async whenIdle(): Promise<void> {
		while (this.#loop !== undefined || this.#launches.size > 0) {
			await Promise.allSettled([this.#loop, ...this.#launches]);
		}
	}

	dispose(): void {
		this.#disposed = true;
	}

	async #run(): Promise<void> {
		// Yield once so triggers from the same tick coalesce into this pass.
		await Promise.resolve();
		try {
			while (this.#wanted && !this.#disposed) {
				this.#wanted = false;
				try {
					await this.#pass();
				} catch (e) {
					this.#d.log(`dispatch pass failed: ${(e as Error).message}`);
				}
			}
		} finally {
			// Synchronously after the last check of #wanted: a later trigger starts a new loop.
			this.#loop = undefined;
		}
	}

	async #pass(): Promise<void> {
		// Nothing starts from a stale acceptance: a parent of a task about to start whose branch moved after its
		// acceptance goes back to pending_acceptance first, and the selection below no longer finds its dependents ready.
		// The ready tasks come from each issue's kept ready set (src/store/taskCache.ts): a pass costs the same at any size.
		const selected = this.#d.store.readWithTasks((r, views) => this.#select(r, (issueId, limit, launchable) => readyFromView(r, issueId, views(issueId), limit, launchable))
			.map(({ issue, tasks }) => {
				const taskIds = tasks.map((t) => t.taskId);
				return { issueId: issue.issueId, taskIds, parentsAccepted: hasAcceptedParentCommits(r, issue.issueId, taskIds) };
			}));
		// Most commits make nothing ready: such a pass ends after this one read (what follows only ever selects less).
		if (selected.length === 0) { return; }
		for (const { issueId, taskIds } of selected.filter((s) => s.parentsAccepted)) {
			await this.#d.admission.reopenChangedParents(issueId, taskIds);
		}
		// Turns that have ended but whose exits the Host has not handled yet count before the budget is asked.
		await this.#d.admission.countEndedTurns();
		// A pass that selects nothing writes nothing, so its transaction journals nothing. Inside it, the tasks selected
		// above are checked again (capacity, pause, budget, readiness): what became ready meanwhile is the next pass's.
		const chosen = new Map(selected.map((s) => [s.issueId, s.taskIds]));
		const runIds = await this.#d.store.transaction((tx) => {
			const ids: string[] = [];
			for (const { issue, tasks } of this.#select(tx, (issueId, limit, launchable) => stillReady(tx, issueId, chosen.get(issueId) ?? [], limit, launchable))) {
				ids.push(...this.#d.admission.admit(tx, issue, tasks).map((a) => a.runId));
			}
			return ids;
		});
		if (runIds.length === 0) { return; }
		const launch = this.#d.admission.launch(runIds).catch((e: unknown) => {
			this.#d.log(`launching ${runIds.join(', ')} failed: ${(e as Error).message}`);
		});
		this.#launches.add(launch);
		void launch.then(() => this.#launches.delete(launch));
	}

	/** Ready tasks to start now, within the free capacity, oldest issue first (`readyOf` names an issue's ready tasks). */
	#select(r: Reader, readyOf: ReadyTasksOf): Selection[] {
		let free = this.capacity - runRepository.countRunning(r);
		const selections: Selection[] = [];
		if (free <= 0) { return selections; }
		const targets = new Map(this.#d.config.agentTargets.map((t) => [t.id, t]));
		for (const issueId of dispatchRepository.manualIssuesWithWork(r)) {
			if (free <= 0) { break; }
			const issue = issueRepository.get(r, issueId);
			// An issue at or over its budget starts nothing (its panel says why); raising the budget dispatches again.
			if (!issue || issueBudgetDecision(r, issueId).kind !== 'ok') { continue; }
			// A task the budget refuses to launch (a USD budget its model cannot be counted against) is left not started;
			// the issue shows why (issueStandingDecision), and a price, a token budget or another target lets it go on.
			const gate = launchBudgetGate(r, issueId, this.#d.config);
			const launchable = (task: Task): boolean => {
				const target = targets.get(task.agentTargetId);
				return target !== undefined && gate(launchModelOf(target, task.model)).kind === 'ok';
			};
			const ready = readyOf(issueId, free, launchable);
			if (ready.length === 0) { continue; }
			selections.push({ issue, tasks: ready });
			free -= ready.length;
		}
		return selections;
	}
}

/** Up to `limit` startable ready tasks of one issue, in dispatch order. */
type ReadyTasksOf = (issueId: string, limit: number, launchable: (task: Task) => boolean) => Task[];

/** Up to `limit` startable tasks from the issue's kept ready set, in dispatch order (a window of it, widened only past tasks that cannot start). */
function readyFromView(r: Reader, issueId: string, view: IssueTaskView, limit: number, launchable: (task: Task) => boolean): Task[] {
	const ready: Task[] = [];
	let seen = 0;
	for (let window = Math.max(limit, 32); ; window *= 2) {
		const ids = view.ready.next(window);
		for (const id of ids.slice(seen)) {
			const task = taskRepository.get(r, issueId, id);
			if (task === undefined || !launchable(task)) { continue; }
			ready.push(task);
			if (ready.length >= limit) { return ready; }
		}
		if (ids.length < window) { return ready; }
		seen = ids.length;
	}
}

/** Of the tasks a pass selected, up to `limit` that are still ready and startable now (core decides readiness on their rows). */
function stillReady(r: Reader, issueId: string, taskIds: readonly string[], limit: number, launchable: (task: Task) => boolean): Task[] {
	const ready: Task[] = [];
	for (const taskId of taskIds) {
		const task = taskRepository.get(r, issueId, taskId);
		if (task === undefined || !launchable(task)) { continue; }
		const dependencies = task.dependencyTaskIds.flatMap((id) => taskRepository.get(r, issueId, id) ?? []);
		if (!readyTaskIds([task, ...dependencies]).includes(taskId)) { continue; }
		ready.push(task);
		if (ready.length >= limit) { break; }
	}
	return ready;
}
