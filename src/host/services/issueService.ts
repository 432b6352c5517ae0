// Generic issue commands: create/get/list/update for manual issues, and the developer's pause/resume/stop for
// any issue (managed issues route through the plan service). Every generic writer on a managed issue is guarded.
import { rejection } from '../../core/hints.js';
import type { Issue } from '../../core/model.js';
import type { Clock, IdSource } from '../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { IssueDto } from '../../protocol/dto.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader } from '../../store/tx.js';
import { requireUser } from './callerPolicy.js';
import { withPause } from '../../core/issues/pauser.js';
import { requireAgentIssueControl } from './launchGrants.js';
import type { PlanService } from './contracts.js';
import type { AttentionReadContext, SourceContactLookup } from './attention/readAttention.js';
import { readTaskAttentions } from './attention/readAttention.js';
import { readIssueDto, readTasksWithReadiness, toRunStallDto } from './dtoMapping.js';
import { guardGenericWriter, isCompatResume } from './managedGuard.js';
import { usageRepository } from '../../store/repositories/usageRepository.js';
import { type LaunchPricing, newIssueBudget } from '../usage/issueSpend.js';
import { readIntegrationChecks } from '../checks/integrationChecks.js';

export interface IssueServiceDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	plan: PlanService;
	/** Whether new issues auto-accept their tasks when the command does not say (setting `autoAcceptDefault`). */
	autoAcceptDefault: boolean;
	/** The USD budget of new issues that name none (setting `defaultBudgetUsd`). */
	defaultBudgetUsd?: number | undefined;
	/** The configured targets and prices: an issue shows a pending launch its USD budget cannot count (absent: spend only). */
	pricing?: LaunchPricing;
	/** Stops every running Run of the issue (after commit; records Stop events first). */
	stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void>;
	/** The await calls' heartbeats, for the attention state (absent: no session is known to wait). */
	contacts?: SourceContactLookup;
	/** A running Run's latest activity line, for the attention state ('' when none). */
	runActivity?: (runId: string) => string;
}

/** The issue, or `issue_not_found`. */
export function loadIssue(r: Reader, issueId: string): Issue {
	const issue = issueRepository.get(r, issueId);
	if (!issue) { throw rejection('issue_not_found', `Issue ${issueId} does not exist.`, { issueId }); }
	return issue;
}

export class IssueService {
	constructor(private readonly deps: IssueServiceDeps) {}

