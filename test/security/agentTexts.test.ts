// Security: no text Tutti hands an agent tells it to do something destructive. Over every hint, recovery hint, wake
// prompt, skill, Run prompt and `next` answer (collected in test/unit/cli/printedTexts.ts, the same collection the
// printed-commands test parses) and over every string in the Host and CLI sources that names one: an agent-addressed
// text never carries a destructive git or shell command (reset --hard, clean, push --force, rm -rf, checkout -- .,
// branch -D, …), and names a developer command (`tutti issue integrate`, `tutti approval answer`, any `--as-user`
// command, …) only in a sentence that says it is the developer's. Texts only the developer reads (hints of reasons
// that only developer-only commands meet) may name them freely.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { methodCommands } from '../../src/control-plane/methodCommands.js';
import type { Method } from '../../src/protocol/controlPlane.js';
import { type PrintedText, allPrintedTexts, developerOnlyReasons } from '../unit/cli/printedTexts.js';
import { policy } from './methodPolicy.js';

const repo = resolve(__dirname, '../..');

/** Commands that destroy work or history: never offered to an agent, whoever it is told they are for. */
const destructiveShell: [RegExp, string][] = [
	[/\bgit\s+reset\s+(\S+\s+)*--hard\b/, 'git reset --hard'],
	[/\bgit\s+clean\b/, 'git clean'],
	[/\bgit\s+push\b[^`\n]*?\s(--force(-with-lease)?\b|-f\b|\+\S)/, 'git push --force'],
	[/\brm\s+(-\w*[rR]\w*|--recursive)\b/, 'rm -r'],
	[/\bgit\s+checkout\s+(-f\b|--force\b|(--\s+)?\.(\s|$|`))/, 'git checkout -- . / --force'],
	[/\bgit\s+restore\s+(-\S+\s+)*\.(\s|$|`)/, 'git restore .'],
	[/\bgit\s+branch\s+(\S+\s+)*(-D|--delete\s+--force|-f)\b/, 'git branch -D'],
	[/\bgit\s+worktree\s+(remove|prune)\b[^`\n]*--force\b/, 'git worktree remove --force'],
	[/\bgit\s+stash\s+(drop|clear)\b/, 'git stash drop/clear'],
	[/\bgit\s+update-ref\s+-d\b/, 'git update-ref -d'],
];

