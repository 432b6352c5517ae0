// A worker Run's first Turn: the launch gate (in a transaction: revalidate the Run, its Stops, its issue and the
// budget, then lease and mint a token), the working directory (a target with `"isolation":"worktree"` gets its git
// worktree, outside any transaction), the prompt, and the start recorded as dispatched. The gate's decision is the
// pure rule of src/core/turns/launchGate.ts; the process side is the TurnLifecycle's. Nothing here settles a Run
// outside the gate's own transaction: what could not start is returned to the Run's owner, which settles it.
import { join } from 'node:path';
import { DomainError } from '../../core/errors.js';
import { runSubmitId } from '../../core/ids.js';
import type { Run, Task, TaskRework } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import { couldNotStart } from '../../core/runs/outcome.js';
import { reworkPrompt, type ReworkPromptFacts } from '../../core/runs/reworkPrompt.js';
import { effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';
import type { AgentTargetConfig, RunProcessPort } from '../../core/runs/runProcessPort.js';
import { decideRunLaunch } from '../../core/turns/launchGate.js';
import type { Store } from '../../store/database.js';
import { changedAfterAcceptance } from '../../store/repositories/deliveryRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { reworkRepository } from '../../store/repositories/reworkRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import { reopenChangedParents } from '../delivery/acceptanceChanges.js';
import { readCheckoutBefore, writeCheckoutBefore } from '../delivery/outsideWatch.js';
import { conflictPrompt, type MergeConflictNote, prepareRunTree, recordSharedFolderBase, type TreeUpdate, type TreeUpdateOutcome } from '../delivery/runDelivery.js';
import { resolveRunDirectory } from '../executionDirectory.js';
import type { TurnIdentity, TurnLifecycle, TurnStart } from '../turns/turnLifecycle.js';
import { launchBudgetDecision, launchModelOf } from '../usage/issueSpend.js';
import { type WorktreeManager, WorktreeSetupError } from '../worktrees/worktreeManager.js';
import { reworkChain } from '../worktrees/worktreePaths.js';
import { workerTurnInput } from './workerTurn.js';
import { type RunEnding, type SettlementContext, settleRunInTx } from './runSettlement.js';
import { answerPendingStopsInTx } from './runStops.js';

/** How long a launch lease is held (a lease older than this on restart belongs to a dead Host). */
const launchLeaseMs = 60_000;

/** What the steps of a Run's Turns are given by its owner: values and ports, never a way back into the owner. */
export interface RunLaunchContext {
	workspace: string;
	store: Store;
	clock: Clock;
	turns: TurnLifecycle;
	/** The runner: the directory of a Turn process (a worktree's setup output goes to the Run's stderr log there). */
	runs: Pick<RunProcessPort, 'runDir' | 'isAlive'>;
	worktrees: WorktreeManager;
	settlement: SettlementContext;
	/** This Host's launch lease owner. */
	leaseOwner: string;
	/** A new claude session id (default: a random UUID); tests pin it. */
	newProviderSessionId?: () => string;
	log(line: string): void;
}

/** What a launch came to before its process: nothing more to do (skipped, or settled by the gate), or why it cannot start. */
export type RunLaunch =
	| { kind: 'done' }
	| { kind: 'not_started'; ending: RunEnding }
	| { kind: 'start'; run: Run; target: AgentTargetConfig; start: TurnStart };

/** What starting a Turn's process came to: started, failed leaving an exit record (the inbox has it), or failed. */
export type TurnStarted = { kind: 'started' } | { kind: 'exited' } | { kind: 'not_started'; ending: RunEnding };

type LaunchGate = { kind: 'done' } | { kind: 'launch'; run: Run; task: Task; token: string; rework: TaskRework | undefined; previous: Run | undefined };

function failed(message: string): RunLaunch {
	return { kind: 'not_started', ending: { kind: 'not_launched', outcome: 'failure', message } };
}

/** A worker Turn's identity (every Turn of the Run names the Run itself, not its Turn process). */
export function workerIdentity(run: Run): TurnIdentity {
	return { sessionId: run.agentSessionId, issueId: run.issueId, worker: { taskId: run.taskId, runId: run.runId } };
}

/** The Stop hook and approval flags of a claude/codex Turn of `target`, if any. */
export function turnExtraArgs(turns: TurnLifecycle, target: AgentTargetConfig): string[] | undefined {
	const hook = turns.stopHookArgs(target.adapter);
	const approvals = turns.approvalArgs(target);
	return hook || approvals ? [...(hook ?? []), ...(approvals ?? [])] : undefined;
}

/** The launch gate (inside a transaction): revalidate the Run, its Stops and its issue, then lease and mint a token. */
function leaseLaunchInTx(ctx: RunLaunchContext, tx: Tx, runId: string): LaunchGate {
	const now = ctx.clock.now();
	const intent = launchIntentRepository.byRun(tx, runId);
	const run = runRepository.get(tx, runId);
	const issue = run ? issueRepository.get(tx, run.issueId) : undefined;
	const task = run ? taskRepository.get(tx, run.issueId, run.taskId) : undefined;
	const decision = decideRunLaunch({
		intentStatus: intent?.status, runStatus: run?.status, issue, taskExists: task !== undefined,
		stopEventCount: run ? runRepository.stopEvents(tx, runId).length : 0,
	});
	if (decision.kind === 'skip') {
		if (decision.intentError !== undefined) { launchIntentRepository.transition(tx, runId, ['prepared'], 'canceled', now, { lastError: decision.intentError }); }
		return { kind: 'done' };
	}
	if (decision.kind === 'cancel' || !run || !task) {
		answerPendingStopsInTx(tx, runId, 'took', now);
		settleRunInTx(ctx.settlement, tx, runId, { kind: 'not_launched', outcome: 'cancellation', message: decision.kind === 'cancel' ? decision.why : '' });
		return { kind: 'done' };
	}
	// The budget is asked again at the launch itself (admission asked it too): another Turn of the issue may have
	// crossed it since this Run was admitted (settled meanwhile, or counted after a restart). Fail closed.
	const target = ctx.turns.target(run.agentTargetId);
	const budget = target ? launchBudgetDecision(tx, run.issueId, launchModelOf(target, task.model), ctx.turns.pricing) : { kind: 'ok' as const };
	if (budget.kind !== 'ok') {
		settleRunInTx(ctx.settlement, tx, runId, { kind: 'not_launched', outcome: 'failure', message: `${couldNotStart}${budget.message}` });
		return { kind: 'done' };
	}
	launchIntentRepository.transition(tx, runId, ['prepared'], 'leased', now, { lease: { owner: ctx.leaseOwner, expiresAtUnixMs: now + launchLeaseMs } });
	const token = ctx.turns.issueToken(tx, run.agentSessionId);
	turnRepository.markRunning(tx, runSubmitId(runId));
	// A new attempt the developer asked for: its note, and how the attempt before it ended, go into the prompt.
	const rework = reworkRepository.ofRun(tx, runId);
	const previous = rework !== undefined && rework.fromRunId !== '' ? runRepository.get(tx, rework.fromRunId) : undefined;
	return { kind: 'launch', run, task, token, rework, previous };
}

interface PreparedRunTree {
	tree: string;
	conflict: MergeConflictNote | null;
	/** An update from base: what merging it into the tree came to. */
	update?: TreeUpdateOutcome;
}

/** The merge an update from base carries out in the task's tree, from its rework. */
function treeUpdateOf(rework: TaskRework | undefined, task: Task): TreeUpdate | undefined {
	if (rework?.kind !== 'update_from_base' || rework.mergeCommit === '') { return undefined; }
	return { into: rework.mergeInto, commit: rework.mergeCommit, message: `Update ${task.title.replace(/\s+/g, ' ').trim() || task.taskId} from ${rework.mergeInto}` };
}

/** The worktree of an isolated Run, prepared before its agent starts: its tree and the parents' conflict, if any. */
async function prepareTree(ctx: RunLaunchContext, run: Run, task: Task, target: AgentTargetConfig, update: TreeUpdate | undefined): Promise<PreparedRunTree | RunLaunch> {
	const delivery = { workspace: ctx.workspace, store: ctx.store, clock: ctx.clock, worktrees: ctx.worktrees };
	// Outside any transaction: git may take a while. A Stop of this Run waits in the Run's chain meanwhile.
	try {
		// The last guard against a stale acceptance (admission checked it too; a parent's branch may have moved since).
		const reopened = await reopenChangedParents(delivery, run.issueId, [run.taskId]);
		if (reopened.length > 0) {
			const names = reopened.map((c) => c.taskId).join(', ');
			const one = reopened.length === 1;
			return failed(`Could not start: ${names} ${one ? 'was' : 'were'} ${changedAfterAcceptance} (pending acceptance again); accept ${one ? 'it' : 'them'} again, then start this task again`);
		}
		const supersededBy = ctx.store.read((r) => new Map(taskRepository.listByIssue(r, run.issueId).map((t) => [t.taskId, t.supersededByTaskId] as const)));
		// The developer's checkout and the branches before the agent starts (read beside the tree's preparation, which
		// moves only this Run's own branch), to tell afterwards what changed outside its tree.
		const checkoutBefore = readCheckoutBefore(ctx.workspace, ctx.clock.now());
		const prepared = await prepareRunTree(delivery, run, task, target, reworkChain(run.taskId, supersededBy), join(ctx.runs.runDir(run.runId), 'stderr.log'), update);
		const checkout = await checkoutBefore;
		if (!prepared.ok) { return failed(prepared.message); }
		writeCheckoutBefore(ctx.runs.runDir(run.runId), prepared.tree.branch, checkout);
		return { tree: prepared.tree.relativePath, conflict: prepared.conflict, ...(prepared.update !== undefined ? { update: prepared.update } : {}) };
	} catch (e) {
		const why = e instanceof DomainError ? `${e.message} ${e.hint}` : (e as Error).message;
		return failed(`${couldNotStart}${e instanceof WorktreeSetupError ? e.message : why}`);
	}
}

/** Before the Run's first process: the gate, its working directory (its worktree), and the Turn to start. */
export async function prepareRunLaunch(ctx: RunLaunchContext, runId: string): Promise<RunLaunch> {
	let gate: LaunchGate;
	try {
		gate = await ctx.store.transaction((tx) => leaseLaunchInTx(ctx, tx, runId));
	} catch (e) {
		ctx.log(`launching run ${runId} failed before start: ${(e as Error).message}`);
		return { kind: 'done' };
	}
	if (gate.kind === 'done') { return gate; }
	const { run, task, token, rework } = gate;
	const target = ctx.turns.target(run.agentTargetId);
	if (!target) { return failed(`${couldNotStart}agent target '${run.agentTargetId}' is not configured any more`); }
	let directory = target.cwd ?? task.executionDirectory;
	let tree: string | undefined;
	let conflict: MergeConflictNote | null = null;
	const update = treeUpdateOf(rework, task);
	if (update !== undefined && target.isolation !== 'worktree') {
		return failed(`${couldNotStart}agent target '${target.id}' does not run in a worktree any more, so task ${task.taskId}'s tree cannot be updated from ${update.into}`);
	}
	let updateConflict: string[] = [];
	/** An update from base that needs no agent: how it ends, once where it worked is recorded. */
	let withoutAgent: RunLaunch | undefined;
	if (target.isolation === 'worktree') {
		const prepared = await prepareTree(ctx, run, task, target, update);
		if ('kind' in prepared) { return prepared; }
		({ tree, conflict } = prepared);
		directory = join(tree, directory);
		if (update !== undefined && rework !== undefined) {
			const outcome = prepared.update ?? { kind: 'merged' as const, head: '' };
			if (outcome.kind === 'merged') {
				// Merged without a conflict: nothing for an agent to do; the merge commit is the Run's result, reviewed as any.
				withoutAgent = { kind: 'not_started', ending: { kind: 'not_launched', outcome: 'success', message: mergedWithoutAgent(rework) } };
			} else if (effectiveOnMergeConflict(target) === 'fail') {
				// The target leaves conflicts to the developer: the merge stays in progress in the tree for them.
				withoutAgent = failed(`${couldNotStart}${leftToDeveloper(rework, tree, outcome.paths)}`);
			} else {
				updateConflict = outcome.paths;
			}
		}
	}
	const where = resolveRunDirectory(ctx.workspace, directory, tree);
	if ('error' in where) { return failed(`${couldNotStart}${where.error}`); }
	const structured = target.adapter !== 'command';
	const turn = structured ? workerTurnInput(task, target, { issueId: run.issueId, taskId: run.taskId, runId }, ctx.newProviderSessionId) : undefined;
	// A new attempt says which it is and what the developer said; parents that conflict and an agent told to resolve
	// them: the paths and what to do come first.
	const before = `${conflict !== null ? conflictPrompt(conflict) : ''}${rework !== undefined ? reworkPrompt(reworkPromptFacts(rework, gate.previous, updateConflict)) : ''}`;
	if (turn && before !== '') { turn.prompt = `${before}\n${turn.prompt}`; }
	const extraArgs = turnExtraArgs(ctx.turns, target);
	if (turn && extraArgs) { turn.extraArgs = extraArgs; }
	const recordDirectory = target.isolation === 'worktree' && directory !== run.executionDirectory;
	if (withoutAgent !== undefined) {
		// Its result (the merge) is committed where it worked, never in the workspace: the directory is recorded first.
		try {
			if (recordDirectory) { await recordRunDirectory(ctx, runId, directory); }
		} catch (e) {
			return failed(`${couldNotStart}recording where it works failed: ${(e as Error).message}`);
		}
		return withoutAgent;
	}
	if (recordDirectory || turn?.newProviderSessionId !== undefined) {
		// Where the Run works (a resume goes back there) and the claude session id known before the stream.
		try {
			await ctx.store.transaction((tx) => {
				const current = runRepository.get(tx, runId);
				if (current && recordDirectory) { runRepository.update(tx, { ...current, executionDirectory: directory, updatedAtUnixMs: ctx.clock.now() }); }
				if (turn?.newProviderSessionId !== undefined) { sessionRepository.updateProviderSessionId(tx, run.agentSessionId, turn.newProviderSessionId); }
			});
		} catch (e) {
			ctx.log(`recording where run ${runId} works failed: ${(e as Error).message}`);
		}
	}
	// claude/codex read their prompt from the Turn (stdin is /dev/null); command targets read the task on stdin.
	const start: TurnStart = {
		processId: runId, identity: workerIdentity(run), target, cwd: where.cwd, stdinText: structured ? '' : `${before}${task.content}`,
		...(turn !== undefined ? { turn } : {}), token,
	};
	return { kind: 'start', run, target, start };
}

/** Where the Run works: its result is committed there. */
async function recordRunDirectory(ctx: RunLaunchContext, runId: string, directory: string): Promise<void> {
	await ctx.store.transaction((tx) => {
		const current = runRepository.get(tx, runId);
		if (current) { runRepository.update(tx, { ...current, executionDirectory: directory, updatedAtUnixMs: ctx.clock.now() }); }
	});
}

/** The facts of a new attempt's prompt. */
function reworkPromptFacts(rework: TaskRework, previous: Run | undefined, conflictPaths: readonly string[]): ReworkPromptFacts {
	const ending = previous === undefined || previous.outcome === null ? ''
		: previous.outcome === 'cancellation' ? 'canceled (stopped)' : previous.outcome === 'failure' ? `failed: ${previous.errorMessage || 'no reason was recorded'}` : 'successfully';
	return {
		kind: rework.kind, attempt: rework.attempt, fromRunId: rework.fromRunId, note: rework.note, previousEnding: ending,
		...(rework.kind === 'update_from_base' ? { merge: { into: rework.mergeInto, sources: rework.mergeSources, conflictPaths } } : {}),
	};
}

/** The summary of an update from base that merged without a conflict (no agent started). */
function mergedWithoutAgent(rework: TaskRework): string {
	const what = rework.mergeSources.map((s) => s.label).join(' and ') || rework.mergeInto;
	return `Tutti merged ${what} into the task's tree without conflicts, so no agent was needed; review the merged result and accept it again.`;
}

/** Why an update from base stopped before an agent: the merge conflicts, and the target leaves that to the developer. */
function leftToDeveloper(rework: TaskRework, tree: string | undefined, paths: readonly string[]): string {
	const where = tree ?? 'its tree';
	return `merging ${rework.mergeInto} into ${where} conflicts in ${paths.join(', ')}; its agent target does not resolve conflicts (onMergeConflict "fail"), `
		+ `so the merge is left in progress there for you: resolve those files, \`git -C ${where} add\` them and \`git -C ${where} commit --no-edit\`. `
		+ 'The task stays accepted as it was; integrating then shows your commit for review (changed after acceptance)';
}

/** Starts the Run's first Turn and records the start as dispatched (HEAD of a shared folder is read meanwhile). */
export async function startRunTurn(ctx: RunLaunchContext, launch: Extract<RunLaunch, { kind: 'start' }>): Promise<TurnStarted> {
	const { run, target } = launch;
	const runId = run.runId;
	const starting = ctx.turns.start(launch.start);
	// HEAD as the agent starts in the shared folder: read once the start is under way (never delaying it).
	const base = target.isolation === 'worktree' ? undefined
		: recordSharedFolderBase({ workspace: ctx.workspace, store: ctx.store, clock: ctx.clock, worktrees: ctx.worktrees }, run)
			.catch((e: unknown) => { ctx.log(`recording where run ${runId} started failed: ${(e as Error).message}`); });
	const [started] = await Promise.all([starting, base]);
	if (!started.started) {
		return started.exit ? { kind: 'exited' } : { kind: 'not_started', ending: { kind: 'not_launched', outcome: 'failure', message: `could not start the agent: ${started.message}` } };
	}
	try {
		await ctx.store.transaction((tx) => {
			const now = ctx.clock.now();
			launchIntentRepository.transition(tx, runId, ['leased'], 'dispatched', now);
			const current = runRepository.get(tx, runId);
			if (current && current.status === 'running' && current.startedAtUnixMs === 0) {
				runRepository.update(tx, { ...current, startedAtUnixMs: now, updatedAtUnixMs: now });
			}
		});
	} catch (e) {
		ctx.log(`recording the start of run ${runId} failed: ${(e as Error).message}`);
	}
	return { kind: 'started' };
}
