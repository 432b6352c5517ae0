// The issue board as plain data: which group each issue is in, its progress, badges, what needs the developer and
// which actions apply. The Host derives whether an issue is terminal and which controls apply (IssueDto); the board
// draws them. No vscode import, so it is unit-tested (test/unit/extension/boardModel.test.ts).
import { attentionStateNames, inSentence } from '../../core/attention/vocabulary.js';
import type { AttentionStateDto, IssueDto } from '../../protocol/dto.js';
import type { ExecutionSummary } from '../changes/workspaceState.js';

export type BoardGroupId = 'needsYou' | 'agentWorking' | 'waitingOnAgent' | 'paused' | 'notStarted' | 'planned' | 'done';

export const boardGroupOrder: readonly BoardGroupId[] = ['needsYou', 'agentWorking', 'waitingOnAgent', 'paused', 'notStarted', 'planned', 'done'];

/** The Host's attention state, as the board's group (one to one). */
export const groupOfState: Readonly<Record<AttentionStateDto, BoardGroupId>> = {
	needs_you: 'needsYou',
	agent_working: 'agentWorking',
	waiting_on_agent: 'waitingOnAgent',
	paused: 'paused',
	not_started: 'notStarted',
	planned: 'planned',
	done: 'done',
};

const stateOfGroup = Object.fromEntries(Object.entries(groupOfState).map(([state, group]) => [group, state])) as Record<BoardGroupId, AttentionStateDto>;

/** Each group is named by its state's one name (src/core/attention/vocabulary.ts). */
export const boardGroupLabels: Readonly<Record<BoardGroupId, string>> = Object.fromEntries(
	boardGroupOrder.map((id) => [id, attentionStateNames[stateOfGroup[id]]]),
) as Record<BoardGroupId, string>;

export interface BoardActions {
	readonly canPause: boolean;
	readonly canResume: boolean;
	readonly canStop: boolean;
}

export interface BoardIssue {
	readonly issueId: string;
	readonly title: string;
	readonly group: BoardGroupId;
	readonly managed: boolean;
	/** Completed tasks / active tasks (superseded tasks excluded). */
	readonly progress: { readonly done: number; readonly total: number; readonly label: string };
	/** Short markers: "2 to accept", "goal review", "1 failed", "paused". */
	readonly badges: readonly string[];
	/** Why the developer is needed (empty when not). */
	readonly needsYou: readonly string[];
	/** The kinds of the reasons (stable while only a count changes): what a notification is shown once for. */
	readonly reasonKinds: readonly string[];
	/** The Host's one line for the issue's state ("Needs you: 1 task to accept", "Agent working: …"). */
	readonly stateLabel: string;
	/** A failure or a stall: the only case drawn in the warning colour. */
	readonly stalled: boolean;
	readonly runningRuns: number;
	readonly actions: BoardActions;
	/** One line next to the title. */
	readonly description: string;
	/** A few lines for the hover. */
	readonly tooltip: string;
	/**
	 * The tree item's contextValue: `issue` plus `:pause`, `:resume`, `:stop`, `:managed`, `:needsYou` flags, then the Host's
	 * other controls: `:start`, `:addTask`, `:reviewTask` (Accept Task), `:requestChanges` (a task's or the goal's),
	 * `:confirmGoal`, `:integrate`, `:finish`, `:followUp`, `:sourceStop`, `:reviewToSelf`, `:runOutput` (some Run
	 * exists), `:combinedChanges` (Open Combined Diff); `:running` while a Run runs.
	 */
	readonly contextValue: string;
	readonly updatedAtUnixMs: number;
}

export interface BoardGroup {
	readonly id: BoardGroupId;
	readonly label: string;
	readonly issues: readonly BoardIssue[];
}

export interface BoardModel {
	/** Every group in board order, empty ones included (the view decides whether to show them). */
	readonly groups: readonly BoardGroup[];
	/** Issues that need the developer (the view badge). */
	readonly needsYouCount: number;
	/** Issues in each attention state. */
	readonly stateCounts: Readonly<Record<BoardGroupId, number>>;
	/** Some issue that needs the developer has a failure or a stall among its reasons. */
	readonly stalled: boolean;
	/** Tasks running across the workspace (one Run each). */
	readonly runningRunCount: number;
}

