// Hints are safe to copy: agents paste the commands Tutti prints literally. Every command a hint, a recovery hint,
// a wake prompt, a `next` answer or `agent resume` prints goes through the real CLI parser here and must parse
// (placeholders such as <task-id> replaced by sample values). None of them offers a destructive command (stop,
// delete, remove, archive) as the way forward; the wake prompt's explicit "if this issue should not continue"
// step is the one place a source agent is shown `plan issue stop`.
import { strict as assert } from 'node:assert';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import { shellWords } from './shellWords.js';
import { reasonCodes } from '../../../src/core/errors.js';
import { recoveryHint, type RecoveryHintInput } from '../../../src/core/execution/recoveryHint.js';
import { hintFor } from '../../../src/core/hints.js';
import { checkpointKinds, executionStatuses, type CheckpointKind } from '../../../src/core/model.js';
import { agentResumeCommand } from '../../../src/core/next/commands.js';
import type { IssueFacts, SessionFacts, TaskFacts } from '../../../src/core/next/facts.js';
import { owedBySession, owedForCheckpoint, owedForNextAction, owedForReview, owedOnIssue, type Owed } from '../../../src/core/next/owed.js';
import { defaultStopReason, wakePrompt } from '../../../src/core/wakes/wakePrompt.js';
import { releaseMessage } from '../../../src/host/services/hook/stopHookBudget.js';
import { manualRejection } from '../../../src/host/services/manualRejections.js';
import { verdictCommand } from '../../../src/host/services/reviews/independentReview.js';
import { planningPrompt } from '../../../src/host/services/sourceSessions/skill.js';

/** A command Tutti printed and where it came from. */
interface Printed { source: string; command: string }

const samples: Record<string, string> = { usd: '20', tokens: '500000', 'issue-id': 'I1', 'task-id': 'T1', 'run-id': 'R1', 'checkpoint-id': 'cp-1', 'session-id': 'S1', title: 'Retry', issueId: 'I1', cp: 'cp-1', rev: '3', id: 'r1' };

