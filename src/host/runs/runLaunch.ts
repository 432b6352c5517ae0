// The Turns of a worker Run: its first Turn (lease gate → working directory → start → dispatched) and the Turn that
// delivers its next queued message to the same agent session (`--resume`). Transactions are synchronous and never
// span a process call; the gate is the pure rule of src/core/turns/launchGate.ts and the process side is the
// TurnLifecycle's. A target with `"isolation":"worktree"` gets its git worktree created between the lease and the
// start, outside any transaction (services/worktrees/worktreeManager.ts).
import { join, sep } from 'node:path';
import type { TurnFacts } from '../../agents/adapter.js';
import { DomainError } from '../../core/errors.js';
import { runSubmitId } from '../../core/ids.js';
import type { Run, StopAnswer, Task } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import { couldNotStart } from '../../core/runs/outcome.js';
import { decideRunLaunch } from '../../core/turns/launchGate.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import type { Tx } from '../../store/tx.js';
import type { AgentTurnInput, RunExit } from '../../core/runs/runProcessPort.js';
import { turnLaunchSettings, workerTurnInput } from './workerTurn.js';
import { resolveRunDirectory } from '../executionDirectory.js';
import { appendQueueEntry, readQueue } from './messages/queueFile.js';
import { liveDeliveries } from './messages/liveDelivery.js';
import { deriveQueueState, nextDeliverable } from './messages/queueState.js';
import { launchBudgetDecision, launchModelOf } from '../usage/issueSpend.js';
import { currentTurnProcessId, nextTurnProcessId, turnProcessIds } from './messages/turnProcesses.js';
import { type RunEnding, type SettledRun, type SettlementContext, settleRunInTx } from './runSettlement.js';
import { type WorktreeManager, WorktreeSetupError } from '../worktrees/worktreeManager.js';
import { reopenChangedParents } from '../delivery/acceptanceChanges.js';
import { changedAfterAcceptance } from '../../store/repositories/deliveryRepository.js';
import { readCheckoutBefore, writeCheckoutBefore } from '../delivery/outsideWatch.js';
import { conflictPrompt, type MergeConflictNote, prepareRunTree, recordSharedFolderBase } from '../delivery/runDelivery.js';
import { reworkChain, worktreesFolder } from '../worktrees/worktreePaths.js';
import type { TurnIdentity, TurnLifecycle } from '../turns/turnLifecycle.js';

/** How long a launch lease is held (a lease older than this on restart belongs to a dead Host). */
const launchLeaseMs = 60_000;

export interface WorkerTurnContext {
	workspace: string;
	/** The directory of a Run's files (its worktree setup output goes to its stderr log there). */
	runDir(runId: string): string;
	store: Store;
	clock: Clock;
	turns: TurnLifecycle;
	worktrees: WorktreeManager;
	settlement: SettlementContext;
	/** This Host's launch lease owner. */
	leaseOwner: string;
	/** A new claude session id (default: a random UUID); tests pin it. */
	newProviderSessionId?: () => string;
	log(line: string): void;
	/** Settles the Run in its own transaction, then tells the Host. */
	settle(runId: string, ending: RunEnding): Promise<void>;
	afterSettle(settled: SettledRun): void;
	/** Handles the exit record of one of the Run's Turn processes. */
	onExit(exit: RunExit): Promise<void>;
}

type LaunchGate =
	| { kind: 'skip' }
	| { kind: 'settled'; settled: SettledRun | null }
	| { kind: 'launch'; run: Run; task: Task; token: string };

/** A worker Turn's identity (every Turn of the Run names the Run itself, not its Turn process). */
function workerIdentity(run: Run, runId: string): TurnIdentity {
	return { sessionId: run.agentSessionId, issueId: run.issueId, worker: { taskId: run.taskId, runId } };
}

/** Unanswered Stops of a Run that never started took effect: they are why it never starts. */
export function answerPendingStopsInTx(tx: Tx, runId: string, answer: StopAnswer, now: number): void {
	for (const e of runRepository.stopEvents(tx, runId)) {
		if (e.answer === null) { runRepository.answerStopEvent(tx, e.eventId, answer, now); }
	}
}

