// The Run owner's restart and write-failure recovery (created and owned by runLifecycle.ts): at Host start it settles,
// re-attaches or launches every running Run, and after the store reloaded itself it looks for each Run's exit again.
// What it reads and decides is in runRecovery.ts; what it does to one Run goes through the owner's steps, which run in
// (or are tracked by) that Run's serial chain.
import type { Store } from '../../store/database.js';
import type { RunChains } from './runChains.js';
import type { RunLaunchContext } from './runLaunch.js';
import { launchedRunningRuns, recoverySteps, runningByLaunch, unansweredStopIds } from './runRecovery.js';
import type { RunEnding } from './runSettlement.js';
import type { RunStops } from './runStops.js';

/** The Run owner's own steps that recovery drives. */
export interface RecoveredRunSteps {
	launch(runIds: readonly string[]): Promise<void>;
	/** Settles the Run (a refused write is retried a while). */
	settle(runId: string, ending: RunEnding): Promise<void>;
	/** The Run's current Turn process is `processId`: its exit is taken from the inbox, once. */
	expect(runId: string, processId: string): void;
	/** Messages not handed over yet go into the Run's running Turn. */
	forwardMessages(runId: string): void;
	/** In the Run's chain: interrupt its current Turn for the recorded Stop `eventId` and record the answer. */
	interruptAndAnswer(runId: string, eventId: string): Promise<unknown>;
	/** A Stop ended: an exit it held is handled again. */
	endStop(runId: string): void;
}

export interface RunRestartDeps {
	ctx: Pick<RunLaunchContext, 'store' | 'clock' | 'turns' | 'log'>;
	live: Pick<RunChains, 'processOf' | 'track' | 'busy' | 'backgroundSettled'>;
	stops: Pick<RunStops, 'begin'>;
	steps: RecoveredRunSteps;
}

export class RunRestart {
	readonly #d: RunRestartDeps;

	constructor(deps: RunRestartDeps) {
		this.#d = deps;
	}

	get #store(): Store {
		return this.#d.ctx.store;
	}

	/**
	 * Host start: every running Run is settled from its exit record, re-attached when its process lives, or adopted
	 * so the runner records it lost (→ failure). Prepared launches of unpaused issues are launched; those of paused or
	 * archived issues settle canceled. Nothing here resumes an issue or creates a wake.
	 */
	async reconcile(): Promise<void> {
		const { ctx: { turns }, live, steps } = this.#d;
		const toLaunch: string[] = [];
		// Runs settle concurrently (each on its own chain), so their commits share fsyncs instead of queueing one by one.
		const settling: Promise<void>[] = [];
		for (const step of await recoverySteps(this.#d.ctx)) {
			if (step.kind === 'launch') { toLaunch.push(step.runId); continue; }
			if (step.kind === 'settle') { settling.push(steps.settle(step.runId, step.ending)); continue; }
			const processId = live.processOf(step.runId);
			steps.expect(step.runId, processId);
			if (turns.exitRecord(processId)) { settling.push(turns.lookNow(processId)); continue; }
			try {
				// Alive: re-attach and wait for its exit. Dead without a record: the runner records it lost.
				turns.adopt(processId);
				// Messages sent before the restart and not handed over yet go into the running Turn now.
				steps.forwardMessages(step.runId);
				// A Stop recorded before the restart but never carried out is carried out now.
				live.track(this.#resumeUnansweredStops(step.runId));
			} catch (e) {
				turns.forgetExit(processId);
				settling.push(steps.settle(step.runId, { kind: 'not_launched', outcome: 'failure', message: `the run could not be re-attached: ${(e as Error).message}` }));
			}
		}
		await Promise.all(settling);
		// Each launch asks the budget again: the Runs whose exits were on disk settle first, so their spend counts.
		await live.backgroundSettled();
		if (toLaunch.length > 0) { await steps.launch(toLaunch); }
	}

	async #resumeUnansweredStops(runId: string): Promise<void> {
		for (const eventId of this.#store.read((r) => unansweredStopIds(r, runId))) {
			this.#d.stops.begin(runId);
			try {
				await this.#d.steps.interruptAndAnswer(runId, eventId);
			} catch (e) {
				this.#d.ctx.log(`carrying out the unanswered Stop of run ${runId} failed: ${(e as Error).message}`);
			} finally {
				this.#d.steps.endStop(runId);
			}
		}
	}

	/** What the ended Turns of running Runs (of `issueId`, or all) used counts now: at Host start, and before admissions. */
	countEndedTurns(issueId?: string): Promise<void> {
		const { turns, clock } = this.#d.ctx;
		const candidates = this.#store.read((r) => launchedRunningRuns(r, issueId)).map((run) => ({
			processId: this.#d.live.processOf(run.runId), target: turns.target(run.agentTargetId),
		}));
		return turns.countEndedTurns(this.#store, candidates, clock.now());
	}

	/**
	 * After the store reloaded itself from disk (dropping refused writes): each launched running Run's exit is looked for
	 * again (its settlement may have been refused); a prepared launch not in flight is launched again, gated anew.
	 */
	async recheckRunning(): Promise<void> {
		const { prepared, launched } = this.#store.read((r) => runningByLaunch(r));
		for (const runId of launched) {
			const processId = this.#d.live.processOf(runId);
			this.#d.steps.expect(runId, processId);
			await this.#d.ctx.turns.lookNow(processId);
		}
		const relaunch = prepared.filter((runId) => !this.#d.live.busy(runId));
		if (relaunch.length > 0) {
			this.#d.ctx.log(`launching again after the write failure: ${relaunch.join(', ')}`);
			await this.#d.steps.launch(relaunch);
		}
	}
}
