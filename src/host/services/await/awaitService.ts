// The Host side of the bounded waits: `await/review`, `await/checkpoint`,
// `await/next-action` re-derive "what is owed" until a decision or the call's bound (≤ 45 s), keeping a heartbeat
// while they wait; `agent/resume` and `session/state` are read-only (the developer's Finish: finishService.ts).
import { rejection } from '../../../core/hints.js';
import { agentResumeCommand } from '../../../core/next/commands.js';
import type { IssueFacts } from '../../../core/next/facts.js';
import {
	type Owed, owedBySession, owedForCheckpoint, owedForNextAction, owedForReview,
} from '../../../core/next/owed.js';
import type { Clock } from '../../../core/ports.js';
import type { AgentResponse } from '../../../protocol/agentResponse.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import { followUpRepository } from '../../../store/repositories/followUpRepository.js';
import { issueFactsRepository } from '../../../store/repositories/issueFactsRepository.js';
import type { Reader, Tx } from '../../../store/tx.js';
import { toAgentResponse } from './agentResponses.js';
import type { WaitingCall } from '../../../core/attention/attention.js';
import { Heartbeats } from './heartbeats.js';

/** One call's bound (advertised as wait_timeout_seconds). */
export const awaitTimeoutMs = 45_000;
/** How often a waiting call re-reads the store (a commit wakes it sooner). */
export const awaitPollMs = 500;

/** Real time for the bound of a call (the domain clock only measures durable waits). */
export interface WaitTimer {
	now(): number;
	/** Resolves after `ms` or sooner when the store commits. */
	pause(ms: number): Promise<void>;
}

export interface AwaitServiceDeps {
	store: Store;
	clock: Clock;
	heartbeats?: Heartbeats;
	timer?: WaitTimer;
	pollMs?: number;
}

export function storeTimer(store: Store): WaitTimer {
	return {
		now: () => Date.now(),
		pause: (ms) => new Promise<void>((resolve) => {
			const done = (): void => { clearTimeout(timer); sub.dispose(); resolve(); };
			const timer = setTimeout(done, ms);
			const sub = store.onDidCommit(done);
		}),
	};
}

function missingIssue(issueId: string): Owed {
	return {
		kind: 'failure', reasonCode: 'issue_not_found', message: `Issue ${issueId} does not exist.`,
		hint: 'List the issues and use an existing id.', next: 'tutti issue list --json',
	};
}

/** A decision a call takes for itself (offered once): re-derived and recorded inside one write transaction. */
interface Claim {
	/** Whether this answer must be taken. */
	applies(owed: Owed): boolean;
	/** Records inside `tx` that this call took it; false = another call took it first. */
	take(tx: Tx, facts: IssueFacts, owed: Owed): boolean;
}

/** Marker: the decision was taken by a concurrent call between this call's read and its claim. */
const takenElsewhere: Owed = { kind: 'answer', state: 'taken', message: '' };

function isWaitingAnswer(owed: Owed): boolean {
	return owed.kind === 'answer' && owed.state === 'waiting';
}

export class AwaitService {
	readonly heartbeats: Heartbeats;
	readonly #timer: WaitTimer;
	readonly #pollMs: number;

	constructor(private readonly deps: AwaitServiceDeps) {
		this.heartbeats = deps.heartbeats ?? new Heartbeats();
		this.#timer = deps.timer ?? storeTimer(deps.store);
		this.#pollMs = deps.pollMs ?? awaitPollMs;
	}

	review(params: ParsedParams<'await/review'>, caller: Caller): Promise<AgentResponse> {
		return this.#wait(caller, params.issueId, params.waitMs, (facts) => owedForReview(facts, params.taskId), undefined, 'await-review');
	}

	checkpoint(params: ParsedParams<'await/checkpoint'>, caller: Caller): Promise<AgentResponse> {
		return this.#wait(caller, params.issueId, params.waitMs, (facts) => owedForCheckpoint(facts), undefined, 'plan issue await');
	}