/** The launch gate (inside a transaction): revalidate the Run, its Stops and its issue, then lease and mint a token. */
function leaseLaunchInTx(ctx: WorkerTurnContext, tx: Tx, runId: string): LaunchGate {
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
		return { kind: 'skip' };
	}
	if (decision.kind === 'cancel' || !run || !task) {
		answerPendingStopsInTx(tx, runId, 'took', now);
		const settled = settleRunInTx(ctx.settlement, tx, runId, { kind: 'not_launched', outcome: 'cancellation', message: decision.kind === 'cancel' ? decision.why : '' });
		return { kind: 'settled', settled };
	}
	// The budget is asked again at the launch itself (admission asked it too): another Turn of the issue may have
	// crossed it since this Run was admitted (settled meanwhile, or counted after a restart). Fail closed.
	const target = ctx.turns.target(run.agentTargetId);
	const budget = target ? launchBudgetDecision(tx, run.issueId, launchModelOf(target, task.model), ctx.turns.pricing) : { kind: 'ok' as const };
	if (budget.kind !== 'ok') {
		const settled = settleRunInTx(ctx.settlement, tx, runId, { kind: 'not_launched', outcome: 'failure', message: `${couldNotStart}${budget.message}` });
		return { kind: 'settled', settled };
	}
	launchIntentRepository.transition(tx, runId, ['prepared'], 'leased', now, { lease: { owner: ctx.leaseOwner, expiresAtUnixMs: now + launchLeaseMs } });
	const token = ctx.turns.issueToken(tx, run.agentSessionId);
	turnRepository.markRunning(tx, runSubmitId(runId));
	return { kind: 'launch', run, task, token };
}

/** The worktree folder (`.tutti/worktrees/<taskId>`) a worktree Run's recorded directory lies in. */
function treeOf(runDirectory: string): string {
	return join(...runDirectory.split(sep).slice(0, worktreesFolder.split(sep).length + 1));
}

