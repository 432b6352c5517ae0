// Acceptance binds to a commit: when a task is accepted (by the developer, or automatically), the
// commit holding its accepted Run's work is recorded as its acceptedCommit. A Run that worked in the shared folder
// has no result commit, so its task's acceptance binds to none.
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import type { Tx } from '../../store/tx.js';

/** Records the accepted commit of `taskId` from its Run `runId`; returns it ('' when that Run has no result commit). */
export function bindAcceptance(tx: Tx, issueId: string, taskId: string, runId: string, now: number): string {
	const commits = runId === '' ? undefined : deliveryRepository.runCommits(tx, runId);
	const accepted = commits?.inWorktree === true ? commits.resultCommit : '';
	if (accepted === '') {
		deliveryRepository.clearAcceptedCommit(tx, issueId, taskId);
	} else {
		deliveryRepository.setAcceptedCommit(tx, issueId, taskId, accepted, now);
	}
	return accepted;
}