	/** A follow-up it returns is recorded as taken in the same transaction, so no later call offers it again. */
	nextAction(params: ParsedParams<'await/next-action'>, caller: Caller): Promise<AgentResponse> {
		return this.#wait(caller, params.issueId, params.waitMs, (facts) => owedForNextAction(facts), {
			applies: (owed) => owed.kind === 'answer' && owed.state === 'follow_up',
			take: (tx, facts) => {
				const followUp = facts.pendingFollowUp;
				return followUp !== undefined && followUp !== null && followUpRepository.consume(tx, followUp.followUpId, this.deps.clock.now());
			},
		}, 'next-action');
	}

	/** Read-only: the exact command the session owes now, or no `next`. */
	async resume(params: ParsedParams<'agent/resume'>, caller: Caller): Promise<AgentResponse> {
		const sessionId = this.#sessionOf(caller, params.sessionId);
		const now = this.deps.clock.now();
		const facts = this.deps.store.read((r) => issueFactsRepository.ofSession(r, sessionId));
		if (facts === undefined) {
			throw rejection('session_not_found', `Session ${sessionId} does not exist.`);
		}
		const response = toAgentResponse(owedBySession(facts), { nowUnixMs: now, waitBoundMs: awaitTimeoutMs, sessionId, ...(facts.issueId ? { issueId: facts.issueId } : {}) });
		response.activity = this.heartbeats.activity(sessionId, now, facts.issue?.lastChangeUnixMs ?? now);
		return response;
	}

	/** For the UI: waiting / working / idle, the owed command and the exact hand-back command. */
	async sessionState(params: ParsedParams<'session/state'>, caller: Caller): Promise<Result<'session/state'>> {
		const sessionId = this.#sessionOf(caller, params.sessionId);
		const now = this.deps.clock.now();
		const facts = this.deps.store.read((r) => issueFactsRepository.ofSession(r, sessionId));
		if (facts === undefined) {
			throw rejection('session_not_found', `Session ${sessionId} does not exist.`);
		}
		const owed = owedBySession(facts);
		const result: Result<'session/state'> = {
			sessionId,
			activity: this.heartbeats.activity(sessionId, now, facts.issue?.lastChangeUnixMs ?? now),
			lastHeartbeatAtUnixMs: this.heartbeats.lastBeat(sessionId),
			handBackCommand: agentResumeCommand(sessionId),
			state: owed.kind === 'answer' ? owed.state : owed.reasonCode,
		};
		if (owed.next !== undefined) { result.next = owed.next; }
		return result;
	}

	#sessionOf(caller: Caller, requested: string | undefined): string {
		if (caller.kind === 'session') {
			if (requested !== undefined && requested !== caller.sessionId) {
				throw rejection('forbidden', `A session may only read its own state; ${requested} is another session.`);
			}
			return caller.sessionId;
		}
		if (requested === undefined) {
			throw rejection('invalid_input', '--session-id is required when the developer asks (an agent session is resolved from its token).');
		}
		return requested;
	}

	/**
	 * `claim` (optional): an answer it applies to is re-derived inside a write transaction where the call records
	 * that it took it, so it is offered once.
	 */
	async #wait(caller: Caller, issueId: string, waitMs: number | undefined, derive: (facts: IssueFacts) => Owed, claim: Claim | undefined, call: WaitingCall): Promise<AgentResponse> {
		const bound = Math.min(waitMs ?? awaitTimeoutMs, awaitTimeoutMs);
		const started = this.#timer.now();
		const sessionId = caller.kind === 'session' ? caller.sessionId : undefined;
		const evaluate = (r: Reader): Owed => {
			const facts = issueFactsRepository.ofIssue(r, issueId);
			return facts === undefined ? missingIssue(issueId) : derive(facts);
		};
		const evaluateAndClaim = (tx: Tx): Owed => {
			const facts = issueFactsRepository.ofIssue(tx, issueId);
			if (facts === undefined) { return missingIssue(issueId); }
			const owed = derive(facts);
			return claim === undefined || !claim.applies(owed) || claim.take(tx, facts, owed) ? owed : takenElsewhere;
		};
		try {
			for (;;) {
				let owed = this.deps.store.read(evaluate);
				if (claim?.applies(owed) === true) {
					owed = await this.deps.store.transaction(evaluateAndClaim);
				}
				// Another call took it between the read and the claim: read again (that call committed, so this ends).
				if (owed === takenElsewhere) { continue; }
				const elapsed = this.#timer.now() - started;
				const isWaiting = isWaitingAnswer(owed);
				if (!isWaiting || elapsed >= bound) {
					return toAgentResponse(owed, { nowUnixMs: this.deps.clock.now(), waitBoundMs: bound, issueId, ...(sessionId ? { sessionId } : {}) });
				}
				if (sessionId !== undefined) { this.heartbeats.beat(sessionId, this.deps.clock.now(), call); }
				await this.#timer.pause(Math.min(this.#pollMs, bound - elapsed));
			}
		} finally {
			if (sessionId !== undefined) { this.heartbeats.clear(sessionId, this.deps.clock.now()); }
		}
	}
}
