// What the panel shows, drawn purely from one snapshot and the UI state: the graph's visible nodes and edges, the
// header and the selected task's detail. The rules — readiness and blockers, whether the issue is terminal, which
// controls apply, a wake prompt's marker — are the Host's, sent in the snapshot; nothing here re-derives them.
// No DOM; tested in plain mocha.
import { type ApprovalModel, approvalModels } from './approvalModel.js';
import {
	blockerLabel, checkpointKindLabel, executionStatusLabel, formatClock, formatCount, formatUsd, formatDuration, stopAnswerLabel,
	stopReasonLabel, taskStatusLabel, truncate,
} from './format.js';
import {
	defaultGraphView, type GraphViewOptions, isHighlighting, matchesFilter, scopeTaskIds, sortForList, type StatusChip, statusChips,
} from './graphOptions.js';
import type {
	AttentionStateDto, CheckpointDto, CheckpointKind, ExecutionStatus, IssueControlsDto, PanelSnapshot, PanelTranscript, PlanTaskDto, RunDto, TaskDto, TaskStatus,
	TranscriptEntryDto, WakeDto,
} from './snapshotTypes.js';

export interface PanelUi {
	readonly selectedTaskId: string | null;
	readonly showHistory: boolean;
	/** The webview's own graph options (chips, search, focus, hide completed, list); default: none. */
	readonly graphView?: GraphViewOptions;
}

export interface PanelTask extends PlanTaskDto {
	readonly superseded: boolean;
}

export type IssueControls = IssueControlsDto;

export interface CheckpointSummary {
	readonly checkpointId: string;
	readonly kind: CheckpointKind;
	readonly kindLabel: string;
	readonly status: CheckpointDto['status'];
	readonly sequence: number;
	readonly graphRevision: number;
	readonly subjectTaskId: string;
}

export interface WakeSummary {
	readonly wakeId: string;
	readonly wakeSequence: number;
	readonly status: WakeDto['status'];
	/** From the prompt's marker, as the Host read it ("Task settled · revision 3"), or the prompt's first line. */
	readonly compact: string;
	/** The prompt without its marker line. */
	readonly body: string;
}

/** A complete command the developer pastes into the source agent's terminal (Tutti never types into it). */
export interface HandBackModel {
	readonly command: string;
	/** Why it is shown: "Source agent idle", or "After your Accept: no agent was waiting"; empty when the attention label says it. */
	readonly why: string;
}

/** The Host's attention state for the issue, as the header's one line draws it. */
export interface HeaderAttention {
	readonly state: AttentionStateDto;
	readonly label: string;
	/** A failure or a stall: the only case drawn in the warning colour. */
	readonly stalled: boolean;
}

export interface HeaderModel {
	readonly issueId: string;
	readonly title: string;
	readonly managed: boolean;
	readonly statusLabel: string;
	readonly executionStatus: ExecutionStatus | null;
	readonly paused: boolean;
	readonly terminal: boolean;
	readonly progress: { readonly completed: number; readonly total: number };
	readonly activeCheckpoint: CheckpointSummary | null;
	readonly backlog: readonly CheckpointSummary[];
	readonly wakeHistory: readonly { readonly checkpoint: CheckpointSummary; readonly wakes: readonly WakeSummary[] }[];
	/** The tasks the Host says need the developer, with the Host's words for each. */
	readonly needsYou: readonly { readonly taskId: string; readonly title: string; readonly why: string }[];
	readonly goalReview: boolean;
	readonly attention: HeaderAttention;
	/** Managed issues: the source agent in one line ("Source agent waiting in await-review since 14:03:05Z"); null for manual ones. */
	readonly sourceAgent: string | null;
	readonly handBack: HandBackModel | null;
	/** The recovery hint of the plan (orchestration details; its commands are examples, so no Copy beside them). */
	readonly recoveryHint: string;
	/** The issue's last integration (`tutti issue integrate`), null before any. */
	readonly integrated: { readonly commit: string; readonly into: string } | null;
	/** What the issue's agent Turns spent, against its budget (the Host's figures): "Spent $1.20 of $5.00 · 8,600 tokens". */
	readonly spendLabel: string;
}

