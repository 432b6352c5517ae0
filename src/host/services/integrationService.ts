// `issue/integrate` (developer): the accepted commits of an issue's tasks, merged into a branch (default: the
// issue's base branch) by fast-forward or one merge commit (integration.ts). Tasks not accepted yet are refused
// with not_integrable unless `acceptedOnly`; tasks that worked in the shared folder have no commit to merge. A task
// whose branch moved after its acceptance is reopened for review first; every refusal names the command that moves
// each blocking task on, and a conflict both ways forward (integrationRefusals.ts).
// Integrations run one at a time; the store records the integrated commit after git moved the branch. `squash`
// makes new commits for the accepted work (squash.ts); `push` sends the moved branch to a remote (push.ts), checked
// before anything moves and never undoing the integration when it fails.
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
import { pushBranch, type PushTarget, pushTargetOf } from '../delivery/push.js';
import { topologicalOrder } from '../../core/graph/topological.js';
import { DomainError } from '../../core/errors.js';
import { conflictRefusalOf, notAcceptedRefusal } from '../delivery/integrationRefusals.js';
import { reopenChangedAcceptances } from '../delivery/acceptanceChanges.js';
import type { HostConfig } from '../config.js';
import type { DeveloperGitMoves } from '../delivery/outsideWatch.js';
import { checkoutHead } from '../../core/runs/outsideChanges.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { checksOfIntegration } from '../checks/taskChecks.js';
import { type BranchMoved, branchMovedSinceVerified, integrationChecksView, integrationFailure, runChecksAtCommit } from '../checks/integrationChecks.js';
import type { CheckResult } from '../../core/checks/checks.js';

