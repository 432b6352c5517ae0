// The developer's Finish, and `tutti worktree prune`. Finish is recorded once the issue's work is over (a completed
// managed execution, or a manual issue whose tasks are each completed or canceled); with accepted work that is not
// integrated it must say so (`withoutIntegrating`), and the issue then reads "not integrated". Finish offers the
// removal of the issue's trees and merged `tutti/*` branches and says how much disk that frees; with
// `removeWorktrees` (and in prune, for every finished issue) it removes what is safe and names what it kept
// (src/host/delivery/treeCleanup.ts). Developer actions only.
import { basename } from 'node:path';
import { formatBytes } from '../../core/bytes.js';
import { DomainError } from '../../core/errors.js';
import { rejection } from '../../core/hints.js';
import { cleanupAllowed, deliveryOf, manualWorkOver } from '../../core/issues/delivery.js';
import { isIssueClosed } from '../../core/issues/issueControls.js';
import type { Issue } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import { shellQuote } from '../../core/execution/planCommands.js';
import type { Caller, CleanupItemDto, CleanupReportDto, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { finishRepository } from '../../store/repositories/finishRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import type { Reader } from '../../store/tx.js';
import { applyCleanup, bytesFreed, type CleanupInput, planCleanup } from '../delivery/treeCleanup.js';
import { git } from '../worktrees/git.js';
import type { WorktreeManager } from '../worktrees/worktreeManager.js';
import { treeOfDirectory } from '../worktrees/worktreePaths.js';
import { requireUser } from './callerPolicy.js';
import { requireExecutionIdentity } from './identityChecks.js';

export interface FinishServiceDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	worktrees: WorktreeManager;
	/** Told when trees were removed (the disk meter measures again). */
	treesChanged?: () => void;
}

function plural(n: number, one: string, many = `${one}s`): string {
	return `${n} ${n === 1 ? one : many}`;
}

/** The kept items in one clause: "Kept: tree a (it has uncommitted changes (…)); branch tutti/b (not merged into main …)." */
function keptClause(items: readonly CleanupItemDto[]): string {
	const kept = items.filter((i) => i.state === 'kept');
	if (kept.length === 0) { return ''; }
	return ` Kept: ${kept.map((i) => `${i.kind === 'tree' ? `worktree ${i.name}` : `branch ${i.name}`} (${i.reason})`).join('; ')}.`;
}

/** One sentence for a plan ("Removing … frees …") or a removal ("Removed … freeing …"), and what stays. */
export function cleanupSummary(items: readonly CleanupItemDto[]): string {
	const done = items.some((i) => i.state === 'removed');
	const chosen = items.filter((i) => i.state === (done ? 'removed' : 'removable'));
	const trees = chosen.filter((i) => i.kind === 'tree').length;
	const branches = chosen.filter((i) => i.kind === 'branch').length;
	if (items.length === 0) { return 'It has no worktree and no tutti/* branch left.'; }
	const what = [trees > 0 ? plural(trees, 'worktree') : '', branches > 0 ? plural(branches, 'merged branch', 'merged branches') : ''].filter((w) => w !== '').join(' and ');
	const bytes = formatBytes(bytesFreed(items));
	const lead = what === '' ? 'Nothing can be removed safely.' : done ? `Removed ${what}, freeing ${bytes}.` : `Removing ${what} frees ${bytes}.`;
	return `${lead}${keptClause(items)}`;
}

function report(issueId: string, items: CleanupItemDto[]): CleanupReportDto {
	return { issueId, items, bytes: bytesFreed(items), summary: cleanupSummary(items) };
}

/** The tree a Run works in, by the task id that names it ('' when it runs outside the trees). */
function treeTaskOf(executionDirectory: string, issueId: string): string {
	const tree = treeOfDirectory(executionDirectory, issueId);
	return tree === '' ? '' : basename(tree);
}

