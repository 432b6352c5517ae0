// An archive cancels the checkpoints and wakes, then the exact Turns: canceling a wake in the store does not stop the agent Turn
// it started. The Turns an archive must interrupt are those of the execution's canceled wakes — main and reviewer
// alike — that have a process and have not settled. Wakes that are still open or were acknowledged are not the
// archive's to stop.
import type { TurnState, Wake } from '../model.js';

/** A Turn as the rule reads it: its submit id, its state and the runner id of its process ('' or absent: none). */
export interface TurnOfWake {
	clientSubmitId: string;
	state: TurnState;
	processId?: string | undefined;
}

/** The runner ids of the Turns of `wakes` that were canceled while their Turn has not settled (each once, in wake order). */
export function turnsToInterrupt(wakes: readonly Pick<Wake, 'status' | 'clientSubmitId'>[], turns: readonly TurnOfWake[]): string[] {
	const bySubmitId = new Map(turns.map((t) => [t.clientSubmitId, t] as const));
	const ids: string[] = [];
	for (const wake of wakes) {
		if (wake.status !== 'canceled') { continue; }
		const turn = bySubmitId.get(wake.clientSubmitId);
		const processId = turn?.processId ?? '';
		if (!turn || turn.state === 'settled' || processId === '' || ids.includes(processId)) { continue; }
		ids.push(processId);
	}
	return ids;
}
