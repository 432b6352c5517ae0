// Read-only run/* handlers: run/get, run/list, run/log, run/transcript (read by runTranscript.ts).
import type { Clock } from '../../core/ports.js';
import type { ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { RunDto } from '../../protocol/dto.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import { messagesWhileRunning } from './agentTargets.js';
import type { Store } from '../../store/database.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { readRunDto } from './dtoMapping.js';
import { readRunLog } from '../runs/messages/turnLog.js';
import { loadIssue } from './issueService.js';
import { readRunApprovals } from './approvals/approvalDtos.js';
import { runQueueState } from '../runs/messages/liveDelivery.js';
import { latestActivity } from './runActivity.js';
import { readRunTranscript } from './runTranscript.js';

export class RunQueries {
	constructor(private readonly deps: {
		store: Store; clock: Clock; runs: RunProcessPort;
		/** A configured target (undefined when the id is no longer configured). */
		targetOf?: (agentTargetId: string) => AgentTargetConfig | undefined;
	}) {}

	async get(params: ParsedParams<'run/get'>): Promise<Result<'run/get'>> {
		return this.#withActivity(this.deps.store.read((r) => readRunDto(r, runRepository.load(r, params.runId), this.deps.clock.now())));
	}

	/** A running Run's DTO carries what it is doing now and its messages (read outside the store's transaction). */
	#withActivity(run: RunDto): RunDto {
		if (run.status !== 'running') { return run; }
		const target = this.deps.targetOf?.(run.agentTargetId);
		return {
			...run, activity: latestActivity(this.deps.runs, run.runId), ...this.#messages(run.runId),
			...(target !== undefined ? { messagesWhileRunning: messagesWhileRunning(target) } : {}),
		};
	}

	#messages(runId: string): Pick<RunDto, 'messages'> {
		try {
			const stops = this.deps.store.read((r) => runRepository.stopEvents(r, runId));
			const state = runQueueState(this.deps.runs, runId, stops);
			if (state.all.length === 0) { return {}; }
			const pending = new Set(state.pending.map((m) => m.messageId));
			return {
				messages: state.all.map((m) => ({
					messageId: m.messageId, text: m.text, atUnixMs: m.atUnixMs,
					state: !pending.has(m.messageId) ? 'delivered' as const : state.live.written.has(m.messageId) ? 'sent' as const : 'queued' as const,
				})),
			};
		} catch {
			return {};
		}
	}

	async list(params: ParsedParams<'run/list'>): Promise<Result<'run/list'>> {
		const runs = this.deps.store.read((r) => {
			const issue = loadIssue(r, params.issueId);
			const now = this.deps.clock.now();
			return runRepository.listByIssue(r, issue.issueId).map((run) => readRunDto(r, run, now));
		});
		return { runs: runs.map((run) => this.#withActivity(run)) };
	}

	/** A slice of the Run's captured output; `done` once the Run settled and everything was read. */
	async log(params: ParsedParams<'run/log'>): Promise<Result<'run/log'>> {
		const run = this.deps.store.read((r) => runRepository.load(r, params.runId));
		let slice = { data: '', nextOffset: params.offset, size: 0 };
		try {
			slice = readRunLog(this.deps.runs, run.runId, params.stream, params.offset, params.maxBytes);
		} catch {
			// Not launched yet (no output files): an empty slice.
		}
		return { runId: run.runId, data: slice.data, nextOffset: slice.nextOffset, done: run.status !== 'running' && slice.nextOffset >= slice.size };
	}

	/**
	 * The readable transcript of the Run from `offset` (stdout) and `stderrOffset` (stderr, interleaved and marked): whole
	 * lines only while the Run runs; once it has ended, a partial last line is read as it is.
	 */
	async transcript(params: ParsedParams<'run/transcript'>): Promise<Result<'run/transcript'>> {
		const [run, approvals] = this.deps.store.read((r) => { const found = runRepository.load(r, params.runId); return [found, readRunApprovals(r, found.runId)] as const; });
		const read = readRunTranscript(this.deps.runs, run.runId, { offset: params.offset, stderrOffset: params.stderrOffset, maxBytes: params.maxBytes }, run.status !== 'running');
		return {
			runId: run.runId, entries: read.entries, nextOffset: read.nextOffset, stderrNextOffset: read.stderrNextOffset, done: read.done,
			...(approvals.length > 0 ? { approvals } : {}),
		};
	}
}
