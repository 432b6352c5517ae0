// The prompt a main wake delivers to the source session. Every command is exact:
// the only values the agent fills in are the task ids (and, for new tasks, their titles/content) it chooses.
import type { Checkpoint, CheckpointKind } from '../model.js';
import {
	acknowledgeCommand, type CommandFence, completeCommand, getCommand, mutateCommand, scheduleCommand, stopCommand,
} from '../execution/planCommands.js';
import { suggestedReworkTaskId } from '../execution/recoveryHint.js';
import { awaitReviewCommand } from '../next/commands.js';
import { quietFor } from '../runs/stallRules.js';
import { wakeMarkerLine } from './wakeMarker.js';

export interface WakePromptInput {
	issueId: string;
	issueTitle: string;
	checkpoint: Pick<Checkpoint, 'checkpointId' | 'kind' | 'sequence' | 'subjectTaskId' | 'subjectRunId' | 'note'>;
	/** The revision the checkpoint is bound to (the execution's current revision when the wake is prepared). */
	graphRevision: number;
	/** Defaults to `checkpoint.kind`. */
	kind?: CheckpointKind;
	/**
	 * `task_settled` only: the subject task waits for the developer's review (`pending_acceptance`, autoAccept off)
	 * rather than being accepted already. Absent = accepted.
	 */
	subjectAwaitsReview?: boolean;
	/** `task_failed` only: the subject Run's error (e.g. the parents' conflicting paths), said right after the headline. */
	subjectError?: string;
	/**
	 * `task_settled` and `checks_failed`: what the developer's checks said of the subject Run's result (its one-line
	 * label) and, when one failed, which one with the last lines of its output.
	 */
	subjectVerification?: { label: string; failing?: { name: string; end: string; outputTail: string } };
	/** `run_stalled` only: the subject Run's stall mark (its last activity, and when it was marked). */
	subjectStall?: { lastActivityAtUnixMs: number; markedAtUnixMs: number };
}

/** The audited reason printed in the stop command; the agent may write its own. */
export const defaultStopReason = 'the source agent decided this issue should not continue';

function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}

