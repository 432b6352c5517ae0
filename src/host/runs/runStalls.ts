// Stall marks of running Runs, kept by the Run owner (the rules: src/core/runs/stallRules.ts). StallWatch probes the
// running Runs every few seconds — one store read, then a stat of each Run's current output files, never a read —
// and writes each mark and its lifting in one transaction that, for a managed issue, also hands the stall to the
// source agent or withdraws it (src/host/checkpoints/stallCheckpoint.ts). A mark never touches the Run's status.
import type { Disposable } from '../../core/lifecycle.js';
import type { Run, RunStall } from '../../core/model.js';
import type { Clock } from '../../core/ports.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { type ActivityTrack, stallMsFor, stallProbeIntervalMs, stallStep, trackActivity } from '../../core/runs/stallRules.js';
import type { Store } from '../../store/database.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { appendStallCheckpoint, withdrawStallCheckpoints } from '../checkpoints/stallCheckpoint.js';
import type { HostConfig } from '../config.js';
import type { TurnLifecycle } from '../turns/turnLifecycle.js';
import { launchedRunningRuns } from './runRecovery.js';

export interface StallCandidate {
	readonly run: Run;
	/** Its mark in force, if any. */
	readonly mark: RunStall | undefined;
	/** It waits for the developer's answer to an approval it asked for (waiting for them is not silence). */
	readonly waitingForDeveloper: boolean;
}

/** The running Runs whose launch went out, each with its mark in force and whether it waits for the developer. */
export function stallCandidates(r: Reader): StallCandidate[] {
	const marks = runStallRepository.allInForce(r);
	const waiting = new Set(approvalRepository.listPending(r).map((a) => a.runId));
	return launchedRunningRuns(r).map((run) => ({ run, mark: marks.get(run.runId), waitingForDeveloper: waiting.has(run.runId) }));
}

/** Marks a still running Run stalled (once per stall) and hands it to a managed issue's source agent; null: nothing marked. */
export function markStallInTx(tx: Tx, runId: string, lastActivityAtUnixMs: number, nowUnixMs: number): RunStall | null {
	const run = runRepository.get(tx, runId);
	const issue = run ? issueRepository.get(tx, run.issueId) : undefined;
	if (!run || run.status !== 'running' || !issue) { return null; }
	const { stall, created } = runStallRepository.mark(tx, { runId, issueId: run.issueId, lastActivityAtUnixMs, markedAtUnixMs: nowUnixMs });
	if (!created) { return null; }
	appendStallCheckpoint(tx, issue, run, nowUnixMs);
	return stall;
}

/** Lifts the Run's mark: its agent showed activity again; a stall checkpoint not handed to the source agent yet gives way. */
export function clearStallInTx(tx: Tx, runId: string, nowUnixMs: number): RunStall | undefined {
	const cleared = runStallRepository.clear(tx, runId, 'activity', nowUnixMs);
	const issue = cleared ? issueRepository.get(tx, cleared.issueId) : undefined;
	if (issue) { withdrawStallCheckpoints(tx, issue, runId, 'its agent showed activity again', nowUnixMs); }
	return cleared;
}

export interface StallWatchDeps {
	store: Store;
	clock: Clock;
	runs: Pick<RunProcessPort, 'outputProbe'>;
	turns: Pick<TurnLifecycle, 'target' | 'exitRecord'>;
	config: Pick<HostConfig, 'agentTargets' | 'stallSeconds'>;
	log: (line: string) => void;
	/** The Run's current Turn process. */
	processOf: (runId: string) => string;
	/** A launch, a Stop or an exit of the Run is in progress: it is left alone this time. */
	inFlight: (runId: string) => boolean;
	/** Probe cadence once watched (default: from the stall times; 0: never, tests call check()). */
	everyMs?: number;
}

export class StallWatch implements Disposable {
	/** What each running Run's output looked like at the last probe (in memory; a restart starts from the files). */
	readonly #activity = new Map<string, ActivityTrack>();
	#probe: Promise<void> | undefined;
	#timer: NodeJS.Timeout | undefined;

	constructor(private readonly d: StallWatchDeps) {}

	/** Probes from now on, every few seconds (the cadence follows the shortest stall time). */
	watch(): void {
		if (this.#timer !== undefined) { return; }
		const { config } = this.d;
		const everyMs = this.d.everyMs
			?? stallProbeIntervalMs([stallMsFor(undefined, config.stallSeconds), ...config.agentTargets.map((t) => stallMsFor(t, config.stallSeconds))]);
		if (everyMs <= 0) { return; }
		this.#timer = setInterval(() => { void this.check(); }, everyMs);
		this.#timer.unref();
	}

	/**
	 * One probe of every running Run whose launch went out: a Run silent for its stall time is marked stalled; a mark
	 * is lifted once its output moves again. Never throws; a probe already running is joined.
	 */
	check(): Promise<void> {
		this.#probe ??= this.#run().finally(() => { this.#probe = undefined; });
		return this.#probe;
	}

	dispose(): void {
		if (this.#timer !== undefined) { clearInterval(this.#timer); }
	}

	async #run(): Promise<void> {
		try {
			const now = this.d.clock.now();
			const steps: { runId: string; step: 'mark' | 'clear'; lastActivityAtUnixMs: number }[] = [];
			const candidates = this.d.store.read((r) => stallCandidates(r));
			const running = new Set(candidates.map((c) => c.run.runId));
			for (const id of [...this.#activity.keys()]) { if (!running.has(id)) { this.#activity.delete(id); } }
			for (const { run, mark, waitingForDeveloper } of candidates) {
				if (this.d.inFlight(run.runId)) { continue; }
				const processId = this.d.processOf(run.runId);
				const track = trackActivity({
					previous: this.#activity.get(run.runId), probe: { processId, ...this.d.runs.outputProbe(processId) },
					startedAtUnixMs: run.startedAtUnixMs, mark, waitingForDeveloper, nowUnixMs: now,
				});
				this.#activity.set(run.runId, track);
				const stallMs = stallMsFor(this.d.turns.target(run.agentTargetId), this.d.config.stallSeconds);
				const step = stallStep({ lastActivityAtUnixMs: track.lastActivityAtUnixMs, mark, stallMs, nowUnixMs: now });
				// A Turn that ended is settling (its result commit may take a while): not a stall.
				if (step === 'mark' && this.d.turns.exitRecord(processId) !== null) { continue; }
				if (step !== 'none') { steps.push({ runId: run.runId, step, lastActivityAtUnixMs: track.lastActivityAtUnixMs }); }
			}
			for (const s of steps) { await this.#apply(s.runId, s.step, s.lastActivityAtUnixMs); }
		} catch (e) {
			this.d.log(`probing running Runs for stalls failed (tried again at the next probe): ${(e as Error).message}`);
		}
	}

	async #apply(runId: string, step: 'mark' | 'clear', lastActivityAtUnixMs: number): Promise<void> {
		const now = this.d.clock.now();
		if (step === 'mark') {
			const marked = await this.d.store.transaction((tx) => markStallInTx(tx, runId, lastActivityAtUnixMs, now));
			if (marked) { this.d.log(`run ${runId} is stalled: no activity since ${new Date(lastActivityAtUnixMs).toISOString()} (it goes on; nothing is stopped)`); }
			return;
		}
		const cleared = await this.d.store.transaction((tx) => clearStallInTx(tx, runId, now));
		if (cleared) { this.d.log(`run ${runId} shows activity again: its stall mark is lifted`); }
	}
}
