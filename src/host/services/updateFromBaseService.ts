// `task/updateFromBase` (developer): an accepted task's work brought up to date with its base — the branch the issue
// integrates into and the accepted work integrated before the task (baseSources.ts) — by a new Run of the task in its
// own tree (taskReworks.ts). What the merge will come to is computed first, without touching any tree, and answered:
// clean (the Run merges without an agent and its merge is the new result), conflicts its agent resolves
// (`onMergeConflict: "agent"`), or conflicts left in the tree for the developer (`"fail"`). The new result is reviewed
// and accepted again like any change. A manual issue's dispatcher starts the Run; a managed issue's (after its
// Goal Review) is started here, since no source agent schedules it any more.
import { DomainError } from '../../core/errors.js';
import { rejection } from '../../core/hints.js';
import { integrateCommand, issueGetCommand, retryCommand, reviewAcceptCommand } from '../../core/issues/developerCommands.js';
import type { Issue, MergeSource, Task } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import { effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { baseSources, integrationOrder, type OrderedCommit } from '../delivery/baseSources.js';
import { combineCommits, conflictingPaths, resolveCommit } from '../delivery/combineCommits.js';
import { workspaceIdentity } from '../delivery/gitIdentity.js';
import { dirtyTrackedFiles, operationInProgress } from '../delivery/integration.js';
import type { RunAdmission } from '../runs/runAdmission.js';
import { requestReworkInTx } from '../runs/taskReworks.js';
import { gitExit } from '../worktrees/git.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { reworkChain } from '../worktrees/worktreePaths.js';
import { requireUser } from './callerPolicy.js';
import { loadIssue } from './issueService.js';
import { manualRejection } from './manualRejections.js';

export interface UpdateFromBaseDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	config: HostConfig;
	worktrees: WorktreeManager;
	admission: Pick<RunAdmission, 'admit' | 'launch'>;
	log(line: string): void;
}

type UpdateResult = Result<'task/updateFromBase'>;

/** What the request reads before any git call. */
interface UpdatePlan {
	issue: Issue;
	task: Task;
	into: string;
	acceptedCommit: string;
	tree: { relativePath: string; absolutePath: string };
	target: AgentTargetConfig | undefined;
	order: OrderedCommit[];
}

const command = 'task update-from-base';

function refused(message: string, hint: string, issueId: string, taskId: string, details: Record<string, unknown> = {}): DomainError {
	return new DomainError('invalid_input', `${command}: ${message} Nothing was changed.`, hint, { issueId, taskId, ...details });
}

/** The refusal for a task that is not accepted: what to do instead in the state it is in. */
function notAccepted(issue: Issue, task: Task): DomainError {
	const { issueId } = issue;
	const hint = task.status === 'pending_acceptance'
		? `Review it first: accept it (\`${reviewAcceptCommand(issueId, task.taskId)}\`), then update it from its base.`
		: task.status === 'failed' || task.status === 'canceled'
			? issue.planningSource === 'manual'
				? `Run it again instead: \`${retryCommand(issueId, task.taskId)}\` (its new attempt starts from its tree).`
				: 'Its source agent reworks it (it got that as a checkpoint).'
			: `Wait until it settles and you accept it (\`${issueGetCommand(issueId)}\` shows it), then update it from its base.`;
	return refused(`task ${task.taskId} is ${task.status}; only an accepted task's work (completed, in its own worktree) is updated from its base.`, hint, issueId, task.taskId,
		{ status: task.status });
}

export class UpdateFromBaseService {
	constructor(private readonly deps: UpdateFromBaseDeps) {}

