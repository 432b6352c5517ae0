// Generic task writers on manual issues (`tutti issue task add|update|delete`). Any authenticated caller may use
// them (the developer, or any agent, edits the tasks of a manual issue); on a managed issue every one is rejected with
// `tutti_issue_managed`. Launch settings and dependencies change only while a task has not started, or with the
// developer's retry of a failed or canceled task (`tutti task retry`), which may edit them for its new attempt.
import { DomainError } from '../../core/errors.js';
import { rejection } from '../../core/hints.js';
import { issueGetCommand, reviewAcceptCommand } from '../../core/issues/developerCommands.js';
import { detectCycle } from '../../core/graph/cycles.js';
import { taskIdProblem, taskTitleProblem } from '../../core/graph/taskNames.js';
import { readableTaskId, taskIdSlug } from '../../core/issues/readableTaskId.js';
import type { Issue, Task } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { requestReworkInTx } from '../runs/taskReworks.js';
import { requireUser } from './callerPolicy.js';
import type { HostConfig } from '../config.js';
import { findAgentTarget } from '../agentTargetLookup.js';
import { type TaskAttempts, toTaskDto } from './dtoMapping.js';
import { executionDirectoryProblem } from '../executionDirectory.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import { loadIssue } from './issueService.js';
import { type GrantCheck, requireAgentWithinGrants } from './launchGrants.js';
import { guardGenericWriter } from './managedGuard.js';
import { manualRejection } from './manualRejections.js';

export interface TaskServiceDeps {
	store: Store;
	clock: Clock;
	config: HostConfig;
	workspace: string;
}

type LaunchPatch = Pick<ParsedParams<'task/update'>, 'agentTargetId' | 'model' | 'permissionModeId' | 'reasoningEffort' | 'executionDirectory' | 'autoAccept' | 'dependencyTaskIds'>;
/** What an edit may change: title and content, and (before a Run, or with a retry) the launch settings. */
type EditFields = LaunchPatch & Pick<ParsedParams<'task/update'>, 'title' | 'content'>;

/** What a refused retry should do instead, in the state the task is in. */
function retryRefusalHint(issueId: string, task: Task): string {
	switch (task.status) {
		case 'pending_acceptance':
			return `Its result awaits your review: accept it (\`${reviewAcceptCommand(issueId, task.taskId)}\`) or request changes (\`tutti review request-changes --issue-id ${issueId} --task-id ${task.taskId} --note "<what should change>" --as-user\`), which starts its next attempt with your note.`;
		case 'running':
			return `It is running: stop its Run first (\`tutti run stop --run-id ${task.latestRunId} --as-user\`), then retry it.`;
		case 'not_started':
			return `It has not run yet (or its next attempt waits to start): the dispatcher starts it once its dependencies are accepted (\`${issueGetCommand(issueId)}\`).`;
		default:
			return `It is ${task.status}: to change accepted work, update it from its base (\`tutti task update-from-base --issue-id ${issueId} --task-id ${task.taskId} --as-user\`) or add a new task (\`tutti issue task add --issue-id ${issueId} --title <title> --as-user\`).`;
	}
}

/** Fields that only a not-started task may change. */
const launchKeys: readonly (keyof LaunchPatch)[] = ['agentTargetId', 'model', 'permissionModeId', 'reasoningEffort', 'executionDirectory', 'autoAccept', 'dependencyTaskIds'];

/** A task's id names its git branch and worktree, its title its result commit: refused here, not at launch. */
function requireGitNames(command: string, issueId: string, title: string, taskId?: string): void {
	const problem = (taskId === undefined ? null : taskIdProblem(taskId)) ?? taskTitleProblem(title);
	if (problem !== null) {
		throw rejection('invalid_input', `${command}: ${problem}; nothing was changed.`, { issueId, ...(taskId !== undefined ? { taskId } : {}) },
			{ issueId, ...(taskId !== undefined ? { taskId } : {}) });
	}
}

function unique(ids: readonly string[]): string[] {
	return [...new Set(ids)];
}

export class TaskService {
	constructor(private readonly deps: TaskServiceDeps) {}

