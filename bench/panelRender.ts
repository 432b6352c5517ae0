// Issue panel render cost in Node at 50 / 200 / 1,000 tasks (medians; never assertions):
//   layout    — dagre on a new graph shape (the cached layout is reused while only statuses change);
//   render    — view model + VNodes + markup string with the layout cached (what each store change costs);
//   validate  — zod check of the complete snapshot message (the webview checks each message it receives);
//   delta     — the Host's `snapshotDelta` for one status change (what it posts after the first snapshot).
// The browser adds DOM building (createElementNS) and paint on top; measure that in the webview itself (see the
// note printed at the end). Run: node --import tsx bench/panelRender.ts
import type { Attention } from '../src/core/attention/attention.js';
import { taskControls } from '../src/core/issues/taskControls.js';
import type { Issue, Task } from '../src/core/model.js';
import { plainTaskListContext, toIssueDto, toTasksWithReadiness } from '../src/host/services/dtoMapping.js';
import { toWebview, type PanelSnapshot } from '../src/protocol/webview.js';
import { snapshotDelta } from '../src/protocol/webviewDelta.js';
import type { TaskDto } from '../src/protocol/dto.js';
import { dagreLayout, layoutGraph } from '../webview/issuePanel/layout.js';
import { LayoutCache, layoutInputOf, panelTree, renderPanel } from '../webview/issuePanel/renderPanel.js';
import { derivePanelModel } from '../webview/issuePanel/panelModel.js';
import { renderToString } from '../webview/shared/vnode.js';
import { fmtMs, median, timeMs } from './stats.js';
import { emptySpendDto } from '../src/host/usage/issueSpend.js';

export interface PanelRenderRow {
	tasks: number;
	layoutMs: number;
	/** dagre on the same graph (what layoutGraph uses up to 300 tasks), for comparison. */
	dagreMs: number;
	renderMs: number;
	validateMs: number;
	markupKb: number;
	snapshotKb: number;
	/** The Host's `snapshotDelta` for one task's status change, and what it posts instead of the whole snapshot. */
	deltaMs: number;
	deltaKb: number;
}

function task(i: number, deps: string[], status: TaskDto['status']): TaskDto {
	return {
		issueId: 'bench', taskId: `t${i}`, title: `Task ${i}: implement part ${i} of the feature with tests`, content: `Content of task ${i}`,
		status, acceptanceState: status === 'completed' ? 'user_accepted' : '', agentTargetId: 'claude', modelPlanId: '', model: '',
		permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: deps, parallelizable: true, autoAccept: false,
		latestRunId: '', sortIndex: i, supersededAtUnixMs: 0, supersededByTaskId: '', baseCommit: '', resultCommit: '', acceptedCommit: '', reopenedReason: '', attempt: 0, rework: null,
		createdAtUnixMs: 1, updatedAtUnixMs: 1,
	};
}

/** A layered plan: each task depends on up to two tasks a few ranks back (deterministic). */
export function benchSnapshot(n: number): PanelSnapshot {
	let seed = 11;
	const rand = (): number => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; };
	const tasks: TaskDto[] = [];
	for (let i = 0; i < n; i++) {
		const deps = new Set<string>();
		const k = i === 0 ? 0 : Math.floor(rand() * 3);
		for (let j = 0; j < k; j++) { deps.add(`t${Math.max(0, i - 1 - Math.floor(rand() * 12))}`); }
		const r = rand();
		tasks.push(task(i, [...deps], r < 0.4 ? 'completed' : r < 0.5 ? 'running' : r < 0.55 ? 'pending_acceptance' : 'not_started'));
	}
	const count = (s: TaskDto['status']): number => tasks.filter((t) => t.status === s).length;
	const counts = { notStarted: count('not_started'), running: count('running'), pendingAcceptance: count('pending_acceptance'), completed: count('completed'), failed: 0, canceled: 0 };
	const issue: Issue = {
		issueId: 'bench', title: 'Benchmark issue', content: '', status: 'in_progress', planningSource: 'manual', sourceSessionId: '',
		dispatchPaused: false, autoAcceptDefault: false, createdAtUnixMs: 1, updatedAtUnixMs: 1,
	};
	return {
		type: 'snapshot', seq: 1, plan: null, runs: [],
		// As the Host sends it: readiness and controls derived by its mapping.
		issue: { ...toIssueDto(issue, { counts, executionStatus: null, hasRunningRun: counts.running > 0, attention: benchAttention, spend: emptySpendDto() }), tasks: toTasksWithReadiness(tasks as Task[], new Map(), plainTaskListContext(false)) },
		view: { selectedTaskId: 't1', showHistory: false, nowUnixMs: 1, agentWaiting: null },
	};
}