export interface IntegrationServiceDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	/** The agent targets (what Update from base would do for a task in a conflict refusal) and the workspace's checks. */
	config: HostConfig;
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

	async #integrate(params: ParsedParams<'issue/integrate'>): Promise<Result<'issue/integrate'>> {
		const { issueId } = params;
		// A task whose branch moved after its acceptance (a conflict resolved by hand in its tree) is reviewed first.
		await reopenChangedAcceptances(this.deps, issueId);
		const plan = this.deps.store.read((r) => {
			const issue = loadIssue(r, issueId);
			const tasks = taskRepository.listByIssue(r, issueId).filter((t) => t.supersededAtUnixMs === 0);
			return { issue, tasks, acceptedCommits: deliveryRepository.acceptedCommitsOfIssue(r, issueId), delivery: deliveryRepository.issueDelivery(r, issueId) };
		});
		const notAccepted = plan.tasks.filter((t) => !accepted(t)).map((t) => t.taskId);
		if (notAccepted.length > 0 && params.acceptedOnly !== true) {
			throw notAcceptedRefusal(this.deps, plan.issue, plan.tasks.filter((t) => !accepted(t)), params.into);
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
		const pushTarget = params.push === undefined ? null : await this.#pushTarget(issueId, into, params.push);
		const squash = params.squash ?? 'none';
		// Whatever any merged task had to pass, the merge of them has to pass too, before the branch moves.
		const checks = this.deps.store.read((r) => checksOfIntegration(r, this.deps.config, issueId, toMerge));
		let checkResults: CheckResult[] = [];
		// Set by verify (a closure), so declared wide: the checks ran on a merge with a branch that moved.
		let moved = null as BranchMoved | null;
		const verify = async (commit: string, previous: string): Promise<{ refused: string } | null> => {
			moved = await branchMovedSinceVerified(this.deps.workspace, into, plan.delivery?.baseCommit ?? '', previous, toMerge.map((t) => plan.acceptedCommits.get(t.taskId)!));
			checkResults = await runChecksAtCommit({ workspace: this.deps.workspace, commit, checks, names: { TUTTI_ISSUE_ID: issueId }, now: () => this.deps.clock.now() });
			const failure = integrationFailure(commit, checks, checkResults);
			return failure === null ? null : { refused: moved === null ? failure.text : `${moved.label}: ${failure.text}` };
		};
		const result = await integrate({
			repo: this.deps.workspace, into, title: plan.issue.title,
			...(squash !== 'none' ? {
				squash: {
					issueId, issueTitle: plan.issue.title, mode: squash,
					tasks: topologicalOrder(plan.tasks).filter((t) => toMerge.includes(t)).map((t) => ({ taskId: t.taskId, title: t.title, commit: plan.acceptedCommits.get(t.taskId)! })),
				},
			} : {}),
			beforeMove: (commit, movesWorkspace) => {
				const now = this.deps.clock.now();
				this.deps.gitMoves?.record(`refs/heads/${into}`, commit, now);
				if (movesWorkspace) { this.deps.gitMoves?.record(checkoutHead, commit, now); }
			},
			commits: toMerge.map((t) => plan.acceptedCommits.get(t.taskId)!),
			...(params.skipChecks === true || checks.length === 0 ? {} : { verify }),
			identity: await workspaceIdentity(this.deps.workspace), runHooks: this.deps.runHooks,
		});
		switch (result.kind) {
			case 'not_a_repository':
				throw rejection('invalid_input', `The workspace ${this.deps.workspace} is not a git repository any more (no .git), so there is no branch to integrate issue ${issueId} into. Nothing was changed.`, { issueId }, { into });
			case 'no_branch':
				throw rejection('invalid_input', `There is no branch '${into}' to integrate issue ${issueId} into. Nothing was changed.`, { issueId }, { into });
			case 'conflict':
				throw await conflictRefusalOf(this.deps, {
					issue: plan.issue, into, paths: result.paths, between: result.between,
					order: toMerge.map((t) => ({ taskId: t.taskId, commit: plan.acceptedCommits.get(t.taskId)! })),
					asked: {
						...(params.acceptedOnly === true ? { acceptedOnly: true } : {}), ...(params.squash !== undefined ? { squash: params.squash } : {}),
						...(params.push !== undefined ? { push: params.push } : {}),
					},
				});
			case 'dirty_tree':
				throw rejection('dirty_workspace',
					`${into} is checked out in ${result.tree} with uncommitted changes to tracked files: ${result.files.slice(0, 20).join(', ')}${result.files.length > 20 ? ` and ${result.files.length - 20} more` : ''}. Nothing was changed.`,
					{ issueId }, { into, tree: result.tree, files: result.files });
			case 'blocked_tree':
				throw rejection('workspace_busy', `Could not move ${into} in ${result.tree}: ${result.reason}. Nothing was changed.`,
					{ issueId }, { into, tree: result.tree });
			case 'checks_failed': {
				const failure = integrationFailure(result.commit, checks, checkResults);
				throw rejection('not_integrable',
					`Integrating issue ${issueId} into ${into}: ${result.refused}\nNothing was changed: ${into} stays where it was. Fix it with a rework, or integrate anyway with --skip-checks (your choice, recorded).`,
					{ issueId }, {
						into, check: failure?.check ?? '', end: failure?.end ?? '', outputTail: failure?.outputTail ?? '', integratedCommit: result.commit,
						...(moved === null ? {} : { branchMoved: { ...moved } }),
					});
			}
			case 'integrated':
				break;
		}
		const checked = params.skipChecks === true ? 'skipped' : checks.length === 0 ? 'none' : 'passed';
		const checksView = integrationChecksView(checked, result.integratedCommit, checks, checkResults, moved);
		const sequence = await this.deps.store.transaction((tx) => deliveryRepository.recordIntegration(tx, issueId, result.integratedCommit, into, this.deps.clock.now(), {
			previousCommit: result.previousCommit, squash, taskCommits: Object.fromEntries(toMerge.map((t) => [t.taskId, plan.acceptedCommits.get(t.taskId)!])), checks: checked,
			checksJson: JSON.stringify(checksView),
		}));
		const integrated: Result<'issue/integrate'> = {
			issueId, into, integratedCommit: result.integratedCommit, previousCommit: result.previousCommit, fastForward: result.fastForward,
			mergedTaskIds: toMerge.map((t) => t.taskId), workspaceMoved: result.movedTree !== null, squash, checks: checksView,
		};
		if (pushTarget === null) { return integrated; }
		const failure = await pushBranch(this.deps.workspace, into, pushTarget, this.deps.runHooks);
		await this.deps.store.transaction((tx) => { deliveryRepository.recordPush(tx, issueId, sequence, pushTarget.remote, failure === '' ? 'pushed' : 'failed', failure); });
		if (failure !== '') {
			const remoteBranch = pushTarget.remoteRef.slice('refs/heads/'.length);
			throw new DomainError('push_failed',
				`Integrated issue ${issueId} into ${into} at ${result.integratedCommit.slice(0, 12)} (this integration stays), but pushing ${into} to ${pushTarget.remote} failed:\n${failure}`,
				`Nothing was undone: ${into} holds the integration. Fix what git says (if ${pushTarget.remote} has commits you do not have, pull them into ${into} first), then push it yourself (\`git push ${pushTarget.remote} ${into}:${remoteBranch}\`) or run \`tutti issue integrate --issue-id ${issueId} --push ${pushTarget.remote} --as-user\` again (the developer's command; it pushes the same integration).`,
				{ ...integrated, remote: pushTarget.remote, remoteRef: pushTarget.remoteRef });
		}
		return { ...integrated, pushed: { remote: pushTarget.remote, branch: pushTarget.remoteRef.slice('refs/heads/'.length) } };
	}

	/** Where `--push` sends the branch, checked before anything moves (a refusal changes nothing). */
	async #pushTarget(issueId: string, into: string, push: string | true): Promise<PushTarget> {
		const lookup = await pushTargetOf(this.deps.workspace, into, push);
		if (lookup.kind === 'refused') {
			throw new DomainError('invalid_input', `${lookup.message} Nothing was changed: issue ${issueId} was not integrated.`, lookup.hint, { issueId, into });
		}
		return lookup.target;
	}
}
