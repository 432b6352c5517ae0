// One attention state per issue and per task: needs you · agent working · waiting on agent · paused · not started ·
// planned · done (named in vocabulary.ts). Derived once, here, from the same facts and the same "what is owed next"
// derivation that serves `tutti agent resume` (src/core/next/owed.ts); the Host sends it in every IssueDto and the
// board, the view badge, the status bar, the panel and notifications draw it and derive nothing. Pure.
import { type DeliveryFacts, deliveryOf, doneLabel } from '../issues/delivery.js';
import { isIssueClosed, isUnstartedManualIssue } from '../issues/issueControls.js';
import { agentResumeCommand } from '../next/commands.js';
import type { IssueFacts, TaskFacts } from '../next/facts.js';
import { owedOnIssue } from '../next/owed.js';
import { type TaskIndex, taskIndex } from '../next/taskIndex.js';
import type { ReworkKind, RunOutcome, RunStatus, TaskStatus, WakeStatus } from '../model.js';
import { outsideChangesLabel } from '../runs/outsideChanges.js';
import { quietFor, stalledLabel } from '../runs/stallRules.js';
import { type AttentionState, attentionPhrases as phrases, attentionStateNames as names, pendingReworkLabel } from './vocabulary.js';

export { type AttentionState, attentionStates } from './vocabulary.js';

export const needsYouReasonKinds = [
	'task_awaiting_acceptance', 'goal_review', 'failed_run', 'merge_conflict', 'source_idle', 'source_gone', 'budget_reached', 'approval_asked',
	'outside_changes', 'ready_to_integrate', 'run_stalled',
] as const;
export type NeedsYouReasonKind = (typeof needsYouReasonKinds)[number];

export interface NeedsYouReason {
	readonly kind: NeedsYouReasonKind;
	/** Short, for a list or a badge: "2 tasks to accept", "goal review", "source agent idle". */
	readonly label: string;
	/** The tasks the reason is about (empty when it is about the issue). */
	readonly taskIds: readonly string[];
	/** A failure or a stall (the only reasons drawn in the warning colour). */
	readonly failure: boolean;
}

/** Which bounded call a source agent is waiting in (its CLI spelling). */
export type WaitingCall = 'await-review' | 'plan issue await' | 'next-action';

/** What the developer should know about the issue's source agent (managed issues only). */
export interface SourceAgentAttention {
	/**
	 * `waiting`: in a bounded call now; `working`: a Turn or its own work in progress (or being woken for the step it
	 * owes); `idle`: owes a step and is not at it; `between`: owes nothing now (its Runs work; the next checkpoint
	 * brings its next step).
	 */
	readonly activity: 'waiting' | 'working' | 'idle' | 'between' | 'gone';
	/** The call it waits in ('' unless waiting). */
	readonly waitingIn: WaitingCall | '';
	/** Since when it waits in that call (0 unless waiting). */
	readonly waitingSinceUnixMs: number;
}

export interface Attention {
	readonly state: AttentionState;
	/** One line for a chip, a tooltip or a notification: "Needs you: 2 tasks to accept · goal review". */
	readonly label: string;
	/** Why the developer is needed, most urgent first (needs_you only; empty otherwise). */
	readonly reasons: readonly NeedsYouReason[];
	/** agent_working: what is being done now ("Working on Add login"); '' otherwise. */
	readonly activity: string;
	/** waiting_on_agent: since when; 0 otherwise. */
	readonly sinceUnixMs: number;
	/** A failure or a stall is among the reasons: the only case for the warning colour. */
	readonly stalled: boolean;
	/** The complete command that hands the source session back (source agent idle only; '' otherwise). */
	readonly handBackCommand: string;
	/** Managed issues: the source agent's side; null for manual issues. */
	readonly sourceAgent: SourceAgentAttention | null;
	/** The Runs that need attention (latest Run of a live task that failed, was stopped, or waits for review). */
	readonly runs: readonly RunAttention[];
}

