// Deterministic identities. These strings are interoperability contracts, not presentation:
// stored rows are re-derived from them and a row whose stored identity differs fails closed.
import type { AgentSession, Checkpoint, Execution, Run, Wake } from './model.js';

export function executionIdFor(issueId: string): string {
	return `tutti-execution:${issueId}`;
}

export function initialCheckpointId(executionId: string): string {
	return `${executionId}:checkpoint:initial-schedule`;
}

/** The settlement checkpoint of one Run (kinds task_settled | task_failed | task_canceled | checks_failed). */
export function runCheckpointId(executionId: string, runId: string): string {
	return `${executionId}:checkpoint:run:${runId}`;
}

/** The singleton Goal Review boundary (kind all_tasks_terminal). */
export function terminalCheckpointId(executionId: string): string {
	return `${executionId}:checkpoint:all-tasks-terminal`;
}

/** A watchdog checkpoint; `n` is the checkpoint's own sequence in its execution. */
export function watchdogCheckpointId(executionId: string, n: number): string {
	return `${executionId}:checkpoint:watchdog:${n}`;
}

/** The developer's request for changes on the result of one Run (kind changes_requested): one per reviewed Run. */
export function changesRequestedCheckpointId(executionId: string, runId: string): string {
	return `${executionId}:checkpoint:changes:${runId}`;
}

/** The developer's acceptance of the result of one Run (kind task_accepted): one per reviewed Run. */
export function acceptedCheckpointId(executionId: string, runId: string): string {
	return `${executionId}:checkpoint:accepted:${runId}`;
}

/**
 * The developer's acceptance, again, of a Run's result that was reopened after its branch moved (kind task_accepted):
 * `n` is the checkpoint's own sequence, so every new acceptance of the same Run is news for the source agent.
 */
export function reacceptedCheckpointId(executionId: string, runId: string, n: number): string {
	return `${acceptedCheckpointId(executionId, runId)}:again:${n}`;
}

/** A running Run's stall handed to the source agent (kind run_stalled); `n` is the checkpoint's own sequence (one per stall). */
export function stallCheckpointId(executionId: string, runId: string, n: number): string {
	return `${executionId}:checkpoint:stall:${runId}:${n}`;
}

/** The developer's request for changes at Goal Review (kind goal_changes_requested); `n` is the checkpoint's own sequence. */
export function goalChangesCheckpointId(executionId: string, n: number): string {
	return `${executionId}:checkpoint:goal-changes:${n}`;
}

/** One Goal Review request at the terminal checkpoint; `n` is that checkpoint's sequence when the source completed. */
export function goalReviewId(checkpointId: string, n: number): string {
	return `${checkpointId}:goal-review:${n}`;
}

/** The n-th new attempt (1-based) the developer asked of one task (a rework, a retry, an update from base). */
export function reworkId(issueId: string, taskId: string, n: number): string {
	return `${issueId}:task:${taskId}:rework:${n}`;
}

/** The n-th main wake (1-based) of a checkpoint. */
export function mainWakeId(checkpointId: string, sequence: number): string {
	return `${checkpointId}:wake:main:${sequence}`;
}

/** The submit id a wake Turn is sent with; a lost response is recovered by looking this up. */
export function wakeSubmitId(wakeId: string): string {
	return `tutti-execution-wake:${wakeId}`;
}

/** The exact Turn binding of a Run: only the Turn submitted with this id may settle the Run. */
export function runSubmitId(runId: string): string {
	return `issue-run:${runId}`;
}

export function launchIntentId(runId: string): string {
	return `launch-intent:${runId}`;
}

/**
 * The `--request-id` Tutti itself prints in wake prompts and recovery hints for a command at one checkpoint and
 * revision, e.g. `cp4-r3-schedule`. Re-running the same command replays it; after a mutation the revision (and so
 * the id) changes, so a follow-up command never collides. Rejected commands must not be recorded in the mutation
 * history (they are not, in Tutti) or a corrected retry with the printed id would conflict.
 */
