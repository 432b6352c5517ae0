// The one sentence `plan issue get` returns as `recoveryHint`: the exact next command for the current state.
import type { Checkpoint, Execution } from '../model.js';
import { awaitReviewCommand, planAwaitCommand, raiseBudgetCommand } from '../next/commands.js';
import { isTerminalExecution } from './allowedActions.js';
import { reviewToAwait } from './reviewOwed.js';
import {
	acknowledgeCommand, type CommandFence, completeCommand, getCommand, mutateCommand, resumeCommand, resumeCompatCommand, scheduleCommand, shellQuote,
} from './planCommands.js';

export interface RecoveryHintInput {
	issueId: string;
	execution: Pick<Execution, 'status' | 'graphRevision'>;
	activeCheckpoint: Pick<Checkpoint, 'checkpointId' | 'kind' | 'sequence' | 'graphRevision' | 'subjectTaskId'> | null;
	dispatchPaused: boolean;
	/** Paused by the developer (their pause or stop): it stays paused until they resume it. Default false. */
	pausedByDeveloper?: boolean;
	/** Ready tasks in dispatch order; the schedule command is spelled with them. */
	readyTaskIds: readonly string[];
	/** Whether acknowledge is legal now (allowedActions includes it). */
	canAcknowledge: boolean;
	/** Active tasks in pending_acceptance (only the developer accepts them; their dependents wait). Default none. */
	awaitingAcceptanceTaskIds?: readonly string[];
	/** The tasks in review when the developer's decision is the only step owed (reviewOwed.ts). Default none. */
	reviewOnlyTaskIds?: readonly string[];
	/** Why the issue's budget lets nothing more start (src/core/usage/budget.ts); absent or '' = it lets work start. */
	budgetBlocker?: string;
}

/** A replacement id the hint suggests for reworking `taskId` at checkpoint sequence `n` (any new id works). */
export function suggestedReworkTaskId(taskId: string, checkpointSequence: number): string {
	return `${taskId}-rework-${checkpointSequence}`;
}

export function recoveryHint(input: RecoveryHintInput): string {
	const { issueId, execution, activeCheckpoint: cp } = input;
	if (isTerminalExecution(execution.status)) {
		switch (execution.status) {
			case 'completed': return 'The execution is completed; no command is needed.';
			case 'orphaned_source': return 'The source session of this execution no longer exists; report this exact state; never query or modify the database.';
			default: return 'The execution was stopped (archived); no command can change it. Create a new plan with `tutti plan issue create` if work remains.';
		}
	}
	if (input.dispatchPaused && input.pausedByDeveloper === true) {
		return `The developer paused this issue; it stays paused until they resume it: wait with \`${planAwaitCommand(issueId)}\` (run it again while it reports waiting; a session Tutti wakes may end its turn instead: its next wake comes after the developer resumes).`;
	}
	if (input.dispatchPaused) {
		const where = cp ? `, then continue at checkpoint ${cp.checkpointId} with graphRevision ${cp.graphRevision}; never guess a new revision` : '';
		return `Dispatch is paused: run \`${resumeCommand(issueId)}\` (or the compat form \`${resumeCompatCommand(issueId)}\`)${where}.`;
	}
	if (!cp && execution.status === 'pending_goal_review') {
		return `The goal awaits the developer's confirmation (Goal Review): wait with \`tutti plan issue await --issue-id ${shellQuote(issueId)}\` (run it again while it reports waiting); no plan command is needed until the developer decides.`;
	}
	const onlyDeveloper = input.reviewOnlyTaskIds ?? [];
	if (onlyDeveloper.length > 0) {
		const taskId = reviewToAwait({ activeCheckpoint: cp ? { kind: cp.kind, subjectTaskId: cp.subjectTaskId } : null }, onlyDeveloper);
		const which = onlyDeveloper.length === 1 ? `task ${onlyDeveloper[0]!}` : `tasks ${onlyDeveloper.join(', ')}`;
		return `Only the developer can move next: ${which} wait(s) for their review (Accept or Request changes in Tutti) and nothing else can run before that. `
			+ `Wait for the developer's decision${taskId ? ` on task ${taskId}` : ''} with \`${awaitReviewCommand(issueId, taskId)}\` (run it again while it reports waiting); `
			+ 'a source session Tutti started is woken with a checkpoint that says what the developer decided.';
	}
	const blocker = input.budgetBlocker ?? '';
	if (blocker !== '') {
		return `The issue's budget stops new work (${blocker}): nothing you schedule would start (running work finishes). `
			+ `Only the developer raises it, with the developer's own command \`${raiseBudgetCommand(issueId)}\` (never run it yourself): tell them, `
			+ `then wait with \`${planAwaitCommand(issueId)}\` (run it again while it reports waiting; a session Tutti wakes may end its turn instead, `
			+ 'and its next wake comes once the budget lets work start).';
	}
	if (!cp) {
		return `Runs are in progress and no checkpoint is open: wait for the next checkpoint wake, then run \`${getCommand(issueId)}\`.`;
	}
	const fence: CommandFence = { issueId, checkpointId: cp.checkpointId, checkpointSequence: cp.sequence, graphRevision: cp.graphRevision };
	const schedule = input.readyTaskIds.length > 0 ? `schedule ready work with \`${scheduleCommand(fence, input.readyTaskIds)}\` (or a subset)` : '';
	const acknowledge = input.canAcknowledge ? `acknowledge with \`${acknowledgeCommand(fence)}\`` : '';
	const mutateAfter = 'then schedule with the graphRevision the mutation returns';
	switch (cp.kind) {
		case 'task_failed':
		case 'task_canceled':
		case 'changes_requested':
		case 'checks_failed': {
			const taskId = cp.subjectTaskId || '<task-id>';
			const rework = mutateCommand(fence, [{ kind: 'rework', taskId, task: { taskId: suggestedReworkTaskId(taskId, cp.sequence) } }]);
			const what = cp.kind === 'task_failed' ? 'failed' : cp.kind === 'task_canceled' ? 'was canceled'
				: cp.kind === 'checks_failed' ? 'failed the developer\'s checks (its result waits for the developer)' : 'was sent back by the developer (see the checkpoint note)';
			return `Task ${taskId} ${what}: rework it with \`${rework}\`, ${mutateAfter}${acknowledge ? `; or, to leave it, ${acknowledge}` : ''}.`;
		}
		case 'goal_changes_requested':
			return `The developer requested changes at Goal Review (see the checkpoint note): add or rework tasks with \`tutti plan issue mutate\`, ${mutateAfter}; complete again at the next Goal Review checkpoint.`;
		case 'all_tasks_terminal':
			return `Every task is terminal: if the goal is satisfied run \`${completeCommand(fence)}\`; otherwise change the graph with \`tutti plan issue mutate\` and ${mutateAfter}.`;
		default: {
			const awaiting = input.awaitingAcceptanceTaskIds?.[0];
			const wait = awaiting ? `wait for the developer's decision on task ${awaiting} with \`tutti await-review --issue-id ${shellQuote(issueId)} --task-id ${shellQuote(awaiting)}\`` : '';
			const options = [schedule, acknowledge, wait].filter((s) => s !== '');
			const first = options.length ? `${options.join('; or ')}; or change` : 'No task is ready: change';
			return capitalize(`${first} the graph with \`tutti plan issue mutate\` (see each task's blockerReason), ${mutateAfter}. Use checkpoint ${cp.checkpointId} and graphRevision ${cp.graphRevision} exactly.`);
		}
	}
}

function capitalize(s: string): string {
	return s.charAt(0).toUpperCase() + s.slice(1);
}