/** A Run the developer should see: its task's latest, failed, stopped or waiting. */
export interface RunAttention {
	readonly runId: string;
	readonly taskId: string;
	readonly taskTitle: string;
	readonly kind: 'failed' | 'stopped' | 'waiting' | 'stalled';
	/** "Failed: exit code 3 — retry, edit or stop", "Stopped", "Waiting for your review", "Stalled: no activity for 12 min". */
	readonly label: string;
	/** The developer must act on it (it is among the issue's needs-you reasons). */
	readonly needsYou: boolean;
}

export interface TaskAttention {
	readonly state: AttentionState;
	/** "Awaiting your acceptance", "Failed: exit code 3 — retry, edit or stop", "Working on it". */
	readonly label: string;
}

/** A task's latest Run, as far as attention cares. */
export interface AttentionRun {
	readonly runId: string;
	readonly status: RunStatus;
	readonly outcome: RunOutcome | null;
	/** The Run failed because its parents' work conflicts (a merge the developer has to settle). */
	readonly mergeConflict: boolean;
	/** The latest activity line of a running Run ('' when none is known). */
	readonly activity: string;
	/** What the Run changed outside its worktree (src/core/runs/outsideChanges.ts); absent or empty: nothing. */
	readonly outsideChanges?: readonly string[];
	/** A running Run's stall mark in force (src/core/runs/stallRules.ts); absent: none. */
	readonly stall?: { readonly lastActivityAtUnixMs: number } | undefined;
	/** The exit code its process ended with (null or absent: none recorded, e.g. killed by a signal). */
	readonly exitCode?: number | null;
	/** Its reported success failed the developer's checks: the verification's line ("Checks failed: test (exit 1)"); absent: not so. */
	readonly checksFailed?: string;
}

/** The source session's facts the Host holds beside the store (heartbeats live in memory). */
export interface SourceSessionFacts {
	readonly sessionId: string;
	/** Tutti starts this session's Turns itself (it was launched from an agent target): it is woken, not handed back. */
	readonly wakesDelivered: boolean;
	/** A bounded call it waits in now ('' when none). */
	readonly waitingIn: WaitingCall | '';
	readonly waitingSinceUnixMs: number;
	/** When it last waited in (or returned from) a bounded call; 0 = never since the Host started. */
	readonly lastContactUnixMs: number;
	/** A Turn of this session is running (a wake being worked on). */
	readonly turnRunning: boolean;
	/** The active checkpoint's main wake, if any. */
	readonly activeWake: { readonly status: WakeStatus; readonly sinceUnixMs: number } | null;
}

export interface AttentionInput {
	/** The facts "what is owed next" is derived from (one read). */
	readonly facts: IssueFacts;
	readonly dispatchPaused: boolean;
	/** Each task's latest Run (absent: none). */
	readonly latestRuns: ReadonlyMap<string, AttentionRun>;
	/** The source session of a managed issue (null: manual issue, or a source session that no longer exists). */
	readonly source: SourceSessionFacts | null;
	readonly nowUnixMs: number;
	/** Filled by budgets: the issue's budget is reached. */
	readonly budgetReached?: { readonly label: string } | null;
	/** Filled by approvals: the agents' tool calls and questions waiting for the developer (`questions` of `count` are questions). */
	readonly approvalsAsked?: { readonly count: number; readonly taskIds: readonly string[]; readonly questions?: number } | null;
	/** Tasks pending acceptance again because their branch moved after the developer accepted them. */
	readonly changedAfterAcceptance?: readonly string[];
	/** Code delivery: whether accepted work waits to be integrated, where it went, and Finish (absent: nothing to integrate). */
	readonly delivery?: DeliveryFacts;
}

/** A source agent with no bounded call and no change for this long is idle (the session's own idle rule). */
export const sourceIdleAfterMs = 120_000;

/** Owed states in which the source agent has a step to take now (not a wait). */
const sourceStepStates: ReadonlySet<string> = new Set(['checkpoint', 'changes_requested', 'routed']);