	async add(params: ParsedParams<'task/add'>, caller: Caller): Promise<Result<'task/add'>> {
		const dto = await this.deps.store.transaction((tx) => {
			const issue = this.#writableIssue(tx, params.issueId, 'tutti issue task add');
			const taskId = params.taskId ?? this.#readableId(tx, params.title);
			if (taskRepository.get(tx, issue.issueId, taskId)) {
				throw manualRejection('duplicate_task', `Issue ${issue.issueId} already has a task ${taskId}.`, issue.issueId, { taskId });
			}
			requireGitNames('issue task add', issue.issueId, params.title, taskId);
			this.#checkLaunchSettings(issue, taskId, params);
			const now = this.deps.clock.now();
			const task: Task = {
				issueId: issue.issueId,
				taskId,
				title: params.title,
				content: params.content ?? '',
				status: 'not_started',
				sortIndex: taskRepository.nextSortIndex(tx, issue.issueId),
				agentTargetId: params.agentTargetId ?? '',
				modelPlanId: '',
				model: params.model ?? '',
				permissionModeId: params.permissionModeId ?? '',
				reasoningEffort: params.reasoningEffort ?? '',
				executionDirectory: params.executionDirectory ?? '',
				dependencyTaskIds: unique(params.dependencyTaskIds ?? []),
				parallelizable: true,
				autoAccept: params.autoAccept ?? issue.autoAcceptDefault,
				acceptanceState: '',
				latestRunId: '',
				supersededAtUnixMs: 0,
				supersededByTaskId: '',
				createdAtUnixMs: now,
				updatedAtUnixMs: now,
			};
			requireAgentWithinGrants(caller, this.deps.config, this.#grantCheck(issue, 'issue task add'), task, undefined);
			this.#checkGraph(tx, issue, task);
			taskRepository.insert(tx, task);
			this.#refreshIssueStatus(tx, issue);
			return toTaskDto(task);
		});
		return dto;
	}

	async update(params: ParsedParams<'task/update'>, caller: Caller): Promise<Result<'task/update'>> {
		const dto = await this.deps.store.transaction((tx) => {
			const issue = this.#writableIssue(tx, params.issueId, 'tutti issue task update');
			const current = this.#activeTask(tx, issue, params.taskId);
			const changesLaunch = launchKeys.filter((k) => params[k] !== undefined);
			if (changesLaunch.length > 0 && current.status !== 'not_started') {
				throw manualRejection(
					'task_not_started',
					`Task ${current.taskId} is ${current.status}; ${changesLaunch.join(', ')} can change only while a task has not started (title and content can).`,
					issue.issueId,
					{ taskId: current.taskId, status: current.status, fields: changesLaunch },
				);
			}
			const next = this.#edited(tx, issue, current, params, caller, 'issue task update');
			taskRepository.update(tx, next);
			return toTaskDto(next, undefined, this.#attempts(tx, next));
		});
		return dto;
	}

	/**
	 * `task/retry` (developer): a failed or canceled task of a manual issue runs again as a new attempt in its own tree,
	 * after the edits given (Edit and retry: the fields a not-started task may change); `note` goes into its prompt.
	 */
	async retry(params: ParsedParams<'task/retry'>, caller: Caller): Promise<Result<'task/retry'>> {
		requireUser(caller, 'task retry', { issueId: params.issueId });
		return this.deps.store.transaction((tx) => {
			const issue = loadIssue(tx, params.issueId);
			if (issue.planningSource === 'tutti') {
				throw new DomainError('tutti_issue_managed',
					`task retry: issue ${issue.issueId} is managed: a failed or canceled task is its source agent's to rework (it got that as a checkpoint and replaces the task with \`tutti plan issue mutate\` kind "rework"). Nothing was changed.`,
					`Wait for the source agent's rework (the board shows it), or request changes on its replacement when it awaits your review; to stop the issue instead: \`tutti issue stop --issue-id ${issue.issueId} --as-user\`.`,
					{ issueId: issue.issueId, taskId: params.taskId });
			}
			if (issue.status === 'archived') {
				throw rejection('invalid_input', `task retry: issue ${issue.issueId} is archived; nothing runs in it any more.`, { issueId: issue.issueId });
			}
			const current = this.#activeTask(tx, issue, params.taskId);
			if (current.status !== 'failed' && current.status !== 'canceled') {
				throw new DomainError('invalid_input',
					`task retry: task ${current.taskId} is ${current.status}; only a failed or canceled task is retried. Nothing was changed.`,
					retryRefusalHint(issue.issueId, current),
					{ issueId: issue.issueId, taskId: current.taskId, status: current.status });
			}
			const edited = this.#edited(tx, issue, current, params, caller, 'task retry');
			const rework = requestReworkInTx(tx, { issue, task: edited, kind: 'retry', note: (params.note ?? '').trim(), nowUnixMs: this.deps.clock.now() });
			const task = taskRepository.get(tx, issue.issueId, current.taskId) ?? edited;
			return { issueId: issue.issueId, taskId: task.taskId, reworkId: rework.reworkId, attempt: rework.attempt, runId: '', task: toTaskDto(task, undefined, this.#attempts(tx, task)) };
		});
	}

	/** The task with the fields of `params` applied (checked: target, directory, grants and graph). */
	#edited(tx: Tx, issue: Issue, current: Task, params: EditFields, caller: Caller, command: string): Task {
		if (params.title !== undefined) { requireGitNames(command, issue.issueId, params.title); }
		this.#checkLaunchSettings(issue, current.taskId, params);
		const targetChanged = params.agentTargetId !== undefined && params.agentTargetId !== current.agentTargetId;
		// Presence-aware patch: changing the target clears the target-specific settings unless they are given.
		const keepOrClear = (given: string | undefined, old: string): string => given ?? (targetChanged ? '' : old);
		const next: Task = {
			...current,
			title: params.title ?? current.title,
			content: params.content ?? current.content,
			agentTargetId: params.agentTargetId ?? current.agentTargetId,
			modelPlanId: targetChanged ? '' : current.modelPlanId,
			model: keepOrClear(params.model, current.model),
			permissionModeId: keepOrClear(params.permissionModeId, current.permissionModeId),
			reasoningEffort: keepOrClear(params.reasoningEffort, current.reasoningEffort),
			executionDirectory: params.executionDirectory ?? current.executionDirectory,
			autoAccept: params.autoAccept ?? current.autoAccept,
			dependencyTaskIds: params.dependencyTaskIds !== undefined ? unique(params.dependencyTaskIds) : current.dependencyTaskIds,
			updatedAtUnixMs: this.deps.clock.now(),
		};
		requireAgentWithinGrants(caller, this.deps.config, this.#grantCheck(issue, command), next, current);
		if (params.dependencyTaskIds !== undefined) { this.#checkGraph(tx, issue, next); }
		return next;
	}

	#attempts(r: Reader, task: Task): TaskAttempts {
		return { attempt: reworkRepository.attemptsOfTask(r, task.issueId, task.taskId), rework: reworkRepository.latestOfIssue(r, task.issueId).get(task.taskId) };
	}

	/** Deletes a task that never started and that no active task depends on. */
	async delete(params: ParsedParams<'task/delete'>): Promise<Result<'task/delete'>> {
		return this.deps.store.transaction((tx) => {
			const issue = this.#writableIssue(tx, params.issueId, 'tutti issue task delete');
			const task = this.#activeTask(tx, issue, params.taskId);
			if (task.status !== 'not_started' || task.latestRunId !== '') {
				throw manualRejection(
					'task_not_started',
					task.status === 'not_started'
						? `Task ${task.taskId} waits for a new attempt; a task that has run cannot be deleted (its Runs are history).`
						: `Task ${task.taskId} is ${task.status}; only a task that has not started can be deleted (its Runs are history).`,
					issue.issueId,
					{ taskId: task.taskId, status: task.status },
				);
			}
			const dependents = taskRepository.dependents(tx, issue.issueId, task.taskId);
			if (dependents.length > 0) {
				throw manualRejection(
					'invalid_task_graph',
					`Task ${task.taskId} cannot be deleted: ${dependents.join(', ')} depend${dependents.length === 1 ? 's' : ''} on it; remove those dependencies first.`,
					issue.issueId,
					{ taskId: task.taskId, dependents },
				);
			}
			taskRepository.delete(tx, issue.issueId, task.taskId);
			this.#refreshIssueStatus(tx, issue);
			return { issueId: issue.issueId, taskId: task.taskId, deleted: true as const };
		});
	}

	/** An id from the title, free in the whole workspace (it names the task's worktree folder and branch). */
	#readableId(tx: Tx, title: string): string {
		const taken = taskRepository.idsLike(tx, taskIdSlug(title));
		return readableTaskId(title, (id) => taken.has(id));
	}

	#writableIssue(tx: Tx, issueId: string, command: string): Issue {
		const issue = loadIssue(tx, issueId);
		guardGenericWriter(issue, command);
		if (issue.status === 'archived') {
			throw rejection('invalid_input', `Issue ${issueId} is archived; its tasks cannot change.`, { issueId });
		}
		return issue;
	}

	#grantCheck(issue: Issue, command: string): GrantCheck {
		return { issueId: issue.issueId, managed: false, issueAutoAcceptDefault: issue.autoAcceptDefault, command };
	}

	#activeTask(tx: Tx, issue: Issue, taskId: string): Task {
		const task = taskRepository.get(tx, issue.issueId, taskId);
		if (!task) { throw manualRejection('task_not_found', `Issue ${issue.issueId} has no task ${taskId}.`, issue.issueId, { taskId }); }
		if (task.supersededAtUnixMs > 0) {
			throw manualRejection('task_superseded', `Task ${taskId} was superseded by ${task.supersededByTaskId || 'another task'}.`, issue.issueId, { taskId });
		}
		return task;
	}

