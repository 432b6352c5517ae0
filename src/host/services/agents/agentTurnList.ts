// `turn/list`: every agent at work or waiting now, across issues, for the Agents view. Worker Runs that have not
// settled, source and reviewer Turns that Tutti started and have not settled, and source sessions waiting in a
// bounded call (the await heartbeats, in memory). The state and its words come from src/core/turns/agentTurns.ts;
// the transcript lines are read after the store read (files, not SQL).
import { isIssueClosed } from '../../../core/issues/issueControls.js';
import { shownStatus } from '../../../core/approvals/approvalRules.js';
import type { AgentSession, Issue, Run } from '../../../core/model.js';
import type { Clock } from '../../../core/ports.js';
import type { RunProcessPort } from '../../../core/runs/runProcessPort.js';
import { type SessionTurnFacts, sessionTurnState, type TurnState, workerTurnState } from '../../../core/turns/agentTurns.js';
import { runSubmitId } from '../../../core/ids.js';
import type { Result } from '../../../protocol/controlPlane.js';
import type { AgentTurnDto } from '../../../protocol/dto.js';
import type { Store } from '../../../store/database.js';
import { approvalRepository } from '../../../store/repositories/approvalRepository.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { sessionRepository } from '../../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../../store/repositories/taskRepository.js';
import { type Turn, turnRepository } from '../../../store/repositories/turnRepository.js';
import { type UsageTotals, usageRepository } from '../../../store/repositories/usageRepository.js';
import { wakeRepository } from '../../../store/repositories/wakeRepository.js';
import type { Reader } from '../../../store/tx.js';
import { readIssueAttention, type SourceContactLookup } from '../attention/readAttention.js';
import { readRunDto } from '../dtoMapping.js';
import { activityLine, latestActivity } from '../runActivity.js';
import type { LaunchPricing } from '../../usage/issueSpend.js';

export interface AgentTurnListDeps {
	readonly store: Store;
	readonly clock: Clock;
	readonly runs: Pick<RunProcessPort, 'readLog' | 'runDir'>;
	/** The await calls' heartbeats: which session waits in which call now. */
	readonly contacts: SourceContactLookup;
	readonly pricing?: LaunchPricing;
}

type Listed = Omit<AgentTurnDto, 'activity'> & { readonly processId: string };

function tokensOf(totals: UsageTotals): { tokens: number; costUsd: number | null } {
	const u = totals.usage;
	return { tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens, costUsd: totals.unpricedTurns > 0 ? null : totals.costUsd };
}

function workerOf(r: Reader, run: Run, now: number): Listed | undefined {
	const issue = issueRepository.get(r, run.issueId);
	if (issue === undefined) { return undefined; }
	const dto = readRunDto(r, run, now);
	const turn = turnRepository.bySubmitId(r, runSubmitId(run.runId));
	const pendingApprovals = approvalRepository.listByRun(r, run.runId).filter((a) => shownStatus(a, true) === 'pending').length;
	// The Host marks no Run stalled: a silence rule would set `stalled` here.
	const state = workerTurnState({ processStarted: run.startedAtUnixMs > 0 || turn?.state === 'running', pendingApprovals, stalled: false });
	const u = dto.usage;
	return {
		key: `run:${run.runId}`, role: 'worker', issueId: issue.issueId, issueTitle: issue.title, taskId: run.taskId,
		taskTitle: taskRepository.get(r, run.issueId, run.taskId)?.title ?? run.taskId, agentTargetId: run.agentTargetId,
		...state, sinceUnixMs: run.startedAtUnixMs > 0 ? run.startedAtUnixMs : run.createdAtUnixMs,
		tokens: u.inputTokens + u.outputTokens + u.cacheReadTokens + u.cacheWriteTokens, costUsd: dto.costUsd, runId: run.runId,
		controls: { stopRun: dto.controls.stop, stopSource: false, transcript: true }, processId: run.runId,
	};
}

