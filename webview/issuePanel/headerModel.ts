// The issue header as the panel draws it: title, progress, the Host's one attention line with the source agent's
// side and a hand-back command, the active checkpoint, backlog and wake history, and the spend. Pure.
import { checkpointKindLabel, executionStatusLabel, formatClock, formatCount, formatUsd, truncate } from './format.js';
import type { PanelTask } from './panelTasks.js';
import type { AttentionStateDto, CheckpointDto, CheckpointKind, DeliveryState, ExecutionStatus, PanelSnapshot, WakeDto } from './snapshotTypes.js';

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
	/** Where the accepted work is: Integrate is the primary action while it is ready to integrate. */
	readonly delivery: DeliveryState;
	/** What the issue's agent Turns spent, against its budget (the Host's figures): "Spent $1.20 of $5.00 · 8,600 tokens". */
	readonly spendLabel: string;
	/** The task whose review the Tab order reaches first (the selected one if the Host offers Accept on it, else the first), and how many await it. */
	readonly reviewJump: { readonly taskId: string; readonly title: string; readonly count: number } | null;
	/** The conflict the last Integrate met, as the Host described it; null when none is shown. */
	readonly conflict: ConflictModel | null;
}

/** The conflict block: what the Host's refusal said, and which of its ways forward the panel offers now. */
export interface ConflictModel {
	readonly into: string;
	readonly paths: readonly string[];
	readonly taskId: string;
	readonly taskTitle: string;
	/** What the task's work conflicts with: "task b" for a task of this issue, else the branch. */
	readonly withLabel: string;
	/** The block offers Update from base: the Host's task control offers it on the task now, and the Host's ways name it. */
	readonly updateFromBase: boolean;
	/** The task's tree (relative to the workspace); '' when it has none. */
	readonly tree: string;
	/** The Host's ways forward, one short line each, with the block's button it goes with (null: a line without one). */
	readonly ways: readonly ConflictWayModel[];
}

export interface ConflictWayModel {
	readonly action: 'update_from_base' | 'open_tree' | null;
	readonly text: string;
}

function conflictOf(s: PanelSnapshot, titles: ReadonlyMap<string, PanelTask>): ConflictModel | null {
	const c = s.view.conflict;
	if (!c) { return null; }
	const tasks = new Map(s.issue.tasks.map((t) => [t.taskId, t]));
	const other = c.between.find((b) => b !== c.taskId) ?? '';
	return {
		into: c.into, paths: c.paths, taskId: c.taskId, taskTitle: titles.get(c.taskId)?.title ?? c.taskId,
		withLabel: tasks.has(other) ? `task ${other}` : c.into,
		updateFromBase: tasks.get(c.taskId)?.controls.updateFromBase === true && c.ways.some((w) => w.action === 'update_from_base'),
		tree: c.tree, ways: c.ways,
	};
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

function spendLabel(spend: PanelSnapshot['issue']['spend']): string {
	const usd = spend.budgetUsd !== null ? `${formatUsd(spend.costUsd)} of ${formatUsd(spend.budgetUsd)}` : formatUsd(spend.costUsd);
	const tokens = spend.budgetTokens !== null ? `${formatCount(spend.tokens)} of ${formatCount(spend.budgetTokens)} tokens` : `${formatCount(spend.tokens)} tokens`;
	const unpriced = spend.unpricedTurns > 0 ? ` (+${formatCount(spend.unpricedTurns)} Turns of unknown cost)` : '';
	return `Spent ${usd}${unpriced} · ${tokens}`;
}

const issueStatusLabel = { open: 'Open', in_progress: 'In progress', completed: 'Completed', archived: 'Archived' } as const;

/** The tasks the Host offers Accept on, the selected one first. */
function reviewJumpOf(tasks: readonly PanelTask[], selectedTaskId: string | null): HeaderModel['reviewJump'] {
	const reviewable = tasks.filter((t) => t.controls.accept);
	const first = reviewable.find((t) => t.taskId === selectedTaskId) ?? reviewable[0];
	return first ? { taskId: first.taskId, title: first.title, count: reviewable.length } : null;
}

export function headerModel(s: PanelSnapshot, tasks: readonly PanelTask[], selectedTaskId: string | null = s.view.selectedTaskId): HeaderModel {
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
		statusLabel: plan ? executionStatusLabel[plan.execution.status] : issueStatusLabel[s.issue.status],
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
		delivery: s.issue.delivery,
		reviewJump: reviewJumpOf(tasks, selectedTaskId),
		conflict: conflictOf(s, titles),
	};
}