export function checkpointRequestId(checkpointSequence: number, graphRevision: number, command: string): string {
	return `cp${checkpointSequence}-r${graphRevision}-${command}`;
}

/** The id a checkpoint of this kind must have, or null when the row lacks what the id is made of. */
export function expectedCheckpointId(checkpoint: Pick<Checkpoint, 'executionId' | 'kind' | 'sequence' | 'subjectRunId'>): string | null {
	switch (checkpoint.kind) {
		case 'initial_schedule': return initialCheckpointId(checkpoint.executionId);
		case 'task_settled':
		case 'task_failed':
		case 'task_canceled':
		case 'checks_failed': return checkpoint.subjectRunId ? runCheckpointId(checkpoint.executionId, checkpoint.subjectRunId) : null;
		case 'all_tasks_terminal': return terminalCheckpointId(checkpoint.executionId);
		case 'watchdog': return checkpoint.sequence >= 1 ? watchdogCheckpointId(checkpoint.executionId, checkpoint.sequence) : null;
		case 'changes_requested': return checkpoint.subjectRunId ? changesRequestedCheckpointId(checkpoint.executionId, checkpoint.subjectRunId) : null;
		case 'goal_changes_requested': return checkpoint.sequence >= 1 ? goalChangesCheckpointId(checkpoint.executionId, checkpoint.sequence) : null;
		case 'task_accepted': return checkpoint.subjectRunId ? acceptedCheckpointId(checkpoint.executionId, checkpoint.subjectRunId) : null;
		case 'run_stalled': return checkpoint.subjectRunId && checkpoint.sequence >= 1 ? stallCheckpointId(checkpoint.executionId, checkpoint.subjectRunId, checkpoint.sequence) : null;
	}
}

function mismatch(field: string, stored: unknown, expected: unknown): string {
	return `${field} is ${JSON.stringify(stored)} but must be ${JSON.stringify(expected)}`;
}

/**
 * Recomputes a stored checkpoint's identity. Returns null when it matches, else one description naming every
 * mismatching field (fail closed: the caller records the row as failed and never acts on it).
 * `issueId`, when given, also pins the execution id.
 */
export function verifyCheckpointIdentity(
	checkpoint: Pick<Checkpoint, 'checkpointId' | 'executionId' | 'kind' | 'sequence' | 'subjectRunId'>,
	expected: { issueId?: string } = {},
): string | null {
	const problems: string[] = [];
	if (expected.issueId !== undefined && checkpoint.executionId !== executionIdFor(expected.issueId)) {
		problems.push(mismatch('executionId', checkpoint.executionId, executionIdFor(expected.issueId)));
	}
	if (!Number.isInteger(checkpoint.sequence) || checkpoint.sequence < 1) {
		problems.push(`sequence is ${JSON.stringify(checkpoint.sequence)} but must be a positive integer`);
	}
	const id = expectedCheckpointId(checkpoint);
	const reaccepted = checkpoint.kind === 'task_accepted' && checkpoint.subjectRunId
		&& checkpoint.checkpointId === reacceptedCheckpointId(checkpoint.executionId, checkpoint.subjectRunId, checkpoint.sequence);
	if (id === null) {
		problems.push(`checkpointId cannot be derived for kind ${checkpoint.kind} (missing subjectRunId)`);
	} else if (checkpoint.checkpointId !== id && !reaccepted) {
		problems.push(mismatch('checkpointId', checkpoint.checkpointId, id));
	}
	return problems.length ? `checkpoint ${JSON.stringify(checkpoint.checkpointId)}: ${problems.join('; ')}` : null;
}

/** Recomputes a stored execution's identity from its issue. Returns null when it matches, else the mismatch. */
export function verifyExecutionIdentity(execution: Pick<Execution, 'executionId' | 'issueId'>, expected: { issueId?: string } = {}): string | null {
	const problems: string[] = [];
	if (expected.issueId !== undefined && execution.issueId !== expected.issueId) {
		problems.push(mismatch('issueId', execution.issueId, expected.issueId));
	}
	const id = executionIdFor(expected.issueId ?? execution.issueId);
	if (execution.executionId !== id) {
		problems.push(mismatch('executionId', execution.executionId, id));
	}
	return problems.length ? `execution ${JSON.stringify(execution.executionId)}: ${problems.join('; ')}` : null;
}