	#attention(): AttentionReadContext {
		return { nowUnixMs: this.deps.clock.now(), contacts: this.deps.contacts, runActivity: this.deps.runActivity, pricing: this.deps.pricing };
	}

	/**
	 * `issue/create`: a manual issue, by the developer or any agent session (a reviewer session is refused
	 * earlier by its read-only allowlist). Its tasks auto-accept as the setting autoAcceptDefault says, unless the
	 * command says otherwise; an agent may ask for the developer's confirmation, never switch it off.
	 */
	async create(params: ParsedParams<'issue/create'>, caller: Caller): Promise<Result<'issue/create'>> {
		const now = this.deps.clock.now();
		requireAgentIssueControl(caller, { autoAcceptDefault: this.deps.autoAcceptDefault }, params, 'issue create');
		const budget = newIssueBudget(params, this.deps.defaultBudgetUsd, caller, 'issue create');
		const issue: Issue = {
			issueId: this.deps.ids.next('issue'),
			title: params.title,
			content: params.content ?? '',
			status: 'open',
			planningSource: 'manual',
			sourceSessionId: '',
			dispatchPaused: params.dispatchPaused ?? false,
			...(params.dispatchPaused === true ? { pausedBy: caller.kind === 'user' ? 'developer' as const : 'agent' as const } : {}),
			autoAcceptDefault: params.autoAccept ?? this.deps.autoAcceptDefault,
			createdAtUnixMs: now,
			updatedAtUnixMs: now,
		};
		return this.deps.store.transaction((tx) => {
			issueRepository.insert(tx, issue);
			usageRepository.setBudget(tx, issue.issueId, budget, now);
			return readIssueDto(tx, issue, this.#attention());
		});
	}

	/**
	 * `issue/get`: the issue with its active tasks and their readiness (superseded history is left to `plan issue get`);
	 * `taskId` keeps that one task, superseded or not, since a task named by id is kept as history and must stay
	 * readable (task_not_found when it has none such); `status` the tasks in that status.
	 */
	async get(params: ParsedParams<'issue/get'>): Promise<Result<'issue/get'>> {
		return this.deps.store.read((r) => {
			const issue = loadIssue(r, params.issueId);
			const dto = readIssueDto(r, issue, this.#attention());
			const tasks = readTasksWithReadiness(r, issue, taskRepository.listByIssue(r, issue.issueId), dto.executionStatus)
				.filter((t) => (params.taskId === undefined ? !t.superseded : t.taskId === params.taskId)
					&& (params.status === undefined || t.status === params.status));
			if (params.taskId !== undefined && tasks.length === 0 && params.status === undefined) {
				throw rejection('task_not_found', `issue get: issue ${issue.issueId} has no task ${params.taskId}.`, { issueId: issue.issueId, taskId: params.taskId });
			}
			const attentions = readTaskAttentions(r, issue, this.#attention());
			const stalls = new Map(runStallRepository.inForceOfIssue(r, issue.issueId).map((s) => [s.runId, s] as const));
			const now = this.deps.clock.now();
			return {
				...dto,
				integrationChecks: readIntegrationChecks(r, issue.issueId),
				tasks: tasks.map((t) => {
					const attention = attentions.get(t.taskId);
					const stalled = t.status === 'running' ? toRunStallDto(t, stalls.get(t.latestRunId), now) : null;
					return {
						...t,
						...(attention ? { attention: { state: attention.state, label: attention.label } } : {}),
						...(stalled !== null ? { stalled } : {}),
					};
				}),
			};
		});
	}

	async list(): Promise<Result<'issue/list'>> {
		// The hot small read (the board, agents polling): statements answer from memory until the next commit; the
		// attention rule still runs now, with the current time, heartbeats and activity lines.
		// Each issue's tasks come from the kept view (brought up to date with what changed), not from a read of every row.
		return this.deps.store.readCached((r, tasks) => {
			const context = { ...this.#attention(), tasks };
			return { issues: issueRepository.list(r).map((i) => readIssueDto(r, i, context)) };
		});
	}

	/**
	 * `issue/update`. Manual issues: title/content by anyone authenticated; `dispatchPaused` is the developer's.
	 * Managed issues: exactly `{issueId, dispatchPaused:false}` is the compat resume; anything else is guarded.
	 */
	async update(params: ParsedParams<'issue/update'>, caller: Caller): Promise<Result<'issue/update'>> {
		const issue = this.deps.store.read((r) => loadIssue(r, params.issueId));
		if (params.budgetUsd !== undefined || params.budgetTokens !== undefined || params.autoAccept !== undefined) {
			if (params.budgetUsd !== undefined || params.budgetTokens !== undefined) { await this.#setBudget(issue.issueId, params, caller); }
			if (params.autoAccept !== undefined) { await this.#setAutoAccept(issue.issueId, params.autoAccept, caller); }
			const { budgetUsd: _usd, budgetTokens: _tokens, autoAccept: _autoAccept, ...rest } = params;
			// Only the developer's settings changed: done (also on a managed issue, which no other generic field may change).
			if (rest.title === undefined && rest.content === undefined && rest.dispatchPaused === undefined) { return this.#read(issue.issueId); }
			return this.update(rest, caller);
		}
		if (issue.planningSource === 'tutti') {
			if (!isCompatResume(params)) { guardGenericWriter(issue, 'tutti issue update'); }
			await this.deps.plan.resume({ issueId: issue.issueId }, caller);
			return this.#read(issue.issueId);
		}
		if (params.dispatchPaused !== undefined) {
			requireUser(caller, params.dispatchPaused ? 'issue pause' : 'issue resume', { issueId: issue.issueId });
		}
		const dto = await this.deps.store.transaction((tx) => {
			const current = loadIssue(tx, params.issueId);
			guardGenericWriter(current, 'tutti issue update');
			const now = this.deps.clock.now();
			const edited: Issue = { ...current, title: params.title ?? current.title, content: params.content ?? current.content, updatedAtUnixMs: now };
			// `dispatchPaused` was the developer's (requireUser above): their pause, or their resume of anyone's.
			const next = params.dispatchPaused === undefined ? edited : (withPause(edited, params.dispatchPaused, 'developer', now) ?? edited);
			issueRepository.update(tx, next);
			return readIssueDto(tx, next, this.#attention());
		});
		return dto;
	}

	/** `issue/pause` (developer): stop starting new work; running Runs continue. */
	async pause(params: ParsedParams<'issue/pause'>, caller: Caller): Promise<Result<'issue/pause'>> {
		requireUser(caller, 'issue pause', { issueId: params.issueId });
		await this.#setPaused(params.issueId, true);
		return this.#read(params.issueId);
	}

	/** `issue/resume` (developer): dispatch again (managed: continue from the same checkpoint and revision). */
	async resume(params: ParsedParams<'issue/resume'>, caller: Caller): Promise<Result<'issue/resume'>> {
		requireUser(caller, 'issue resume', { issueId: params.issueId });
		await this.#setPaused(params.issueId, false);
		return this.#read(params.issueId);
	}

	/** `issue/stop` (developer): pause, then stop every running Run with a person's Stop. */
	async stop(params: ParsedParams<'issue/stop'>, caller: Caller): Promise<Result<'issue/stop'>> {
		requireUser(caller, 'issue stop', { issueId: params.issueId });
		await this.#setPaused(params.issueId, true);
		await this.deps.stopRunsOfIssue(params.issueId, 'person');
		return this.#read(params.issueId);
	}

	/**
	 * The developer sets an issue's budget (manual or managed): what is not named stays. Raising it over what was
	 * spent lets the issue go on: the dispatcher and the wake loop run again and start what was owed.
	 */
	async #setBudget(issueId: string, params: ParsedParams<'issue/update'>, caller: Caller): Promise<void> {
		requireUser(caller, 'issue update --budget-usd/--budget-tokens', { issueId });
		await this.deps.store.transaction((tx) => {
			const current = usageRepository.budget(tx, loadIssue(tx, issueId).issueId);
			usageRepository.setBudget(tx, issueId, {
				budgetUsd: params.budgetUsd === undefined ? current.budgetUsd : params.budgetUsd,
				budgetTokens: params.budgetTokens === undefined ? current.budgetTokens : params.budgetTokens,
			}, this.deps.clock.now());
		});
	}

	/**
	 * The developer turns auto-accept on or off (manual or managed): the issue's default for tasks added later, and
	 * every active task not completed yet (a rework of a failed one inherits it), so the issue behaves as told.
	 */
	async #setAutoAccept(issueId: string, autoAccept: boolean, caller: Caller): Promise<void> {
		requireUser(caller, 'issue update --auto-accept', { issueId });
		await this.deps.store.transaction((tx) => {
			const current = loadIssue(tx, issueId);
			const now = this.deps.clock.now();
			issueRepository.update(tx, { ...current, autoAcceptDefault: autoAccept, updatedAtUnixMs: now });
			for (const task of taskRepository.listByIssue(tx, issueId)) {
				if (task.supersededAtUnixMs > 0 || task.status === 'completed' || task.autoAccept === autoAccept) { continue; }
				taskRepository.update(tx, { ...task, autoAccept, updatedAtUnixMs: now });
			}
		});
	}

	/** The developer's pause or resume (a pause only the developer lifts). */
	async #setPaused(issueId: string, paused: boolean): Promise<void> {
		const issue = this.deps.store.read((r) => loadIssue(r, issueId));
		if (issue.planningSource === 'tutti') {
			await this.deps.plan.setPausedByUser(issueId, paused);
			return;
		}
		await this.deps.store.transaction((tx) => {
			const next = withPause(loadIssue(tx, issueId), paused, 'developer', this.deps.clock.now());
			if (next) { issueRepository.update(tx, next); }
		});
	}

	#read(issueId: string): IssueDto {
		return this.deps.store.read((r) => readIssueDto(r, loadIssue(r, issueId), this.#attention()));
	}
}