	async update(params: ParsedParams<'task/updateFromBase'>, caller: Caller): Promise<UpdateResult> {
		requireUser(caller, command, { issueId: params.issueId });
		const plan = this.deps.store.read((r) => this.#plan(r, params));
		const { issue, task, into, tree } = plan;
		const { issueId } = issue;
		const busy = await operationInProgress(tree.absolutePath);
		if (busy !== null) {
			throw refused(`${busy} is in progress in task ${task.taskId}'s tree ${tree.relativePath}.`,
				`Finish it (\`git -C ${tree.relativePath} commit --no-edit\` once its conflicts are resolved) or abort it (\`git -C ${tree.relativePath} merge --abort\`), then run \`tutti task update-from-base --issue-id ${issueId} --task-id ${task.taskId} --as-user\` again.`,
				issueId, task.taskId, { tree: tree.relativePath });
		}
		const dirty = await dirtyTrackedFiles(tree.absolutePath);
		if (dirty.length > 0) {
			throw refused(`task ${task.taskId}'s tree ${tree.relativePath} has uncommitted changes to ${dirty.slice(0, 10).join(', ')}${dirty.length > 10 ? ` and ${dirty.length - 10} more` : ''}.`,
				`Commit them in the tree (\`git -C ${tree.relativePath} commit -am "<message>"\`; integrating then shows them for review) or stash them (\`git -C ${tree.relativePath} stash\`), then update again.`,
				issueId, task.taskId, { tree: tree.relativePath, files: dirty });
		}
		const repo = this.deps.workspace;
		let tip: string;
		try {
			tip = await resolveCommit(repo, `refs/heads/${into}`);
		} catch {
			throw refused(`there is no branch '${into}' to update task ${task.taskId} from.`, `Name an existing branch with --into (\`git branch\` lists them).`, issueId, task.taskId, { into });
		}
		const head = (await gitExit(tree.absolutePath, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
		const sources = await baseSources(repo, into, tip, plan.order, task.taskId, head);
		const base = { issueId, taskId: task.taskId, into, tree: tree.relativePath };
		if (sources.length === 0) {
			return {
				...base, upToDate: true, sources: [], conflictPaths: [], resolvedBy: 'none', reworkId: '', attempt: 0, runId: '',
				message: `Task ${task.taskId}'s work already contains ${into} and the accepted work integrated before it: nothing to update, nothing was started. Integrate with \`${integrateCommand(issueId, { into })}\`.`,
			};
		}
		const mergeCommit = await this.#oneCommit(repo, task, into, sources);
		const conflictPaths = await conflictingPaths(repo, head, mergeCommit);
		const resolvedBy = conflictPaths.length === 0 ? 'merge' as const
			: plan.target !== undefined && effectiveOnMergeConflict(plan.target) === 'agent' ? 'agent' as const : 'developer' as const;
		const admitted = await this.deps.store.transaction((tx) => {
			const current = taskRepository.get(tx, issueId, task.taskId);
			if (!current || current.status !== 'completed' || current.latestRunId !== task.latestRunId
				|| deliveryRepository.acceptedCommit(tx, issueId, task.taskId) !== plan.acceptedCommit) {
				throw refused(`task ${task.taskId} changed meanwhile (it is ${current?.status ?? 'gone'} now).`, `Read it with \`${issueGetCommand(issueId)}\` and update again if it is still accepted.`, issueId, task.taskId);
			}
			const rework = requestReworkInTx(tx, { issue, task: current, kind: 'update_from_base', note: '', nowUnixMs: this.deps.clock.now(), merge: { into, commit: mergeCommit, sources } });
			// No source agent schedules a managed issue's tasks after its Goal Review: this Run starts now.
			const runIds = issue.planningSource === 'tutti'
				? this.deps.admission.admit(tx, issue, [taskRepository.get(tx, issueId, task.taskId)!]).map((a) => a.runId) : [];
			return { rework, runIds };
		});
		if (admitted.runIds.length > 0) {
			await this.deps.admission.launch(admitted.runIds).catch((e: unknown) => { this.deps.log(`launching ${admitted.runIds.join(', ')} failed: ${(e as Error).message}`); });
		}
		return {
			...base, upToDate: false, sources, conflictPaths, resolvedBy, reworkId: admitted.rework.reworkId, attempt: admitted.rework.attempt, runId: admitted.runIds[0] ?? '',
			message: answerMessage(issue, task.taskId, sources, conflictPaths, resolvedBy, tree.relativePath),
		};
	}

	/** The state checks, in one read: a live, accepted task with its own tree, and where its base is. */
	#plan(r: Reader, params: ParsedParams<'task/updateFromBase'>): UpdatePlan {
		const issue = loadIssue(r, params.issueId);
		const { issueId } = issue;
		if (issue.status === 'archived') { throw rejection('invalid_input', `${command}: issue ${issueId} is archived; nothing runs in it any more.`, { issueId }); }
		if (issue.planningSource === 'tutti') {
			const status = executionRepository.getByIssue(r, issueId)?.status;
			if (status !== 'completed') {
				throw refused(`issue ${issueId} is managed and its execution is ${status ?? 'missing'}: until its Goal Review its tasks are its source agent's.`,
					`Resolve the conflict by hand in the task's tree (\`git -C <tree> merge <branch>\`, fix, commit: integrating then shows it for review), or integrate after the Goal Review and update then.`,
					issueId, params.taskId);
			}
		}
		const all = taskRepository.listByIssue(r, issueId);
		const task = all.find((t) => t.taskId === params.taskId);
		if (!task) { throw manualRejection('task_not_found', `${command}: issue ${issueId} has no task ${params.taskId}.`, issueId, { taskId: params.taskId }); }
		if (task.supersededAtUnixMs > 0) {
			throw manualRejection('task_superseded', `${command}: task ${task.taskId} was superseded by ${task.supersededByTaskId || 'another task'}.`, issueId, { taskId: task.taskId });
		}
		const acceptedCommit = deliveryRepository.acceptedCommit(r, issueId, task.taskId);
		if (task.status !== 'completed' || acceptedCommit === '') { throw notAccepted(issue, task); }
		const into = params.into ?? deliveryRepository.issueDelivery(r, issueId)?.baseBranch ?? '';
		if (into === '') {
			throw refused(`issue ${issueId} started from a detached HEAD, so it has no base branch.`,
				`Name the branch to update from with --into (\`tutti task update-from-base --issue-id ${issueId} --task-id ${task.taskId} --into <branch> --as-user\`).`, issueId, task.taskId);
		}
		const supersededBy = new Map(all.map((t) => [t.taskId, t.supersededByTaskId] as const));
		const tree = this.deps.worktrees.existingTree(issueId, reworkChain(task.taskId, supersededBy));
		if (tree === null) {
			throw refused(`task ${task.taskId} has no worktree any more (it was removed), so its work cannot be updated in place.`,
				`Integrate it as it is (\`${integrateCommand(issueId, { into })}\`), or add a new task that redoes it on top of ${into}.`, issueId, task.taskId);
		}
		return {
			issue, task, into, acceptedCommit, tree, order: integrationOrder(r, issueId),
			target: this.deps.config.agentTargets.find((t) => t.id === task.agentTargetId),
		};
	}

	/** The one commit the Run merges in: the only source, or a merge commit of them all (made in git's object database). */
	async #oneCommit(repo: string, task: Task, into: string, sources: readonly MergeSource[]): Promise<string> {
		if (sources.length === 1) { return sources[0]!.commit; }
		const combined = await combineCommits(repo, sources.map((s) => s.commit), `Base of ${task.taskId}: ${sources.map((s) => s.label).join(', ')}`, await workspaceIdentity(repo));
		if (combined.kind === 'conflict') {
			throw refused(`${into} and the accepted work integrated before task ${task.taskId} conflict with each other in ${combined.paths.join(', ')}.`,
				`Integrate what merges first (\`${integrateCommand(task.issueId, { into, acceptedOnly: true })}\`), then update task ${task.taskId}.`, task.issueId, task.taskId);
		}
		return combined.commit;
	}
}

function answerMessage(issue: Issue, taskId: string, sources: readonly MergeSource[], paths: readonly string[], resolvedBy: 'merge' | 'agent' | 'developer', tree: string): string {
	const what = sources.map((s) => s.label).join(' and ');
	const start = issue.planningSource === 'manual'
		? issue.dispatchPaused ? `Its Run starts when you resume the issue (\`tutti issue resume --issue-id ${issue.issueId} --as-user\`)` : 'Its Run starts now'
		: 'Its Run started';
	switch (resolvedBy) {
		case 'merge':
			return `${start}: ${what} merge${sources.length === 1 ? 's' : ''} into task ${taskId}'s tree without conflicts, so no agent is needed. Review and accept the merged result (\`${reviewAcceptCommand(issue.issueId, taskId)}\`), then integrate again.`;
		case 'agent':
			return `${start}: merging ${what} into task ${taskId}'s tree conflicts in ${paths.join(', ')}, and its agent resolves that. Review and accept its new result (\`${reviewAcceptCommand(issue.issueId, taskId)}\`), then integrate again.`;
		case 'developer':
			return `${start}: merging ${what} into task ${taskId}'s tree conflicts in ${paths.join(', ')}; its agent target does not resolve conflicts, so the merge is left in progress in ${tree} for you: `
				+ `resolve those files, \`git -C ${tree} add\` them and \`git -C ${tree} commit --no-edit\`. The task stays accepted as it was until then; integrating shows your commit for review.`;
	}
}