/**
 * Checks a stored Run against what it was admitted for: the task it is read for (when given) and the worker
 * session created with it (when that row exists), which carries the same run, issue and task ids.
 * Returns null when everything matches, else one description naming every mismatching field.
 */
export function verifyRunIdentity(
	run: Pick<Run, 'runId' | 'issueId' | 'taskId' | 'agentSessionId'>,
	expected: { issueId?: string; taskId?: string; session?: Pick<AgentSession, 'sessionId' | 'runId' | 'issueId' | 'taskId'> } = {},
): string | null {
	const problems: string[] = [];
	if (expected.issueId !== undefined && run.issueId !== expected.issueId) {
		problems.push(mismatch('issueId', run.issueId, expected.issueId));
	}
	if (expected.taskId !== undefined && run.taskId !== expected.taskId) {
		problems.push(mismatch('taskId', run.taskId, expected.taskId));
	}
	const session = expected.session;
	if (session !== undefined) {
		if (session.runId !== run.runId) { problems.push(`its session ${JSON.stringify(session.sessionId)} belongs to run ${JSON.stringify(session.runId)}`); }
		if (session.issueId !== run.issueId) { problems.push(mismatch('issueId', run.issueId, session.issueId)); }
		if (session.taskId !== run.taskId) { problems.push(mismatch('taskId', run.taskId, session.taskId)); }
	}
	return problems.length ? `run ${JSON.stringify(run.runId)}: ${[...new Set(problems)].join('; ')}` : null;
}

/**
 * Recomputes a stored main wake's identity field by field (a corrupted identity fails
 * closed, naming each field): wake id from checkpoint + sequence, submit id from wake id, the
 * checkpoint belongs to the execution, and (when given) the expected checkpoint / target (source) session.
 * Returns null when everything matches, else one description naming every mismatching field.
 */
export function verifyWakeIdentity(
	wake: Pick<Wake, 'wakeId' | 'executionId' | 'checkpointId' | 'targetKind' | 'wakeSequence' | 'clientSubmitId' | 'targetSessionId'>,
	expected: { executionId?: string; checkpointId?: string; targetSessionId?: string } = {},
): string | null {
	const problems: string[] = [];
	if (wake.targetKind !== 'main') {
		problems.push(mismatch('targetKind', wake.targetKind, 'main'));
	}
	if (!Number.isInteger(wake.wakeSequence) || wake.wakeSequence < 1) {
		problems.push(`wakeSequence is ${JSON.stringify(wake.wakeSequence)} but must be a positive integer`);
	}
	if (expected.executionId !== undefined && wake.executionId !== expected.executionId) {
		problems.push(mismatch('executionId', wake.executionId, expected.executionId));
	}
	if (!wake.checkpointId.startsWith(`${wake.executionId}:checkpoint:`)) {
		problems.push(`checkpointId ${JSON.stringify(wake.checkpointId)} does not belong to execution ${JSON.stringify(wake.executionId)}`);
	}
	if (expected.checkpointId !== undefined && wake.checkpointId !== expected.checkpointId) {
		problems.push(mismatch('checkpointId', wake.checkpointId, expected.checkpointId));
	}
	const wakeId = mainWakeId(wake.checkpointId, wake.wakeSequence);
	if (wake.wakeId !== wakeId) {
		problems.push(mismatch('wakeId', wake.wakeId, wakeId));
	}
	const submitId = wakeSubmitId(wakeId);
	if (wake.clientSubmitId !== submitId) {
		problems.push(mismatch('clientSubmitId', wake.clientSubmitId, submitId));
	}
	if (expected.targetSessionId !== undefined && wake.targetSessionId !== expected.targetSessionId) {
		problems.push(mismatch('targetSessionId', wake.targetSessionId, expected.targetSessionId));
	}
	return problems.length ? `wake ${JSON.stringify(wake.wakeId)}: ${problems.join('; ')}` : null;
}
