// The graph (and its list view) as the panel draws it: the tasks in scope with their Host-sent status, readiness and
// superseded flag, the dependency and replacement edges, the chips, the summary line and what the agents are doing
// now. Pure; a node is rebuilt only when its task object or its own UI state changed.
import { formatDuration, middleTruncate, taskStatusLabel, transcriptKindLabel } from './format.js';
import { costLabel, type TaskRunFacts } from './runModel.js';
import {
	defaultGraphView, type DisplayState, displayState, displayStateLabel, type GraphViewOptions, isHighlighting, matchesFilter, scopeTaskIds,
	sortForList, type StatusChip, statusChips,
} from './graphOptions.js';
import type { PanelTask } from './panelTasks.js';
import type { RunDto, TaskStatus } from './snapshotTypes.js';

export interface GraphNodeModel {
	readonly taskId: string;
	readonly title: string;
	readonly label: string;
	readonly status: TaskStatus;
	readonly statusLabel: string;
	readonly superseded: boolean;
	/** Waiting for a new attempt asked of it, or replaced by one: drawn apart from its status (never the failure colour). */
	readonly rework: boolean;
	/** "attempt 2 of 2" (the Host's count) once it had more than one; '' otherwise. */
	readonly attemptLabel: string;
	readonly ready: boolean;
	readonly selected: boolean;
	/** Passes the chips and the search while either is on (drawn highlighted; the others dim). */
	readonly match: boolean;
	readonly ariaLabel: string;
	/** While it runs: what its agent is doing now (the newest transcript line the Host read), '' otherwise. */
	readonly activity: string;
}

export interface GraphEdgeModel {
	readonly from: string;
	readonly to: string;
	/** `dependency`: `to` depends on `from`; `replacement`: `from` was superseded by `to` (history only). */
	readonly kind: 'dependency' | 'replacement';
}

export interface ListRowModel {
	readonly taskId: string;
	readonly title: string;
	/** What the status column and its sort count it as (the Host's rework state over its status). */
	readonly displayState: DisplayState;
	readonly statusLabel: string;
	readonly ready: boolean;
	readonly selected: boolean;
	/** The agent target that runs it ('' when none is set). */
	readonly agent: string;
	/** How long its latest Run took (or runs): "2m 03s"; "—" before its first Run. */
	readonly durationLabel: string;
	/** What its Runs cost (the Host's figures). */
	readonly costLabel: string;
	/** The Host offers Accept on it: it can be checked for Accept selected. */
	readonly acceptable: boolean;
	/** Checked for Accept selected. */
	readonly checked: boolean;
}

export interface GraphModel {
	/** The tasks in scope (focus, hide completed), in plan order. */
	readonly nodes: readonly GraphNodeModel[];
	readonly edges: readonly GraphEdgeModel[];
	readonly hiddenHistoryCount: number;
	readonly showHistory: boolean;
	readonly summary: string;
	readonly options: GraphViewOptions;
	/** Counts over the tasks in scope. */
	readonly chips: readonly StatusChip[];
	readonly highlighting: boolean;
	/** Nodes passing the chips and the search (all of them when neither is on). */
	readonly matchCount: number;
	readonly focus: { readonly taskId: string; readonly title: string } | null;
	readonly hiddenCompletedCount: number;
	/** The list view's rows: the tasks in scope that pass the chips and the search, in the chosen order. */
	readonly list: readonly ListRowModel[];
}

/** The list view's own state: the rows checked for Accept selected. */
export interface ListUi {
	readonly checked?: ReadonlySet<string>;
}

/** The graph's part of the UI state: the selection, the history toggle and the webview's own view options. */
export interface GraphUi {
	readonly selectedTaskId: string | null;
	readonly showHistory: boolean;
	readonly graphView?: GraphViewOptions;
}

export const nodeLabelMax = 28;

/**
 * Each task object's node, kept while the snapshot keeps that object: a delta replaces only the tasks that changed
 * (src/protocol/webviewDelta.ts), so a status change rebuilds one node, not 1,000. Snapshots are never mutated.
 */
const nodeOf = new WeakMap<PanelTask, { readonly key: string; readonly node: GraphNodeModel }>();

/** What each running task's agent is doing now, from the activity line the Host sends with a running Run. */
export function activityByTask(runs: readonly RunDto[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const r of runs) {
		if (r.activity) { out.set(r.taskId, `${transcriptKindLabel[r.activity.kind]}: ${r.activity.text}`); }
	}
	return out;
}

/**
 * A task's status as the graph and the list name it: the Host's rework state ("Changes requested") over its status,
 * a superseded attempt by how it ended ("Attempt 1 — changes requested"), and why it awaits acceptance again.
 */
export function taskStateLabel(t: PanelTask): string {
	const a = t.attempts;
	if (a !== undefined && a.stateLabel !== '') { return a.stateLabel; }
	if (a !== undefined && a.line !== '') { return a.line.split(': ')[0] ?? a.line; }
	if (t.superseded) { return `${taskStatusLabel[t.status]} · superseded`; }
	return t.reopenedReason !== '' ? `${taskStatusLabel[t.status]} · ${t.reopenedReason}` : taskStatusLabel[t.status];
}