/** What a cleanup of the issue works from: every task id, where its work goes, and the trees Runs use. */
function cleanupInput(r: Reader, workspace: string, issueId: string): CleanupInput {
	const delivery = deliveryRepository.issueDelivery(r, issueId);
	const integrations = deliveryRepository.integrations(r, issueId);
	const last = integrations[integrations.length - 1];
	const busy = new Map<string, string>();
	for (const run of runRepository.listByIssue(r, issueId)) {
		const tree = run.status === 'running' ? treeTaskOf(run.executionDirectory, issueId) : '';
		if (tree !== '') { busy.set(tree, run.runId); }
	}
	return {
		repo: workspace, issueId, busy,
		taskIds: taskRepository.listByIssue(r, issueId).map((t) => t.taskId),
		target: {
			branch: last?.into || delivery?.integratedInto || delivery?.baseBranch || '',
			squashed: integrations.filter((i) => i.squash !== 'none')
				.flatMap((i) => Object.values(i.taskCommits).map((acceptedCommit) => ({ acceptedCommit, integratedCommit: i.integratedCommit }))),
		},
	};
}

/** Whether tree cleanup applies to the issue (core rule), read in one go. */
function cleanupAllowedFor(r: Reader, issue: Issue): boolean {
	const execution = issue.planningSource === 'tutti' ? executionRepository.getByIssue(r, issue.issueId) : undefined;
	const executionStatus = execution?.status ?? null;
	const finished = finishRepository.finishedAt(r, issue.issueId) > 0;
	return cleanupAllowed({
		finished,
		stopped: issue.status === 'archived' || executionStatus === 'archived',
		closed: isIssueClosed(issue.status, executionStatus),
		delivery: deliveryOf({
			unintegrated: deliveryRepository.hasUnintegratedAcceptance(r, issue.issueId),
			integratedInto: deliveryRepository.issueDelivery(r, issue.issueId)?.integratedInto ?? '', finished,
		}),
	});
}

export class FinishService {
	#chain: Promise<unknown> = Promise.resolve();

	constructor(private readonly deps: FinishServiceDeps) {}

	/** Developer action: record Finish (idempotent), and offer or do the removal of the issue's trees. */
	async finish(params: ParsedParams<'issue/finish'>, caller: Caller): Promise<Result<'issue/finish'>> {
		requireUser(caller, 'finish', { issueId: params.issueId });
		const { issueId } = params;
		const now = this.deps.clock.now();
		const recorded = await this.deps.store.transaction((tx) => {
			const issue = issueRepository.get(tx, issueId);
			if (issue === undefined) {
				throw rejection('issue_not_found', `Issue ${issueId} does not exist.`, { issueId });
			}
			const execution = executionRepository.getByIssue(tx, issueId);
			if (execution) { requireExecutionIdentity(execution, issueId); }
			const before = finishRepository.finishedAt(tx, issueId);
			if (before > 0) {
				return { finishedAtUnixMs: before, replayed: true, notIntegrated: finishRepository.finishedWithoutIntegrating(tx, issueId) };
			}
			if (issue.planningSource === 'tutti' && execution?.status !== 'completed') {
				throw rejection('inactive_execution', `Issue ${issueId} is not complete; Finish is offered only after completion.`, { issueId });
			}
			if (issue.planningSource === 'manual' && !manualWorkOver(issueRepository.counts(tx, issueId))) {
				throw new DomainError('invalid_input', `Issue ${issueId} still has tasks that are not completed or canceled; Finish is offered once its work is over.`,
					`See which with \`tutti issue get --issue-id ${shellQuote(issueId)} --json\`: accept the ones awaiting acceptance, and stop or delete the others (the developer's decisions).`,
					{ issueId });
			}
			const unintegrated = deliveryRepository.unintegratedTaskIds(tx, issueId);
			if (unintegrated.length > 0 && params.withoutIntegrating !== true) {
				throw rejection('not_integrated',
					`Issue ${issueId} has accepted work that is not integrated (${plural(unintegrated.length, 'task')}: ${unintegrated.join(', ')}); Finish would leave it only on its tutti/* branches. Nothing was recorded.`,
					{ issueId }, { unintegratedTaskIds: unintegrated });
			}
			finishRepository.record(tx, issueId, now, unintegrated.length > 0);
			return { finishedAtUnixMs: now, replayed: false, notIntegrated: unintegrated.length > 0 };
		});
		const cleanup = await this.#cleanup(issueId, params.removeWorktrees === true ? 'apply' : 'plan');
		return { issueId, ...recorded, cleanup };
	}

