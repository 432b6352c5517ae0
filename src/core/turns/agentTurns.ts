// Which agents are at work or waiting right now, and in which state, for the Agents view (`turn/list`): worker Runs,
// source sessions and reviewers across every issue. The Host reads the facts; this decides the state and its words,
// so the view draws and derives nothing. Pure.
import type { WaitingCall } from '../attention/attention.js';
import { type AgentTurnState, agentTurnStateNames } from '../attention/vocabulary.js';

/** A worker Run that has not settled. */
export interface WorkerTurnFacts {
	/** Its Turn's process has started (false: admitted, its tree or process is still being prepared). */
	readonly processStarted: boolean;
	/** Tool calls of the Run waiting for the developer's answer. */
	readonly pendingApprovals: number;
	/** The Host marked the Run silent for too long (stalled, never failed for it). */
	readonly stalled: boolean;
}

/** A source or reviewer session of an issue that is not over. */
export interface SessionTurnFacts {
	/** One of its Turns runs (Tutti woke it: a wake or a review being worked on). */
	readonly turnRunning: boolean;
	/** A Turn was prepared but its process has not started yet. */
	readonly turnPrepared: boolean;
	/** The bounded call it waits in now ('' when none). */
	readonly waitingIn: WaitingCall | '';
	/** The issue needs the developer (its attention state is needs you). */
	readonly issueNeedsYou: boolean;
}

export interface TurnState {
	readonly state: AgentTurnState;
	/** The state's name, with why when it is not plain ("Waiting on approval: 2 tool calls"). */
	readonly label: string;
}

function named(state: AgentTurnState, why = ''): TurnState {
	return { state, label: why === '' ? agentTurnStateNames[state] : `${agentTurnStateNames[state]}: ${why}` };
}

/** Stalled first (it is what the developer must look at), then a question waiting for them, then setting up. */
export function workerTurnState(f: WorkerTurnFacts): TurnState {
	if (f.stalled) { return named('stalled'); }
	if (f.pendingApprovals > 0) { return named('waiting_on_approval', f.pendingApprovals === 1 ? '1 tool call' : `${f.pendingApprovals} tool calls`); }
	if (!f.processStarted) { return named('setting_up'); }
	return named('working');
}

/**
 * A session that runs a Turn works; one that waits in a bounded call waits on the developer (its review, or an issue
 * that needs them) or on its tasks; a session doing neither is not at work now and is not listed (null).
 */
export function sessionTurnState(f: SessionTurnFacts): TurnState | null {
	if (f.turnRunning) { return named('working'); }
	if (f.waitingIn !== '') {
		return f.issueNeedsYou || f.waitingIn === 'await-review' || f.waitingIn === 'next-action'
			? named('waiting_on_you', `in tutti ${f.waitingIn}`)
			: named('waiting_on_agents', `in tutti ${f.waitingIn}`);
	}
	if (f.turnPrepared) { return named('setting_up'); }
	return null;
}