/** Checkpoints the source agent makes itself (its own call): it is at work, not unaware. */
const ownCheckpointKinds: ReadonlySet<string> = new Set(['initial_schedule']);

const wakeInFlight: ReadonlySet<WakeStatus> = new Set(['prepared', 'leased', 'dispatched', 'turn_settled']);

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

interface Context {
	readonly input: AttentionInput;
	/** The issue's tasks by status (read a few, never walk them all: the board reads this for every issue). */
	readonly tasks: TaskIndex;
	readonly managed: boolean;
	readonly sourceGone: boolean;
	/** The source agent owes a step and nobody sees it taken: the developer must hand the session back. */
	readonly sourceIdle: boolean;
	readonly sourceWorking: boolean;
	/** The source agent owes a step now (by the "owed next" rule). */
	readonly sourceStepOwed: boolean;
}

/** A manual issue created paused whose Start the developer has not pressed yet: nothing of it ever ran. */
function unstarted(ctx: Context): boolean {
	return isUnstartedManualIssue({ issueStatus: ctx.input.facts.issueStatus, managed: ctx.managed, dispatchPaused: ctx.input.dispatchPaused });
}

function isTerminalIssue(facts: IssueFacts): boolean {
	return isIssueClosed(facts.issueStatus, facts.execution?.status ?? null);
}

/** Whether the source agent is taking the step it owes, by the facts Tutti has. */
function sourceOnStep(input: AttentionInput): { idle: boolean; working: boolean; owed: boolean } {
	const source = input.source;
	const facts = input.facts;
	const owed = owedOnIssue(facts);
	const stepOwed = owed.kind === 'failure' || sourceStepStates.has(owed.state);
	if (source === null) { return { idle: stepOwed && facts.execution !== null, working: false, owed: stepOwed }; }
	if (source.turnRunning) { return { idle: false, working: true, owed: stepOwed }; }
	if (!stepOwed || source.waitingIn !== '') { return { idle: false, working: false, owed: stepOwed }; }
	if (source.wakesDelivered) {
		const wake = source.activeWake;
		return { idle: wake === null || !wakeInFlight.has(wake.status), working: false, owed: true };
	}
	const checkpoint = facts.activeCheckpoint;
	const unaware = checkpoint !== null && !ownCheckpointKinds.has(checkpoint.kind) && source.lastContactUnixMs < checkpoint.createdAtUnixMs;
	const quiet = input.nowUnixMs - Math.max(facts.lastChangeUnixMs, source.lastContactUnixMs) >= sourceIdleAfterMs;
	return unaware || quiet ? { idle: true, working: false, owed: true } : { idle: false, working: true, owed: true };
}

function context(input: AttentionInput): Context {
	const facts = input.facts;
	const managed = facts.execution !== null;
	const sourceGone = facts.execution?.status === 'orphaned_source';
	const step = managed && !sourceGone ? sourceOnStep(input) : { idle: false, working: false, owed: false };
	return {
		input, tasks: taskIndex(facts.tasks), managed, sourceGone,
		sourceIdle: step.idle, sourceWorking: step.working, sourceStepOwed: step.owed,
	};
}

/** A failed task nobody acts on: a manual issue's (only the developer reruns it), or a managed one's whose source agent is gone or idle. */
function failureUnowned(ctx: Context): boolean {
	return !ctx.managed || ctx.sourceGone || ctx.sourceIdle;
}

function failedTasks(ctx: Context): { conflicts: string[]; unowned: string[] } {
	const conflicts: string[] = [];
	const unowned: string[] = [];
	for (const t of ctx.tasks.withStatus('failed')) {
		if (ctx.input.latestRuns.get(t.taskId)?.mergeConflict === true) {
			conflicts.push(t.taskId);
		} else if (failureUnowned(ctx)) {
			unowned.push(t.taskId);
		}
	}
	return { conflicts, unowned };
}

/** Task statuses in which a Run's outside changes still wait for the developer (an accepted task is theirs already). */
const outsideOpen: readonly TaskStatus[] = ['pending_acceptance', 'failed', 'canceled'];