/** The issue a source or reviewer Turn works for: the reviewer's own, or the one whose wake started it. */
function issueOfTurn(r: Reader, session: AgentSession, turn: Turn): Issue | undefined {
	if (session.issueId !== '') { return issueRepository.get(r, session.issueId); }
	const wake = wakeRepository.bySubmitId(r, turn.clientSubmitId);
	const execution = wake === undefined ? undefined : executionRepository.get(r, wake.executionId);
	return execution === undefined ? undefined : issueRepository.get(r, execution.issueId);
}

function sessionEntry(r: Reader, session: AgentSession, issue: Issue, state: TurnState, sinceUnixMs: number, processId: string): Listed {
	return {
		key: `session:${session.sessionId}:${issue.issueId}`, role: session.role, issueId: issue.issueId, issueTitle: issue.title, taskId: '', taskTitle: '',
		agentTargetId: session.agentTargetId, ...state, sinceUnixMs, ...tokensOf(usageRepository.roleTotals(r, issue.issueId, session.role)), runId: '',
		controls: { stopRun: false, stopSource: session.role === 'source' && issue.sourceSessionId === session.sessionId, transcript: false }, processId,
	};
}

function isOpen(r: Reader, issue: Issue): boolean {
	return !isIssueClosed(issue.status, executionRepository.getByIssue(r, issue.issueId)?.status ?? null);
}

function readListed(r: Reader, deps: AgentTurnListDeps, now: number): Listed[] {
	const listed: Listed[] = [];
	for (const run of runRepository.listByStatus(r, 'running')) {
		const worker = workerOf(r, run, now);
		if (worker !== undefined) { listed.push(worker); }
	}
	// Source and reviewer Turns Tutti started (each with its own process).
	const withTurn = new Set<string>();
	for (const turn of turnRepository.listOpenWithProcess(r)) {
		const session = sessionRepository.get(r, turn.sessionId);
		const issue = session === undefined ? undefined : issueOfTurn(r, session, turn);
		if (session === undefined || issue === undefined || session.role === 'worker' || !isOpen(r, issue)) { continue; }
		const facts: SessionTurnFacts = { turnRunning: turn.state === 'running', turnPrepared: turn.state === 'prepared', waitingIn: '', issueNeedsYou: false };
		const state = sessionTurnState(facts);
		if (state === null) { continue; }
		withTurn.add(`${session.sessionId}\u0000${issue.issueId}`);
		listed.push(sessionEntry(r, session, issue, state, turn.createdAtUnixMs, turn.processId ?? ''));
	}
	// Source sessions in a bounded call (an agent in the developer's terminal, or one Tutti woke).
	for (const issue of issueRepository.list(r)) {
		if (issue.planningSource !== 'tutti' || issue.sourceSessionId === '' || withTurn.has(`${issue.sourceSessionId}\u0000${issue.issueId}`) || !isOpen(r, issue)) { continue; }
		const contact = deps.contacts.contact(issue.sourceSessionId, now);
		if (contact.waitingIn === '') { continue; }
		const session = sessionRepository.get(r, issue.sourceSessionId);
		if (session === undefined) { continue; }
		const needsYou = readIssueAttention(r, issue, { nowUnixMs: now, contacts: deps.contacts, pricing: deps.pricing }).state === 'needs_you';
		const state = sessionTurnState({ turnRunning: false, turnPrepared: false, waitingIn: contact.waitingIn, issueNeedsYou: needsYou });
		if (state !== null) { listed.push(sessionEntry(r, session, issue, state, contact.waitingSinceUnixMs, '')); }
	}
	return listed;
}

export function listAgentTurns(deps: AgentTurnListDeps): Result<'turn/list'> {
	const now = deps.clock.now();
	const listed = deps.store.read((r) => readListed(r, deps, now));
	const turns = listed
		.map(({ processId, ...turn }) => ({ ...turn, activity: processId === '' ? '' : activityLine(latestActivity(deps.runs, processId)) }))
		.sort((a, b) => a.issueTitle.localeCompare(b.issueTitle) || a.issueId.localeCompare(b.issueId) || roleOrder[a.role] - roleOrder[b.role] || a.sinceUnixMs - b.sinceUnixMs || a.key.localeCompare(b.key));
	return { turns };
}

const roleOrder: Readonly<Record<AgentTurnDto['role'], number>> = { source: 0, reviewer: 1, worker: 2 };