/** The same snapshot after one Run settles: task `taskId` has `status`, the issue's counts follow (as the Host sends it). */
export function withStatus(s: PanelSnapshot, taskId: string, status: TaskDto['status'], seq: number): PanelSnapshot {
	const tasks = s.issue.tasks.map((t) => (t.taskId === taskId
		? { ...t, status, controls: taskControls({ status, superseded: t.superseded, issueClosed: false, hasRecordedBase: t.baseCommit !== '' }) } : t));
	const count = (st: TaskDto['status']): number => tasks.filter((t) => t.status === st).length;
	const counts = { notStarted: count('not_started'), running: count('running'), pendingAcceptance: count('pending_acceptance'), completed: count('completed'), failed: count('failed'), canceled: count('canceled') };
	return { ...s, seq, issue: { ...s.issue, counts, tasks } };
}

const benchAttention: Attention = {
	state: 'agent_working', label: 'Agent working', reasons: [], activity: 'Working', sinceUnixMs: 0, stalled: false, handBackCommand: '', sourceAgent: null, runs: [],
};

export function benchPanelRender(sizes: readonly number[] = [50, 200, 1_000]): PanelRenderRow[] {
	return sizes.map((n) => {
		const snapshot = benchSnapshot(n);
		const ui = { selectedTaskId: 't1', showHistory: false };
		const input = layoutInputOf(derivePanelModel(snapshot, ui).graph);
		const layoutRuns = n >= 1_000 ? 3 : 7;
		const layoutMs = median(Array.from({ length: layoutRuns }, () => timeMs(() => layoutGraph(input))));
		const dagreMs = median(Array.from({ length: n >= 1_000 ? 1 : 3 }, () => timeMs(() => dagreLayout(input))));
		const cache = new LayoutCache();
		cache.layout(input);
		let markup = '';
		const renderMs = median(Array.from({ length: 15 }, () => timeMs(() => { markup = renderToString(panelTree(renderPanel(snapshot, ui, 1, cache))); })));
		const wire = JSON.parse(JSON.stringify(snapshot)) as unknown;
		const validateMs = median(Array.from({ length: 15 }, () => timeMs(() => toWebview.parse(wire))));
		// A run of status changes, each snapshot new objects throughout as the Host builds it (every task is compared;
		// the one before was the previous diff's `next`, so its JSON is known).
		const chain: PanelSnapshot[] = [snapshot];
		for (let i = 1; i <= 16; i++) { chain.push(JSON.parse(JSON.stringify(withStatus(chain[i - 1]!, `t${(i * 37) % n}`, i % 2 ? 'failed' : 'completed', 1 + i))) as PanelSnapshot); }
		const delta = snapshotDelta(chain[0]!, chain[1]!);
		const deltaMs = median(chain.slice(2).map((next, i) => timeMs(() => snapshotDelta(chain[i + 1]!, next))));
		return {
			tasks: n, layoutMs, dagreMs, renderMs, validateMs, markupKb: markup.length / 1024, snapshotKb: JSON.stringify(snapshot).length / 1024,
			deltaMs, deltaKb: JSON.stringify(delta).length / 1024,
		};
	});
}

export function formatPanelRender(rows: readonly PanelRenderRow[]): string {
	const lines = [
		'| tasks | layout, new shape (median) | dagre on the same graph | render, cached layout (median) | layout + render | snapshot check (median) | markup | snapshot | Host: delta of one status change (median) | delta posted |',
		'|---|---|---|---|---|---|---|---|---|---|',
	];
	for (const r of rows) {
		lines.push(`| ${r.tasks.toLocaleString('en')} | ${fmtMs(r.layoutMs)} | ${fmtMs(r.dagreMs)} | ${fmtMs(r.renderMs)} | ${fmtMs(r.layoutMs + r.renderMs)} | ${fmtMs(r.validateMs)} | ${r.markupKb.toFixed(0)} KiB | ${r.snapshotKb.toFixed(0)} KiB | ${fmtMs(r.deltaMs)} | ${r.deltaKb.toFixed(1)} KiB |`);
	}
	return lines.join('\n');
}

export const browserNote = [
	'In the browser: open the panel with N tasks, then in the webview devtools (Developer: Open Webview Developer Tools)',
	'record a Performance profile across one snapshot, or wrap IssuePanelApp.#render in performance.mark/measure and',
	'read the "panel-render" measures; the code-server harness (test/vscode) can read them with page.evaluate in the',
	'webview frame and report medians for 50/200/1,000 tasks.',
].join('\n');

if (require.main === module) {
	console.log(formatPanelRender(benchPanelRender()));
	console.log(`\n${browserNote}`);
}