/** The developer's commands: every developer-only method's command, the developer-only variants, and `--as-user`. */
const developerCommands: [RegExp, string][] = [
	...(Object.keys(policy) as Method[]).filter((m) => policy[m] === 'developer').map((m): [RegExp, string] =>
		[new RegExp(`\\b${methodCommands[m].replace(/ /g, '\\s+')}\\b`), methodCommands[m]]),
	[/\btutti\s+issue\s+update\b[^`\n]*--budget-(usd|tokens)\b/, 'tutti issue update --budget-…'],
	[/\btutti\s+issue\s+update\b[^`\n]*--auto-accept\b/, 'tutti issue update --auto-accept'],
	[/\btutti\s+plan\s+issue\s+create\b[^`\n]*--source-target\b/, 'tutti plan issue create --source-target'],
	[/--as-user\b/, '--as-user'],
];

/** The sentence around `index`: bounded by `.`, `;`, `:`, `!`, `?` or a line break outside backticks. */
function sentenceAt(text: string, index: number): string {
	const masked = text.replace(/`[^`\n]*`/g, (span) => 'x'.repeat(span.length));
	const isEnd = (i: number): boolean => masked[i] === '\n' || (/[.;:!?]/.test(masked[i]!) && (i + 1 >= masked.length || /\s/.test(masked[i + 1]!)));
	let start = index;
	while (start > 0 && !isEnd(start - 1)) { start -= 1; }
	let end = index;
	while (end < masked.length && !isEnd(end)) { end += 1; }
	return text.slice(start, end + 1);
}

/** What is wrong with one agent-addressed text (empty when nothing). */
function problemsOf(text: string): string[] {
	const problems: string[] = [];
	for (const [pattern, name] of destructiveShell) {
		const m = pattern.exec(text);
		if (m) { problems.push(`offers ${name}: …${text.slice(Math.max(0, m.index - 60), m.index + 80)}…`); }
	}
	for (const [pattern, name] of developerCommands) {
		const global = new RegExp(pattern.source, 'g');
		for (const m of text.matchAll(global)) {
			const sentence = sentenceAt(text, m.index);
			if (!/\bdeveloper('s)?\b/i.test(sentence)) { problems.push(`names ${name} without saying it is the developer's: "${sentence.trim().slice(0, 300)}"`); }
		}
	}
	return problems;
}

/** The string literals of a source file that are not comments, with their line numbers (one line each is enough). */
function literalLines(file: string): { line: number; text: string }[] {
	return readFileSync(file, 'utf8').split('\n').flatMap((text, i) => {
		const trimmed = text.trim();
		if (trimmed.startsWith('//') || trimmed.startsWith('*') || trimmed.startsWith('/*')) { return []; }
		return /['"`]/.test(text) ? [{ line: i + 1, text }] : [];
	});
}

function sourceFiles(dir: string): string[] {
	return readdirSync(dir).flatMap((name) => {
		const path = join(dir, name);
		return statSync(path).isDirectory() ? sourceFiles(path) : name.endsWith('.ts') ? [path] : [];
	});
}

/**
 * Source strings naming a developer command without the word "developer", each read and found to reach only the
 * developer. A new such string fails the test until it names the developer or is added here with the reason.
 */
const developerOnlySourceStrings: { file: string; includes: string; why: string }[] = [
	{ file: 'src/host/services/integrationService.ts', includes: 'tutti issue integrate --issue-id ${issueId} --into <branch> --as-user', why: 'thrown by issue integrate, after its requireUser' },
	{ file: 'src/host/services/worktreeService.ts', includes: 'tutti run stop --run-id ${busy.runId} --as-user', why: 'thrown by worktree remove, after its requireUser' },
	{ file: 'src/host/worktrees/worktreeManager.ts', includes: 'tutti worktree remove --issue-id ${issueId} --task-id ${taskId} --as-user\\` again', why: 'worktree remove refusing a dirty tree (developer-only)' },
	{ file: 'src/host/services/messages/runMessageService.ts', includes: 'tutti run stop --run-id ${run.runId} --as-user', why: 'thrown by run send, after its requireUser' },
	{ file: 'src/core/hints.ts', includes: 'tutti issue integrate --issue-id ${n.issue} --accepted-only --as-user', why: 'not_integrable: a developerOnlyReasons hint' },
	{ file: 'src/core/issues/developerCommands.ts', includes: 'tutti issue integrate --issue-id ${shellWord(issueId)}${into}', why: 'a builder of the developer\'s commands: used only in refusals of integrate, task retry and task update-from-base, thrown after their requireUser' },
	{ file: 'src/core/issues/developerCommands.ts', includes: 'tutti review accept --issue-id ${shellWord(issueId)}', why: 'the same builders' },
	{ file: 'src/core/issues/developerCommands.ts', includes: 'tutti task retry --issue-id ${shellWord(issueId)}', why: 'the same builders' },
	{ file: 'src/core/issues/developerCommands.ts', includes: 'tutti task update-from-base --issue-id ${shellWord(issueId)}', why: 'the same builders' },
	{ file: 'src/host/services/taskService.ts', includes: 'or request changes (\\`tutti review request-changes', why: 'retryRefusalHint: thrown by task retry, after its requireUser' },
	{ file: 'src/host/services/taskService.ts', includes: 'stop its Run first (\\`tutti run stop --run-id ${task.latestRunId} --as-user', why: 'retryRefusalHint: thrown by task retry, after its requireUser' },
	{ file: 'src/host/services/taskService.ts', includes: 'update it from its base (\\`tutti task update-from-base', why: 'retryRefusalHint: thrown by task retry, after its requireUser' },
	{ file: 'src/host/services/taskService.ts', includes: 'to stop the issue instead: \\`tutti issue stop --issue-id ${issue.issueId} --as-user', why: 'thrown by task retry on a managed issue, after its requireUser' },
	{ file: 'src/core/hints.ts', includes: 'then run \\`tutti issue integrate --issue-id ${n.issue} --as-user\\` again', why: 'dirty_workspace, workspace_busy, merge_conflict: developerOnlyReasons hints' },
	{ file: 'src/host/services/updateFromBaseService.ts', includes: 'then run \\`tutti task update-from-base --issue-id ${issueId} --task-id ${task.taskId} --as-user\\` again', why: 'thrown by task update-from-base, after its requireUser' },
	{ file: 'src/host/services/updateFromBaseService.ts', includes: '--task-id ${task.taskId} --into <branch> --as-user', why: 'thrown by task update-from-base, after its requireUser' },
	{ file: 'src/host/services/updateFromBaseService.ts', includes: 'when you resume the issue (\\`tutti issue resume --issue-id ${issue.issueId} --as-user', why: 'the answer of task update-from-base (developer-only)' },
	{ file: 'src/cli/client.ts', includes: '--as-user needs the user credential', why: 'only a command run with --as-user gets it' },
	{ file: 'src/core/next/commands.ts', includes: '--budget-usd <usd> --as-user`;', why: 'raiseBudgetCommand, a builder: the sentences that use it (owed answers, recovery hints) are checked whole above' },
];

describe('security: no text tells an agent to do something destructive', function () {
	it('the checker finds destructive and developer commands, and accepts them where the developer is named', function () {
		assert.equal(problemsOf('Run `tutti plan issue get --issue-id I1 --json`.').length, 0);
		for (const bad of ['Then run `git reset --hard HEAD`.', 'Clean up with git clean -fdx', 'git push -f origin main', 'git push origin +main', 'rm -rf .tutti', 'run git checkout -- . first',
			'git branch -D task-1', 'git stash drop', 'git worktree remove --force x', 'git restore --staged .']) {
			assert.equal(problemsOf(bad).length, 1, bad);
			assert.equal(problemsOf(`Only the developer may: ${bad}`).length, 1, `destructive even for the developer: ${bad}`);
		}
		for (const bad of ['Run `tutti issue integrate --issue-id I1 --as-user`.', 'Answer it with `tutti approval answer --approval-id A --allow`.',
			'Set the token (or pass --as-user for a developer action).'.replace('developer', 'privileged'), 'Raise it: `tutti issue update --issue-id I1 --budget-usd 5`.']) {
			assert.ok(problemsOf(bad).length >= 1, bad);
		}
		assert.deepEqual(problemsOf('Report this to the developer; only the developer raises it (`tutti issue update --issue-id I1 --budget-usd <usd> --as-user`).'), []);
		assert.deepEqual(problemsOf('git status; git log --oneline; git add a.ts and git commit'), []);
	});

	it('every hint, prompt and next step an agent reads', function () {
		const texts = allPrintedTexts();
		assert.ok(texts.filter((t) => t.audience === 'agent').length > 200, 'the collection covers the agent texts');
		const problems = texts.filter((t: PrintedText) => t.audience === 'agent').flatMap((t) => problemsOf(t.text).map((p) => `${t.source}: ${p}`));
		assert.deepEqual([...new Set(problems)], []);
	});

	it('every string in the Host and CLI sources that names a developer command says it is the developer\'s, or reaches only the developer', function () {
		// The command table and commander's help text, and the method → command-name table (used for `--help` pointers).
		const skip = new Set(['src/cli/commandTable.ts', 'src/cli/commanderParse.ts', 'src/control-plane/methodCommands.ts']);
		const dirs = ['src/core', 'src/host', 'src/control-plane', 'src/cli', 'src/agents', 'src/supervisor'].map((d) => join(repo, d));
		const used = new Set<number>();
		const problems: string[] = [];
		for (const file of dirs.flatMap(sourceFiles)) {
			const rel = relative(repo, file);
			if (skip.has(rel)) { continue; }
			for (const { line, text } of literalLines(file)) {
				for (const problem of problemsOf(text)) {
					if (/^offers /.test(problem)) { problems.push(`${rel}:${line}: ${problem}`); continue; }
					const allowed = developerOnlySourceStrings.findIndex((a) => a.file === rel && text.includes(a.includes.replace(/\\\\/g, '\\')));
					if (allowed >= 0) { used.add(allowed); continue; }
					problems.push(`${rel}:${line}: ${problem}`);
				}
			}
		}
		assert.deepEqual([...new Set(problems)], []);
		assert.deepEqual(developerOnlySourceStrings.filter((_, i) => !used.has(i)).map((a) => `${a.file}: ${a.includes}`), [], 'no stale entry in the reviewed list');
	});

	it('the reasons treated as developer-only are thrown only by developer-only services', function () {
		const throwers = new Map<string, Set<string>>();
		for (const file of ['src/core', 'src/host'].map((d) => join(repo, d)).flatMap(sourceFiles)) {
			const text = readFileSync(file, 'utf8');
			for (const reason of developerOnlyReasons) {
				if (new RegExp(`(rejection|DomainError)\\(\\s*'${reason}'`).test(text)) {
					throwers.set(reason, (throwers.get(reason) ?? new Set()).add(relative(repo, file)));
				}
			}
		}
		const developerOnlyServices = new Set([
			'src/host/services/integrationService.ts', 'src/host/worktrees/worktreeManager.ts', 'src/host/services/approvals/approvalService.ts',
			'src/host/services/reviews/taskDecisions.ts', 'src/host/services/reviews/goalDecisions.ts',
			// Builds integrate's refusals; called only by integrationService.ts, after its requireUser.
			'src/host/delivery/integrationRefusals.ts',
		]);
		for (const [reason, files] of throwers) {
			for (const file of files) { assert.ok(developerOnlyServices.has(file), `${reason} is thrown in ${file}: is its hint still read only by the developer?`); }
		}
		assert.ok(throwers.size >= 5, 'found where they are thrown');
	});
});
