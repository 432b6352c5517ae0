// `run/send`, `run/queue`, `run/resume-queue`: the durable message queue of a Run (src/host/runs/messages/queueFile.ts)
// and its derived pause state (queueState.ts there). A claude Turn takes messages while it runs: a send is appended
// to the queue, then handed to the running Turn (liveDelivery.ts) and delivered once the agent echoes it. What the
// running Turn does not take is the Run owner's (src/host/runs/queuedTurns.ts): when a Turn completes, the next
// deliverable message becomes the next `--resume` Turn of the same session; messages left when the Run settles stay
// recorded.
import { DomainError } from '../../../core/errors.js';
import type { Clock, IdSource } from '../../../core/ports.js';
import type { Caller, RunAgentParams, RunAgentResult } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import type { HostConfig } from '../../config.js';
import type { RunProcessPort } from '../../../core/runs/runProcessPort.js';
import { requireUser } from '../callerPolicy.js';
import { forwardPendingMessages, type LiveDeliveries, runQueueState } from '../../runs/messages/liveDelivery.js';
import { appendQueueEntry } from '../../runs/messages/queueFile.js';
import type { QueueState } from '../../runs/messages/queueState.js';

export interface RunMessageServiceDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	runs: Pick<RunProcessPort, 'runDir' | 'isAlive'>;
	config: HostConfig;
}

type QueueResult = RunAgentResult<'run/queue'>;

export class RunMessageService {
	constructor(private readonly deps: RunMessageServiceDeps) {}

	/** The derived queue state of a Run (messages its running Turns echoed count as delivered). */
	stateOf(runId: string): QueueState & { live: LiveDeliveries } {
		return runQueueState(this.deps.runs, runId, this.#stops(runId));
	}

	/** Hands the Run's pending messages to its running Turn when it takes input now; returns the ids handed over. */
	forward(runId: string): string[] {
		return forwardPendingMessages(this.deps.runs, runId, this.#stops(runId), this.deps.clock.now());
	}

	#stops(runId: string): { eventId: string; reason: string }[] {
		return this.deps.store.read((r) => runRepository.stopEvents(r, runId));
	}

	async send(params: RunAgentParams<'run/send'>, caller: Caller): Promise<RunAgentResult<'run/send'>> {
		requireUser(caller, 'run send', { runId: params.runId });
		const run = this.deps.store.read((r) => runRepository.load(r, params.runId));
		const target = this.deps.config.agentTargets.find((t) => t.id === run.agentTargetId);
		if (target === undefined || target.adapter === 'command') {
			throw new DomainError('invalid_input',
				`Run ${run.runId} runs the ${target === undefined ? `unconfigured target '${run.agentTargetId}'` : `command target '${target.id}'`}, which takes no messages after it starts.`,
				`Only claude and codex Runs take queued messages; stop this Run with \`tutti run stop --run-id ${run.runId} --as-user\` and schedule a new task instead.`,
				{ runId: run.runId, agentTargetId: run.agentTargetId });
		}
		if (run.status !== 'running') {
			throw new DomainError('invalid_input', `Run ${run.runId} is ${run.status}; messages are queued only for a running agent.`,
				`Check it with \`tutti run get --run-id ${run.runId} --json\`.`, { runId: run.runId, status: run.status });
		}
		const messageId = this.deps.ids.next('msg');
		appendQueueEntry(this.deps.runs.runDir(run.runId), { type: 'message', messageId, text: params.text, atUnixMs: this.deps.clock.now() });
		const intoTurn = this.forward(run.runId).includes(messageId);
		const state = this.stateOf(run.runId);
		return {
			runId: run.runId,
			messageId,
			position: state.pending.findIndex((m) => m.messageId === messageId),
			pending: state.pending.length,
			queuePaused: state.paused,
			delivery: intoTurn ? 'into-turn' : 'queued',
		};
	}

	async queue(params: RunAgentParams<'run/queue'>): Promise<QueueResult> {
		const run = this.deps.store.read((r) => runRepository.load(r, params.runId));
		return toResult(run.runId, this.stateOf(run.runId));
	}

	/** Writes a Resume entry covering every person Stop recorded so far (the queue is paused by none of them after). */
	async resumeQueue(params: RunAgentParams<'run/resume-queue'>, caller: Caller): Promise<RunAgentResult<'run/resume-queue'>> {
		requireUser(caller, 'run resume-queue', { runId: params.runId });
		const run = this.deps.store.read((r) => runRepository.load(r, params.runId));
		const stops = this.deps.store.read((r) => runRepository.stopEvents(r, run.runId)).filter((s) => s.reason === 'person');
		const eventId = this.deps.ids.next('resume');
		appendQueueEntry(this.deps.runs.runDir(run.runId), {
			type: 'resume', eventId, resumesStopEventIds: stops.map((s) => s.eventId), atUnixMs: this.deps.clock.now(),
		});
		if (run.status === 'running') { this.forward(run.runId); }
		return { ...toResult(run.runId, this.stateOf(run.runId)), eventId };
	}
}

function toResult(runId: string, state: QueueState & { live: LiveDeliveries }): QueueResult {
	const pending = new Set(state.pending.map((m) => m.messageId));
	const stateOf = (messageId: string): 'queued' | 'sent' | 'delivered' =>
		(!pending.has(messageId) ? 'delivered' : state.live.written.has(messageId) ? 'sent' : 'queued');
	return {
		runId,
		paused: state.paused,
		pausedByStopEventIds: state.pausedByStopEventIds,
		messages: state.all.map((m) => ({ messageId: m.messageId, text: m.text, atUnixMs: m.atUnixMs, delivered: !pending.has(m.messageId), state: stateOf(m.messageId) })),
	};
}
