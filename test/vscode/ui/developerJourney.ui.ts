// Issue 12's "Done when", through the UI only (Playwright clicks and typing; the CLI and git only to check): a
// developer adds an agent target (Tutti: Add Agent finds `claude` on PATH: the real pinned Claude Code CLI against a
// scripted model server, scriptedClaude.ts), creates an issue planned by it from the New Issue form, watches its task's
// transcript stream in the task detail, opens the task's own diff (Open Diff: baseCommit..resultCommit), comments a
// line there (VS Code's Comments API), requests changes (the note carries `path:line — comment`), accepts the rework
// and confirms the goal. At every step the board, the status bar and the panel agree on the state (oneState.ts).
// The task runs on the `scribe` target (a worktree command target that writes docs/ and then waits at its gate), so
// the test decides when the "agent" finishes, as the scripted model server decides what the source agent says.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gateFile, writeGate } from '../../../scripts/workers/gate.js';
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import type { UiResult } from './board.ui.js';
import { fillAndCreate, openNewIssueForm } from './newIssueForm.js';
import { agreeOn } from './oneState.js';
import { commentOnDiffLine } from './diffComment.js';
import { tidyForScreenshot } from './panel.ui.js';
import type { ScriptedClaude } from './scriptedClaude.js';
import { runStage, startTutti } from './stageSteps.js';
import { agentPathOf, tuttiCli } from './tuttiCli.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

export const journeyTitle = 'Release notes for 1.1';
export const journeyTask = { taskId: 'notes', title: 'Write the release notes', content: 'Write docs/NOTES.md: what changed for the developer.', agentTargetId: 'scribe' };
export const journeyFix = 'Write docs/NOTES.md again; the review comments say what to change.';
const agentName = 'planner';
const comment = 'Name the board by its group names';
const quickInput = '.quick-input-widget .quick-input-box input';
const quickRows = '.quick-input-widget .quick-input-list .monaco-list-row';

async function answerInput(workbench: Workbench, prompt: string, text: string): Promise<void> {
	await workbench.page.locator('.quick-input-widget').filter({ hasText: prompt }).first().waitFor({ state: 'visible', timeout: 10_000 });
	await workbench.page.locator(quickInput).first().fill(text, { timeout: 5000 });
	await workbench.page.keyboard.press('Enter');
}

async function pickRow(workbench: Workbench, placeholder: string, filter: string, rowText: string): Promise<void> {
	const input = workbench.page.locator(`${quickInput}[placeholder="${placeholder}"]`).first();
	await input.waitFor({ state: 'visible', timeout: 15_000 });
	await input.fill(filter, { timeout: 5000 });
	const row = workbench.page.locator(quickRows).filter({ hasText: rowText }).first();
	await row.waitFor({ state: 'visible', timeout: 10_000 });
	await row.click({ timeout: 5000 });
}

async function clickInPanel(frame: WebviewFrame, selector: string, what: string): Promise<void> {
	const button = frame.locator(selector).first();
	await pollFor(what, 30_000, async () => ((await button.isVisible()) ? true : undefined));
	await button.click({ timeout: 5000 });
}

async function selectTask(frame: WebviewFrame, taskId: string): Promise<void> {
	const node = frame.locator(`g.node[data-task-id="${taskId}"]`).first();
	await pollFor(`the node of task ${taskId} in the graph`, 60_000, async () => ((await node.isVisible()) ? true : undefined));
	await node.click({ timeout: 10_000 });
	await waitInPanel(frame, `#task-detail[data-task-id="${taskId}"]`, `the detail of task ${taskId}`);
}

/** Brings the issue panel's editor tab to the front (after the diff editor took it); its webview is a new frame then. */
async function showPanelTab(workbench: Workbench): Promise<WebviewFrame> {
	await workbench.page.locator('.tabs-container .tab').filter({ hasText: journeyTitle }).first().click({ timeout: 10_000 });
	return issuePanelFrame(workbench.page, journeyTitle);
}

