// The issue board as plain data: which group each issue is in, its progress, badges, what needs the developer and
// which actions apply. The Host derives whether an issue is terminal and which controls apply (IssueDto); the board
// draws them. No vscode import, so it is unit-tested (test/unit/extension/boardModel.test.ts).
import type { IssueDto } from '../../protocol/dto.js';
import type { ExecutionSummary } from '../changes/workspaceState.js';

export type BoardGroupId = 'needsYou' | 'running' | 'paused' | 'planned' | 'done';

export const boardGroupOrder: readonly BoardGroupId[] = ['needsYou', 'running', 'paused', 'planned', 'done'];

export const boardGroupLabels: Readonly<Record<BoardGroupId, string>> = {
	needsYou: 'Needs you',
	running: 'Running',
	paused: 'Paused',
	planned: 'Planned',
	done: 'Done',
};

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
	readonly runningRuns: number;
	readonly actions: BoardActions;
	/** One line next to the title. */
	readonly description: string;
	/** A few lines for the hover. */
	readonly tooltip: string;
	/** The tree item's contextValue: `issue` plus `:pause`, `:resume`, `:stop`, `:managed`, `:needsYou` flags. */
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
	/** Tasks running across the workspace (one Run each). */
	readonly runningRunCount: number;
}

/** A managed issue whose source agent is at work (a wake or Runs in flight), not waiting for its first schedule. */
const workingExecution: ReadonlySet<IssueDto['executionStatus']> = new Set(['running', 'awaiting_main']);

function plural(n: number, one: string, many: string = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

/**
 * Over, with nothing left for the developer. The Host says whether an issue is terminal; an orphaned execution is
 * terminal too, but it needs the developer (its source agent is gone), so it stays out of Done.
 */
function isDone(issue: IssueDto): boolean {
	return issue.terminal && issue.executionStatus !== 'orphaned_source';
}

/** Why the developer is needed, most urgent first. */
export function needsYouReasons(issue: IssueDto): string[] {
	if (isDone(issue)) {
		return [];
	}
	const reasons: string[] = [];
	if (issue.controls.confirmGoal) {
		reasons.push('goal review');
	}
	if (issue.counts.pendingAcceptance > 0) {
		reasons.push(`${issue.counts.pendingAcceptance} to accept`);
	}
	if (issue.changedAfterAcceptanceTaskIds.length > 0) {
		reasons.push(`${issue.changedAfterAcceptanceTaskIds.length} changed after acceptance`);
	}
	if (issue.executionStatus === 'orphaned_source') {
		reasons.push('source agent gone');
	}
	if (issue.planningSource === 'manual' && issue.counts.failed > 0) {
		reasons.push(`${issue.counts.failed} failed`);
	}
	return reasons;
}

/** The Host's controls, drawn as the board's Pause, Resume and Stop. */
export function boardActions(issue: IssueDto): BoardActions {
	return { canPause: issue.controls.pause, canResume: issue.controls.resume, canStop: issue.controls.stop };
}

export function boardGroupOf(issue: IssueDto): BoardGroupId {
	if (isDone(issue)) {
		return 'done';
	}
	if (needsYouReasons(issue).length > 0) {
		return 'needsYou';
	}
	if (issue.dispatchPaused) {
		return 'paused';
	}
	if (issue.counts.running > 0 || issue.status === 'in_progress' || workingExecution.has(issue.executionStatus)) {
		return 'running';
	}
	return 'planned';
}

function badgesOf(issue: IssueDto, needsYou: readonly string[]): string[] {
	const badges = [...needsYou];
	if (issue.planningSource === 'tutti' && issue.counts.failed > 0) {
		badges.push(`${issue.counts.failed} failed`);
	}
	if (issue.dispatchPaused && !isDone(issue)) {
		badges.push('paused');
	}
	return badges;
}

function tooltipOf(issue: IssueDto, execution: ExecutionSummary | undefined, progress: string, badges: readonly string[]): string {
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
	if (badges.length > 0) {
		lines.push(badges.join(' · '));
	}
	return lines.join('\n');
}

export function toBoardIssue(issue: IssueDto, execution: ExecutionSummary | undefined): BoardIssue {
	const done = issue.counts.completed;
	const total = issue.taskCount;
	const progressLabel = `${done}/${total}`;
	const needsYou = needsYouReasons(issue);
	const badges = badgesOf(issue, needsYou);
	const actions = boardActions(issue);
	const running = issue.counts.running;
	const flags = [
		actions.canPause ? 'pause' : '',
		actions.canResume ? 'resume' : '',
		actions.canStop ? 'stop' : '',
		issue.planningSource === 'tutti' ? 'managed' : '',
		needsYou.length > 0 ? 'needsYou' : '',
	].filter((f) => f !== '');
	const description = [
		total === 0 ? 'no tasks' : `${progressLabel} tasks`,
		running > 0 ? `${running} running` : '',
		...badges,
	].filter((part) => part !== '').join(' · ');
	return {
		issueId: issue.issueId,
		title: issue.title,
		group: boardGroupOf(issue),
		managed: issue.planningSource === 'tutti',
		progress: { done, total, label: progressLabel },
		badges,
		needsYou,
		runningRuns: running,
		actions,
		description,
		tooltip: tooltipOf(issue, execution, progressLabel, badges),
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
	return {
		groups,
		needsYouCount: items.filter((item) => item.needsYou.length > 0).length,
		runningRunCount: items.reduce((sum, item) => sum + item.runningRuns, 0),
	};
}

/** The status bar text: "$(sync~spin) 2 running · 1 needs you" style, without the icon. */
export function statusSummary(model: BoardModel): string {
	const parts = [model.runningRunCount > 0 ? `${model.runningRunCount} running` : '', model.needsYouCount > 0 ? `${model.needsYouCount} need${model.needsYouCount === 1 ? 's' : ''} you` : ''];
	const text = parts.filter((p) => p !== '').join(' · ');
	return text === '' ? 'idle' : text;
}

/**
 * Issues that need the developer for a reason they did not need them for before (compared by issue and reasons),
 * so a notification is shown once per new reason and not on every refresh.
 */
export function newlyNeedingYou(previous: BoardModel | undefined, next: BoardModel): BoardIssue[] {
	const seen = new Set<string>();
	for (const group of previous?.groups ?? []) {
		for (const item of group.issues) {
			for (const reason of item.needsYou) {
				seen.add(`${item.issueId}\u0000${reason.replace(/^\d+ /, '')}`);
			}
		}
	}
	return next.groups
		.flatMap((group) => group.issues)
		.filter((item) => item.needsYou.some((reason) => !seen.has(`${item.issueId}\u0000${reason.replace(/^\d+ /, '')}`)));
}

/** "Issue X needs you: goal review · 2 to accept". */
export function needsYouMessage(items: readonly BoardIssue[]): string {
	if (items.length === 1) {
		const item = items[0]!;
		return `Tutti: "${item.title}" needs you: ${item.needsYou.join(' · ')}`;
	}
	return `Tutti: ${plural(items.length, 'issue')} need you: ${items.map((i) => `"${i.title}" (${i.needsYou.join(', ')})`).join('; ')}`;
}
