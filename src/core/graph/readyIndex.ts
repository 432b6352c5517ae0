// An incrementally maintained ready set for one issue: O(1) `count`, O(k) `next(k)`, O(deps) per task change.
// Same readiness rule as blockers.ts (a dependency is satisfied when completed and accepted), kept cheap at
// 100k tasks so the dispatcher never rescans a whole graph per settlement.
import type { Task } from '../model.js';

/** What readiness reads of a task (a cache of an issue's tasks keeps only these). */
export type ReadyIndexTask = Pick<Task, 'taskId' | 'sortIndex' | 'status' | 'acceptanceState' | 'supersededAtUnixMs' | 'agentTargetId' | 'dependencyTaskIds'>;

type Key = { sortIndex: number; taskId: string };

function compareKeys(a: Key, b: Key): number {
	return a.sortIndex - b.sortIndex || (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0);
}

/** A completed dependency satisfies an edge once it is accepted (auto-checked or accepted by the developer). */
export function satisfiesDependency(task: ReadyIndexTask | undefined): boolean {
	return task !== undefined && task.supersededAtUnixMs === 0 && task.status === 'completed'
		&& (task.acceptanceState === 'auto_checked' || task.acceptanceState === 'user_accepted');
}

function isCandidate(task: ReadyIndexTask): boolean {
	return task.supersededAtUnixMs === 0 && task.status === 'not_started' && task.agentTargetId.trim() !== '';
}

export class ReadyIndex {
	readonly #tasks = new Map<string, ReadyIndexTask>();
	readonly #unmet = new Map<string, number>();
	readonly #dependents = new Map<string, Set<string>>();
	/** Ready task keys, sorted by (sortIndex, taskId). */
	readonly #ready: Key[] = [];

	constructor(tasks: readonly ReadyIndexTask[]) {
		for (const t of tasks) { this.#tasks.set(t.taskId, t); }
		for (const t of tasks) { this.#link(t); }
		const ready: Key[] = [];
		for (const t of tasks) {
			if (isCandidate(t) && this.#unmet.get(t.taskId) === 0) { ready.push({ sortIndex: t.sortIndex, taskId: t.taskId }); }
		}
		ready.sort(compareKeys);
		this.#ready.push(...ready);
	}

	get count(): number { return this.#ready.length; }

	/** The first `limit` ready task ids in dispatch order. */
	next(limit: number): string[] {
		return this.#ready.slice(0, Math.max(0, limit)).map((k) => k.taskId);
	}

	isReady(taskId: string): boolean {
		const t = this.#tasks.get(taskId);
		return t !== undefined && this.#indexOf(t) >= 0;
	}

	/** Insert or replace one task (status, acceptance, dependencies or supersession changed). */
	upsert(task: ReadyIndexTask): void {
		const before = this.#tasks.get(task.taskId);
		if (before) { this.#removeReady(before); this.#unlink(before); }
		const wasSatisfying = satisfiesDependency(before);
		this.#tasks.set(task.taskId, task);
		this.#link(task);
		this.#addReadyIfEligible(task);
		const nowSatisfying = satisfiesDependency(task);
		if (wasSatisfying !== nowSatisfying) {
			for (const dependentId of this.#dependents.get(task.taskId) ?? []) {
				const dependent = this.#tasks.get(dependentId);
				if (!dependent) { continue; }
				this.#removeReady(dependent);
				this.#unmet.set(dependentId, (this.#unmet.get(dependentId) ?? 0) + (nowSatisfying ? -1 : 1));
				this.#addReadyIfEligible(dependent);
			}
		}
	}

	#link(task: ReadyIndexTask): void {
		let unmet = 0;
		for (const dep of task.dependencyTaskIds) {
			let set = this.#dependents.get(dep);
			if (!set) { set = new Set(); this.#dependents.set(dep, set); }
			set.add(task.taskId);
			if (!satisfiesDependency(this.#tasks.get(dep))) { unmet++; }
		}
		this.#unmet.set(task.taskId, unmet);
	}

	#unlink(task: ReadyIndexTask): void {
		for (const dep of task.dependencyTaskIds) { this.#dependents.get(dep)?.delete(task.taskId); }
	}

	#addReadyIfEligible(task: ReadyIndexTask): void {
		if (!isCandidate(task) || this.#unmet.get(task.taskId) !== 0) { return; }
		const key = { sortIndex: task.sortIndex, taskId: task.taskId };
		const at = this.#lowerBound(key);
		if (this.#ready[at]?.taskId !== key.taskId) { this.#ready.splice(at, 0, key); }
	}

	#lowerBound(key: Key): number {
		let lo = 0;
		let hi = this.#ready.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (compareKeys(this.#ready[mid]!, key) < 0) { lo = mid + 1; } else { hi = mid; }
		}
		return lo;
	}

	#indexOf(task: ReadyIndexTask): number {
		const at = this.#lowerBound({ sortIndex: task.sortIndex, taskId: task.taskId });
		return this.#ready[at]?.taskId === task.taskId ? at : -1;
	}

	#removeReady(task: ReadyIndexTask): void {
		const i = this.#indexOf(task);
		if (i >= 0) { this.#ready.splice(i, 1); }
	}
}
