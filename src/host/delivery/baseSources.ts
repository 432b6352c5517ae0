// What "the base" of an accepted task is when it is integrated: the target branch, and the accepted work of the
// issue's tasks that the integration merges before it (task order). Update from base merges what the task's tree
// lacks of it into the tree, so that integrating afterwards finds the task's commit already containing them; the
// integration's conflict refusal names the same commits for a merge by hand.
import { dependencySatisfied } from '../../core/graph/blockers.js';
import type { MergeSource } from '../../core/model.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader } from '../../store/tx.js';
import { isAncestor } from './combineCommits.js';

export interface OrderedCommit {
	taskId: string;
	commit: string;
}

/** The accepted commits an integration of the issue merges, in its order: its active accepted tasks with one. */
export function integrationOrder(r: Reader, issueId: string): OrderedCommit[] {
	const accepted = deliveryRepository.acceptedCommitsOfIssue(r, issueId);
	return taskRepository.listByIssue(r, issueId)
		.filter((t) => t.supersededAtUnixMs === 0 && dependencySatisfied(t) && (accepted.get(t.taskId) ?? '') !== '')
		.map((t) => ({ taskId: t.taskId, commit: accepted.get(t.taskId)! }));
}

/**
 * What `head` (the task's tree) lacks of its base: `into` at `tip` first, then the accepted commits of the tasks the
 * integration merges before `taskId` — each one that `head` does not contain yet, and that `tip` does not already.
 */
export async function baseSources(repo: string, into: string, tip: string, order: readonly OrderedCommit[], taskId: string, head: string): Promise<MergeSource[]> {
	const sources: MergeSource[] = [];
	if (!(await isAncestor(repo, tip, head))) { sources.push({ label: into, commit: tip }); }
	const index = order.findIndex((o) => o.taskId === taskId);
	for (const before of index < 0 ? order : order.slice(0, index)) {
		if (before.taskId === taskId || await isAncestor(repo, before.commit, head) || await isAncestor(repo, before.commit, tip)) { continue; }
		sources.push({ label: `task ${before.taskId}`, commit: before.commit });
	}
	return sources;
}