/** The live tasks with any of these statuses, in backlog order. */
function liveWith(ctx: Context, statuses: readonly TaskStatus[]): TaskFacts[] {
	return statuses.flatMap((s) => ctx.tasks.withStatus(s)).sort((a, b) => ctx.tasks.position(a.taskId) - ctx.tasks.position(b.taskId));
}

/** The live tasks whose latest Run changed something outside its worktree and that the developer has not accepted. */
function tasksChangedOutside(ctx: Context): { taskId: string; changes: readonly string[] }[] {
	return liveWith(ctx, outsideOpen).flatMap((t) => {
		const changes = ctx.input.latestRuns.get(t.taskId)?.outsideChanges ?? [];
		return changes.length > 0 ? [{ taskId: t.taskId, changes }] : [];
	});
}

/** The live running tasks whose Run is marked stalled, with its last activity. */
function stalledTasks(ctx: Context): { taskId: string; lastActivityAtUnixMs: number }[] {
	return ctx.tasks.withStatus('running').flatMap((t) => {
		const stall = ctx.input.latestRuns.get(t.taskId)?.stall;
		return stall === undefined ? [] : [{ taskId: t.taskId, lastActivityAtUnixMs: stall.lastActivityAtUnixMs }];
	});
}

/** "1 Run stalled, no activity for 12 min", "2 Runs stalled, no activity for up to 25 min". */
function stalledReasonLabel(stalled: readonly { lastActivityAtUnixMs: number }[], nowUnixMs: number): string {
	const longest = quietFor(nowUnixMs - Math.min(...stalled.map((s) => s.lastActivityAtUnixMs)));
	return stalled.length === 1 ? `1 Run stalled, no activity for ${longest}` : `${stalled.length} Runs stalled, no activity for up to ${longest}`;
}

