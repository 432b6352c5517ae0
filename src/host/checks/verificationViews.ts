// A verification as its readers see it: the wire DTO (`run get`, `issue get`, `plan issue get`, the board, the panel)
// and the lines of a wake prompt, all worded by the core rules (src/core/checks/checks.ts) so every surface says the
// same thing.
import {
	acceptanceLabel, type AcceptanceCheckState, checkEndText, checkLine, checkStates, failingCheck, type VerificationFacts, verificationLabel,
} from '../../core/checks/checks.js';
import type { AcceptanceDto, VerificationDto } from '../../protocol/checks.js';
import { type Verification, verificationRepository } from '../../store/repositories/verificationRepository.js';
import type { Task } from '../../core/model.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import type { Reader } from '../../store/tx.js';

export function verificationFacts(v: Verification, results: VerificationFacts['results']): VerificationFacts {
	return { status: v.status, subject: v.subject, commit: v.commit, checks: v.checks, results, stale: v.staleAtUnixMs > 0, problem: v.problem };
}

export function toVerificationDto(v: Verification, results: VerificationFacts['results']): VerificationDto {
	const facts = verificationFacts(v, results);
	const states = checkStates(facts);
	const byIndex = new Map(results.map((r) => [r.index, r] as const));
	return {
		status: v.status, subject: v.subject, commit: v.commit, label: verificationLabel(facts), stale: facts.stale, attempts: v.attempts,
		checks: v.checks.map((spec, i) => {
			const result = byIndex.get(i);
			const state = states[i] ?? 'pending';
			return {
				name: spec.name, argv: [...spec.argv], shell: spec.shell, timeoutSeconds: spec.timeoutSeconds, state,
				exitCode: result?.exitCode ?? null, timedOut: result?.timedOut ?? false, durationMs: result?.durationMs ?? 0,
				outputTail: result?.outputTail ?? '', interrupted: result?.interrupted ?? v.interruptions[String(i)] ?? 0,
				label: checkLine(spec, state, result),
			};
		}),
		startedAtUnixMs: v.createdAtUnixMs, completedAtUnixMs: v.completedAtUnixMs,
	};
}

/** What a task without checks shows for a Run that reported success. */
export const noChecksDto: VerificationDto = {
	status: 'none', subject: '', commit: '', label: verificationLabel(null), stale: false, attempts: 0, checks: [], startedAtUnixMs: 0, completedAtUnixMs: 0,
};

/**
 * The verified fact of a Run: its latest verification; `none` for a reported success that had no checks; null while it
 * runs and when it did not report success (nothing to verify).
 */
export function readRunVerification(r: Reader, run: { runId: string; outcome: string | null }, latest?: Verification): VerificationDto | null {
	const v = latest ?? verificationRepository.latestOfRun(r, run.runId);
	if (v !== undefined) { return toVerificationDto(v, verificationRepository.results(r, v.verificationId)); }
	return run.outcome === 'success' ? noChecksDto : null;
}

/** The accepted fact of a task (null: not accepted). */
export function acceptanceDto(by: 'developer' | 'auto', commit: string, checks: AcceptanceCheckState | '', acceptedAtUnixMs: number): AcceptanceDto {
	return { by, commit, checks, acceptedAtUnixMs, label: acceptanceLabel(by, commit, checks) };
}

/** The verification lines of a wake prompt about the result `runId` reported (its task had no checks: it says so). */
export function promptVerification(r: Reader, runId: string): { label: string; failing?: { name: string; end: string; outputTail: string } } {
	const v = verificationRepository.latestOfRun(r, runId);
	if (v === undefined) { return { label: verificationLabel(null) }; }
	const results = verificationRepository.results(r, v.verificationId);
	const facts = verificationFacts(v, results);
	const failing = v.status === 'failed' ? failingCheck(facts) : undefined;
	return {
		label: verificationLabel(facts),
		...(failing !== undefined ? { failing: { name: failing.name, end: checkEndText(failing, v.checks[failing.index]?.timeoutSeconds), outputTail: failing.outputTail } } : {}),
	};
}

/** The verified and accepted facts of each task with a Run (taskId → both), for the task DTOs of one issue. */
export function readTaskChecks(
	r: Reader, issueId: string, tasks: readonly Task[], acceptedCommitOf: (taskId: string) => string,
): Map<string, { verification: VerificationDto | null; acceptance: AcceptanceDto | null }> {
	const latest = verificationRepository.latestOfIssue(r, issueId);
	const acceptances = verificationRepository.acceptancesOfIssue(r, issueId);
	const out = new Map<string, { verification: VerificationDto | null; acceptance: AcceptanceDto | null }>();
	for (const task of tasks) {
		if (task.latestRunId === '') { continue; }
		const run = runRepository.get(r, task.latestRunId);
		const verification = run ? readRunVerification(r, run, latest.get(run.runId)) : null;
		const by = task.acceptanceState === 'user_accepted' ? 'developer' : task.acceptanceState === 'auto_checked' ? 'auto' : null;
		const recorded = acceptances.get(task.taskId);
		const acceptance = by === null || task.status !== 'completed' ? null
			: acceptanceDto(by, acceptedCommitOf(task.taskId), recorded?.runId === task.latestRunId ? recorded.checks : '', recorded?.acceptedAtUnixMs ?? task.updatedAtUnixMs);
		out.set(task.taskId, { verification, acceptance });
	}
	return out;
}
