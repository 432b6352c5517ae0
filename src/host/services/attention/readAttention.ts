// Reads what the attention rule (src/core/attention/attention.ts) needs for one issue, in the same read as the issue
// itself: the "owed next" facts, each task's latest Run, the source session (its wakes, its Turns) and what the
// await calls' heartbeats say about it (in memory, passed in). The rule itself is pure and lives in the core.
import {
	type Attention, type AttentionInput, type AttentionRun, issueAttention, type SourceSessionFacts, type TaskAttention, taskAttentions,
	type WaitingCall,
} from '../../../core/attention/attention.js';
import type { Issue, Run, RunStall } from '../../../core/model.js';
import { shownStatus } from '../../../core/approvals/approvalRules.js';
import { approvalQuestions } from '../../../core/approvals/questions.js';
import { approvalRepository } from '../../../store/repositories/approvalRepository.js';
import { deliveryRepository } from '../../../store/repositories/deliveryRepository.js';
import { issueFactsRepository } from '../../../store/repositories/issueFactsRepository.js';
import type { IssueTaskView } from '../../../store/taskCache.js';
import { taskIndex } from '../../../core/next/taskIndex.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { runStallRepository } from '../../../store/repositories/runStallRepository.js';
import { sessionRepository } from '../../../store/repositories/sessionRepository.js';
import { turnRepository } from '../../../store/repositories/turnRepository.js';
import { verificationRepository } from '../../../store/repositories/verificationRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import { verificationLabel } from '../../../core/checks/checks.js';
import { verificationFacts } from '../../checks/verificationViews.js';
import type { Reader } from '../../../store/tx.js';
import { issueStandingDecision, type LaunchPricing } from '../../usage/issueSpend.js';

/** What the await calls' heartbeats say about a session (src/host/services/await/heartbeats.ts). */
export interface SourceContact {
	readonly waitingIn: WaitingCall | '';
	readonly waitingSinceUnixMs: number;
	readonly lastContactUnixMs: number;
}

export interface SourceContactLookup {
	contact(sessionId: string, nowUnixMs: number): SourceContact;
}

export interface AttentionReadContext {
	readonly nowUnixMs: number;
	/** Absent: no heartbeat is known (a session then counts as not waiting and never seen). */
	readonly contacts?: SourceContactLookup | undefined;
	/** A running Run's latest activity line ('' when none is known). */
	readonly runActivity?: ((runId: string) => string) | undefined;
	/** The Host's targets and prices: a pending launch the issue's USD budget cannot count needs the developer too. */
	readonly pricing?: LaunchPricing | undefined;
	/** The issue's kept view of its tasks when the reader keeps them (Store.readWithTasks); absent: they are read. */
	readonly tasks?: ((issueId: string) => IssueTaskView) | undefined;
}

const noContact: SourceContact = { waitingIn: '', waitingSinceUnixMs: 0, lastContactUnixMs: 0 };

/**
 * A Run that failed on its parents' conflicting work: refused before launch ("Could not start: merging … conflicts
 * in …", runDelivery.ts) or ended with the merge unresolved (runSettlement.ts).
 */
export function isMergeConflictFailure(errorMessage: string): boolean {
	return /^Could not start: merging .* conflicts in /.test(errorMessage) || errorMessage.startsWith('ended with the merge of its parents unresolved');
}

function latestRuns(runs: readonly Run[], context: AttentionReadContext,
	outside: ReadonlyMap<string, readonly string[]>, stalls: ReadonlyMap<string, RunStall>, checksFailed: (run: Run) => string): Map<string, AttentionRun> {
	const out = new Map<string, AttentionRun>();
	for (const run of runs) {
		const failedChecks = checksFailed(run);
		out.set(run.taskId, {
			runId: run.runId, status: run.status, outcome: run.outcome,
			mergeConflict: run.status === 'failed' && isMergeConflictFailure(run.errorMessage),
			activity: run.status === 'running' ? context.runActivity?.(run.runId) ?? '' : '',
			outsideChanges: outside.get(run.runId) ?? [],
			...(run.status === 'running' && stalls.has(run.runId) ? { stall: { lastActivityAtUnixMs: stalls.get(run.runId)!.lastActivityAtUnixMs } } : {}),
			exitCode: run.exitCode,
			...(failedChecks !== '' ? { checksFailed: failedChecks } : {}),
		});
	}
	return out;
}

