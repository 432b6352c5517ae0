// The names of the states the developer sees, in one table: the Host builds every attention label from it (the
// panel draws those labels), and the board's groups, the status bar, notifications and the Agents view read it
// directly. One state, one name: a word changed here changes everywhere. Pure.
import type { ReworkKind } from '../model.js';

export const attentionStates = ['needs_you', 'agent_working', 'waiting_on_agent', 'paused', 'not_started', 'planned', 'done'] as const;
export type AttentionState = (typeof attentionStates)[number];

/** Each attention state's name, capitalised as a heading ("Needs you"); `inSentence` gives it mid-sentence. */
export const attentionStateNames: Readonly<Record<AttentionState, string>> = {
	needs_you: 'Needs you',
	agent_working: 'Agent working',
	waiting_on_agent: 'Waiting on agent',
	paused: 'Paused',
	not_started: 'Not started',
	planned: 'Planned',
	done: 'Done',
};

/** The words a label adds to its state: what the developer decides on a failure, the step a finished issue still
 * needs, and a new attempt asked for but not started yet (never a failure word). */
export const attentionPhrases = {
	readyToIntegrate: 'ready to integrate',
	failedManual: 'retry, edit or stop',
	failedManaged: 'hand the source agent back, or stop',
} as const;

/** A new attempt of a task asked for and not started yet, by what asked for it. */
export const pendingReworkLabel: Readonly<Record<ReworkKind, string>> = {
	changes_requested: 'Changes requested: its next attempt starts soon',
	retry: 'Retry asked: its next attempt starts soon',
	update_from_base: 'Update from base asked: it starts soon',
};

/** A task waiting for the new attempt asked of it, by what asked for it (the panel's status; never a failure). */
export const reworkStateNames: Readonly<Record<ReworkKind, string>> = {
	changes_requested: 'Changes requested',
	retry: 'Retry asked',
	update_from_base: 'Update from base asked',
};

/** How an earlier attempt of a task ended, in the one line that stands for it ("Attempt 1 — changes requested: …"). */
export const attemptEndNames = {
	changes_requested: 'changes requested',
	retry: 'retried',
	update_from_base: 'updated from its base',
	failed: 'failed',
	canceled: 'canceled',
	replaced: 'replaced',
	ranAgain: 'ran again',
} as const;

/** The state of one agent Turn in the Agents view (src/core/turns/agentTurns.ts derives it). */
export const agentTurnStates = ['working', 'waiting_on_you', 'waiting_on_approval', 'waiting_on_agents', 'setting_up', 'stalled'] as const;
export type AgentTurnState = (typeof agentTurnStates)[number];

export const agentTurnStateNames: Readonly<Record<AgentTurnState, string>> = {
	working: 'Working',
	waiting_on_you: 'Waiting on you',
	waiting_on_approval: 'Waiting on approval',
	waiting_on_agents: 'Waiting on its tasks',
	setting_up: 'Setting up',
	stalled: 'Stalled',
};

/** A name in the middle of a sentence: "2 needs you" → "needs you", "Agent working" → "agent working". */
export function inSentence(name: string): string {
	return name.charAt(0).toLowerCase() + name.slice(1);
}
