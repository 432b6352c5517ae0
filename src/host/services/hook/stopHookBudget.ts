// The Stop hook's decision. Pure: the owed answer, the persisted budget and the time
// in; the decision and the budget to persist out. The budget is keyed on the pending command (never on a version
// the ordered command itself bumps), restarts when that command changes, and a release is persisted so the next
// Stop does not block again.
import { agentResumeCommand } from '../../../core/next/commands.js';
import type { Owed } from '../../../core/next/owed.js';
import type { StopHookBudget } from '../../../store/repositories/stopHookBudgetRepository.js';

/** Wall-clock window of consecutive blocks on the same owed command (an absent developer, not a count). */
export const stopBlockWindowMs = 30 * 60_000;
/** Runaway guard: an agent that re-stops immediately. */
export const maxConsecutiveStopBlocks = 60;

export type { StopHookBudget };

export interface StopHookDecision {
	decision: 'allow' | 'block';
	reason?: string;
	systemMessage?: string;
}

export interface StopHookStep {
	decision: StopHookDecision;
	/** What to persist: a budget, null = delete the session's budget. */
	persist: StopHookBudget | null;
}

export function releaseMessage(sessionId: string, next: string): string {
	return `Tutti let this turn end without the owed step (${next}). `
		+ `To hand the session back later, run this in the agent: ${agentResumeCommand(sessionId)}`;
}

export function decideStop(sessionId: string, owed: Owed, previous: StopHookBudget | undefined, nowUnixMs: number): StopHookStep {
	if (owed.kind !== 'answer' || owed.next === undefined) {
		// Nothing to run (finished, working worker, no issue) or the lifecycle cannot answer: allow.
		return { decision: { decision: 'allow' }, persist: null };
	}
	const budget: StopHookBudget = previous !== undefined && previous.observedCommand === owed.next
		? previous
		: { sessionId, observedCommand: owed.next, blocks: 0, firstBlockedAtUnixMs: nowUnixMs, releasedAtUnixMs: 0 };
	const exhausted = budget.releasedAtUnixMs > 0
		|| nowUnixMs - budget.firstBlockedAtUnixMs >= stopBlockWindowMs
		|| budget.blocks >= maxConsecutiveStopBlocks;
	if (exhausted) {
		return {
			decision: { decision: 'allow', systemMessage: releaseMessage(sessionId, owed.next) },
			persist: { ...budget, releasedAtUnixMs: budget.releasedAtUnixMs > 0 ? budget.releasedAtUnixMs : nowUnixMs },
		};
	}
	return {
		decision: { decision: 'block', reason: `This Tutti turn is not over: ${owed.message} Run this now: ${owed.next}` },
		persist: { ...budget, blocks: budget.blocks + 1 },
	};
}
