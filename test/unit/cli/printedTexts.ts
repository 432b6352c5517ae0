// Every text the Host and the CLI hand to someone, collected once: error hints (core and manual issues), recovery
// hints, wake prompts, the source session's first Turn (goal and CLI skill), the worker preamble, the merge-conflict
// prompt, the reviewer's verdict command, every `next` and message of await-review, plan issue await, next-action and
// agent resume, and the stop hook's release message. Each says who reads it: an agent, or the developer (texts only a
// developer-only command can produce). test/unit/cli/printedCommandsParse.test.ts checks the commands in them parse;
// test/security/agentTexts.test.ts checks none tells an agent to do something destructive.
import { unauthenticatedHint } from '../../../src/control-plane/server.js';
import { reasonCodes, type ReasonCode } from '../../../src/core/errors.js';
import { recoveryHint, type RecoveryHintInput } from '../../../src/core/execution/recoveryHint.js';
import { hintFor } from '../../../src/core/hints.js';
import { checkpointKinds, executionStatuses, type CheckpointKind } from '../../../src/core/model.js';
import { agentResumeCommand } from '../../../src/core/next/commands.js';
import type { IssueFacts, SessionFacts, TaskFacts } from '../../../src/core/next/facts.js';
import { owedBySession, owedForCheckpoint, owedForNextAction, owedForReview, owedOnIssue, type Owed } from '../../../src/core/next/owed.js';
import { wakePrompt } from '../../../src/core/wakes/wakePrompt.js';
import { workerPreamble } from '../../../src/host/runs/workerTurn.js';
import { conflictPrompt } from '../../../src/host/delivery/runDelivery.js';
import { releaseMessage } from '../../../src/host/services/hook/stopHookBudget.js';
import { manualRejection } from '../../../src/host/services/manualRejections.js';
import { verdictCommand } from '../../../src/host/checkpoints/independentReview.js';
import { planningPrompt } from '../../../src/host/wakes/skill.js';

/** Who reads a text: an agent (it may act on it), or only the developer. */
export type Audience = 'agent' | 'developer';

/** A text Tutti prints and where it came from. */
export interface PrintedText { source: string; text: string; audience: Audience }