/** Backticked `tutti …` commands in prose. */
function backticked(text: string): string[] {
	return [...text.matchAll(/`(tutti [^`]*)`/g)].map((m) => m[1]!);
}

/** Lines that are a command of their own (wake prompts print them one per line), plus the backticked ones. */
function commandLines(text: string): string[] {
	return [...text.split('\n').map((l) => l.trim()).filter((l) => l.startsWith('tutti ')), ...backticked(text)];
}


function withSamples(command: string): string {
	return command.replace(/<([A-Za-z-]+)>/g, (whole, name: string) => samples[name] ?? (name === 'why' ? 'a reason' : whole));
}

const destructive = /^tutti (session stop|issue stop|issue task delete|plan issue stop|run stop|worktree remove)\b|\barchive\b/;

/** Why a printed command is not safe to paste, or null. */
function problemOf(p: Printed, allowStop: boolean): string | null {
	let argv: string[];
	try {
		argv = shellWords(withSamples(p.command));
	} catch (e) {
		return e instanceof Error ? e.message : String(e);
	}
	if (argv[0] !== 'tutti') { return 'does not start with tutti'; }
	const parsed = parseCommandLine(argv.slice(1));
	const named = argv.slice(1).every((w) => !w.startsWith('-')) && (parsed.kind === 'error' && parsed.error.message.includes('required option'));
	if (parsed.kind === 'error' && !named) { return `does not parse: ${parsed.error.message}`; }
	const asUser = argv.includes('--as-user');
	if (destructive.test(argv.join(' ')) && !asUser && !(allowStop && argv.slice(1, 4).join(' ') === 'plan issue stop')) {
		return 'offers a destructive command to an agent';
	}
	return null;
}

function assertSafe(printed: Printed[], allowStop = false): void {
	assert.ok(printed.length > 0, 'found commands to check');
	const problems = printed.flatMap((p) => {
		const problem = problemOf(p, allowStop);
		return problem === null ? [] : [`${p.source}: ${p.command}\n    → ${problem}`];
	});
	assert.deepEqual(problems, []);
}

// ---- the texts ----

const ids = { issueId: 'I1', taskId: 'T1', checkpointId: 'cp-1', runId: 'R1' };

function task(taskId: string, status: TaskFacts['status'], extra: Partial<TaskFacts> = {}): TaskFacts {
	return { taskId, title: taskId, status, acceptanceState: '', superseded: false, updatedAtUnixMs: 10, ...extra };
}

function facts(extra: Partial<IssueFacts> = {}): IssueFacts {
	return {
		issueId: 'I1', issueStatus: 'in_progress',
		execution: { status: 'running', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 },
		activeCheckpoint: null, lastCheckpointResolvedAtUnixMs: 0, goalReviewRequestedAtUnixMs: 0,
		tasks: [task('T1', 'running')], changeRequests: [], finishedAtUnixMs: 0, pendingFollowUp: null, lastChangeUnixMs: 3,
		...extra,
	};
}

/** One issue in each state the derivation tells apart. */
const issueStates: Record<string, IssueFacts> = {
	running: facts(),
	checkpoint: facts({ activeCheckpoint: { checkpointId: 'cp-1', kind: 'task_settled', createdAtUnixMs: 5 } }),
	inReview: facts({ tasks: [task('T1', 'pending_acceptance'), task('T2', 'not_started')] }),
	changesRequested: facts({ tasks: [task('T1', 'failed')], changeRequests: [{ taskId: 'T1', note: 'use the "other" API; keep it <small>', requestedAtUnixMs: 6 }] }),
	goalReview: facts({ execution: { status: 'pending_goal_review', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 }, goalReviewRequestedAtUnixMs: 4 }),
	goalChanges: facts({ changeRequests: [{ taskId: '', note: 'not yet', requestedAtUnixMs: 6 }] }),
	completed: facts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 }, tasks: [task('T1', 'completed')] }),
	followUp: facts({
		issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 },
		pendingFollowUp: { followUpId: 'I1-follow-up-1', text: "Add the 'dark' theme; then <ship> it & tell me", requestedAtUnixMs: 10 },
	}),
	finished: facts({ issueStatus: 'completed', execution: { status: 'completed', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 9 }, finishedAtUnixMs: 11 }),
	archived: facts({ issueStatus: 'archived', execution: { status: 'archived', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 } }),
	orphaned: facts({ execution: { status: 'orphaned_source', createdAtUnixMs: 1, updatedAtUnixMs: 2, completedAtUnixMs: 0 } }),
	manual: facts({ execution: null, tasks: [task('T1', 'pending_acceptance')] }),
};

function owedTexts(source: string, owed: Owed): Printed[] {
	const prose = owed.kind === 'failure' ? `${owed.message} ${owed.hint}` : owed.message;
	return [
		...(owed.next !== undefined ? [{ source: `${source} next`, command: owed.next }] : []),
		...backticked(prose).map((command) => ({ source: `${source} message`, command })),
	];
}

function allOwed(): Printed[] {
	return Object.entries(issueStates).flatMap(([state, f]) => {
		const sessions: SessionFacts[] = [
			{ sessionId: 'S1', role: 'source', issueId: 'I1', issue: f },
			{ sessionId: 'S1', role: 'source', issueId: 'I1', issue: f, wakesDelivered: true },
			{ sessionId: 'S2', role: 'worker', issueId: 'I1', issue: f },
		];
		return [
			...owedTexts(`owedOnIssue(${state})`, owedOnIssue(f)),
			...owedTexts(`owedForReview(${state})`, owedForReview(f)),
			...owedTexts(`owedForReview(${state}, T1)`, owedForReview(f, 'T1')),
			...owedTexts(`owedForReview(${state}, T9)`, owedForReview(f, 'T9')),
			...owedTexts(`owedForCheckpoint(${state})`, owedForCheckpoint(f)),
			...owedTexts(`owedForNextAction(${state})`, owedForNextAction(f)),
			...sessions.flatMap((s) => owedTexts(`agent resume(${state}, ${s.role})`, owedBySession(s))),
		];
	});
}

function allRecoveryHints(): Printed[] {
	const kinds: (CheckpointKind | null)[] = [null, ...checkpointKinds];
	return executionStatuses.flatMap((status) => kinds.flatMap((kind) => [false, true].flatMap((dispatchPaused) => [[], ['T1', 'T2']].flatMap((ready) =>
		[false, true].map((canAcknowledge): Printed => {
			const input: RecoveryHintInput = {
				issueId: 'I1', execution: { status, graphRevision: 3 }, dispatchPaused, readyTaskIds: ready, canAcknowledge,
				activeCheckpoint: kind === null ? null : { checkpointId: 'cp-1', kind, sequence: 4, graphRevision: 3, subjectTaskId: 'T1' },
				awaitingAcceptanceTaskIds: ready.length > 0 ? [] : ['T3'],
			};
			return { source: `recoveryHint(${status}, ${kind ?? 'none'}, paused=${dispatchPaused})`, command: recoveryHint(input) };
		}))))).flatMap((p) => backticked(p.command).map((command) => ({ source: p.source, command })));
}

function allWakePrompts(): Printed[] {
	return checkpointKinds.flatMap((kind) => [true, false].flatMap((withSubject) => {
		const prompt = wakePrompt({
			issueId: 'I1', issueTitle: 'Make it "fast" & small',
			checkpoint: { checkpointId: `tutti-execution:I1:checkpoint:${kind}`, kind, sequence: 4, subjectTaskId: withSubject ? 'T1' : '', subjectRunId: withSubject ? 'R1' : '', note: "Don't <break> it" },
			graphRevision: 3,
		});
		return commandLines(prompt).map((command) => ({ source: `wakePrompt(${kind}, subject=${withSubject})`, command }));
	}));
}

function allHints(): Printed[] {
	const manualReasons = ['invalid_task_graph', 'task_not_found', 'duplicate_task', 'task_not_started', 'task_superseded'] as const;
	return [
		...reasonCodes.flatMap((reason) => [ids, {}].flatMap((ctx) => backticked(hintFor(reason, ctx)).map((command) => ({ source: `hint ${reason}`, command })))),
		...manualReasons.flatMap((reason) => backticked(manualRejection(reason, 'm', 'I1').hint).map((command) => ({ source: `manual hint ${reason}`, command }))),
	];
}

describe('printed commands are safe to copy', () => {
	it('the checker refuses what an agent could not paste, and destructive ways forward', () => {
		const bad = (command: string, allowStop = false): string | null => problemOf({ source: 't', command }, allowStop);
		assert.equal(bad('tutti plan issue get --issue-id I1 --json'), null);
		assert.equal(bad('tutti plan issue mutate'), null, 'a bare command name is a reference, not a command line');
		assert.match(bad('tutti issue task add|update|delete --issue-id I1') ?? '', /shell operator \|/);
		assert.match(bad('tutti plan issue get --issue I1') ?? '', /does not parse/);
		assert.match(bad('tutti plan issue fetch --issue-id I1') ?? '', /does not parse/);
		assert.match(bad('tutti plan issue schedule --issue-id I1 --json') ?? '', /does not parse: required option/);
		assert.match(bad('tutti run stop --run-id R1') ?? '', /destructive/);
		assert.match(bad('tutti worktree remove --issue-id I1 --task-id T1') ?? '', /destructive/);
		assert.equal(bad('tutti run stop --run-id R1 --as-user'), null, 'addressed to the developer');
		const stop = `tutti plan issue stop --issue-id I1 --checkpoint-id cp-1 --expected-graph-revision 3 --reason x --request-id r --json`;
		assert.match(bad(stop) ?? '', /destructive/);
		assert.equal(bad(stop, true), null);
		assert.deepEqual(shellWords(`tutti x --a 'it'\\''s' --b "q\\"t" --c '["<task-id>"]'`), ['tutti', 'x', '--a', "it's", '--b', 'q"t', '--c', '["<task-id>"]']);
	});

	it('every error hint (core and manual issues), with ids and as a template', () => {
		assertSafe(allHints());
	});

	it('every recovery hint `plan issue get` returns', () => {
		assertSafe(allRecoveryHints());
	});

	it('every wake prompt; `plan issue stop` only in its "should not continue" step', () => {
		const printed = allWakePrompts();
		assertSafe(printed, true);
		for (const kind of checkpointKinds) {
			const prompt = wakePrompt({ issueId: 'I1', issueTitle: 't', checkpoint: { checkpointId: 'cp-1', kind, sequence: 1, subjectTaskId: 'T1', subjectRunId: 'R1' }, graphRevision: 1 });
			const lines = prompt.split('\n');
			const stops = lines.flatMap((line, i) => (line.startsWith('tutti plan issue stop') ? [i] : []));
			assert.deepEqual(stops.map((i) => lines[i - 1]), ['6. If this issue should not continue, stop it explicitly so no later checkpoint wakes you:'], kind);
			assert.ok(lines[stops[0]!]!.includes(`--reason '${defaultStopReason}'`));
		}
	});

	it('the first Turn of a source session (wake prompt, goal and CLI skill); stop only where the issue should not continue', () => {
		const prompt = planningPrompt({ wakePrompt: 'WAKE', issueTitle: 'Make it fast', issueContent: 'Run `tutti whatever` is the developer\'s text, not ours' });
		const skill = prompt.slice(prompt.indexOf('# Tutti CLI skill'));
		const lines = skill.split('\n');
		assertSafe(lines.filter((l) => !l.includes('should not continue')).flatMap((l) => backticked(l).map((command) => ({ source: 'skill', command }))));
		const stopLines = lines.filter((l) => l.includes('should not continue'));
		assert.equal(stopLines.length, 1);
		assertSafe(stopLines.flatMap((l) => backticked(l).map((command) => ({ source: 'skill stop', command }))), true);
	});

	it("the independent reviewer's wake prompt: its verdict command", () => {
		const checkpointId = 'tutti-execution:I 1:checkpoint:all-tasks-terminal';
		assertSafe([{ source: 'reviewer verdict', command: verdictCommand('I 1', { reviewId: `${checkpointId}:goal-review:1`, checkpointId }, 3) }]);
	});

	it('every `next` of await-review, plan issue await, next-action and agent resume, and the hand-back command', () => {
		assertSafe([
			...allOwed(),
			{ source: 'hand back', command: agentResumeCommand('S1') },
			...backticked(releaseMessage('S1', 'tutti await-review --issue-id I1')).map((command) => ({ source: 'stop hook release', command })),
		]);
	});
});
