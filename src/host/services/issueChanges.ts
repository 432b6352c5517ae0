// `issue/changes`: the whole issue as one diff, for the developer's look before Goal Review's decision or before
// Integrate: from the issue's base commit to its active tasks' accepted commits combined. The combination is the
// one integration makes (combineCommits: `git merge-tree` and `git commit-tree` in the object database), so it
// moves no ref, touches no working tree and changes nothing in the store. Tasks whose work conflicts are an answer
// (the paths, and why there is no diff), not an error.
import type { ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { loadIssue } from './issueService.js';
import { changedFiles } from '../delivery/changedFiles.js';
import { combineCommits } from '../delivery/combineCommits.js';
import { workspaceIdentity } from '../delivery/gitIdentity.js';

export interface IssueChangesDeps {
	readonly workspace: string;
	readonly store: Store;
}

export async function issueChanges(deps: IssueChangesDeps, params: ParsedParams<'issue/changes'>): Promise<Result<'issue/changes'>> {
	const { issueId } = params;
	const plan = deps.store.read((r) => {
		const issue = loadIssue(r, issueId);
		const accepted = deliveryRepository.acceptedCommitsOfIssue(r, issueId);
		const tasks = taskRepository.listByIssue(r, issueId)
			.filter((t) => t.supersededAtUnixMs === 0 && (accepted.get(t.taskId) ?? '') !== '')
			.map((t) => ({ taskId: t.taskId, commit: accepted.get(t.taskId)! }));
		return { issue, tasks, baseCommit: deliveryRepository.issueDelivery(r, issueId)?.baseCommit ?? '' };
	});
	const empty = { issueId, baseCommit: plan.baseCommit, combinedCommit: '', taskIds: [], files: [], conflictPaths: [] };
	if (plan.baseCommit === '') {
		return { ...empty, note: `no task of "${plan.issue.title}" worked in a git worktree, so it has no commits to show (tasks in the shared folder changed it directly)` };
	}
	if (plan.tasks.length === 0) {
		return { ...empty, note: `no task of "${plan.issue.title}" is accepted with a commit yet` };
	}
	const combined = await combineCommits(deps.workspace, [plan.baseCommit, ...plan.tasks.map((t) => t.commit)],
		`Combined changes of ${plan.issue.title.replace(/\s+/g, ' ').trim()}`, await workspaceIdentity(deps.workspace), 'newest-parent');
	if (combined.kind === 'conflict') {
		const taskOf = new Map(plan.tasks.map((t) => [t.commit, t.taskId] as const));
		const name = (commit: string): string => (taskOf.has(commit) ? `task ${taskOf.get(commit)!}` : `the issue's base (${commit.slice(0, 12)})`);
		// Not an error: the answer to "what is the issue's work" is that its tasks' work does not combine (yet).
		return {
			...empty, taskIds: plan.tasks.map((t) => t.taskId), conflictPaths: combined.paths,
			note: `the accepted work of "${plan.issue.title}" does not combine: ${name(combined.between[0])} and ${name(combined.between[1])} conflict in ${combined.paths.join(', ')}`,
		};
	}
	const files = await changedFiles(deps.workspace, plan.baseCommit, combined.commit);
	return {
		...empty, combinedCommit: combined.commit, taskIds: plan.tasks.map((t) => t.taskId), files,
		note: files.length === 0 ? `the accepted work of "${plan.issue.title}" changes no file against its base commit` : '',
	};
}
