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
	/** Display states (`displayState`) to highlight (graph) or keep (list); empty: no status filter. */
	readonly statusFilter: readonly DisplayState[];
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
export const statusOrder: readonly (TaskStatus | 'rework')[] = ['pending_acceptance', 'failed', 'rework', 'running', 'not_started', 'canceled', 'completed'];

/**
 * What the chips, their filter and the list's status column count a task as: its status, or `rework:<label>` while
 * the Host names a rework state for it ("Changes requested"), so a review decision never counts as failed or not started.
 */
export type DisplayState = TaskStatus | `rework:${string}`;

export interface StatusTask {
	readonly status: TaskStatus;
	readonly attempts?: { readonly stateLabel: string };
}

const reworkPrefix = 'rework:';

/** The Host's rework state when it sends one, else the task's status (the webview derives no rule of its own). */
export function displayState(t: StatusTask): DisplayState {
	const label = t.attempts?.stateLabel ?? '';
	return label !== '' ? `${reworkPrefix}${label}` : t.status;
}

function isRework(s: DisplayState): s is `rework:${string}` {
	return s.startsWith(reworkPrefix);
}

export function displayStateLabel(s: DisplayState): string {
	return isRework(s) ? s.slice(reworkPrefix.length) : taskStatusLabel[s];
}

/** The colour class suffix (`status-<it>`): every rework state shares the rework colour. */
export function displayStateClass(s: DisplayState): TaskStatus | 'rework' {
	return isRework(s) ? 'rework' : s;
}

/** Orders display states by `statusOrder`, rework states by their label. */
function compareStates(a: DisplayState, b: DisplayState): number {
	return statusOrder.indexOf(displayStateClass(a)) - statusOrder.indexOf(displayStateClass(b)) || a.localeCompare(b, 'en');
}

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

export interface ScopeTask extends StatusTask {
	readonly taskId: string;
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
	if (opts.statusFilter.length > 0 && !opts.statusFilter.includes(displayState(t))) { return false; }
	const q = opts.search.trim().toLowerCase();
	return q === '' || t.title.toLowerCase().includes(q) || t.taskId.toLowerCase().includes(q);
}

export interface StatusChip {
	readonly status: DisplayState;
	/** The colour class suffix. */
	readonly colour: TaskStatus | 'rework';
	readonly label: string;
	readonly count: number;
	readonly active: boolean;
}

/** One chip per display state present (plus any filtered one), in `statusOrder`. */
export function statusChips(tasks: readonly ScopeTask[], statusFilter: readonly DisplayState[]): StatusChip[] {
	const counts = new Map<DisplayState, number>();
	for (const t of tasks) { counts.set(displayState(t), (counts.get(displayState(t)) ?? 0) + 1); }
	return [...new Set([...counts.keys(), ...statusFilter])].sort(compareStates).map((s) => ({
		status: s, colour: displayStateClass(s), label: displayStateLabel(s), count: counts.get(s) ?? 0, active: statusFilter.includes(s),
	}));
}

/** Toggles one display state in the chip filter, keeping `statusOrder`. */
export function toggleStatus(filter: readonly DisplayState[], status: DisplayState): DisplayState[] {
	const next = filter.includes(status) ? filter.filter((s) => s !== status) : [...filter, status];
	return next.sort(compareStates);
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

/** The list's rows: sorted by display state (`statusOrder`), title or plan order; ties in plan order. */
export function sortForList<T extends SortableTask>(tasks: readonly T[], sort: ListSort): T[] {
	const byKey: Record<ListSort, (a: T, b: T) => number> = {
		status: (a, b) => compareStates(displayState(a), displayState(b)),
		title: (a, b) => a.title.localeCompare(b.title, 'en', { sensitivity: 'base', numeric: true }),
		plan: () => 0,
	};
	return [...tasks].sort((a, b) => byKey[sort](a, b) || a.order - b.order);
}