function sourceFacts(r: Reader, issue: Issue, activeCheckpointId: string, context: AttentionReadContext): SourceSessionFacts | null {
	if (issue.planningSource !== 'tutti' || issue.sourceSessionId === '') { return null; }
	const session = sessionRepository.get(r, issue.sourceSessionId);
	if (session === undefined) { return null; }
	const contact = context.contacts?.contact(session.sessionId, context.nowUnixMs) ?? noContact;
	const wake = activeCheckpointId === '' ? undefined : wakeRepository.latest(r, activeCheckpointId);
	return {
		sessionId: session.sessionId,
		wakesDelivered: session.role === 'source' && session.agentTargetId !== '',
		waitingIn: contact.waitingIn,
		waitingSinceUnixMs: contact.waitingSinceUnixMs,
		lastContactUnixMs: contact.lastContactUnixMs,
		turnRunning: turnRepository.openOfSession(r, session.sessionId).some((t) => t.state === 'running'),
		activeWake: wake ? { status: wake.status, sinceUnixMs: wake.dispatchedAtUnixMs > 0 ? wake.dispatchedAtUnixMs : wake.createdAtUnixMs } : null,
	};
}

/** The verification's line when the Run's current checks failed ('' otherwise: passed, running, none, or stale). */
function failedChecksLabel(r: Reader, runId: string): string {
	const v = verificationRepository.latestOfRun(r, runId);
	if (v === undefined || v.status !== 'failed' || v.staleAtUnixMs > 0) { return ''; }
	return verificationLabel(verificationFacts(v, verificationRepository.results(r, v.verificationId)));
}

/** The rule's input for one issue; undefined when its facts cannot be read (an identity the store refuses). */
export function readAttentionInput(r: Reader, issue: Issue, context: AttentionReadContext): AttentionInput | undefined {
	let facts;
	try {
		facts = issueFactsRepository.ofIssue(r, issue.issueId, context.tasks);
	} catch {
		return undefined;
	}
	if (facts === undefined) { return undefined; }
	// The latest Run of each task the rule may show one for (one that ran and did not complete), one indexed read
	// each: the rule never reads a completed task's Run, and an issue's history of Runs can be as large as its graph.
	const tasks = taskIndex(facts.tasks);
	const runs = tasks.withRunShown.flatMap((t) => {
		const run = runRepository.get(r, t.latestRunId ?? '');
		return run !== undefined && run.taskId === t.taskId ? [run] : [];
	});
	const running = new Set(runs.filter((run) => run.status === 'running').map((run) => run.runId));
	const awaiting = new Set(tasks.withStatus('pending_acceptance').map((t) => t.taskId));
	const budget = issueStandingDecision(r, issue.issueId, context.pricing);
	const asked = approvalRepository.listByIssue(r, issue.issueId).filter((a) => shownStatus(a, running.has(a.runId)) === 'pending');
	return {
		facts,
		// At or over its budget the issue starts nothing more until the developer raises it; a USD budget a model cannot
		// be counted against refuses those launches until they add a price or change the budget: it needs them.
		budgetReached: budget.kind === 'ok' ? null : { label: budget.message },
		approvalsAsked: asked.length === 0 ? null : { count: asked.length, taskIds: [...new Set(asked.map((a) => a.taskId))], questions: asked.filter((a) => approvalQuestions(a).length > 0).length },
		changedAfterAcceptance: deliveryRepository.openAcceptanceChanges(r, issue.issueId),
		delivery: {
			unintegrated: deliveryRepository.hasUnintegratedAcceptance(r, issue.issueId),
			integratedInto: deliveryRepository.issueDelivery(r, issue.issueId)?.integratedInto ?? '',
			finished: facts.finishedAtUnixMs > 0,
		},
		dispatchPaused: issue.dispatchPaused,
		latestRuns: latestRuns(runs, context, deliveryRepository.runsWithOutsideChanges(r),
			new Map(runStallRepository.inForceOfIssue(r, issue.issueId).map((s) => [s.runId, s] as const)),
			// Read only for the tasks awaiting acceptance (one indexed look-up each): the rest never show it.
			(run) => (awaiting.has(run.taskId) && run.outcome === 'success' ? failedChecksLabel(r, run.runId) : '')),
		source: sourceFacts(r, issue, facts.activeCheckpoint?.checkpointId ?? '', context),
		nowUnixMs: context.nowUnixMs,
	};
}

/** When the facts cannot be read: said plainly, nothing guessed. */
export const unreadableAttention: Attention = {
	state: 'needs_you', label: 'Needs you: this issue\'s facts could not be read', reasons: [], activity: '', sinceUnixMs: 0,
	stalled: true, handBackCommand: '', sourceAgent: null, runs: [],
};

export function readIssueAttention(r: Reader, issue: Issue, context: AttentionReadContext): Attention {
	const input = readAttentionInput(r, issue, context);
	return input === undefined ? unreadableAttention : issueAttention(input);
}

export function readTaskAttentions(r: Reader, issue: Issue, context: AttentionReadContext): Map<string, TaskAttention> {
	const input = readAttentionInput(r, issue, context);
	return input === undefined ? new Map() : taskAttentions(input);
}