/** Backticked `tutti …` commands in prose. */
export function backticked(text: string): string[] {
	return [...text.matchAll(/`(tutti [^`]*)`/g)].map((m) => m[1]!);
}

/** Lines that are a command of their own (wake prompts print them one per line), plus the backticked ones. */
export function commandLines(text: string): string[] {
	return [...text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('tutti ')), ...backticked(text)];
}

/**
 * Reasons only a developer-only command can meet (issue integrate, finish --remove-worktrees, approval answer, review
 * and goal decisions): their hints are read by the developer. Every other reason may reach an agent.
 */
export const developerOnlyReasons: ReadonlySet<ReasonCode> = new Set<ReasonCode>([
	'not_integrable', 'dirty_workspace', 'workspace_busy', 'merge_conflict', 'approval_answered', 'review_not_pending',
]);

function task(taskId: string, status: TaskFacts['status'], extra: Partial<TaskFacts> = {}): TaskFacts {
	return { taskId, title: taskId, status, acceptanceState: '', superseded: false, updatedAtUnixMs: 10, ...extra };
}

function facts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return {
		issueId: 'I1', issueStatus: 'in_progress',
		execution: { status: 'running', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 },
		activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
		tasks: [task('T1', 'running')], changeRequests: [], finishedAtUnixMs: 0, pendingFollowUp: null, lastChangeUnixMs: 3,
		...extra,
	};
}

/** One issue in each state the derivation tells apart. */
export const issueStates: Record<string, IssueFacts> = {
	running: facts(),
	checkpoint: facts({ activeCheckpoint: { checkpointId: 'cp-1', kind: 'task_settled', createdAtUnixMs: 5 } }),
	inReview: facts({ tasks: [task('T1', 'pending_acceptance'), task('T2', 'not_started')] }),
	changesRequested: facts({ tasks: [task('T1', 'failed')], changeRequests: [{ taskId: 'T1', note: 'use the "other" API; keep it <small>', requestedAtUnixMs: 6 }] }),
	goalReview: facts({ execution: { status: 'pending_goal_review', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 }, goalReviewRequestedAtUnixMs: 4 }),
	goalChanges: facts({ changeRequests: [{ taskId: '', note: 'not yet', requestedAtUnixMs: 6 }] }),
	completed: facts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 }, tasks: [task('T1', 'completed')] }),
	followUp: facts({
		issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 },
		pendingFollowUp: { followUpId: 'I1-follow-up-1', text: "Add the 'dark' theme; then <ship> it & tell me", requestedAtUnixMs: 10 },
	}),
	finished: facts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 }, finishedAtUnixMs: 11 }),
	archived: facts({ issueStatus: 'archived', execution: { status: 'archived', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 } }),
	orphaned: facts({ execution: { status: 'orphaned_source', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 } }),
	manual: facts({ execution: null, tasks: [task('T1', 'pending_acceptance')] }),
	budgetSpent: facts({ budgetBlocker: 'spent $5.10 of its $5.00 budget' }),
};


/** The parts of one `Owed` answer: its `next` command (if any) and its prose (message, and hint for a failure). */
export interface OwedParts { source: string; next: string | undefined; prose: string }

function owedParts(source: string, owed: Owed): OwedParts {
	return { source, next: owed.next, prose: owed.kind === 'failure' ? `${owed.message} ${owed.hint}` : owed.message };
}

/** Every owed answer in every issue state, for a source and a worker session (agents read them all). */
export function allOwedParts(): OwedParts[] {
	return Object.entries(issueStates).flatMap(([state, f]) => {
		const sessions: SessionFacts[] = [
			{ sessionId: 'S1', role: 'source', issueId: 'I1', issue: f },
			{ sessionId: 'S1', role: 'source', issueId: 'I1', issue: f, wakesDelivered: true },
			{ sessionId: 'S2', role: 'worker', issueId: 'I1', issue: f },
		];
		return [
			owedParts(`owedOnIssue(${state})`, owedOnIssue(f)),
			owedParts(`owedForReview(${state})`, owedForReview(f)),
			owedParts(`owedForReview(${state}, T1)`, owedForReview(f, 'T1')),
			owedParts(`owedForReview(${state}, T9)`, owedForReview(f, 'T9')),
			owedParts(`owedForCheckpoint(${state})`, owedForCheckpoint(f)),
			owedParts(`owedForNextAction(${state})`, owedForNextAction(f)),
			...sessions.map((s) => owedParts(`agent resume(${state}, ${s.role})`, owedBySession(s))),
		];
	});
}

/** Every recovery hint `plan issue get` can return (agents: the source session reads it). */
export function allRecoveryHintTexts(): PrintedText[] {
	const kinds: (CheckpointKind | null)[] = [null, ...checkpointKinds];
	return executionStatuses.flatMap((status) => kinds.flatMap((kind) => [false, true].flatMap((dispatchPaused) => [[], ['T1', 'T2']].flatMap((ready) =>
		[false, true].flatMap((canAcknowledge) => ['', 'spent $5.10 of its $5.00 budget'].map((budgetBlocker): PrintedText => {
			const input: RecoveryHintInput = {
				issueId: 'I1', execution: { status, graphRevision: 3 }, dispatchPaused, readyTaskIds: ready, canAcknowledge,
				activeCheckpoint: kind === null ? null : { checkpointId: 'cp-1', kind, sequence: 4, graphRevision: 3, subjectTaskId: 'T1' },
				awaitingAcceptanceTaskIds: ready.length > 0 ? [] : ['T3'], budgetBlocker,
			};
			return { source: `recoveryHint(${status}, ${kind ?? 'none'}, paused=${dispatchPaused}, budget=${budgetBlocker !== ''})`, text: recoveryHint(input), audience: 'agent' };
		}))))));
}

/** Every wake prompt, with and without a subject task (the source session). */
export function allWakePromptTexts(): PrintedText[] {
	return checkpointKinds.flatMap((kind) => [true, false].map((withSubject): PrintedText => ({
		source: `wakePrompt(${kind}, subject=${withSubject})`,
		audience: 'agent',
		text: wakePrompt({
			issueId: 'I1', issueTitle: 'Make it "fast" & small',
			checkpoint: { checkpointId: `tutti-execution:I1:checkpoint:${kind}`, kind, sequence: 4, subjectTaskId: withSubject ? 'T1' : '', subjectRunId: withSubject ? 'R1' : '', note: "Don't <break> it" },
			graphRevision: 3,
		}),
	})));
}

export const manualReasons = ['invalid_task_graph', 'task_not_found', 'duplicate_task', 'task_not_started', 'task_superseded'] as const;

/** Every error hint: each reason code with ids and as a template, the manual-issue hints, and the socket's 401 hint. */
export function allHintTexts(): PrintedText[] {
	const ids = { issueId: 'I1', taskId: 'T1', checkpointId: 'cp-1', runId: 'R1' };
	const audienceOf = (reason: ReasonCode): Audience => (developerOnlyReasons.has(reason) ? 'developer' : 'agent');
	return [
		...reasonCodes.flatMap((reason) => [ids, {}].map((ctx): PrintedText => ({ source: `hint ${reason}`, text: hintFor(reason, ctx), audience: audienceOf(reason) }))),
		...manualReasons.map((reason): PrintedText => ({ source: `manual hint ${reason}`, text: manualRejection(reason, 'm', 'I1').hint, audience: 'agent' })),
		{ source: 'control plane 401 hint', text: unauthenticatedHint, audience: 'agent' },
	];
}

/** The first Turn of a source session: wake prompt, goal and the CLI skill (the goal is the developer's text). */
export function skillText(): string {
	const prompt = planningPrompt({ wakePrompt: 'WAKE', issueTitle: 'Make it fast', issueContent: 'Run `tutti whatever` is the developer\'s text, not ours' });
	return prompt.slice(prompt.indexOf('# Tutti CLI skill'));
}

/** The prompts a Run's agent reads besides its task: the worker preamble, a merge conflict to resolve, the reviewer's command. */
export function runPromptTexts(): PrintedText[] {
	const checkpointId = 'tutti-execution:I 1:checkpoint:all-tasks-terminal';
	return [
		{ source: 'worker preamble', text: workerPreamble({ issueId: 'I1', taskId: 'T1', runId: 'R1' }), audience: 'agent' },
		{ source: 'merge conflict prompt', text: conflictPrompt({ parentTaskId: 'T1', withTaskId: 'T2', paths: ['src/a.ts', 'b.md'] }), audience: 'agent' },
		{ source: 'reviewer verdict', text: verdictCommand('I 1', { reviewId: `${checkpointId}:goal-review:1`, checkpointId }, 3), audience: 'agent' },
		{ source: 'hand back', text: agentResumeCommand('S1'), audience: 'agent' },
		{ source: 'stop hook release', text: releaseMessage('S1', 'tutti await-review --issue-id I1'), audience: 'agent' },
	];
}

/** Everything above as full texts. */
export function allPrintedTexts(): PrintedText[] {
	return [
		...allHintTexts(),
		...allRecoveryHintTexts(),
		...allWakePromptTexts(),
		{ source: 'source session skill', text: skillText(), audience: 'agent' },
		...runPromptTexts(),
		...allOwedParts().flatMap((o): PrintedText[] => [
			...(o.next !== undefined ? [{ source: `${o.source} next`, text: o.next, audience: 'agent' as const }] : []),
			{ source: `${o.source} message`, text: o.prose, audience: 'agent' },
		]),
	];
}