function nodeModel(t: PanelTask, selected: boolean, match: boolean, activity: string): GraphNodeModel {
	const key = `${selected ? 1 : 0}${match ? 1 : 0}${activity}`;
	const known = nodeOf.get(t);
	if (known !== undefined && known.key === key) { return known.node; }
	const statusLabel = taskStateLabel(t);
	const attemptLabel = t.attempts !== undefined && t.attempts.label !== '' && !t.superseded ? t.attempts.label.toLowerCase() : '';
	const extra = [attemptLabel, t.superseded ? 'superseded' : '', t.ready ? 'ready' : '', t.dependencyTaskIds.length ? `${t.dependencyTaskIds.length} dependencies` : 'no dependencies'];
	const node: GraphNodeModel = {
		taskId: t.taskId, title: t.title, label: middleTruncate(t.title, nodeLabelMax), status: t.status, statusLabel,
		superseded: t.superseded, rework: t.superseded || (t.attempts?.stateLabel ?? '') !== '', attemptLabel, ready: t.ready, selected, match,
		ariaLabel: [`Task ${t.title}`, statusLabel, ...extra.filter((e) => e !== '')].join(', '),
		activity,
	};
	nodeOf.set(t, { key, node });
	return node;
}

export function graphModel(tasks: readonly PanelTask[], ui: GraphUi & ListUi, activity: ReadonlyMap<string, string> = new Map(), runFacts: ReadonlyMap<string, TaskRunFacts> = new Map()): GraphModel {
	const options = ui.graphView ?? defaultGraphView;
	const historyVisible = tasks.filter((t) => ui.showHistory || !t.superseded);
	const dependencyEdges = historyVisible.flatMap((t) => t.dependencyTaskIds.map((d) => ({ from: d, to: t.taskId })));
	const inScope = scopeTaskIds(historyVisible, dependencyEdges, options);
	const visible = historyVisible.filter((t) => inScope.has(t.taskId));
	const ids = new Set(visible.map((t) => t.taskId));
	const highlighting = isHighlighting(options);
	const nodes = visible.map((t) => nodeModel(t, t.taskId === ui.selectedTaskId, highlighting && matchesFilter(t, options),
		t.status === 'running' ? activity.get(t.taskId) ?? '' : ''));
	const edges: GraphEdgeModel[] = [];
	for (const t of visible) {
		for (const d of t.dependencyTaskIds) {
			if (ids.has(d)) { edges.push({ from: d, to: t.taskId, kind: 'dependency' }); }
		}
		if (t.superseded && t.supersededByTaskId !== '' && ids.has(t.supersededByTaskId)) {
			edges.push({ from: t.taskId, to: t.supersededByTaskId, kind: 'replacement' });
		}
	}
	const hiddenHistoryCount = ui.showHistory ? 0 : tasks.length - historyVisible.length;
	const focusTask = options.focusTaskId !== null ? historyVisible.find((t) => t.taskId === options.focusTaskId) : undefined;
	const inLineage = focusTask ? scopeTaskIds(historyVisible, dependencyEdges, { focusTaskId: focusTask.taskId, hideCompleted: false }) : null;
	const hiddenCompletedCount = options.hideCompleted
		? historyVisible.filter((t) => t.status === 'completed' && (inLineage === null || inLineage.has(t.taskId)) && !inScope.has(t.taskId)).length
		: 0;
	// A task waiting for a new attempt counts by the Host's word for it ("1 changes requested"), not as not started.
	const counts = new Map<string, number>();
	for (const t of visible) {
		const name = displayStateLabel(displayState(t));
		counts.set(name, (counts.get(name) ?? 0) + 1);
	}
	const parts = [...counts].map(([name, n]) => `${n} ${name.toLowerCase()}`);
	const matchCount = highlighting ? nodes.filter((n) => n.match).length : nodes.length;
	const scopeNotes = [
		focusTask ? `focused on ${focusTask.title}` : '',
		hiddenCompletedCount ? `${hiddenCompletedCount} completed hidden` : '',
		hiddenHistoryCount ? `${hiddenHistoryCount} superseded hidden` : '',
		highlighting ? `${matchCount} matching` : '',
	].filter((n) => n !== '');
	const summary = `${nodes.length} tasks${parts.length ? `: ${parts.join(', ')}` : ''}${scopeNotes.length ? `; ${scopeNotes.join('; ')}` : ''}.`;
	// The list's rows are sorted only when read (the list view draws them; the graph does not).
	let list: ListRowModel[] | null = null;
	const listRows = (): ListRowModel[] => {
		const order = new Map(visible.map((t, i) => [t.taskId, i]));
		const listed = sortForList(visible.filter((t) => matchesFilter(t, options)).map((t) => ({ ...t, order: order.get(t.taskId) ?? 0 })), options.listSort);
		return listed.map((t) => {
			const facts = runFacts.get(t.taskId);
			return {
				taskId: t.taskId, title: t.title, displayState: displayState(t), statusLabel: taskStateLabel(t), ready: t.ready,
				selected: t.taskId === ui.selectedTaskId, agent: t.agentTargetId,
				durationLabel: facts ? formatDuration(facts.durationMs) : '—', costLabel: costLabel(facts),
				acceptable: t.controls.accept, checked: t.controls.accept && ui.checked?.has(t.taskId) === true,
			};
		});
	};
	return {
		nodes, edges, hiddenHistoryCount, showHistory: ui.showHistory, summary, options,
		chips: statusChips(visible, options.statusFilter), highlighting, matchCount,
		focus: focusTask ? { taskId: focusTask.taskId, title: focusTask.title } : null,
		hiddenCompletedCount,
		get list(): readonly ListRowModel[] {
			list ??= listRows();
			return list;
		},
	};
}
