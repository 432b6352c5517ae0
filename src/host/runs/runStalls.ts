// What the Run owner reads and writes to keep stall marks (src/core/runs/stallRules.ts): the running Runs to probe, in
// one read, and the mark and its lifting, each one transaction that, for a managed issue, also hands the stall to the
// source agent or withdraws it (src/host/checkpoints/stallCheckpoint.ts). A mark never touches the Run's status.
import type { Run, RunStall } from '../../core/model.js';
import { approvalRepository } from '../../store/repositories/approvalRepository.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { runStallRepository } from '../../store/repositories/runStallRepository.js';
import type { Reader, Tx } from '../../store/tx.js';
import { appendStallCheckpoint, withdrawStallCheckpoints } from '../checkpoints/stallCheckpoint.js';
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
