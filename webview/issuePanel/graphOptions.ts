// How the developer narrows a big graph (pure, no DOM): focus on one task's lineage, hide completed tasks, status
// chips and search that highlight matching nodes (the graph) or filter rows (the list), the level of detail a zoom
// can show, and the list's sort order. Scope changes (focus, hide completed) change the layout; highlighting never
// does, so a chip click or a keystroke in the search box costs no relayout.
import { taskStatusLabel } from './format.js';
import type { TaskStatus } from './snapshotTypes.js';

export type GraphMode = 'graph' | 'list';
export type ListSort = 'status' | 'title' | 'plan';

export interface GraphViewOptions {
	readonly mode: GraphMode;
	/** Statuses to highlight (graph) or keep (list); empty: no status filter. */
	readonly statusFilter: readonly TaskStatus[];
	/** Matched against titles and ids, case-insensitively; blank: no search. */
	readonly search: string;
	/** Show only this task, its ancestors and its descendants. */
	readonly focusTaskId: string | null;
	readonly hideCompleted: boolean;
	readonly listSort: ListSort;
}

export const defaultGraphView: GraphViewOptions = {
	mode: 'graph', statusFilter: [], search: '', focusTaskId: null, hideCompleted: false, listSort: 'status',
};

/** Status order for chips and the list's status sort: what needs the developer first, settled work last. */
export const statusOrder: readonly TaskStatus[] = ['pending_acceptance', 'failed', 'running', 'not_started', 'canceled', 'completed'];

export interface Edge {
	readonly from: string;
	readonly to: string;
}

/** `taskId`, every task it depends on (transitively) and every task that depends on it (transitively). */
export function lineage(edges: readonly Edge[], taskId: string): Set<string> {
	const out = new Map<string, string[]>();
	const into = new Map<string, string[]>();
	for (const e of edges) {
		out.set(e.from, [...(out.get(e.from) ?? []), e.to]);
		into.set(e.to, [...(into.get(e.to) ?? []), e.from]);
	}
	const seen = new Set<string>([taskId]);
	for (const next of [out, into]) {
		const stack = [taskId];
		while (stack.length > 0) {
			for (const n of next.get(stack.pop()!) ?? []) {
				if (!seen.has(n)) { seen.add(n); stack.push(n); }
			}
		}
	}
	return seen;
}

export interface ScopeTask {
	readonly taskId: string;
	readonly status: TaskStatus;
}

/** The tasks the graph draws: the focused lineage (if any), then without completed tasks (the focused one stays). */
export function scopeTaskIds(tasks: readonly ScopeTask[], edges: readonly Edge[], opts: Pick<GraphViewOptions, 'focusTaskId' | 'hideCompleted'>): Set<string> {
	const focus = opts.focusTaskId !== null && tasks.some((t) => t.taskId === opts.focusTaskId) ? opts.focusTaskId : null;
	const inLineage = focus !== null ? lineage(edges, focus) : null;
	return new Set(tasks
		.filter((t) => inLineage === null || inLineage.has(t.taskId))
		.filter((t) => !opts.hideCompleted || t.status !== 'completed' || t.taskId === focus)
		.map((t) => t.taskId));
}

export interface SearchableTask extends ScopeTask {
	readonly title: string;
}

/** Whether any highlighting is on (else every node draws plainly). */
export function isHighlighting(opts: Pick<GraphViewOptions, 'statusFilter' | 'search'>): boolean {
	return opts.statusFilter.length > 0 || opts.search.trim() !== '';
}

/** Whether a task passes the status chips and the search (both must hold; a blank one passes everything). */
export function matchesFilter(t: SearchableTask, opts: Pick<GraphViewOptions, 'statusFilter' | 'search'>): boolean {
	if (opts.statusFilter.length > 0 && !opts.statusFilter.includes(t.status)) { return false; }
	const q = opts.search.trim().toLowerCase();
	return q === '' || t.title.toLowerCase().includes(q) || t.taskId.toLowerCase().includes(q);
}

export interface StatusChip {
	readonly status: TaskStatus;
	readonly label: string;
	readonly count: number;
	readonly active: boolean;
}

/** One chip per status present (plus any filtered one), in `statusOrder`. */
export function statusChips(tasks: readonly ScopeTask[], statusFilter: readonly TaskStatus[]): StatusChip[] {
	const counts = new Map<TaskStatus, number>();
	for (const t of tasks) { counts.set(t.status, (counts.get(t.status) ?? 0) + 1); }
	return statusOrder
		.filter((s) => (counts.get(s) ?? 0) > 0 || statusFilter.includes(s))
		.map((s) => ({ status: s, label: taskStatusLabel[s], count: counts.get(s) ?? 0, active: statusFilter.includes(s) }));
}

/** Toggles one status in the chip filter, keeping `statusOrder`. */
export function toggleStatus(filter: readonly TaskStatus[], status: TaskStatus): TaskStatus[] {
	const next = filter.includes(status) ? filter.filter((s) => s !== status) : [...filter, status];
	return statusOrder.filter((s) => next.includes(s));
}

export type DetailLevel = 'full' | 'blocks';

/** Node titles are 12 px: below this zoom they are under 6 px and unreadable, so nodes draw as coloured blocks. */
export const readableZoom = 0.5;

export function detailLevel(zoom: number): DetailLevel {
	return zoom + 1e-9 >= readableZoom ? 'full' : 'blocks';
}

export interface SortableTask extends SearchableTask {
	/** Plan order (the graph's reading order). */
	readonly order: number;
}

/** The list's rows: sorted by status (`statusOrder`), title or plan order; ties in plan order. */
export function sortForList<T extends SortableTask>(tasks: readonly T[], sort: ListSort): T[] {
	const rank = (s: TaskStatus): number => statusOrder.indexOf(s);
	const byKey: Record<ListSort, (a: T, b: T) => number> = {
		status: (a, b) => rank(a.status) - rank(b.status),
		title: (a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base', numeric: true }),
		plan: () => 0,
	};
	return [...tasks].sort((a, b) => byKey[sort](a, b) || a.order - b.order);
}
