// A task's attempts as the developer reads them: which attempt it is ("Attempt 2 of 2"), one line for each earlier
// attempt ("Attempt 1 — changes requested: <note>"), and the state of a task waiting for the new attempt asked of it.
// An attempt is a Run of the task (a rework on a manual issue is the same task's next Run) or, on a managed issue, a
// task its source agent replaced by a rework (the replacement continues the count). Pure.
import { attemptEndNames, reworkStateNames } from '../attention/vocabulary.js';
import type { ReworkKind, TaskStatus } from '../model.js';

/** One task's facts the attempts are derived from. */
export interface AttemptTask {
	readonly taskId: string;
	readonly status: TaskStatus;
	/** The task that replaced it ('' when none), and whether it is superseded history. */
	readonly supersededByTaskId: string;
	readonly superseded: boolean;
	/** How many Runs it has had. */
	readonly runCount: number;
	/** The new attempts the developer asked of it, oldest first (`attempt` is the number of the attempt it starts). */
	readonly reworks: readonly { readonly kind: ReworkKind; readonly note: string; readonly attempt: number; readonly runId: string }[];
	/** A managed task the developer requested changes on (its source agent reworks it): the note; null when none. */
	readonly changesRequested: string | null;
}

export interface TaskAttempts {
	/** The attempt this task is (the last one it ran, for superseded history), counted across its replacements. */
	readonly number: number;
	/** How many attempts its line of work has had so far (this task, the ones it replaced, the ones replacing it). */
	readonly of: number;
	/** "Attempt 2 of 2"; '' while there was only one. */
	readonly label: string;
	/** One line per attempt before this one, oldest first. */
	readonly earlier: readonly string[];
	/** A task waiting for the new attempt asked of it ("Changes requested"): shown instead of its status; '' otherwise. */
	readonly stateLabel: string;
	/** Superseded history: the one line that stands for it ("Attempt 1 — changes requested: <note>"); '' otherwise. */
	readonly line: string;
}

/** A note's first line, short enough for one line of the panel. */
const noteMax = 100;

function shortNote(note: string): string {
	const first = note.trim().split('\n')[0]?.trim() ?? '';
	return first.length > noteMax ? `${first.slice(0, noteMax - 1)}…` : first;
}

function attemptLine(n: number, end: string, note: string): string {
	const short = shortNote(note);
	return `Attempt ${n} — ${end}${short !== '' ? `: ${short}` : ''}`;
}

/** How many attempts the task itself stands for: its Runs, or the attempt asked of it and not started yet. */
function ownAttempts(t: AttemptTask): number {
	return Math.max(1, t.runCount, ...t.reworks.map((r) => r.attempt));
}

/** The lines of the task's own attempts that ended (all of them for superseded history), numbered from `offset` + 1. */
function endedLines(t: AttemptTask, offset: number): string[] {
	const own = ownAttempts(t);
	const lines: string[] = [];
	for (let k = 1; k < own; k += 1) {
		const next = t.reworks.find((r) => r.attempt === k + 1);
		lines.push(next ? attemptLine(offset + k, attemptEndNames[next.kind], next.note) : attemptLine(offset + k, attemptEndNames.ranAgain, ''));
	}
	if (t.superseded) {
		const end = t.changesRequested !== null ? attemptEndNames.changes_requested
			: t.status === 'failed' ? attemptEndNames.failed : t.status === 'canceled' ? attemptEndNames.canceled : attemptEndNames.replaced;
		lines.push(attemptLine(offset + own, end, t.changesRequested ?? ''));
	}
	return lines;
}

function stateLabel(t: AttemptTask): string {
	const last = t.reworks[t.reworks.length - 1];
	if (t.status === 'not_started' && last !== undefined && last.runId === '') { return reworkStateNames[last.kind]; }
	if (t.status === 'failed' && !t.superseded && t.changesRequested !== null) { return reworkStateNames.changes_requested; }
	return '';
}

/** Each task's attempts (every task of the issue, superseded history included, so replacements continue the count). */
export function taskAttempts(tasks: readonly AttemptTask[]): Map<string, TaskAttempts> {
	const byId = new Map(tasks.map((t) => [t.taskId, t]));
	const replaced = new Map<string, AttemptTask>();
	for (const t of tasks) {
		if (t.superseded && t.supersededByTaskId !== '' && byId.has(t.supersededByTaskId) && !replaced.has(t.supersededByTaskId)) {
			replaced.set(t.supersededByTaskId, t);
		}
	}
	// The tasks it replaced, oldest first (a cycle in bad history stops the walk).
	const chainBefore = (t: AttemptTask): AttemptTask[] => {
		const chain: AttemptTask[] = [];
		const seen = new Set([t.taskId]);
		for (let p = replaced.get(t.taskId); p !== undefined && !seen.has(p.taskId); p = replaced.get(p.taskId)) {
			seen.add(p.taskId);
			chain.unshift(p);
		}
		return chain;
	};
	const lastOf = (t: AttemptTask): AttemptTask => {
		let last = t;
		const seen = new Set([t.taskId]);
		for (let n = byId.get(last.supersededByTaskId); last.superseded && n !== undefined && !seen.has(n.taskId); n = byId.get(last.supersededByTaskId)) {
			seen.add(n.taskId);
			last = n;
		}
		return last;
	};
	const numberOf = (t: AttemptTask): { offset: number; number: number; earlier: string[] } => {
		let offset = 0;
		const earlier: string[] = [];
		for (const p of chainBefore(t)) {
			earlier.push(...endedLines(p, offset));
			offset += ownAttempts(p);
		}
		return { offset, number: offset + ownAttempts(t), earlier };
	};
	const out = new Map<string, TaskAttempts>();
	for (const t of tasks) {
		const { offset, number, earlier } = numberOf(t);
		const of = Math.max(number, numberOf(lastOf(t)).number);
		const own = endedLines(t, offset);
		out.set(t.taskId, {
			number, of,
			label: of > 1 ? `Attempt ${number} of ${of}` : '',
			earlier: [...earlier, ...(t.superseded ? own.slice(0, -1) : own)],
			stateLabel: stateLabel(t),
			line: t.superseded ? own[own.length - 1] ?? '' : '',
		});
	}
	return out;
}