function plural(n: number, one: string, many: string = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

/** Why the developer is needed, as the Host says it (most urgent first). */
export function needsYouReasons(issue: IssueDto): string[] {
	return issue.attention.state === 'needs_you' ? issue.attention.reasons.map((r) => r.label) : [];
}

/** The Host's controls, drawn as the board's Pause, Resume and Stop. */
export function boardActions(issue: IssueDto): BoardActions {
	return { canPause: issue.controls.pause, canResume: issue.controls.resume, canStop: issue.controls.stop };
}

export function boardGroupOf(issue: IssueDto): BoardGroupId {
	return groupOfState[issue.attention.state];
}

function tooltipOf(issue: IssueDto, execution: ExecutionSummary | undefined, progress: string): string {
	const c = issue.counts;
	const lines = [
		issue.title,
		`${issue.planningSource === 'tutti' ? 'Managed' : 'Manual'} issue ${issue.issueId} · ${issue.status.replace('_', ' ')}`,
		`Tasks: ${progress} completed · ${c.running} running · ${c.pendingAcceptance} to accept · ${c.notStarted} not started · ${c.failed} failed · ${c.canceled} canceled`,
	];
	if (issue.executionStatus !== null) {
		const cp = execution?.activeCheckpoint;
		const pending = execution?.pendingCheckpoints ?? 0;
		lines.push(`Execution: ${issue.executionStatus.replace(/_/g, ' ')}${cp ? ` · checkpoint ${cp.kind.replace(/_/g, ' ')} #${cp.sequence} (revision ${cp.graphRevision})` : ''}${pending > 0 ? ` · ${pending} pending` : ''}`);
	}
	lines.push(issue.attention.label);
	if (issue.worktreeDisk) { lines.push(`Worktrees: ${issue.worktreeDisk.label} on disk`); }
	return lines.join('\n');
}

export function toBoardIssue(issue: IssueDto, execution: ExecutionSummary | undefined): BoardIssue {
	const done = issue.counts.completed;
	const total = issue.taskCount;
	const progressLabel = `${done}/${total}`;
	const needsYou = needsYouReasons(issue);
	const badges = needsYou;
	const actions = boardActions(issue);
	const running = issue.counts.running;
	const flags = [
		actions.canPause ? 'pause' : '',
		actions.canResume ? 'resume' : '',
		actions.canStop ? 'stop' : '',
		issue.planningSource === 'tutti' ? 'managed' : '',
		needsYou.length > 0 ? 'needsYou' : '',
		issue.controls.start ? 'start' : '',
		issue.controls.addTask ? 'addTask' : '',
		issue.controls.reviewTask ? 'reviewTask' : '',
		issue.controls.reviewTask || issue.controls.requestGoalChanges ? 'requestChanges' : '',
		issue.controls.confirmGoal ? 'confirmGoal' : '',
		issue.controls.integrate ? 'integrate' : '',
		issue.controls.finish ? 'finish' : '',
		issue.controls.followUp ? 'followUp' : '',
		// Not `stopSource`: the menus match `/:stop/` for Stop Issue.
		issue.controls.stopSource ? 'sourceStop' : '',
		issue.controls.switchReviewToSelf ? 'reviewToSelf' : '',
		issue.controls.runOutput ? 'runOutput' : '',
		issue.controls.combinedChanges ? 'combinedChanges' : '',
		running > 0 ? 'running' : '',
	].filter((f) => f !== '');
	const attention = issue.attention;
	// The state's own words: the reasons when it needs you, what is being done when an agent works.
	const stateWords = attention.state === 'needs_you' ? needsYou.join(' · ')
		: attention.state === 'agent_working' ? attention.activity
			: attention.state === 'done' || attention.state === 'planned' || attention.state === 'not_started' ? '' : attention.label;
	// The disk its worktrees use, as the Host last measured it ("2 trees · 12.3 MB"): what Finish or prune would free.
	const disk = issue.worktreeDisk?.label ?? '';
	const description = [total === 0 ? 'no tasks' : `${progressLabel} tasks`, stateWords, disk].filter((part) => part !== '').join(' · ');
	return {
		issueId: issue.issueId,
		title: issue.title,
		group: boardGroupOf(issue),
		managed: issue.planningSource === 'tutti',
		progress: { done, total, label: progressLabel },
		badges,
		needsYou,
		reasonKinds: attention.state === 'needs_you' ? attention.reasons.map((r) => r.kind) : [],
		stateLabel: attention.label,
		stalled: attention.stalled,
		runningRuns: running,
		actions,
		description,
		tooltip: tooltipOf(issue, execution, progressLabel),
		contextValue: ['issue', ...flags].join(':'),
		updatedAtUnixMs: issue.updatedAtUnixMs,
	};
}

/** Groups the issues in board order; within a group, most recently updated first. */
export function buildBoard(issues: readonly IssueDto[], executions: ReadonlyMap<string, ExecutionSummary>): BoardModel {
	const items = issues.map((issue) => toBoardIssue(issue, executions.get(issue.issueId)));
	const groups = boardGroupOrder.map((id) => ({
		id,
		label: boardGroupLabels[id],
		issues: items
			.filter((item) => item.group === id)
			.sort((a, b) => b.updatedAtUnixMs - a.updatedAtUnixMs || a.issueId.localeCompare(b.issueId)),
	}));
	const stateCounts = Object.fromEntries(boardGroupOrder.map((id) => [id, items.filter((item) => item.group === id).length])) as Record<BoardGroupId, number>;
	return {
		groups,
		needsYouCount: stateCounts.needsYou,
		stateCounts,
		stalled: items.some((item) => item.group === 'needsYou' && item.stalled),
		runningRunCount: items.reduce((sum, item) => sum + item.runningRuns, 0),
	};
}

/** The status bar text, from the attention states: "1 needs you · 2 agent working", or "nothing needs you". */
export function statusSummary(model: BoardModel): string {
	const c = model.stateCounts;
	const named = (group: BoardGroupId): string => (c[group] > 0 ? `${c[group]} ${inSentence(boardGroupLabels[group])}` : '');
	const parts = [
		// "2 need you": the one name, in agreement with its count.
		c.needsYou > 0 ? `${c.needsYou} ${inSentence(boardGroupLabels.needsYou).replace(/^needs\b/, c.needsYou === 1 ? 'needs' : 'need')}` : '',
		named('agentWorking'),
		named('waitingOnAgent'),
		named('paused'),
		named('notStarted'),
	];
	const text = parts.filter((p) => p !== '').join(' · ');
	return text === '' ? 'nothing needs you' : text;
}

/** The status bar's codicon: a stall or failure, something that needs you, an agent at work, or all quiet. */
export function statusIcon(model: BoardModel): string {
	if (model.stalled) { return 'warning'; }
	if (model.stateCounts.needsYou > 0) { return 'bell-dot'; }
	if (model.stateCounts.agentWorking > 0) { return 'sync~spin'; }
	if (model.stateCounts.waitingOnAgent > 0) { return 'watch'; }
	return 'check';
}

/**
 * Issues that need the developer for a reason they did not need them for before (compared by issue and reasons),
 * so a notification is shown once per new reason and not on every refresh.
 */
export function newlyNeedingYou(previous: BoardModel | undefined, next: BoardModel): BoardIssue[] {
	const seen = new Set<string>();
	for (const group of previous?.groups ?? []) {
		for (const item of group.issues) {
			for (const kind of item.reasonKinds) {
				seen.add(`${item.issueId}\u0000${kind}`);
			}
		}
	}
	return next.groups
		.flatMap((group) => group.issues)
		.filter((item) => item.reasonKinds.some((kind) => !seen.has(`${item.issueId}\u0000${kind}`)));
}

/** Issues that are done now and were on the board, not done, before (the `all` notifications level). */
export function newlyDone(previous: BoardModel | undefined, next: BoardModel): BoardIssue[] {
	if (previous === undefined) { return []; }
	const before = new Map(previous.groups.flatMap((g) => g.issues).map((i) => [i.issueId, i.group]));
	return next.groups.flatMap((g) => g.issues).filter((i) => i.group === 'done' && before.has(i.issueId) && before.get(i.issueId) !== 'done');
}

/** "Issue X needs you: goal review · 2 to accept". */
export function needsYouMessage(items: readonly BoardIssue[]): string {
	if (items.length === 1) {
		const item = items[0]!;
		return `Tutti: "${item.title}" ${inSentence(attentionStateNames.needs_you)}: ${item.needsYou.join(' · ')}`;
	}
	return `Tutti: ${plural(items.length, 'issue')} ${inSentence(attentionStateNames.needs_you).replace(/^needs\b/, 'need')}: ${items.map((i) => `"${i.title}" (${i.needsYou.join(', ')})`).join('; ')}`;
}