/** One line of at most `max` characters. */
function truncateOneLine(text: string, max: number): string {
	const line = oneLine(text);
	return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

function headline(kind: CheckpointKind, cp: WakePromptInput['checkpoint']): string {
	const subject = cp.subjectTaskId ? `task ${cp.subjectTaskId}${cp.subjectRunId ? ` (run ${cp.subjectRunId})` : ''}` : 'a task';
	switch (kind) {
		case 'initial_schedule': return 'The plan is ready and nothing has run yet: choose the first tasks to start.';
		case 'task_settled': return `${subject[0]!.toUpperCase()}${subject.slice(1)} finished; review its result before choosing what runs next.`;
		case 'task_failed': return `${subject[0]!.toUpperCase()}${subject.slice(1)} failed.`;
		case 'task_canceled': return `${subject[0]!.toUpperCase()}${subject.slice(1)} was canceled.`;
		case 'watchdog': return 'No checkpoint command arrived for 5 minutes while this checkpoint stayed open.';
		case 'all_tasks_terminal': return 'Every task is terminal: this is the Goal Review checkpoint.';
		case 'changes_requested': return `The developer reviewed ${subject} and requested changes; the task is now failed and needs a rework.`;
		case 'goal_changes_requested': return 'The developer reviewed the goal at Goal Review and requested changes before it can be completed.';
		case 'task_accepted': return `The developer accepted the result of ${subject}; tasks that depend on it may be ready now.`;
		case 'checks_failed': return `${subject[0]!.toUpperCase()}${subject.slice(1)} reported success, but the developer's checks failed on its result.`;
		case 'run_stalled': return `${subject[0]!.toUpperCase()}${subject.slice(1)} is still running but shows no activity (no output, no tool call, no usage). Stalled is not failed: Tutti has not stopped or failed it.`;
	}
}

/** Reported, verified: the checks' answer on the subject's result, and a failing check's name and last output lines. */
function verificationLines(kind: CheckpointKind, verification: WakePromptInput['subjectVerification']): string[] {
	if (verification === undefined || (kind !== 'task_settled' && kind !== 'checks_failed')) { return []; }
	const lines = [`Verified: ${oneLine(verification.label)}.`];
	const failing = verification.failing;
	if (failing !== undefined) {
		lines.push(`Failing check: ${oneLine(failing.name)} (${oneLine(failing.end)}). The last lines of its output:`);
		const tail = failing.outputTail.trim() === '' ? ['(it printed nothing)'] : failing.outputTail.trimEnd().split(/\r?\n/).slice(-20);
		lines.push(...tail.map((l) => `> ${l.length > 300 ? `${l.slice(0, 299)}…` : l}`));
	}
	return lines;
}

/** "Silent for 12 min: no activity since 2026-12-01T14:02:11.000Z." (nothing when the stall is not known). */
function stallLine(stall: WakePromptInput['subjectStall']): string[] {
	if (stall === undefined) { return []; }
	return [`Silent for ${quietFor(stall.markedAtUnixMs - stall.lastActivityAtUnixMs)} when it was marked: no activity since ${new Date(stall.lastActivityAtUnixMs).toISOString()}.`];
}

function acknowledgeTail(f: CommandFence, what: string): string[] {
	return [
		`If another Run is still running or a later checkpoint is pending, you may resolve this checkpoint without adding work${what}:`,
		acknowledgeCommand(f),
	];
}

/** The developer's note, quoted line by line, or nothing when there is none. */
function optionalNote(note: string | undefined): string[] {
	return (note ?? '').trim() === '' ? [] : [...quotedNote(note), ''];
}

/** The developer's note, quoted line by line. */
function quotedNote(note: string | undefined): string[] {
	const lines = (note ?? '').trim().split(/\r?\n/);
	return ['The developer\'s note:', ...lines.map((l) => `> ${l}`)];
}

/** A settled task's result: waiting for the developer's review (only they accept it), or accepted already. */
function settledTail(f: CommandFence, cp: WakePromptInput['checkpoint'], awaitsReview: boolean): string[] {
	if (!awaitsReview) {
		return [
			'Its result is already accepted (autoAccept, or the developer accepted it): tasks that depend on it may now be in readyTaskIds.',
			'',
			...acknowledgeTail(f, ''),
		];
	}
	const taskId = cp.subjectTaskId || '<task-id>';
	return [
		`Its result now waits for the developer's review: only the developer accepts it (Accept or Request changes in Tutti). Scheduling other tasks or acknowledging this checkpoint does not accept it, and tasks that depend on ${taskId} become ready only after the developer accepts.`,
		'Tutti wakes you with a new checkpoint that says what the developer decided.',
		`If readyTaskIds lists other tasks, you may schedule them now (step 2). If it lists none, nothing is yours to do until the developer decides: end your turn, or wait with the bounded call \`${awaitReviewCommand(f.issueId, cp.subjectTaskId || undefined)}\` (repeat it while it reports waiting).`,
		'',
		...acknowledgeTail(f, ' (this does not accept the result)'),
	];
}

function kindTail(kind: CheckpointKind, f: CommandFence, cp: WakePromptInput['checkpoint'], subjectAwaitsReview: boolean): string[] {
	switch (kind) {
		case 'changes_requested': {
			const taskId = cp.subjectTaskId || '<task-id>';
			return [
				...quotedNote(cp.note),
				'',
				`Rework task ${taskId} into a new taskId that addresses the note (put what the note asks for in the replacement's "content"), e.g.:`,
				mutateCommand(f, [{ kind: 'rework', taskId, task: { taskId: suggestedReworkTaskId(taskId, cp.sequence) } }]),
				`then schedule the replacement at this same checkpoint ${f.checkpointId} using the graphRevision the mutation returned. The developer reviews the replacement's result again.`,
				'',
				...acknowledgeTail(f, ' (the requested changes then stay undone)'),
			];
		}
		case 'goal_changes_requested':
			return [
				...quotedNote(cp.note),
				'',
				'Add or rework tasks that address the note with `tutti plan issue mutate` (step 3), then schedule them with the graphRevision the mutation returned.',
				'Once every task is terminal again, the Goal Review checkpoint returns and you complete it then; the developer confirms the goal again.',
				'Do not acknowledge this checkpoint.',
			];
		case 'task_failed':
		case 'task_canceled': {
			const taskId = cp.subjectTaskId || '<task-id>';
			const outcome = kind === 'task_failed' ? 'failed' : 'canceled';
			return [
				`The ${outcome} task ${taskId} cannot be updated or scheduled again. To retry it, rework it into a new taskId (step 3), e.g.:`,
				mutateCommand(f, [{ kind: 'rework', taskId, task: { taskId: suggestedReworkTaskId(taskId, cp.sequence) } }]),
				`then schedule the replacement at this same checkpoint ${f.checkpointId} using the graphRevision the mutation returned. Do not guess or increment the revision before a command succeeds.`,
				'',
				...acknowledgeTail(f, ''),
			];
		}
		case 'task_settled':
			return settledTail(f, cp, subjectAwaitsReview);
		case 'checks_failed': {
			const taskId = cp.subjectTaskId || '<task-id>';
			return [
				`Its result waits for the developer's review as failing its checks: it is not accepted, and tasks that depend on ${taskId} do not become ready. The checks are the developer's: no command of yours changes, drops or skips them.`,
				`To fix it, rework task ${taskId} into a new taskId whose "content" says which check failed and what to fix (the replacement starts in the same tree, from this result), e.g.:`,
				mutateCommand(f, [{ kind: 'rework', taskId, task: { taskId: suggestedReworkTaskId(taskId, cp.sequence) } }]),
				`then schedule the replacement at this same checkpoint ${f.checkpointId} using the graphRevision the mutation returned; its result is checked again.`,
				`If the failure is not the task's to fix (the check itself, the environment), ask the developer: say so in your reply and leave the decision to them (they may accept the result anyway, or request changes). Until they decide nothing about ${taskId} is yours to do: end your turn, or wait with the bounded call \`${awaitReviewCommand(f.issueId, cp.subjectTaskId || undefined)}\` (repeat it while it reports waiting). Tutti wakes you with their decision.`,
				'',
				...acknowledgeTail(f, ' (this does not accept the result)'),
			];
		}
		case 'task_accepted':
			return [
				...optionalNote(cp.note),
				'Schedule the tasks in readyTaskIds now (step 2). If readyTaskIds is empty, the remaining tasks wait for other reviews by the developer or for running work: end your turn; Tutti wakes you with the next checkpoint.',
				'',
				...acknowledgeTail(f, ''),
			];
		case 'all_tasks_terminal':
			return [
				'If the goal is satisfied, complete it explicitly:',
				completeCommand(f),
				'',
				'If more work is required, mutate and then schedule an exact follow-up graph instead. Do not use acknowledge for Goal Review.',
			];
		case 'run_stalled': {
			const taskId = cp.subjectTaskId || '<task-id>';
			return [
				'What you can do:',
				`- Wait: it may be in a long step (a build, a test suite). Resolve this checkpoint without new work; the Run's settlement brings its own checkpoint:`,
				acknowledgeCommand(f),
				`- Ask the developer to stop it${cp.subjectRunId ? ` (Run ${cp.subjectRunId})` : ''}: only the developer stops a Run, from Tutti. Tell them why; never try to stop it yourself. Once stopped, task ${taskId} is canceled and you can rework it (step 3).`,
				`- Change the rest of the graph (step 3): a running task cannot be reworked or superseded, but you may add tasks, or rework or supersede tasks that have not started, and schedule what is ready.`,
				'If the task\'s Run shows activity again before you act, the stall is lifted; acknowledge this checkpoint.',
			];
		}
		case 'watchdog':
			return [
				'Choose one of the actions above now; a settled Turn without a command does not resolve this checkpoint.',
				'',
				...acknowledgeTail(f, ''),
			];
		case 'initial_schedule':
			return [
				'To add tasks before scheduling, use entries {"kind":"add","task":{…}} with task.taskId, task.title and task.agentTargetId (a target from `tutti agent list --json`), plus content and dependencyTaskIds as needed.',
				'',
				'Do not acknowledge initial scheduling or Goal Review; choose a legal checkpoint-fenced command.',
			];
	}
}

/**
 * The wake prompt. First line: the `TUTTI_MODE_CHECKPOINT_WAKE` marker; then the checkpoint facts, the exact
 * get / schedule / mutate (supersede and rework examples using `kind` and `task`) / stop commands, the sparse
 * rework and redirect rules, the control-plane and bounded-recovery rules, and a tail for the checkpoint's kind.
 */
export function wakePrompt(input: WakePromptInput): string {
	const kind = input.kind ?? input.checkpoint.kind;
	const cp = input.checkpoint;
	const f: CommandFence = { issueId: input.issueId, checkpointId: cp.checkpointId, checkpointSequence: cp.sequence, graphRevision: input.graphRevision };
	const exampleTask = cp.subjectTaskId || '<task-id>';
	const lines = [
		wakeMarkerLine({ kind, issueId: input.issueId, checkpointId: cp.checkpointId, graphRevision: input.graphRevision }),
		'',
		'A durable Tutti checkpoint needs your decision.',
		'',
		`Issue: ${input.issueId} — ${oneLine(input.issueTitle)}`,
		`Checkpoint: ${cp.checkpointId}`,
		`Kind: ${kind} (sequence ${cp.sequence})`,
		`Graph revision: ${input.graphRevision}`,
		'',
		headline(kind, cp),
		...(kind === 'task_failed' && (input.subjectError ?? '').trim() !== '' ? [`Why: ${truncateOneLine(input.subjectError!, 600)}`] : []),
		...verificationLines(kind, input.subjectVerification),
		...(kind === 'run_stalled' ? stallLine(input.subjectStall) : []),
		'Tutti does not start a successor task by itself: every next step is yours, through the commands below.',
		'',
		'1. First read the execution snapshot, once:',
		getCommand(input.issueId),
		'Use only its activeCheckpoint, graphRevision, readyTaskIds, blockerReason and allowedActions. It is compact: tasks lists the subject, running, changed and ready tasks (at most 50); add --task-id <task-id> for one task in full.',
		'',
		'2. To start the next tasks (exactly this set, all or none), list ids from readyTaskIds:',
		scheduleCommand(f, ['<task-id>']),
		'',
		'3. To change the remaining graph first (all operations apply or none), write entries with "kind" and "task"; "op" and "replacement" are not supported.',
		'Supersede a not-started, failed or canceled task (its task and Run history stay):',
		mutateCommand(f, [{ kind: 'supersede', taskId: exampleTask }]),
		'Rework a not-started, failed or canceled task into a new taskId (its history stays):',
		mutateCommand(f, [{ kind: 'rework', taskId: exampleTask, task: { taskId: suggestedReworkTaskId(exampleTask, cp.sequence) } }]),
		'Add "title", "content" or launch settings inside "task" to change them. A sparse rework inherits every omitted field from the old task: agentTargetId, modelPlanId, model, permissionModeId, reasoningEffort, executionDirectory and dependencyTaskIds (and title, content, parallelizable, autoAccept); explicit values override them. A permissionModeId wider than its target\'s default, or autoAccept on an issue that asks the developer, is refused (forbidden), inherited or not: give a narrower permissionModeId (or "") and leave autoAccept out.',
		'Rework also redirects the dependencies of active not-started tasks from the old taskId to the new one in the same mutation; it fails with task_not_started if such a dependent already started.',
		`A successful mutation returns a new graphRevision: use exactly that number in place of ${input.graphRevision} in both --expected-graph-revision and --request-id (cp${cp.sequence}-r${input.graphRevision}-…) of the next command at this checkpoint; never increment or guess it.`,
		'',
		'4. The Tutti CLI is the only control plane; never read or modify the database (the .tutti folder) to diagnose or bypass a rejected command.',
		'',
		`5. Bounded recovery: on inactive_checkpoint or stale_graph_revision run \`${getCommand(input.issueId)}\` once and retry once with its checkpoint and graphRevision; on invalid_mutation_operation read \`tutti plan issue mutate --help\` once and retry once; otherwise follow the error's hint. If the same error repeats, stop and report the exact error.`,
		'',
		'6. If this issue should not continue, stop it explicitly so no later checkpoint wakes you:',
		stopCommand(f, defaultStopReason),
		'',
		...kindTail(kind, f, cp, input.subjectAwaitsReview === true),
	];
	return lines.join('\n');
}
