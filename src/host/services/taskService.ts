// Generic task writers on manual issues (`tutti issue task add|update|delete`). Any authenticated caller may use
// them (the developer, or any agent, edits the tasks of a manual issue); on a managed issue every one is rejected with
// `tutti_issue_managed`. Launch settings and dependencies change only while a task has not started.
import { rejection } from '../../core/hints.js';
import { detectCycle } from '../../core/graph/cycles.js';
import type { Issue, Task } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import { findAgentTarget } from '../agentTargetLookup.js';
import { toTaskDto } from './dtoMapping.js';
import { executionDirectoryProblem } from '../executionDirectory.js';
import { nextIssueStatus } from '../../core/issues/issueStatus.js';
import { loadIssue } from './issueService.js';
import { type GrantCheck, requireAgentWithinGrants } from './launchGrants.js';
import { guardGenericWriter } from './managedGuard.js';
import { manualRejection } from './manualRejections.js';

export interface TaskServiceDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	config: HostConfig;
	workspace: string;
}

type LaunchPatch = Pick<ParsedParams<'task/update'>, 'agentTargetId' | 'model' | 'permissionModeId' | 'reasoningEffort' | 'executionDirectory' | 'autoAccept' | 'dependencyTaskIds'>;

/** Fields that only a not-started task may change. */
const launchKeys: readonly (keyof LaunchPatch)[] = ['agentTargetId', 'model', 'permissionModeId', 'reasoningEffort', 'executionDirectory', 'autoAccept', 'dependencyTaskIds'];

function unique(ids: readonly string[]): string[] {
	return [...new Set(ids)];
}

export class TaskService {
	constructor(private readonly deps: TaskServiceDeps) {}

	async add(params: ParsedParams<'task/add'>, caller: Caller): Promise<Result<'task/add'>> {
		const dto = await this.deps.store.transaction((tx) => {
			const issue = this.#writableIssue(tx, params.issueId, 'tutti issue task add');
			const taskId = params.taskId ?? this.deps.ids.next('task');
			if (taskRepository.get(tx, issue.issueId, taskId)) {
				throw manualRejection('duplicate_task', `Issue ${issue.issueId} already has a task ${taskId}.`, issue.issueId, { taskId });
			}
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
			requireAgentWithinGrants(caller, this.deps.config, this.#grantCheck(issue, 'issue task update'), next, current);
			if (params.dependencyTaskIds !== undefined) { this.#checkGraph(tx, issue, next); }
			taskRepository.update(tx, next);
			return toTaskDto(next);
		});
		return dto;
	}

	/** Deletes a task that never started and that no active task depends on. */
	async delete(params: ParsedParams<'task/delete'>): Promise<Result<'task/delete'>> {
		return this.deps.store.transaction((tx) => {
			const issue = this.#writableIssue(tx, params.issueId, 'tutti issue task delete');
			const task = this.#activeTask(tx, issue, params.taskId);
			if (task.status !== 'not_started') {
				throw manualRejection(
					'task_not_started',
					`Task ${task.taskId} is ${task.status}; only a task that has not started can be deleted (its Runs are history).`,
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
