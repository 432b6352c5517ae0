// The issue panel's snapshot deltas, both ends in one place: the Host computes what changed between the snapshot
// the webview drew and the next one (`snapshotDelta`), the webview rebuilds the next snapshot from its own and the
// delta (`applySnapshotDelta`). Applying the delta to the base gives a snapshot equal to the one the Host built;
// items that did not change keep their identity, so the webview can skip them. Pure, no I/O.
import type { PanelSnapshot, PanelSnapshotDelta } from './webview.js';

interface ListPatch<T> {
	keys?: string[];
	upsert: T[];
}

/** Each object's JSON, kept while the object lives: the next snapshot's items become the base of the diff after it. */
const jsonOf = new WeakMap<object, string>();

function json(v: unknown): string {
	if (typeof v !== 'object' || v === null) { return JSON.stringify(v) ?? 'undefined'; }
	let out = jsonOf.get(v);
	if (out === undefined) {
		out = JSON.stringify(v);
		jsonOf.set(v, out);
	}
	return out;
}

const same = (a: unknown, b: unknown): boolean => a === b || json(a) === json(b);

/** The changed items of `next` against `base`, keyed by `key`; null when a key repeats (sent whole instead). */
function diffList<T>(base: readonly T[], next: readonly T[], key: (item: T) => string): ListPatch<T> | null | undefined {
	const before = new Map<string, T>();
	for (const item of base) { before.set(key(item), item); }
	if (before.size !== base.length) { return null; }
	const upsert: T[] = [];
	const keys: string[] = [];
	let sameKeys = base.length === next.length;
	for (let i = 0; i < next.length; i++) {
		const item = next[i]!;
		const k = key(item);
		keys.push(k);
		if (sameKeys && key(base[i]!) !== k) { sameKeys = false; }
		const old = before.get(k);
		if (old === undefined || !same(old, item)) { upsert.push(item); }
	}
	if (new Set(keys).size !== keys.length) { return null; }
	if (sameKeys && upsert.length === 0) { return undefined; }
	return sameKeys ? { upsert } : { keys, upsert };
}

function applyList<T>(base: T[], patch: ListPatch<T> | undefined, key: (item: T) => string): T[] | null {
	if (patch === undefined) { return base; }
	const byKey = new Map<string, T>();
	for (const item of base) { byKey.set(key(item), item); }
	for (const item of patch.upsert) { byKey.set(key(item), item); }
	const keys = patch.keys ?? base.map(key);
	const out: T[] = [];
	for (const k of keys) {
		const item = byKey.get(k);
		if (item === undefined) { return null; }
		out.push(item);
	}
	return out;
}

const taskKey = (t: { taskId: string }): string => t.taskId;
const runKey = (r: { runId: string }): string => r.runId;

function withoutTasks<T extends { tasks: unknown }>(o: T): Omit<T, 'tasks'> {
	const { tasks: _tasks, ...rest } = o;
	return rest;
}

/**
 * What changed from `base` (the snapshot the webview drew) to `next`; null when the change does not fit a delta
 * (a plan appears or goes away, an optional part disappears, an id repeats): then the Host sends `next` whole.
 */
export function snapshotDelta(base: PanelSnapshot, next: PanelSnapshot): PanelSnapshotDelta | null {
	if ((base.plan === null) !== (next.plan === null)) { return null; }
	if ((next.transcript === undefined && base.transcript !== undefined) || (next.reviewComments === undefined && base.reviewComments !== undefined)
		|| (next.agentTargets === undefined && base.agentTargets !== undefined)) { return null; }
	const delta: PanelSnapshotDelta = { type: 'delta', seq: next.seq, baseSeq: base.seq };
	const issue = withoutTasks(next.issue);
	if (!same(withoutTasks(base.issue), issue)) { delta.issue = issue; }
	const issueTasks = diffList(base.issue.tasks, next.issue.tasks, taskKey);
	if (issueTasks === null) { return null; }
	if (issueTasks) { delta.issueTasks = issueTasks; }
	if (base.plan !== null && next.plan !== null) {
		const plan = withoutTasks(next.plan);
		if (!same(withoutTasks(base.plan), plan)) { delta.plan = plan; }
		const planTasks = diffList(base.plan.tasks, next.plan.tasks, taskKey);
		if (planTasks === null) { return null; }
		if (planTasks) { delta.planTasks = planTasks; }
	}
	const runs = diffList(base.runs, next.runs, runKey);
	if (runs === null) { return null; }
	if (runs) { delta.runs = runs; }
	if (!same(base.view, next.view)) { delta.view = next.view; }
	if (next.transcript !== undefined && !same(base.transcript, next.transcript)) { delta.transcript = next.transcript; }
	if (next.reviewComments !== undefined && !same(base.reviewComments, next.reviewComments)) { delta.reviewComments = next.reviewComments; }
	if (next.agentTargets !== undefined && !same(base.agentTargets, next.agentTargets)) { delta.agentTargets = next.agentTargets; }
	return delta;
}

/**
 * The snapshot `delta` describes, built on `base`; unchanged parts are `base`'s own objects. null when `delta` was
 * computed against another snapshot, or names an item `base` does not have: the webview then asks for a full one.
 */
export function applySnapshotDelta(base: PanelSnapshot, delta: PanelSnapshotDelta): PanelSnapshot | null {
	if (delta.baseSeq !== base.seq) { return null; }
	if (delta.plan !== undefined && base.plan === null) { return null; }
	const issueTasks = applyList(base.issue.tasks, delta.issueTasks, taskKey);
	const planTasks = base.plan === null ? null : applyList(base.plan.tasks, delta.planTasks, taskKey);
	const runs = applyList(base.runs, delta.runs, runKey);
	if (issueTasks === null || runs === null || (base.plan !== null && planTasks === null)) { return null; }
	const issue = delta.issue === undefined && delta.issueTasks === undefined ? base.issue : { ...(delta.issue ?? withoutTasks(base.issue)), tasks: issueTasks };
	const plan = base.plan === null || planTasks === null ? null
		: delta.plan === undefined && delta.planTasks === undefined ? base.plan : { ...(delta.plan ?? withoutTasks(base.plan)), tasks: planTasks };
	const out: PanelSnapshot = {
		...base,
		seq: delta.seq,
		issue,
		plan,
		runs,
		view: delta.view ?? base.view,
	};
	if (delta.transcript !== undefined) { out.transcript = delta.transcript; }
	if (delta.reviewComments !== undefined) { out.reviewComments = delta.reviewComments; }
	if (delta.agentTargets !== undefined) { out.agentTargets = delta.agentTargets; }
	return out;
}
