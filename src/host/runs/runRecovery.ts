// What the Run owner reads and decides when the Host starts or the store reloads after a write failure: which running
// Runs are launched again, settled without a process, or re-attached to theirs, and each Run's current Turn process
// (read once from its queue file, which names the Turn process of every delivered message).
import type { Run } from '../../core/model.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';
import { restartLaunchBlocker } from '../../core/turns/launchGate.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { launchIntentRepository } from '../../store/repositories/launchIntentRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import type { Reader } from '../../store/tx.js';
import { readQueue } from './messages/queueFile.js';
import { currentTurnProcessId } from './messages/turnProcesses.js';
import type { RunLaunchContext } from './runLaunch.js';
import type { RunEnding } from './runSettlement.js';

export type RecoveryStep =
	| { kind: 'launch'; runId: string }
	| { kind: 'settle'; runId: string; ending: RunEnding }
	/** Its Turn went out: settle it from its exit record, or re-attach to its process. */
	| { kind: 'attach'; runId: string };

/**
 * Host start, for every running Run: a launch the earlier Host began but no supervisor started is withdrawn and
 * launched again (at most once: the withdrawn attempt can never start); a prepared launch is launched, or settles
 * canceled when its issue is paused or archived; every other Run is re-attached.
 */
export async function recoverySteps(ctx: Pick<RunLaunchContext, 'store' | 'clock' | 'turns' | 'log'>): Promise<RecoveryStep[]> {
	const running = ctx.store.read((r) => runRepository.listByStatus(r, 'running').map((run) => ({
		run, intent: launchIntentRepository.byRun(r, run.runId), issue: issueRepository.get(r, run.issueId),
	})));
	const steps: RecoveryStep[] = [];
	for (const { run, intent, issue } of running) {
		let intentStatus = intent?.status;
		if (intentStatus === 'leased' && ctx.turns.withdrawUnstarted(run.runId)) {
			await ctx.store.transaction((tx) => {
				launchIntentRepository.transition(tx, run.runId, ['leased'], 'prepared', ctx.clock.now(), { lastError: 'its launch was cut by a Host restart; launched again' });
			});
			ctx.log(`run ${run.runId}: its launch was cut by the Host's restart before the agent started; launching it again`);
			intentStatus = 'prepared';
		}
		if (intentStatus !== 'prepared') {
			steps.push({ kind: 'attach', runId: run.runId });
			continue;
		}
		const blocker = restartLaunchBlocker(issue);
		steps.push(blocker === null ? { kind: 'launch', runId: run.runId }
			: { kind: 'settle', runId: run.runId, ending: { kind: 'not_launched', outcome: 'cancellation', message: blocker } });
	}
	return steps;
}

/** The Run's current Turn process, from its queue file (the Run id itself when it cannot be read). */
export function currentProcessOf(runs: Pick<RunProcessPort, 'runDir'>, runId: string, log: (line: string) => void): string {
	try {
		return currentTurnProcessId(runId, readQueue(runs.runDir(runId)));
	} catch (e) {
		log(`reading the Turns of run ${runId} failed: ${(e as Error).message}`);
		return runId;
	}
}

/** Running Runs (of `issueId`, or all) whose launch went out: their Turn may have ended. */
export function launchedRunningRuns(r: Reader, issueId?: string): Run[] {
	const running = issueId === undefined ? runRepository.listByStatus(r, 'running')
		: runRepository.listByIssue(r, issueId).filter((run) => run.status === 'running');
	return running.filter((run) => launchIntentRepository.byRun(r, run.runId)?.status !== 'prepared');
}

/** Running Runs by their launch: still prepared (never leased), or launched. */
export function runningByLaunch(r: Reader): { prepared: string[]; launched: string[] } {
	const prepared: string[] = [];
	const launched: string[] = [];
	for (const run of runRepository.listByStatus(r, 'running')) {
		(launchIntentRepository.byRun(r, run.runId)?.status === 'prepared' ? prepared : launched).push(run.runId);
	}
	return { prepared, launched };
}

/** The Run's Stop events that never got an answer (the Host went down between the event and the interrupt). */
export function unansweredStopIds(r: Reader, runId: string): string[] {
	return runRepository.stopEvents(r, runId).filter((e) => e.answer === null).map((e) => e.eventId);
}
