// Hints are safe to copy: agents paste the commands Tutti prints literally. Every command a hint, a recovery hint,
// a wake prompt, a `next` answer or `agent resume` prints goes through the real CLI parser here and must parse
// (placeholders such as <task-id> replaced by sample values). None of them offers a destructive command (stop,
// delete, remove, archive) as the way forward; the wake prompt's explicit "if this issue should not continue"
// step is the one place a source agent is shown `plan issue stop`.
import { strict as assert } from 'node:assert';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import { shellWords } from './shellWords.js';
import { checkpointKinds } from '../../../src/core/model.js';
import { agentResumeCommand } from '../../../src/core/next/commands.js';
import { defaultStopReason, wakePrompt } from '../../../src/core/wakes/wakePrompt.js';
import { releaseMessage } from '../../../src/host/services/hook/stopHookBudget.js';
import { verdictCommand } from '../../../src/host/checkpoints/independentReview.js';
import {
	allHintTexts, allOwedParts, allRecoveryHintTexts, allWakePromptTexts, backticked, commandLines, skillText,
} from './printedTexts.js';

/** A command Tutti printed and where it came from. */
interface Printed { source: string; command: string }

const samples: Record<string, string> = { usd: '20', tokens: '500000', 'issue-id': 'I1', 'task-id': 'T1', 'run-id': 'R1', 'checkpoint-id': 'cp-1', 'session-id': 'S1', title: 'Retry', issueId: 'I1', cp: 'cp-1', rev: '3', id: 'r1' };

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

// ---- the texts (collected in printedTexts.ts) ----

function allOwed(): Printed[] {
	return allOwedParts().flatMap((o) => [
		...(o.next !== undefined ? [{ source: `${o.source} next`, command: o.next }] : []),
		...backticked(o.prose).map((command) => ({ source: `${o.source} message`, command })),
	]);
}

function allRecoveryHints(): Printed[] {
	return allRecoveryHintTexts().flatMap((p) => backticked(p.text).map((command) => ({ source: p.source, command })));
}

function allWakePrompts(): Printed[] {
	return allWakePromptTexts().flatMap((p) => commandLines(p.text).map((command) => ({ source: p.source, command })));
}

function allHints(): Printed[] {
	return allHintTexts().flatMap((p) => backticked(p.text).map((command) => ({ source: p.source, command })));
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
		const lines = skillText().split('\n');
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
