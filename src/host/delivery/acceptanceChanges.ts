// Acceptance binds to a commit. When an accepted task's branch moves afterwards (someone committed in its
// tree), the acceptance no longer says what a dependent would build on: before any dependent starts from it, the task
// goes back to pending_acceptance with the reason "changed after acceptance", its latest Run's result becomes the
// branch's new HEAD (so Open Changes and Accept see the new work), its accepted commit and the developer's decision
// on that Run are withdrawn, and the reopening is recorded (a store fact the board and panel show). Checked before a
// dependent is admitted (the dispatcher, managed `schedule`), again before its Run launches, and before the issue's
// accepted work is integrated (a conflict resolved by hand in the task's tree is then shown for review).
import type { Task } from '../../core/model.js';
import type { Store } from '../../store/database.js';
import type { Reader, Tx } from '../../store/tx.js';
import { type AcceptanceChange, changedAfterAcceptance, deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { reviewRepository } from '../../store/repositories/reviewRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { gitExit } from '../worktrees/git.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { reworkChain } from '../worktrees/worktreePaths.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import { changedFiles } from './changedFiles.js';

export interface AcceptanceChangeDeps {
	workspace: string;
	store: Store;
	clock: { now(): number };
	worktrees: WorktreeManager;
	/** The reopened Run's result is `commit` now: its checks run again there (absent: nothing to verify). */
	reverify?: (tx: Tx, runId: string, commit: string) => void;
}

/** An accepted task whose acceptance is bound to a commit of its own tree. */
interface BoundAcceptance {
	task: Task;
	runId: string;
	acceptedCommit: string;
	baseCommit: string;
	treePath: string;
}

function boundAcceptances(deps: AcceptanceChangeDeps, issueId: string, parentIds: ReadonlySet<string>): BoundAcceptance[] {
	return deps.store.read((r) => {
		const tasks = taskRepository.listByIssue(r, issueId);
		const supersededBy = new Map(tasks.map((t) => [t.taskId, t.supersededByTaskId] as const));
		const bound: BoundAcceptance[] = [];
		for (const task of tasks) {
			if (!parentIds.has(task.taskId) || task.status !== 'completed' || task.supersededAtUnixMs > 0 || task.latestRunId === '') { continue; }
			const acceptedCommit = deliveryRepository.acceptedCommit(r, issueId, task.taskId);
			const commits = deliveryRepository.runCommits(r, task.latestRunId);
			if (acceptedCommit === '' || commits?.inWorktree !== true || commits.resultCommit !== acceptedCommit) { continue; }
			const tree = deps.worktrees.existingTree(issueId, reworkChain(task.taskId, supersededBy));
			if (tree === null) { continue; }
			bound.push({ task, runId: task.latestRunId, acceptedCommit, baseCommit: commits.baseCommit, treePath: tree.absolutePath });
		}
		return bound;
	});
}

/** The branch HEAD of the accepted task's tree; null when git cannot tell (the tree is gone or broken). */
async function treeHead(treePath: string): Promise<string | null> {
	const head = await gitExit(treePath, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => null);
	return head !== null && head.exitCode === 0 ? head.stdout.trim() : null;
}

/** One reopening, in one transaction; nothing when the task changed meanwhile (accepted anew, reworked…). */
async function reopen(deps: AcceptanceChangeDeps, bound: BoundAcceptance, movedTo: string): Promise<AcceptanceChange | null> {
	const files = await changedFiles(deps.workspace, bound.baseCommit, movedTo).catch(() => []);
	return deps.store.transaction((tx) => {
		const { issueId, taskId } = bound.task;
		const task = taskRepository.get(tx, issueId, taskId);
		if (!task || task.status !== 'completed' || task.latestRunId !== bound.runId
			|| deliveryRepository.acceptedCommit(tx, issueId, taskId) !== bound.acceptedCommit) { return null; }
		const now = deps.clock.now();
		const change: AcceptanceChange = {
			issueId, taskId, runId: bound.runId, acceptedCommit: bound.acceptedCommit, movedToCommit: movedTo,
			reason: changedAfterAcceptance, changedAtUnixMs: now,
		};
		taskRepository.update(tx, { ...task, status: 'pending_acceptance', acceptanceState: 'agent_claimed', updatedAtUnixMs: now });
		deliveryRepository.clearAcceptedCommit(tx, issueId, taskId);
		deliveryRepository.moveRunResult(tx, bound.runId, movedTo, files);
		reviewRepository.deleteDecision(tx, issueId, taskId, bound.runId);
		deliveryRepository.recordAcceptanceChange(tx, change);
		deps.reverify?.(tx, bound.runId, movedTo);
		const issue = issueRepository.get(tx, issueId);
		if (issue) {
			const status = nextIssueStatus(issue, issueRepository.counts(tx, issueId), false);
			if (status !== issue.status) { issueRepository.update(tx, { ...issue, status, updatedAtUnixMs: now }); }
		}
		return change;
	});
}

/**
 * Whether some parent of `taskIds` has an acceptance bound to a commit (the only case the check below has work; a
 * caller skips it — and stays synchronous — otherwise).
 */
export function hasAcceptedParentCommits(r: Reader, issueId: string, taskIds: readonly string[]): boolean {
	return taskIds.some((id) => (taskRepository.get(r, issueId, id)?.dependencyTaskIds ?? [])
		.some((parent) => deliveryRepository.acceptedCommit(r, issueId, parent) !== ''));
}

/**
 * Before tasks `taskIds` of the issue start: every worktree parent of theirs whose branch moved after its acceptance
 * goes back to pending_acceptance (see the file comment). Returns the reopenings (none in the usual case).
 */
export async function reopenChangedParents(deps: AcceptanceChangeDeps, issueId: string, taskIds: readonly string[]): Promise<AcceptanceChange[]> {
	const parentIds = deps.store.read((r) => new Set(taskIds.flatMap((id) => taskRepository.get(r, issueId, id)?.dependencyTaskIds ?? [])));
	return reopenChanged(deps, issueId, parentIds);
}

/**
 * Before the issue's accepted work is integrated: each accepted task whose branch moved after its acceptance (a
 * commit the developer made in its tree, e.g. resolving a conflict by hand) goes back to pending_acceptance, so the
 * integration never merges an acceptance that no longer says what the task's work is, and the change is reviewed.
 */
export async function reopenChangedAcceptances(deps: AcceptanceChangeDeps, issueId: string): Promise<AcceptanceChange[]> {
	const taskIds = deps.store.read((r) => new Set(taskRepository.listByIssue(r, issueId).map((t) => t.taskId)));
	return reopenChanged(deps, issueId, taskIds);
}

async function reopenChanged(deps: AcceptanceChangeDeps, issueId: string, taskIds: ReadonlySet<string>): Promise<AcceptanceChange[]> {
	if (taskIds.size === 0) { return []; }
	const changes: AcceptanceChange[] = [];
	for (const bound of boundAcceptances(deps, issueId, taskIds)) {
		const head = await treeHead(bound.treePath);
		if (head === null || head === bound.acceptedCommit) { continue; }
		const change = await reopen(deps, bound, head);
		if (change) { changes.push(change); }
	}
	return changes;
}