	#checkLaunchSettings(issue: Issue, taskId: string, fields: { agentTargetId?: string | undefined; executionDirectory?: string | undefined }): void {
		if (fields.agentTargetId !== undefined && fields.agentTargetId !== '') {
			findAgentTarget(this.deps.config, fields.agentTargetId, { issueId: issue.issueId, taskId });
		}
		if (fields.executionDirectory !== undefined) {
			const problem = executionDirectoryProblem(this.deps.workspace, fields.executionDirectory);
			if (problem !== null) { throw rejection('invalid_input', `Task ${taskId}: ${problem}.`, { issueId: issue.issueId, taskId }); }
		}
	}

	/** Dependencies must be active tasks of the same issue, and the graph must stay acyclic. */
	#checkGraph(tx: Tx, issue: Issue, changed: Task): void {
		const active = taskRepository.listByIssue(tx, issue.issueId).filter((t) => t.supersededAtUnixMs === 0 && t.taskId !== changed.taskId);
		const ids = new Set(active.map((t) => t.taskId));
		const missing = changed.dependencyTaskIds.filter((d) => d !== changed.taskId && !ids.has(d));
		if (missing.length > 0) {
			throw manualRejection(
				'invalid_task_graph',
				`Task ${changed.taskId} depends on ${missing.join(', ')}, which ${missing.length === 1 ? 'is not a task' : 'are not tasks'} of issue ${issue.issueId}.`,
				issue.issueId,
				{ taskId: changed.taskId, missingDependencyTaskIds: missing },
			);
		}
		const cycle = detectCycle([...active, changed]);
		if (cycle !== null) {
			throw manualRejection(
				'invalid_task_graph',
				`Task ${changed.taskId}'s dependencies would form a cycle: ${cycle.join(' → ')}.`,
				issue.issueId,
				{ taskId: changed.taskId, cycle },
			);
		}
	}

	#refreshIssueStatus(tx: Tx, issue: Issue): void {
		const status = nextIssueStatus(issue, issueRepository.counts(tx, issue.issueId), false);
		if (status !== issue.status) {
			issueRepository.update(tx, { ...issue, status, updatedAtUnixMs: this.deps.clock.now() });
		}
	}
}