/** The Run's first Turn: lease, working directory (its worktree), start, and the start recorded as dispatched. */
export async function launchWorkerRun(ctx: WorkerTurnContext, runId: string): Promise<void> {
	let gate: LaunchGate;
	try {
		gate = await ctx.store.transaction((tx) => leaseLaunchInTx(ctx, tx, runId));
	} catch (e) {
		ctx.log(`launching run ${runId} failed before start: ${(e as Error).message}`);
		return;
	}
	if (gate.kind === 'skip') { return; }
	if (gate.kind === 'settled') {
		if (gate.settled) { ctx.afterSettle(gate.settled); }
		return;
	}
	const { run, task, token } = gate;
	const target = ctx.turns.target(run.agentTargetId);
	if (!target) {
		await ctx.settle(runId, { kind: 'not_launched', outcome: 'failure', message: `${couldNotStart}agent target '${run.agentTargetId}' is not configured any more` });
		return;
	}
	let directory = target.cwd ?? task.executionDirectory;
	let tree: string | undefined;
	let conflict: MergeConflictNote | null = null;
	const delivery = { workspace: ctx.workspace, store: ctx.store, clock: ctx.clock, worktrees: ctx.worktrees };
	if (target.isolation === 'worktree') {
		// Outside any transaction: git may take a while. A Stop of this Run waits in the Run's chain meanwhile.
		try {
			// The last guard against a stale acceptance (admission checked it too; a parent's branch may have moved since).
			const reopened = await reopenChangedParents(delivery, run.issueId, [run.taskId]);
			if (reopened.length > 0) {
				const names = reopened.map((c) => c.taskId).join(', ');
				await ctx.settle(runId, {
					kind: 'not_launched', outcome: 'failure',
					message: `Could not start: ${names} ${reopened.length === 1 ? 'was' : 'were'} ${changedAfterAcceptance} (pending acceptance again); accept ${reopened.length === 1 ? 'it' : 'them'} again, then start this task again`,
				});
				return;
			}
			const supersededBy = ctx.store.read((r) => new Map(taskRepository.listByIssue(r, run.issueId).map((t) => [t.taskId, t.supersededByTaskId] as const)));
			// The developer's checkout and the branches before the agent starts (read beside the tree's preparation,
			// which moves only this Run's own branch), to tell afterwards what changed outside its tree.
			const checkoutBefore = readCheckoutBefore(ctx.workspace, ctx.clock.now());
			const prepared = await prepareRunTree(delivery, run, task, target, reworkChain(run.taskId, supersededBy), join(ctx.runDir(runId), 'stderr.log'));
			const checkout = await checkoutBefore;
			if (!prepared.ok) {
				await ctx.settle(runId, { kind: 'not_launched', outcome: 'failure', message: prepared.message });
				return;
			}
			writeCheckoutBefore(ctx.runDir(runId), prepared.tree.branch, checkout);
			conflict = prepared.conflict;
			tree = prepared.tree.relativePath;
			directory = join(tree, directory);
		} catch (e) {
			const why = e instanceof DomainError ? `${e.message} ${e.hint}` : (e as Error).message;
			await ctx.settle(runId, { kind: 'not_launched', outcome: 'failure', message: `${couldNotStart}${e instanceof WorktreeSetupError ? e.message : why}` });
			return;
		}
	}
	const where = resolveRunDirectory(ctx.workspace, directory, tree);
	if ('error' in where) {
		await ctx.settle(runId, { kind: 'not_launched', outcome: 'failure', message: `${couldNotStart}${where.error}` });
		return;
	}
	const structured = target.adapter !== 'command';
	const turn = structured ? workerTurnInput(task, target, { issueId: run.issueId, taskId: run.taskId, runId }, ctx.newProviderSessionId) : undefined;
	// Parents that conflict and an agent told to resolve them: the paths and what to do come first.
	const before = conflict !== null ? conflictPrompt(conflict) : '';
	if (turn && before !== '') { turn.prompt = `${before}\n${turn.prompt}`; }
	const hook = ctx.turns.stopHookArgs(target.adapter);
	const approvals = ctx.turns.approvalArgs(target);
	if (turn && (hook || approvals)) { turn.extraArgs = [...(hook ?? []), ...(approvals ?? [])]; }
	const recordDirectory = target.isolation === 'worktree' && directory !== run.executionDirectory;
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
	const starting = ctx.turns.start({
		processId: runId, identity: workerIdentity(run, runId), target, cwd: where.cwd,
		// claude/codex read their prompt from the Turn (stdin is /dev/null); command targets read the task on stdin.
		stdinText: structured ? '' : `${before}${task.content}`,
		...(turn !== undefined ? { turn } : {}),
		token,
	});
	// HEAD as the agent starts in the shared folder: read once the start is under way (never delaying it), while the
	// launch waits for the agent's process to be recorded.
	const base = target.isolation === 'worktree' ? undefined
		: recordSharedFolderBase(delivery, run).catch((e: unknown) => { ctx.log(`recording where run ${runId} started failed: ${(e as Error).message}`); });
	const [started] = await Promise.all([starting, base]);
	if (!started.started) {
		if (started.exit) {
			await ctx.onExit(started.exit);
		} else {
			await ctx.settle(runId, { kind: 'not_launched', outcome: 'failure', message: `could not start the agent: ${started.message}` });
		}
		return;
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
}

/** What the next queued Turn needs from the Run's exit handling. */
export interface QueuedTurnContext extends WorkerTurnContext {
	/** The exit of a later Turn process, as the Run's own exit. */
	runExitOf(runId: string, exit: RunExit): RunExit;
	/** Background work the Host waits for (never re-enter the Run's chain from here). */
	track(p: Promise<unknown>): void;
	/** Hands the Run's other pending messages to its (new) running Turn (liveDelivery.ts). */
	forwardMessages(runId: string): void;
}

/**
 * Inside the Run's chain (a Stop's interrupt waits for it and then targets the new process), after a Turn completed:
 * when the Run is still running, no Stop is unanswered, no host Stop was made and the queue has a deliverable
 * message, record the message as delivered (durable, naming the new Turn process) and start that Turn with
 * `--resume`. False: the Run settles as usual.
 */
export async function startQueuedTurn(ctx: QueuedTurnContext, runId: string, exit: RunExit, facts: TurnFacts | null): Promise<boolean> {
	const dir = ctx.runDir(runId);
	const entries = readQueue(dir);
	if (currentTurnProcessId(runId, entries) !== exit.runId) { return false; }
	const gate = ctx.store.read((r) => {
		const run = runRepository.get(r, runId);
		if (!run || run.status !== 'running') { return null; }
		const stops = runRepository.stopEvents(r, runId);
		if (stops.some((e) => e.answer === null || e.reason !== 'person')) { return null; }
		const task = taskRepository.get(r, run.issueId, run.taskId);
		const session = sessionRepository.get(r, run.agentSessionId);
		return task ? { run, task, stops, providerSessionId: session?.providerSessionId ?? '' } : null;
	});
	if (!gate) { return false; }
	const { run, task } = gate;
	const target = ctx.turns.target(run.agentTargetId);
	if (!target || target.adapter === 'command') { return false; }
	// A message the last Turn echoed was delivered inside it: it never starts a Turn of its own.
	const echoed = liveDeliveries({ runDir: ctx.runDir }, runId, turnProcessIds(runId, entries)).echoed;
	const next = nextDeliverable(deriveQueueState(entries, gate.stops, echoed));
	if (!next) { return false; }
	const budget = ctx.store.read((r) => launchBudgetDecision(r, run.issueId, launchModelOf(target, task.model), ctx.turns.pricing));
	if (budget.kind !== 'ok') {
		ctx.log(`run ${runId}: ${budget.message}, so queued message ${next.messageId} stays queued and the Run settles`);
		return false;
	}
	const providerSessionId = facts?.providerSessionId || gate.providerSessionId;
	if (providerSessionId === '') {
		ctx.log(`run ${runId}: no provider session id to resume, so queued message ${next.messageId} stays queued and the Run settles`);
		return false;
	}
	const directory = target.isolation === 'worktree' ? run.executionDirectory : (target.cwd ?? task.executionDirectory);
	const where = resolveRunDirectory(ctx.workspace, directory, target.isolation === 'worktree' ? treeOf(run.executionDirectory) : undefined);
	if ('error' in where) {
		ctx.log(`run ${runId}: cannot start the next Turn (${where.error}); the Run settles`);
		return false;
	}
	const token = await ctx.store.transaction((tx) => {
		if (facts && facts.providerSessionId !== '') { sessionRepository.updateProviderSessionId(tx, run.agentSessionId, facts.providerSessionId); }
		return ctx.turns.issueToken(tx, run.agentSessionId);
	});
	const processId = nextTurnProcessId(runId, entries);
	const turn: AgentTurnInput = { prompt: next.text, resumeProviderSessionId: providerSessionId, ...turnLaunchSettings(task, target) };
	const hook = ctx.turns.stopHookArgs(target.adapter);
	const approvals = ctx.turns.approvalArgs(target);
	if (hook || approvals) { turn.extraArgs = [...(hook ?? []), ...(approvals ?? [])]; }
	// Durable before the process starts: after a restart the Run's current process is this one (at most once).
	appendQueueEntry(dir, { type: 'delivered', messageId: next.messageId, atUnixMs: ctx.clock.now(), turnProcessId: processId });
	const started = await ctx.turns.start({ processId, identity: workerIdentity(run, runId), target, cwd: where.cwd, stdinText: '', turn, token });
	if (!started.started) {
		// Outside the chain's own settlement path: settle directly (never re-enter the chain from here).
		ctx.track(ctx.settle(runId, started.exit
			? { kind: 'exit', exit: ctx.runExitOf(runId, started.exit), facts: null }
			: { kind: 'not_launched', outcome: 'failure', message: `could not start the Turn for queued message ${next.messageId}: ${started.message}` }));
	} else {
		// The messages queued behind this one go into the Turn it started, in order.
		ctx.forwardMessages(runId);
	}
	return true;
}