export async function runDeveloperJourney(session: VsCodeSession, workspace: string, gateDir: string, claude: ScriptedClaude): Promise<UiResult> {
	const cli = tuttiCli(session, workspace);
	const git = (...args: string[]): string => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' }).trim();
	let frame: WebviewFrame | undefined;
	const panel = (): WebviewFrame => {
		if (!frame) { throw new Error('the issue panel is not open'); }
		return frame;
	};
	let issueId = '';
	/** Checks only: the task's latest Run as the Host has it. */
	const latestRun = (taskId: string): Record<string, unknown> => {
		const tasks = cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['tasks'] as { taskId: string; latestRunId: string }[];
		const runId = tasks.find((t) => t.taskId === taskId)?.latestRunId ?? '';
		if (runId === '') { throw new Error(`task ${taskId} has no Run`); }
		return cli(['run', 'get', '--run-id', runId, '--as-user']);
	};
	return runStage(session, workspace, { label: 'journey' }, async (stage) => {
		const { workbench, page, step, shot } = stage;
		const agree = (state: Parameters<typeof agreeOn>[3], timeoutMs?: number): Promise<string> => agreeOn(workbench, panel(), journeyTitle, state, timeoutMs);
		await step('Tutti: Add Agent finds claude on PATH and writes the agent target from its quick picks and input boxes', async () => {
			await startTutti(stage, session, workspace, { offered: true });
			await workbench.runCommand('Tutti: Add Agent', { asksInput: true });
			// Listed by its path on PATH (matchOnDetail): the wrapper around the pinned CLI, not any other claude.
			await pickRow(workbench, 'Which agent CLI should run Tutti\'s tasks?', claude.claudePath, claude.claudePath);
			await answerInput(workbench, 'A name for this agent target', agentName);
			await answerInput(workbench, 'The model Claude Code should use', 'sonnet');
			await answerInput(workbench, 'Tools Claude Code may use without asking', '');
			await pickRow(workbench, 'When Claude Code wants a tool it is not allowed to use', 'Ask me', 'Ask me');
			type Settings = { 'tutti.agentTargets': { id: string; adapter: string; path?: string; model?: string }[] };
			const target = await pollFor('the agent target in the workspace settings', 10_000, async () => {
				const s = JSON.parse(readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8')) as Settings;
				return s['tutti.agentTargets'].find((t) => t.id === agentName);
			});
			// The path of claude on this machine goes to the user's settings, never to the folder's.
			if (target.adapter !== 'claude' || target.path !== undefined || target.model !== 'sonnet') {
				throw new Error(`Add Agent wrote ${JSON.stringify(target)}`);
			}
			const machinePath = await pollFor('the agent\'s path in the user settings (tutti.agentPaths)', 10_000, async () => agentPathOf(session, agentName));
			if (machinePath !== claude.claudePath) { throw new Error(`tutti.agentPaths has ${machinePath} for ${agentName}`); }
			await shot('journey-agent-added');
			return `${JSON.stringify(target)}; tutti.agentPaths.${agentName} = ${machinePath}`;
		});
		await step('New Issue planned by that agent: the scripted Claude Code source agent plans the task and schedules it; all three say "agent working"', async () => {
			const form = await openNewIssueForm(workbench);
			const option = form.locator('.planner-option label').filter({ hasText: `Agent "${agentName}"` }).first();
			await pollFor(`the planner option Agent "${agentName}" in the form`, 30_000, async () => ((await option.isVisible()) ? true : undefined));
			await fillAndCreate(form, { title: journeyTitle, goal: 'Release notes a developer can trust, reviewed line by line.', planner: `Agent "${agentName}"` });
			frame = await issuePanelFrame(page, journeyTitle, 60_000);
			const issues = cli(['issue', 'list', '--as-user'])['issues'] as { issueId: string; title: string }[];
			issueId = issues.find((i) => i.title === journeyTitle)?.issueId ?? '';
			const states = await agree('agent working', 90_000);
			await selectTask(panel(), journeyTask.taskId);
			const planned = claude.planner.actions.map((a) => a.did.startsWith('end:') ? 'end' : /^tutti plan issue (\w+)/.exec(a.did)?.[1]).join(' → ');
			return `${states}; the source agent did: ${planned}`;
		});
		await step('the task\'s transcript streams in the task detail while its Run runs', async () => {
			const first = await waitInPanel(panel(), '#transcript', 'the first transcript lines', { contains: `gate ${journeyTask.taskId}: waiting`, timeoutMs: 60_000 });
			if (!first.includes('scribe: wrote docs/NOTES.md')) { throw new Error(`the transcript lacks the agent's first line: ${first}`); }
			if (first.includes('opened')) { throw new Error(`the Run had ended already: ${first}`); }
			const running = await waitInPanel(panel(), '#latest-run', 'the latest Run shown running', { contains: 'Running' });
			await agree('agent working');
			await tidyForScreenshot(workbench);
			await shot('journey-transcript-live');
			// The live transcript in Light+, Dark+ and High Contrast (docs/screenshots/panel-transcript-live-*.png).
			await stage.inThemes('panel-transcript-live', panel(), { contrast: false });
			// The "agent" finishes: its next line must arrive in the same transcript.
			writeGate(gateFile(gateDir, issueId, journeyTask.taskId), 0);
			await waitInPanel(panel(), '#transcript', 'the transcript\'s next line', { contains: `gate ${journeyTask.taskId}: opened, exit 0`, timeoutMs: 60_000 });
			return running.split('\n')[0];
		});
		await step('the finished task needs the developer: all three say "needs you"; the detail lists the changed files with +/−', async () => {
			const states = await agree('needs you', 90_000);
			const files = await waitInPanel(panel(), '#review-changes', 'the changed files', { contains: 'docs/NOTES.md' });
			if (!/\+\d+/.test(files)) { throw new Error(`no +/− counts beside the files: ${files}`); }
			return states;
		});
		await step('Open Diff shows the task\'s own diff (baseCommit..resultCommit) in a diff editor', async () => {
			await clickInPanel(panel(), '#review-changes [data-action="task/openChanges"]', 'the Open Diff button');
			const run = latestRun(journeyTask.taskId) as { baseCommit: string; resultCommit: string };
			const expected = git('diff', '--name-only', run.baseCommit, run.resultCommit).split('\n').filter((f) => f !== '');
			const tab = page.locator('.tabs-container .tab').filter({ hasText: `Changes of "${journeyTask.title}"` }).first();
			await tab.waitFor({ state: 'visible', timeout: 20_000 });
			const editor = page.locator('.part.editor .multiDiffEntry');
			await pollFor(`${expected.length} files in the diff editor`, 20_000, async () => ((await editor.count()) === expected.length ? true : undefined));
			const headers = (await page.locator('.part.editor .multiDiffEntry .header').allInnerTexts()).join(' | ');
			for (const file of expected) {
				if (!headers.includes(file.split('/').pop()!)) { throw new Error(`the diff editor lists ${headers}, not ${file}`); }
			}
			const notes = git('show', `${run.resultCommit}:docs/NOTES.md`).split('\n')[2]!;
			await page.locator('.part.editor .multiDiffEntry .editor.modified .view-line').filter({ hasText: notes }).first().waitFor({ state: 'visible', timeout: 10_000 });
			await shot('journey-diff');
			return `${expected.join(', ')} at ${run.baseCommit.slice(0, 8)}..${run.resultCommit.slice(0, 8)}`;
		});
		await step('a line of the diff takes a comment for the agent (Comments API); the panel lists it as path:line; all three still say "needs you"', async () => {
			const run = latestRun(journeyTask.taskId) as { resultCommit: string };
			const lineText = git('show', `${run.resultCommit}:docs/NOTES.md`).split('\n')[2]!;
			await commentOnDiffLine(workbench, 'NOTES.md', lineText, 2, comment);
			const thread = await page.locator('.part.editor .review-widget .head').first().innerText({ timeout: 5000 });
			if (!thread.includes(`For “${journeyTask.title}”`)) { throw new Error(`the comment thread is not named by its task's title: "${thread}"`); }
			await shot('journey-comment');
			frame = await showPanelTab(workbench);
			await selectTask(panel(), journeyTask.taskId);
			const listed = await waitInPanel(panel(), '#review-comments', 'the comment in the task detail', { contains: `docs/NOTES.md:3 — ${comment}` });
			// Reviewing changed nothing yet: the decision is still the developer's.
			return `${await agree('needs you')}; ${listed.replace(/\s+/g, ' ')}`;
		});
		await step('Request changes sends the note with `path:line — comment`; the source agent reworks the task: all three say "agent working"; the rework is selected as attempt 2 of 2', async () => {
			await panel().locator('#task-note textarea').first().fill('Close, but not yet.', { timeout: 5000 });
			await clickInPanel(panel(), '#acceptance [data-action="task/requestChanges"]', 'the Request changes button');
			const note = await pollFor('the changes_requested checkpoint with the note', 30_000, async () => {
				const plan = cli(['plan', 'issue', 'get', '--issue-id', issueId, '--full', '--as-user']);
				const checkpoints = plan['checkpoints'] as { kind: string; note?: string }[];
				return checkpoints.find((c) => c.kind === 'changes_requested')?.note;
			});
			if (!note.includes(`docs/NOTES.md:3 — ${comment}`)) { throw new Error(`the note sent is "${note}"`); }
			const states = await agree('agent working', 90_000);
			// The task shown was superseded by the source agent's rework: the panel follows it to the next attempt.
			const fixed = `${journeyTask.taskId}-fixed`;
			await waitInPanel(panel(), `#task-detail[data-task-id="${fixed}"]`, 'the rework selected in place of the task it replaced', { timeoutMs: 30_000 });
			const attempt = await waitInPanel(panel(), '#attempts', 'the rework\'s attempt', { contains: 'Attempt 2 of 2' });
			if (!attempt.includes('Attempt 1 — changes requested: Close, but not yet.')) { throw new Error(`the rework's attempts read "${attempt}"`); }
			return `${states}; note: ${JSON.stringify(note)}; ${attempt.replace(/\s+/g, ' ').trim()}`;
		});
		await step('the rework finishes and needs the developer; Accept in the panel; the source agent completes; Goal Review: all three say "needs you"', async () => {
			await waitInPanel(panel(), '#transcript', 'the rework\'s transcript', { contains: `gate ${journeyTask.taskId}-fixed: waiting`, timeoutMs: 60_000 });
			writeGate(gateFile(gateDir, issueId, `${journeyTask.taskId}-fixed`), 0);
			await agree('needs you', 90_000);
			await clickInPanel(panel(), '#acceptance [data-action="task/accept"]', 'the Accept button of the rework');
			await waitInPanel(panel(), '#goal-review', 'Goal Review in the panel', { timeoutMs: 90_000 });
			const states = await agree('needs you', 30_000);
			if (!states.includes('goal review')) { throw new Error(`Goal Review is not what the panel says needs the developer: ${states}`); }
			await shot('journey-goal-review');
			await clickInPanel(panel(), '#goal-review [data-action="goal/confirm"]', 'the Confirm goal button');
			return states;
		});
		// Done means delivered: the confirmed goal's work is on its task branches, so the issue is ready to integrate
		// (Integrate from the panel is the ui stage's "Integrate in the panel" step).
		await step('after Confirm goal: all three say "needs you": ready to integrate', async () => {
			// Goal Review also read "needs you": wait for the confirmation to land rather than read the state before it.
			let states = '';
			await pollFor('the confirmed issue to read ready to integrate', 60_000, async () => {
				states = await agree('needs you', 30_000);
				return states.includes('ready to integrate') ? true : undefined;
			}).catch(() => { throw new Error(`the confirmed issue is not ready to integrate: ${states}`); });
			await tidyForScreenshot(workbench);
			await shot('journey-done');
			return states;
		});
	});
}