function capitalized(text: string): string {
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function reasonsOf(ctx: Context): NeedsYouReason[] {
	const { input } = ctx;
	const reasons: NeedsYouReason[] = [];
	if (ctx.sourceGone) {
		reasons.push({ kind: 'source_gone', label: 'source agent gone', taskIds: [], failure: true });
	}
	// pending_goal_review with its all_tasks_terminal checkpoint still active: the source agent owes `complete` first.
	if (input.facts.execution?.status === 'pending_goal_review' && input.facts.activeCheckpoint === null) {
		reasons.push({ kind: 'goal_review', label: 'goal review', taskIds: [], failure: false });
	}
	const review = ctx.tasks.withStatus('pending_acceptance').map((t) => t.taskId);
	if (review.length > 0) {
		const changed = review.filter((id) => input.changedAfterAcceptance?.includes(id) === true).length;
		// Reported, not verified: a failed check is a failure the developer weighs before accepting (warning colour).
		const checksFailed = review.filter((id) => (input.latestRuns.get(id)?.checksFailed ?? '') !== '').length;
		const notes = [changed > 0 ? `${changed} changed after acceptance` : '', checksFailed > 0 ? `${checksFailed} failed ${checksFailed === 1 ? 'its' : 'their'} checks` : '']
			.filter((n) => n !== '');
		const label = `${plural(review.length, 'task')} to accept${notes.length > 0 ? ` (${notes.join(', ')})` : ''}`;
		reasons.push({ kind: 'task_awaiting_acceptance', label, taskIds: review, failure: checksFailed > 0 });
	}
	const outside = tasksChangedOutside(ctx);
	if (outside.length > 0) {
		const only = outside.length === 1 ? outside[0]! : null;
		const label = only !== null ? `task ${only.taskId} ${outsideChangesLabel(only.changes)}` : `${outside.length} tasks changed files outside their worktrees`;
		reasons.push({ kind: 'outside_changes', label, taskIds: outside.map((o) => o.taskId), failure: true });
	}
	const failed = failedTasks(ctx);
	if (failed.conflicts.length > 0) {
		reasons.push({ kind: 'merge_conflict', label: `${plural(failed.conflicts.length, 'merge conflict')}`, taskIds: failed.conflicts, failure: true });
	}
	if (failed.unowned.length > 0) {
		reasons.push({ kind: 'failed_run', label: `${failed.unowned.length} failed`, taskIds: failed.unowned, failure: true });
	}
	// Stalled is not failed: its own reason and words, in the warning colour; the Run goes on.
	const stalled = stalledTasks(ctx);
	if (stalled.length > 0) {
		reasons.push({ kind: 'run_stalled', label: stalledReasonLabel(stalled, input.nowUnixMs), taskIds: stalled.map((s) => s.taskId), failure: true });
	}
	if (ctx.sourceIdle) {
		reasons.push({ kind: 'source_idle', label: 'source agent idle', taskIds: [], failure: true });
	}
	if (input.budgetReached) {
		reasons.push({ kind: 'budget_reached', label: input.budgetReached.label, taskIds: [], failure: true });
	}
	if (input.approvalsAsked && input.approvalsAsked.count > 0) {
		const questions = input.approvalsAsked.questions ?? 0;
		const tools = input.approvalsAsked.count - questions;
		const label = [tools > 0 ? plural(tools, 'approval') : '', questions > 0 ? plural(questions, 'question') : ''].filter((l) => l !== '').join(' and ');
		reasons.push({ kind: 'approval_asked', label: `${label} asked`, taskIds: [...input.approvalsAsked.taskIds], failure: false });
	}
	if (!ctx.managed && manualWorkDone(ctx) && readyToIntegrate(input)) {
		reasons.push(readyReason);
	}
	return reasons;
}

/** Accepted work waits for the developer's integrate (or their Finish without integrating). */
const readyReason: NeedsYouReason = { kind: 'ready_to_integrate', label: phrases.readyToIntegrate, taskIds: [], failure: false };

function readyToIntegrate(input: AttentionInput): boolean {
	return input.delivery !== undefined && deliveryOf(input.delivery) === 'ready_to_integrate';
}

/** A manual issue with tasks, each completed or canceled: nothing more runs or waits on its own. */
function manualWorkDone(ctx: Context): boolean {
	const live = ctx.tasks.live.length;
	return live > 0 && ctx.tasks.withStatus('completed').length + ctx.tasks.withStatus('canceled').length === live;
}

function sourceAgentOf(ctx: Context): SourceAgentAttention | null {
	if (!ctx.managed) { return null; }
	const source = ctx.input.source;
	if (ctx.sourceGone || source === null) { return { activity: 'gone', waitingIn: '', waitingSinceUnixMs: 0 }; }
	if (source.waitingIn !== '') { return { activity: 'waiting', waitingIn: source.waitingIn, waitingSinceUnixMs: source.waitingSinceUnixMs }; }
	// Working only on what it owes (or a Turn of its own): with nothing owed it is between checkpoints, not at work.
	const activity = ctx.sourceIdle ? 'idle' : ctx.sourceWorking || ctx.sourceStepOwed ? 'working' : 'between';
	return { activity, waitingIn: '', waitingSinceUnixMs: 0 };
}

function runningActivity(ctx: Context): string {
	const running = ctx.tasks.withStatus('running');
	if (running.length === 0) { return ''; }
	const first = running[0]!;
	const line = ctx.input.latestRuns.get(first.taskId)?.activity ?? '';
	const lead = line !== '' ? `${first.title}: ${line}` : `Working on ${first.title}`;
	return running.length === 1 ? lead : `${lead} (+${running.length - 1} more)`;
}

function runsOf(ctx: Context): RunAttention[] {
	const out: RunAttention[] = [];
	const outside = new Map(tasksChangedOutside(ctx).map((o) => [o.taskId, capitalized(outsideChangesLabel(o.changes))] as const));
	// Only a task with a latest Run can show one: walk those (in backlog order), not every task.
	const withRun = [...ctx.input.latestRuns.keys()].flatMap((taskId) => {
		const t = ctx.tasks.byId.get(taskId);
		return t !== undefined && !t.superseded ? [t] : [];
	}).sort((a, b) => ctx.tasks.position(a.taskId) - ctx.tasks.position(b.taskId));
	for (const t of withRun) {
		const run = ctx.input.latestRuns.get(t.taskId);
		if (run === undefined) { continue; }
		const task = taskAttentionOf(ctx, t.status, false, run, t.pendingRework ?? '');
		const common = { runId: run.runId, taskId: t.taskId, taskTitle: t.title };
		const changed = outside.get(t.taskId);
		if (t.status === 'failed' && run.outcome === 'failure') {
			out.push({ ...common, kind: 'failed', label: changed ?? task.label, needsYou: changed !== undefined || task.state === 'needs_you' });
		} else if (run.outcome === 'cancellation' && t.status !== 'running' && t.status !== 'completed') {
			out.push({ ...common, kind: 'stopped', label: changed ?? 'Stopped', needsYou: changed !== undefined });
		} else if (t.status === 'pending_acceptance') {
			const checks = run.checksFailed ?? '';
			out.push({ ...common, kind: 'waiting', label: changed ?? (checks !== '' ? `${checks} — waiting for your review` : 'Waiting for your review'), needsYou: true });
		} else if (t.status === 'running' && run.status === 'running' && run.stall !== undefined) {
			out.push({ ...common, kind: 'stalled', label: stalledLabel(run.stall.lastActivityAtUnixMs, ctx.input.nowUnixMs), needsYou: true });
		}
	}
	return out;
}

const base = { reasons: [], activity: '', sinceUnixMs: 0, stalled: false, handBackCommand: '' } as const;

/** The issue's one attention state. */
export function issueAttention(input: AttentionInput): Attention {
	const ctx = context(input);
	const sourceAgent = sourceAgentOf(ctx);
	if (isTerminalIssue(input.facts)) {
		const stopped = input.facts.issueStatus === 'archived' || input.facts.execution?.status === 'archived' || input.facts.execution?.status === 'archiving';
		// Completed is not Done while its accepted work is only on task branches: Integrate is the developer's step.
		if (!stopped && readyToIntegrate(input)) {
			return { ...base, state: 'needs_you', label: `${names.needs_you}: ${readyReason.label}`, reasons: [readyReason], sourceAgent, runs: [] };
		}
		return { ...base, state: 'done', label: stopped ? 'Stopped' : doneLabel(input.delivery), sourceAgent, runs: [] };
	}
	const runs = runsOf(ctx);
	const reasons = reasonsOf(ctx);
	if (reasons.length > 0) {
		const source = input.source;
		return {
			...base, state: 'needs_you', label: `${names.needs_you}: ${reasons.map((r) => r.label).join(' · ')}`, reasons,
			stalled: reasons.some((r) => r.failure),
			handBackCommand: ctx.sourceIdle && source !== null && !source.wakesDelivered ? agentResumeCommand(source.sessionId) : '',
			sourceAgent,
			runs,
		};
	}
	if (unstarted(ctx)) {
		return { ...base, state: 'not_started', label: names.not_started, sourceAgent, runs };
	}
	if (input.dispatchPaused) {
		const running = ctx.tasks.withStatus('running').length;
		return { ...base, state: 'paused', label: running > 0 ? `${names.paused} · ${plural(running, 'Run')} still running` : names.paused, sourceAgent, runs };
	}
	const activity = runningActivity(ctx);
	if (activity !== '') {
		return { ...base, state: 'agent_working', label: `${names.agent_working}: ${activity}`, activity, sourceAgent, runs };
	}
	if (ctx.sourceWorking) {
		const kind = input.facts.activeCheckpoint?.kind;
		const doing = kind === undefined ? 'Source agent at work' : `Source agent working on the ${kind.replace(/_/g, ' ')} checkpoint`;
		return { ...base, state: 'agent_working', label: `${names.agent_working}: ${doing}`, activity: doing, sourceAgent, runs };
	}
	const wake = input.source?.wakesDelivered === true ? input.source.activeWake : null;
	if (wake !== null && wake !== undefined && wakeInFlight.has(wake.status)) {
		return { ...base, state: 'waiting_on_agent', label: 'Waiting on the source agent', sinceUnixMs: wake.sinceUnixMs, sourceAgent, runs };
	}
	const openWork = ctx.tasks.withStatus('not_started').length + ctx.tasks.withStatus('running').length > 0;
	if (!ctx.managed && !openWork && ctx.tasks.live.length > 0) {
		return { ...base, state: 'done', label: doneLabel(input.delivery), sourceAgent, runs };
	}
	return { ...base, state: 'planned', label: names.planned, sourceAgent, runs };
}

/** Each live task's attention state (superseded tasks are history: done). */
export function taskAttentions(input: AttentionInput): Map<string, TaskAttention> {
	const ctx = context(input);
	const terminal = isTerminalIssue(input.facts);
	const outside = terminal ? new Map<string, readonly string[]>() : new Map(tasksChangedOutside(ctx).map((o) => [o.taskId, o.changes] as const));
	const out = new Map<string, TaskAttention>();
	for (const t of input.facts.tasks) {
		const attention = taskAttentionOf(ctx, t.status, t.superseded || terminal, input.latestRuns.get(t.taskId), t.pendingRework ?? '');
		const changed = attention.state === 'needs_you' && t.status === 'pending_acceptance' && input.changedAfterAcceptance?.includes(t.taskId) === true;
		const changedOutside = outside.get(t.taskId);
		out.set(t.taskId, changedOutside !== undefined ? { state: 'needs_you', label: capitalized(outsideChangesLabel(changedOutside)) }
			: changed ? { state: 'needs_you', label: 'Changed after acceptance: accept it again' } : attention);
	}
	return out;
}

/** "Failed: exit code 3" when the process said why, else "Failed". */
function failedWithCause(run: AttentionRun | undefined): string {
	const code = run?.exitCode;
	return code !== undefined && code !== null && code !== 0 ? `Failed: exit code ${code}` : 'Failed';
}

function taskAttentionOf(ctx: Context, status: TaskStatus, over: boolean, run: AttentionRun | undefined, rework: ReworkKind | '' = ''): TaskAttention {
	if (over && status !== 'running') { return { state: 'done', label: names.done }; }
	if (status === 'not_started' && rework !== '') {
		return ctx.input.dispatchPaused
			? { state: 'paused', label: `${names.paused} · ${pendingReworkLabel[rework].split(':')[0]!.toLowerCase()}` }
			: { state: 'planned', label: pendingReworkLabel[rework] };
	}
	switch (status) {
		case 'pending_acceptance': {
			const checks = over ? '' : run?.checksFailed ?? '';
			return { state: 'needs_you', label: checks !== '' ? `${checks} — awaiting your acceptance` : 'Awaiting your acceptance' };
		}
		case 'running':
			if (run?.stall !== undefined && !over) { return { state: 'needs_you', label: stalledLabel(run.stall.lastActivityAtUnixMs, ctx.input.nowUnixMs) }; }
			return { state: 'agent_working', label: run?.activity ? run.activity : 'Working on it' };
		case 'failed':
			if (run?.mergeConflict === true) { return { state: 'needs_you', label: 'Failed: its parents\' work conflicts' }; }
			return failureUnowned(ctx)
				? { state: 'needs_you', label: `${failedWithCause(run)} — ${ctx.managed ? phrases.failedManaged : phrases.failedManual}` }
				: { state: 'waiting_on_agent', label: 'Failed: the source agent decides what next' };
		case 'not_started':
			if (unstarted(ctx)) { return { state: 'not_started', label: names.not_started }; }
			return ctx.input.dispatchPaused ? { state: 'paused', label: names.paused } : { state: 'planned', label: names.planned };
		case 'completed': return { state: 'done', label: names.done };
		case 'canceled': return { state: 'done', label: 'Canceled' };
	}
}