	/** Developer action: remove the trees and merged branches of finished issues (every one, or `issueId`'s). */
	async prune(params: ParsedParams<'worktree/prune'>, caller: Caller): Promise<Result<'worktree/prune'>> {
		requireUser(caller, 'worktree prune', params.issueId !== undefined ? { issueId: params.issueId } : {});
		let issueIds: string[];
		if (params.issueId !== undefined) {
			const issueId = params.issueId;
			this.deps.store.read((r) => {
				const issue = issueRepository.get(r, issueId);
				if (issue === undefined) { throw rejection('issue_not_found', `Issue ${issueId} does not exist.`, { issueId }); }
				if (!cleanupAllowedFor(r, issue)) {
					throw new DomainError('invalid_input',
						`Issue ${issueId} is not finished (its work is not over, or its accepted work waits to be integrated), so its worktrees stay; nothing was removed.`,
						`Integrate it (\`tutti issue integrate --issue-id ${shellQuote(issueId)} --as-user\`) or finish it (\`tutti finish --issue-id ${shellQuote(issueId)} --as-user\`, with --without-integrating to leave its work on its branches) — the developer's decisions — then prune again.`,
						{ issueId });
				}
			});
			issueIds = [issueId];
		} else {
			issueIds = await this.#issuesWithTrees();
		}
		const issues: CleanupReportDto[] = [];
		for (const issueId of issueIds) {
			const cleaned = await this.#cleanup(issueId, 'apply');
			if (cleaned.items.length > 0 || params.issueId !== undefined) { issues.push(cleaned); }
		}
		const bytes = issues.reduce((sum, i) => sum + i.bytes, 0);
		const removed = issues.flatMap((i) => i.items).filter((i) => i.state === 'removed');
		const kept = issues.flatMap((i) => i.items).filter((i) => i.state === 'kept').length;
		const summary = removed.length === 0 && kept === 0
			? 'No finished issue has a worktree or a tutti/* branch left.'
			: `Removed ${plural(removed.filter((i) => i.kind === 'tree').length, 'worktree')} and ${plural(removed.filter((i) => i.kind === 'branch').length, 'merged branch', 'merged branches')} of ${plural(issues.length, 'finished issue')}, freeing ${formatBytes(bytes)}${kept > 0 ? `; kept ${plural(kept, 'item')} (each named with its reason)` : ''}.`;
		return { issues, bytes, summary };
	}

	/** Finished issues that have a tree or a `tutti/*` branch named by one of their tasks. */
	async #issuesWithTrees(): Promise<string[]> {
		const refs = await git(this.deps.workspace, ['for-each-ref', '--format=%(refname:strip=3)', 'refs/heads/tutti/']).then((r) => r.stdout, () => '');
		const branched = new Set(refs.split('\n').map((l) => l.trim()).filter((l) => l !== ''));
		return this.deps.store.read((r) => issueRepository.list(r)
			.filter((issue) => this.deps.worktrees.treesOnDisk(issue.issueId).length > 0
				|| taskRepository.listByIssue(r, issue.issueId).some((t) => branched.has(t.taskId)))
			.filter((issue) => cleanupAllowedFor(r, issue))
			.map((issue) => issue.issueId));
	}

	/** One cleanup at a time (two removals never race over the same trees). */
	#cleanup(issueId: string, mode: 'plan' | 'apply'): Promise<CleanupReportDto> {
		const run = async (): Promise<CleanupReportDto> => {
			const input = this.deps.store.read((r) => cleanupInput(r, this.deps.workspace, issueId));
			if (mode === 'plan') { return report(issueId, await planCleanup(this.deps.worktrees, input)); }
			const items = await applyCleanup(this.deps.worktrees, input);
			if (items.some((i) => i.state === 'removed')) { this.deps.treesChanged?.(); }
			return report(issueId, items);
		};
		const next = this.#chain.then(run, run);
		this.#chain = next.then(() => undefined, () => undefined);
		return next;
	}
}
