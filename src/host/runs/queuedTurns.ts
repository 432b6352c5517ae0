// The Turn that delivers a Run's next queued message to the same agent session (`--resume`), prepared inside the
// Run's chain after a Turn completed: when the Run is still running, no Stop is unanswered, no host Stop was made and
// the queue has a deliverable message, the message is recorded as delivered (durable, naming the new Turn process)
// and the Turn to start is returned to the Run's owner, which expects its exit and starts it.
import type { TurnFacts } from '../../agents/adapter.js';
import type { AgentTurnInput } from '../../core/runs/runProcessPort.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { resolveRunDirectory } from '../executionDirectory.js';
import type { TurnStart } from '../turns/turnLifecycle.js';
import { launchBudgetDecision, launchModelOf } from '../usage/issueSpend.js';
import { appendQueueEntry, readQueue } from './messages/queueFile.js';
import { liveDeliveries } from './messages/liveDelivery.js';
import { deriveQueueState, nextDeliverable } from './messages/queueState.js';
import { turnProcessAfter, turnProcessIds } from './messages/turnProcesses.js';
import { type RunLaunchContext, turnExtraArgs, workerIdentity } from './runLaunch.js';
import { turnLaunchSettings } from './workerTurn.js';

export interface QueuedTurn {
	messageId: string;
	start: TurnStart;
}

/**
 * The Turn of the Run's next queued message, to be started as `processId` (the Turn after the one that completed), or
 * null: the Run settles as usual. Its `delivered` entry is durable before this returns, so after a restart the Run's
 * current process is this one (a message is delivered at most once).
 */
export async function prepareQueuedTurn(ctx: RunLaunchContext, runId: string, processId: string, facts: TurnFacts | null): Promise<QueuedTurn | null> {
	const dir = ctx.runs.runDir(runId);
	const entries = readQueue(dir);
	const processes = turnProcessIds(runId, entries);
	if (turnProcessAfter(processes[processes.length - 1] ?? runId) !== processId) {
		ctx.log(`run ${runId}: its queue file does not name the Turn before ${processId} as the current one; the Run settles`);
		return null;
	}
	const gate = ctx.store.read((r) => {
		const run = runRepository.get(r, runId);
		if (!run || run.status !== 'running') { return null; }
		const stops = runRepository.stopEvents(r, runId);
		if (stops.some((e) => e.answer === null || e.reason !== 'person')) { return null; }
		const task = taskRepository.get(r, run.issueId, run.taskId);
		const session = sessionRepository.get(r, run.agentSessionId);
		return task ? { run, task, stops, providerSessionId: session?.providerSessionId ?? '' } : null;
	});
	if (!gate) { return null; }
	const { run, task } = gate;
	const target = ctx.turns.target(run.agentTargetId);
	if (!target || target.adapter === 'command') { return null; }
	// A message the last Turn echoed was delivered inside it: it never starts a Turn of its own.
	const echoed = liveDeliveries(ctx.runs, runId, processes).echoed;
	const next = nextDeliverable(deriveQueueState(entries, gate.stops, echoed));
	if (!next) { return null; }
	const budget = ctx.store.read((r) => launchBudgetDecision(r, run.issueId, launchModelOf(target, task.model), ctx.turns.pricing));
	if (budget.kind !== 'ok') {
		ctx.log(`run ${runId}: ${budget.message}, so queued message ${next.messageId} stays queued and the Run settles`);
		return null;
	}
	const providerSessionId = facts?.providerSessionId || gate.providerSessionId;
	if (providerSessionId === '') {
		ctx.log(`run ${runId}: no provider session id to resume, so queued message ${next.messageId} stays queued and the Run settles`);
		return null;
	}
	const directory = target.isolation === 'worktree' ? run.executionDirectory : (target.cwd ?? task.executionDirectory);
	// The tree the Run works in, as recorded when it was made: a Run whose tree is gone has nowhere to go on.
	const tree = target.isolation === 'worktree' ? ctx.worktrees.treeContaining(run.issueId, run.executionDirectory)?.path ?? '' : undefined;
	const where = tree === '' ? { error: `the worktree of ${run.executionDirectory} is not recorded any more` }
		: resolveRunDirectory(ctx.workspace, directory, tree);
	if ('error' in where) {
		ctx.log(`run ${runId}: cannot start the next Turn (${where.error}); the Run settles`);
		return null;
	}
	const token = await ctx.store.transaction((tx) => {
		if (facts && facts.providerSessionId !== '') { sessionRepository.updateProviderSessionId(tx, run.agentSessionId, facts.providerSessionId); }
		return ctx.turns.issueToken(tx, run.agentSessionId);
	});
	const turn: AgentTurnInput = { prompt: next.text, resumeProviderSessionId: providerSessionId, ...turnLaunchSettings(task, target) };
	const extraArgs = turnExtraArgs(ctx.turns, target);
	if (extraArgs) { turn.extraArgs = extraArgs; }
	appendQueueEntry(dir, { type: 'delivered', messageId: next.messageId, atUnixMs: ctx.clock.now(), turnProcessId: processId });
	return { messageId: next.messageId, start: { processId, identity: workerIdentity(run), target, cwd: where.cwd, stdinText: '', turn, token } };
}
