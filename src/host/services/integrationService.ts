// `issue/integrate` (developer): the accepted commits of an issue's tasks, merged into a branch (default: the
// issue's base branch) by fast-forward or one merge commit (integration.ts). Tasks not accepted yet are refused
// with not_integrable unless `acceptedOnly`; tasks that worked in the shared folder have no commit to merge.
// Integrations run one at a time; the store records the integrated commit after git moved the branch.
import { dependencySatisfied } from '../../core/graph/blockers.js';
import { rejection } from '../../core/hints.js';
import type { Task } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { requireUser } from './callerPolicy.js';
import { loadIssue } from './issueService.js';
import { workspaceIdentity } from '../delivery/gitIdentity.js';
import { integrate } from '../delivery/integration.js';
import type { DeveloperGitMoves } from '../delivery/outsideWatch.js';
import { checkoutHead } from '../../core/runs/outsideChanges.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';

export interface IntegrationServiceDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	worktrees: WorktreeManager;
	/** The developer's `integrateRunsHooks` setting: the repository's hooks run when the branch moves. */
	runHooks: boolean;
	/** Where the branch (and the checkout's HEAD) this integration moves is recorded, before it moves. */
	gitMoves?: DeveloperGitMoves;
}

/** Accepted = what satisfies a dependency edge (completed, accepted by the developer or automatically): the core rule. */
const accepted = (task: Task): boolean => dependencySatisfied(task);

export class IntegrationService {
	#chain: Promise<unknown> = Promise.resolve();

	constructor(private readonly deps: IntegrationServiceDeps) {}

	integrate(params: ParsedParams<'issue/integrate'>, caller: Caller): Promise<Result<'issue/integrate'>> {
		requireUser(caller, 'issue integrate', { issueId: params.issueId });
		const next = this.#chain.then(() => this.#integrate(params), () => this.#integrate(params));
		this.#chain = next.then(() => undefined, () => undefined);
		return next;
	}

	/** After Finish: the issue's trees and branches go, once integrated (`tutti finish --remove-worktrees`). */
	async removeWorktrees(issueId: string): Promise<{ taskId: string; path: string; branch: string }[]> {
		const integrated = this.deps.store.read((r) => deliveryRepository.issueDelivery(r, issueId)?.integratedCommit ?? '');
		if (integrated === '') {
			throw rejection('not_integrable', `Issue ${issueId} has not been integrated, so its worktrees hold the only copy of its work; nothing was removed.`,
				{ issueId }, { issueId });
		}
		return this.deps.worktrees.removeIssueTrees(issueId, integrated);
	}

	async #integrate(params: ParsedParams<'issue/integrate'>): Promise<Result<'issue/integrate'>> {
		const { issueId } = params;
		const plan = this.deps.store.read((r) => {
			const issue = loadIssue(r, issueId);
			const tasks = taskRepository.listByIssue(r, issueId).filter((t) => t.supersededAtUnixMs === 0);
			return { issue, tasks, acceptedCommits: deliveryRepository.acceptedCommitsOfIssue(r, issueId), delivery: deliveryRepository.issueDelivery(r, issueId) };
		});
		const notAccepted = plan.tasks.filter((t) => !accepted(t)).map((t) => t.taskId);
		if (notAccepted.length > 0 && params.acceptedOnly !== true) {
			throw rejection('not_integrable', `Issue ${issueId} has tasks that are not accepted yet: ${notAccepted.join(', ')}. Nothing was changed.`,
				{ issueId }, { notAcceptedTaskIds: notAccepted });
		}
		const toMerge = plan.tasks.filter((t) => accepted(t) && (plan.acceptedCommits.get(t.taskId) ?? '') !== '');
		if (!plan.delivery || toMerge.length === 0) {
			throw rejection('not_integrable', `Issue ${issueId} has no accepted work in worktrees to integrate (tasks that ran in the shared folder changed it directly). Nothing was changed.`,
				{ issueId }, { notAcceptedTaskIds: notAccepted });
		}
		const into = params.into ?? plan.delivery.baseBranch;
		if (into === '') {
			throw rejection('invalid_input', `Issue ${issueId} started from a detached HEAD, so it has no base branch to integrate into: name one with --into (\`tutti issue integrate --issue-id ${issueId} --into <branch> --as-user\`). Nothing was changed.`,
				{ issueId }, { issueId });
		}
		const commitToTask = new Map(toMerge.map((t) => [plan.acceptedCommits.get(t.taskId)!, t.taskId] as const));
		const result = await integrate({
			repo: this.deps.workspace, into, title: plan.issue.title,
			beforeMove: (commit, movesWorkspace) => {
				const now = this.deps.clock.now();
				this.deps.gitMoves?.record(`refs/heads/${into}`, commit, now);
				if (movesWorkspace) { this.deps.gitMoves?.record(checkoutHead, commit, now); }
			},
			commits: toMerge.map((t) => plan.acceptedCommits.get(t.taskId)!),
			identity: await workspaceIdentity(this.deps.workspace), runHooks: this.deps.runHooks,
		});
		switch (result.kind) {
			case 'not_a_repository':
				throw rejection('invalid_input', `The workspace ${this.deps.workspace} is not a git repository any more (no .git), so there is no branch to integrate issue ${issueId} into. Nothing was changed.`, { issueId }, { into });
			case 'no_branch':
				throw rejection('invalid_input', `There is no branch '${into}' to integrate issue ${issueId} into. Nothing was changed.`, { issueId }, { into });
			case 'conflict': {
				const name = (commit: string): string => commitToTask.has(commit) ? `task ${commitToTask.get(commit)!}` : `${into} (${commit.slice(0, 12)})`;
				throw rejection('merge_conflict',
					`Integrating issue ${issueId} into ${into} conflicts: merging ${name(result.between[0])} and ${name(result.between[1])} conflicts in ${result.paths.join(', ')}. Nothing was changed.`,
					{ issueId }, { into, paths: result.paths, between: result.between.map((c) => commitToTask.get(c) ?? c) });
			}
			case 'dirty_tree':
				throw rejection('dirty_workspace',
					`${into} is checked out in ${result.tree} with uncommitted changes to tracked files: ${result.files.slice(0, 20).join(', ')}${result.files.length > 20 ? ` and ${result.files.length - 20} more` : ''}. Nothing was changed.`,
					{ issueId }, { into, tree: result.tree, files: result.files });
			case 'blocked_tree':
				throw rejection('workspace_busy', `Could not move ${into} in ${result.tree}: ${result.reason}. Nothing was changed.`,
					{ issueId }, { into, tree: result.tree });
			case 'integrated':
				break;
		}
		await this.deps.store.transaction((tx) => {
			deliveryRepository.recordIntegration(tx, issueId, result.integratedCommit, into, this.deps.clock.now());
		});
		return {
			issueId, into, integratedCommit: result.integratedCommit, previousCommit: result.previousCommit, fastForward: result.fastForward,
			mergedTaskIds: toMerge.map((t) => t.taskId), workspaceMoved: result.movedTree !== null,
		};
	}
}