export interface GraphNodeModel {
	readonly taskId: string;
	readonly title: string;
	readonly label: string;
	readonly status: TaskStatus;
	readonly statusLabel: string;
	readonly superseded: boolean;
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
	readonly status: TaskStatus;
	readonly statusLabel: string;
	readonly ready: boolean;
	readonly selected: boolean;
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

export interface StopNoteModel {
	readonly eventId: string;
	readonly text: string;
}

export interface RunModel {
	readonly runId: string;
	readonly status: TaskStatus;
	readonly statusLabel: string;
	/** The Host's outcome label when settled; "Running for 1m 02s" / "Starting" / "Stopping…" otherwise. */
	readonly outcomeLabel: string;
	readonly nonterminal: boolean;
	readonly stopping: boolean;
	readonly durationLabel: string;
	readonly agentTargetId: string;
	readonly summary: string;
	readonly errorMessage: string;
	readonly usageLabel: string;
	readonly stopNotes: readonly StopNoteModel[];
	readonly executionDirectory: string;
}

export interface ChangedFileModel {
	readonly path: string;
	/** "+12 −3", or "binary". */
	readonly countsLabel: string;
	/** The counts in words, for screen readers ("12 lines added, 3 deleted", "binary file"). */
	readonly countsSpoken: string;
}

/** What the latest settled Run changed, as the Host recorded it (SPEC §8a), for the review block. */
export type ReviewChangesModel =
	| { readonly kind: 'files'; readonly files: readonly ChangedFileModel[] }
	| { readonly kind: 'sharedFolder' | 'noChanges' | 'notRecorded'; readonly message: string };

/** The latest Run's facts the developer decides on, above Accept / Request changes. */
export interface MessagesModel {
	readonly runId: string;
	/** What a message does now, from the Host's `messagesWhileRunning`. */
	readonly hint: string;
	readonly sent: readonly { readonly messageId: string; readonly text: string; readonly stateLabel: string }[];
}

const messageStateLabels = { queued: 'queued for the next turn', sent: 'sent, not echoed yet', delivered: 'delivered' } as const;

const messageHints = {
	'into-turn': 'It reaches the agent while it works',
	'queued-until-turn-ends': 'It starts the agent\u2019s next turn (this agent reads no messages while it works)',
} as const;

/** The message box is offered while the task's latest Run runs and the Host says its agent takes messages. */
function messagesModel(r: RunDto | undefined): MessagesModel | null {
	if (!r || r.status !== 'running' || r.messagesWhileRunning === undefined || r.messagesWhileRunning === 'not-accepted') { return null; }
	return {
		runId: r.runId, hint: messageHints[r.messagesWhileRunning],
		sent: (r.messages ?? []).map((m) => ({ messageId: m.messageId, text: m.text, stateLabel: messageStateLabels[m.state] })),
	};
}

export interface LatestRunModel {
	readonly runId: string;
	readonly outcomeLabel: string;
	readonly status: TaskStatus;
	readonly nonterminal: boolean;
	readonly stopping: boolean;
	/** "Started 14:02:11Z · ended 14:04:13Z" (or "· still running"). */
	readonly timesLabel: string;
	readonly usageLabel: string;
	readonly summary: string;
	readonly errorMessage: string;
}

export interface TranscriptEntryModel {
	readonly kind: TranscriptEntryDto['kind'];
	/** What kind of line it is, in words ("Agent", "Ran", "Edited", …). */
	readonly label: string;
	readonly text: string;
}

/** The live transcript of the latest Run (the Host reads it from the Run's stream; the panel only draws it). */
export interface TranscriptModel {
	readonly runId: string;
	readonly entries: readonly TranscriptEntryModel[];
	/** "Showing the latest 300 of 1,204 entries", or ''. */
	readonly omittedLabel: string;
	readonly live: boolean;
}

export interface RelatedTask {
	readonly taskId: string;
	readonly title: string;
	readonly statusLabel: string;
}

export interface DetailModel {
	readonly taskId: string;
	readonly title: string;
	readonly content: string;
	readonly status: TaskStatus;
	readonly statusLabel: string;
	readonly acceptanceLabel: string;
	/** The Host's reason the task awaits acceptance again ("changed after acceptance"); '' when none. */
	readonly reopenedReason: string;
	readonly ready: boolean;
	readonly blocker: string | null;
	readonly launch: readonly (readonly [string, string])[];
	readonly dependencies: readonly RelatedTask[];
	readonly replacedBy: RelatedTask | null;
	readonly replaces: readonly RelatedTask[];
	readonly superseded: boolean;
	readonly runs: readonly RunModel[];
	readonly usageLabel: string;
	/** The latest Run, leading the detail; null before the first Run. */
	readonly latest: LatestRunModel | null;
	/** Tool calls of the task's Runs that asked the developer: pending ones (with Allow / Deny) first. */
	readonly approvals: readonly ApprovalModel[];
	/** The message box of a running agent (its latest Run), with what was sent to it; null when no agent runs. */
	readonly messages: MessagesModel | null;
	readonly transcript: TranscriptModel | null;
	/** The developer's comments on the diff (`path:line`, text), sent with Request changes. */
	readonly reviewComments: readonly { readonly where: string; readonly text: string }[];
	readonly canAccept: boolean;
	readonly canRequestChanges: boolean;
	readonly canOpenChanges: boolean;
	/** The latest Run's changes, once it has settled; null while it runs or before any Run. */
	readonly changes: ReviewChangesModel | null;
}

export interface PanelModel {
	readonly header: HeaderModel;
	readonly controls: IssueControls;
	readonly graph: GraphModel;
	readonly detail: DetailModel | null;
}

function isSuperseded(t: TaskDto): boolean {
	return t.supersededAtUnixMs > 0 || t.supersededByTaskId !== '';
}

export function isNonterminalRun(r: RunDto): boolean {
	return r.outcome === null && (r.status === 'running' || r.status === 'not_started');
}

/**
 * What the panel derives from one task object, kept while the snapshot keeps that object: a delta replaces only the
 * tasks that changed (src/protocol/webviewDelta.ts), so a status change re-derives one task, not 1,000. Snapshots
 * are never mutated, so an object's derivations stay true.
 */
const panelTaskOf = new WeakMap<PlanTaskDto, PanelTask>();
const nodeOf = new WeakMap<PanelTask, { readonly key: string; readonly node: GraphNodeModel }>();

/** The tasks to draw: the plan's (managed, superseded history included) or the issue's, readiness as the Host sent it. */
export function panelTasks(s: PanelSnapshot): PanelTask[] {
	return (s.plan ? s.plan.tasks : s.issue.tasks).map((t) => {
		let task = panelTaskOf.get(t);
		if (task === undefined) {
			task = { ...t, superseded: isSuperseded(t) };
			panelTaskOf.set(t, task);
		}
		return task;
	});
}

function summarizeCheckpoint(c: CheckpointDto): CheckpointSummary {
	return {
		checkpointId: c.checkpointId, kind: c.kind, kindLabel: checkpointKindLabel[c.kind], status: c.status,
		sequence: c.sequence, graphRevision: c.graphRevision, subjectTaskId: c.subjectTaskId,
	};
}

/** A compact card line from the wake's marker (read by the Host); the prompt's first line when it has none. */
export function summarizeWake(w: WakeDto): WakeSummary {
	const compact = w.marker
		? `${checkpointKindLabel[w.marker.kind]} · revision ${w.marker.graphRevision}`
		: truncate(w.prompt.split('\n', 1)[0] ?? '', 120);
	return { wakeId: w.wakeId, wakeSequence: w.wakeSequence, status: w.status, compact, body: w.body };
}

/** The commands a hint spells between backticks, in order, without duplicates. */
export function commandsInHint(hint: string): string[] {
	const out: string[] = [];
	for (const m of hint.matchAll(/`([^`]+)`/g)) {
		const cmd = (m[1] ?? '').trim();
		if (cmd.startsWith('tutti ') && !out.includes(cmd)) { out.push(cmd); }
	}
	return out;
}

/** Whether the Host's one attention line already names the source agent (then the header does not say it again). */
function labelNamesSourceAgent(s: PanelSnapshot): boolean {
	return /source agent/i.test(s.issue.attention.label);
}

/**
 * The source agent's side of the Host's attention state, in one line — only what the attention label does not say
 * already: "Agent working: Source agent working on …" needs no "Source agent working" beside it, and "Waiting on the
 * source agent" only gains where it waits and since when.
 */
function sourceAgentLine(s: PanelSnapshot): string | null {
	const agent = s.issue.attention.sourceAgent;
	if (agent === null) { return null; }
	const named = labelNamesSourceAgent(s);
	switch (agent.activity) {
		case 'waiting': {
			const where = `in ${agent.waitingIn} since ${formatClock(agent.waitingSinceUnixMs)}`;
			return named ? `It waits ${where}` : `Source agent waiting ${where}`;
		}
		case 'working': return named ? null : 'Source agent working';
		case 'idle': return named ? null : 'Source agent idle';
		case 'between': return named ? null : 'Source agent between checkpoints';
		case 'gone': return named ? null : 'Source agent gone';
	}
}

/** The Host's hand-back command: the idle source agent's, else the one returned for the developer's last decision here. */
function handBack(s: PanelSnapshot): HandBackModel | null {
	const attention = s.issue.attention;
	// The label says "source agent idle" already: the command stands beside it with no words of its own.
	if (attention.handBackCommand !== '') { return { command: attention.handBackCommand, why: labelNamesSourceAgent(s) ? '' : 'Source agent idle' }; }
	const after = s.view.handBack;
	if (after !== null && after !== undefined && !s.issue.terminal) {
		return { command: after.command, why: `After your ${after.decision}: no agent was waiting to hear it` };
	}
	return null;
}

function header(s: PanelSnapshot, tasks: readonly PanelTask[]): HeaderModel {
	const terminal = s.issue.terminal;
	const plan = s.plan;
	const checkpoints = plan ? [...plan.checkpoints].sort((a, b) => a.sequence - b.sequence) : [];
	const active = plan?.activeCheckpoint ? summarizeCheckpoint(plan.activeCheckpoint) : null;
	const attention = s.issue.attention;
	const titles = new Map(tasks.map((t) => [t.taskId, t]));
	const issueTasks = new Map(s.issue.tasks.map((t) => [t.taskId, t]));
	const grouped = checkpoints.map((c) => ({
		checkpoint: summarizeCheckpoint(c),
		wakes: plan?.activeWake && plan.activeWake.checkpointId === c.checkpointId ? [summarizeWake(plan.activeWake)] : [],
	}));
	if (active && !grouped.some((g) => g.checkpoint.checkpointId === active.checkpointId)) {
		grouped.unshift({ checkpoint: active, wakes: plan?.activeWake?.checkpointId === active.checkpointId ? [summarizeWake(plan.activeWake)] : [] });
	}
	return {
		issueId: s.issue.issueId,
		title: s.issue.title,
		managed: plan !== null,
		statusLabel: plan ? executionStatusLabel[plan.execution.status] : { open: 'Open', in_progress: 'In progress', completed: 'Completed', archived: 'Archived' }[s.issue.status],
		executionStatus: plan ? plan.execution.status : null,
		paused: s.issue.dispatchPaused,
		terminal,
		progress: { completed: s.issue.counts.completed, total: s.issue.taskCount },
		activeCheckpoint: active,
		backlog: checkpoints.filter((c) => c.status === 'pending').map(summarizeCheckpoint),
		wakeHistory: grouped,
		needsYou: attention.reasons.flatMap((r) => r.taskIds).filter((id, i, all) => all.indexOf(id) === i).map((taskId) => ({
			taskId, title: titles.get(taskId)?.title ?? taskId, why: issueTasks.get(taskId)?.attention?.label ?? '',
		})),
		goalReview: s.issue.controls.confirmGoal,
		attention: { state: attention.state, label: attention.label, stalled: attention.stalled },
		sourceAgent: sourceAgentLine(s),
		handBack: handBack(s),
		recoveryHint: plan && !terminal ? plan.recoveryHint : '',
		spendLabel: spendLabel(s.issue.spend),
		integrated: s.issue.integratedCommit !== '' ? { commit: s.issue.integratedCommit, into: s.issue.integratedInto } : null,
	};
}

export const nodeLabelMax = 28;

/** What each running task's agent is doing now, from the Run the Host says is running (the newest line of its transcript). */
function activityByTask(runs: readonly RunDto[]): Map<string, string> {
	const out = new Map<string, string>();
	for (const r of runs) {
		if (r.status === 'running' && r.activity) { out.set(r.taskId, `${transcriptLabel[r.activity.kind]}: ${r.activity.text}`); }
	}
	return out;
}

function graph(tasks: readonly PanelTask[], ui: PanelUi, activity: ReadonlyMap<string, string> = new Map()): GraphModel {
	const options = ui.graphView ?? defaultGraphView;
	const historyVisible = tasks.filter((t) => ui.showHistory || !t.superseded);
	const dependencyEdges = historyVisible.flatMap((t) => t.dependencyTaskIds.map((d) => ({ from: d, to: t.taskId })));
	const inScope = scopeTaskIds(historyVisible, dependencyEdges, options);
	const visible = historyVisible.filter((t) => inScope.has(t.taskId));
	const ids = new Set(visible.map((t) => t.taskId));
	const highlighting = isHighlighting(options);
	const nodes = visible.map((t): GraphNodeModel => {
		const selected = t.taskId === ui.selectedTaskId;
		const match = highlighting && matchesFilter(t, options);
		const nodeActivity = t.status === 'running' ? activity.get(t.taskId) ?? '' : '';
		const key = `${selected ? 1 : 0}${match ? 1 : 0}${nodeActivity}`;
		const known = nodeOf.get(t);
		if (known !== undefined && known.key === key) { return known.node; }
		const statusLabel = t.reopenedReason !== '' ? `${taskStatusLabel[t.status]} · ${t.reopenedReason}` : taskStatusLabel[t.status];
		const extra = [t.superseded ? 'superseded' : '', t.ready ? 'ready' : '', t.dependencyTaskIds.length ? `${t.dependencyTaskIds.length} dependencies` : 'no dependencies'];
		const node: GraphNodeModel = {
			taskId: t.taskId, title: t.title, label: truncate(t.title, nodeLabelMax), status: t.status, statusLabel,
			superseded: t.superseded, ready: t.ready, selected, match,
			ariaLabel: [`Task ${t.title}`, statusLabel, ...extra.filter((e) => e !== '')].join(', '),
			activity: nodeActivity,
		};
		nodeOf.set(t, { key, node });
		return node;
	});
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
	const counts = new Map<TaskStatus, number>();
	for (const n of nodes) { counts.set(n.status, (counts.get(n.status) ?? 0) + 1); }
	const parts = [...counts].map(([status, n]) => `${n} ${taskStatusLabel[status].toLowerCase()}`);
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
		return listed.map((t) => ({
			taskId: t.taskId, title: t.title, status: t.status, statusLabel: taskStatusLabel[t.status], ready: t.ready,
			selected: t.taskId === ui.selectedTaskId,
		}));
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

function spendLabel(spend: PanelSnapshot['issue']['spend']): string {
	const usd = spend.budgetUsd !== null ? `${formatUsd(spend.costUsd)} of ${formatUsd(spend.budgetUsd)}` : formatUsd(spend.costUsd);
	const tokens = spend.budgetTokens !== null ? `${formatCount(spend.tokens)} of ${formatCount(spend.budgetTokens)} tokens` : `${formatCount(spend.tokens)} tokens`;
	const unpriced = spend.unpricedTurns > 0 ? ` (+${formatCount(spend.unpricedTurns)} Turns of unknown cost)` : '';
	return `Spent ${usd}${unpriced} · ${tokens}`;
}

function usageLabel(runs: readonly RunDto[]): string {
	let input = 0, output = 0, cacheRead = 0, cacheWrite = 0;
	for (const r of runs) {
		input += r.usage.inputTokens; output += r.usage.outputTokens;
		cacheRead += r.usage.cacheReadTokens; cacheWrite += r.usage.cacheWriteTokens;
	}
	if (input + output + cacheRead + cacheWrite === 0) { return 'No usage recorded'; }
	// One Run: its cost as the Host computed it (the agent's figure, else its model's price; null: unknown).
	const cost = runs.length === 1 ? ` · ${runs[0]!.costUsd === null ? 'cost unknown' : formatUsd(runs[0]!.costUsd)}` : '';
	return `${formatCount(input)} in · ${formatCount(output)} out · ${formatCount(cacheRead)} cache read · ${formatCount(cacheWrite)} cache write tokens${cost}`;
}

function runModel(r: RunDto): RunModel {
	const nonterminal = isNonterminalRun(r);
	const stopping = nonterminal && r.stopNotes.some((n) => n.reason === 'person' && (n.answer === null || n.answer === 'took' || n.answer === 'end-owed'));
	const outcomeLabel = r.outcomeLabel ?? (stopping
		? `Stopping… (running for ${formatDuration(r.durationMs)})`
		: r.status === 'running' ? `Running for ${formatDuration(r.durationMs)}` : 'Starting');
	return {
		runId: r.runId,
		status: r.status,
		statusLabel: taskStatusLabel[r.status],
		outcomeLabel,
		nonterminal,
		stopping,
		durationLabel: formatDuration(r.durationMs),
		agentTargetId: r.agentTargetId,
		summary: r.summary,
		errorMessage: r.errorMessage,
		usageLabel: usageLabel([r]),
		stopNotes: r.stopNotes.map((n) => ({
			eventId: n.eventId,
			text: `Stop by ${stopReasonLabel(n.reason)}: ${n.answer ? stopAnswerLabel[n.answer] : 'no answer yet'}`,
		})),
		executionDirectory: r.executionDirectory,
	};
}

function plural(n: number, one: string, many: string): string {
	return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** Drawn from the Run's recorded facts only: where it worked, its result commit and `git diff --numstat`. */
export function reviewChanges(r: RunDto | undefined): ReviewChangesModel | null {
	if (!r || isNonterminalRun(r)) { return null; }
	if (!r.inWorktree) { return { kind: 'sharedFolder', message: 'Worked in the shared folder: its changes may include other changes' }; }
	if (r.changedFiles.length > 0) {
		return {
			kind: 'files',
			files: r.changedFiles.map((f) => ({
				path: f.path,
				countsLabel: f.binary ? 'binary' : `+${formatCount(f.added)} \u2212${formatCount(f.deleted)}`,
				countsSpoken: f.binary ? 'binary file' : `${plural(f.added, 'line', 'lines')} added, ${formatCount(f.deleted)} deleted`,
			})),
		};
	}
	return r.resultCommit === ''
		? { kind: 'notRecorded', message: 'Its result is not recorded yet' }
		: { kind: 'noChanges', message: 'No files changed' };
}

const transcriptLabel: Readonly<Record<TranscriptEntryDto['kind'], string>> = {
	assistant: 'Agent', tool: 'Ran', edit: 'Edited', error: 'Error', user: 'Sent', result: 'Result', output: 'Output',
};

function transcriptModel(t: PanelTranscript | null | undefined, latest: RunDto | undefined): TranscriptModel | null {
	if (!t || !latest || t.runId !== latest.runId) { return null; }
	return {
		runId: t.runId,
		entries: t.entries.map((e) => ({ kind: e.kind, label: transcriptLabel[e.kind], text: e.text })),
		omittedLabel: t.omittedCount > 0 ? `Showing the latest ${formatCount(t.entries.length)} of ${formatCount(t.entries.length + t.omittedCount)} entries` : '',
		live: !t.done,
	};
}

function latestRunModel(r: RunDto | undefined): LatestRunModel | null {
	if (!r) { return null; }
	const m = runModel(r);
	const ended = r.completedAtUnixMs > 0 ? `ended ${formatClock(r.completedAtUnixMs)}` : m.nonterminal ? 'still running' : 'end not recorded';
	const started = r.startedAtUnixMs > 0 ? `Started ${formatClock(r.startedAtUnixMs)}` : 'Not started yet';
	return {
		runId: r.runId, outcomeLabel: m.outcomeLabel, status: r.status, nonterminal: m.nonterminal, stopping: m.stopping,
		timesLabel: r.startedAtUnixMs > 0 ? `${started} · ${ended}` : started,
		usageLabel: m.usageLabel, summary: r.summary, errorMessage: r.errorMessage,
	};
}

/** Launch settings a task set itself (defaults are not repeated): the agent target always, the rest when set. */
function launchSettings(t: PanelTask): (readonly [string, string])[] {
	const rows: (readonly [string, string])[] = [['Agent target', t.agentTargetId || '(none)']];
	if (t.model) { rows.push(['Model', t.model]); }
	if (t.permissionModeId) { rows.push(['Permission mode', t.permissionModeId]); }
	if (t.reasoningEffort) { rows.push(['Reasoning effort', t.reasoningEffort]); }
	if (t.executionDirectory) { rows.push(['Execution directory', t.executionDirectory]); }
	if (t.autoAccept) { rows.push(['Auto-accept', 'yes']); }
	return rows;
}

function related(t: PanelTask | undefined, taskId: string): RelatedTask {
	return { taskId, title: t?.title ?? taskId, statusLabel: t ? taskStatusLabel[t.status] : 'Unknown task' };
}

function detail(s: PanelSnapshot, tasks: readonly PanelTask[], ui: PanelUi): DetailModel | null {
	if (ui.selectedTaskId === null) { return null; }
	const byId = new Map(tasks.map((t) => [t.taskId, t]));
	const t = byId.get(ui.selectedTaskId);
	if (!t) { return null; }
	const runs = s.runs.filter((r) => r.taskId === t.taskId).sort((a, b) => b.createdAtUnixMs - a.createdAtUnixMs || (a.runId < b.runId ? 1 : -1));
	const open = !s.issue.terminal && !t.superseded;
	const acceptance = { '': 'Not accepted', agent_claimed: 'Claimed by the agent', auto_checked: 'Accepted automatically', user_accepted: 'Accepted by you' }[t.acceptanceState];
	return {
		taskId: t.taskId,
		title: t.title,
		content: t.content,
		status: t.status,
		statusLabel: taskStatusLabel[t.status],
		acceptanceLabel: acceptance,
		reopenedReason: t.reopenedReason,
		ready: t.ready,
		// A task that already ran (or runs) is not blocked: `task_not_started` only says it cannot be scheduled again.
		blocker: t.blockerReason === '' || t.blockerReason === 'task_not_started' ? null : blockerLabel[t.blockerReason],
		launch: launchSettings(t),
		dependencies: t.dependencyTaskIds.map((d) => related(byId.get(d), d)),
		replacedBy: t.supersededByTaskId ? related(byId.get(t.supersededByTaskId), t.supersededByTaskId) : null,
		replaces: tasks.filter((o) => o.supersededByTaskId === t.taskId).map((o) => related(o, o.taskId)),
		superseded: t.superseded,
		runs: runs.map(runModel),
		usageLabel: usageLabel(runs),
		latest: latestRunModel(runs[0]),
		approvals: approvalModels(runs),
		messages: messagesModel(runs[0]),
		transcript: transcriptModel(s.transcript, runs[0]),
		reviewComments: (s.reviewComments ?? []).map((c) => ({ where: `${c.path}:${c.line}`, text: c.text })),
		canAccept: open && t.status === 'pending_acceptance',
		canRequestChanges: open && t.status === 'pending_acceptance',
		canOpenChanges: runs.some((r) => r.executionDirectory !== '' && !isNonterminalRun(r)),
		changes: reviewChanges(runs[0]),
	};
}

export function derivePanelModel(s: PanelSnapshot, ui: PanelUi): PanelModel {
	const tasks = panelTasks(s).sort((a, b) => a.sortIndex - b.sortIndex || a.createdAtUnixMs - b.createdAtUnixMs);
	return { header: header(s, tasks), controls: s.issue.controls, graph: graph(tasks, ui, activityByTask(s.runs)), detail: detail(s, tasks, ui) };
}
