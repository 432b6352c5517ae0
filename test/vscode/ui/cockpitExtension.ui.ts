// The cockpit's second pass through the real workbench, as a developer uses it (Playwright clicks and typing; the CLI,
// git and the settings files only to check):
// - Add Agent's "Custom command…": a command target from its command line, working directory and environment,
//   without JSON; its absolute executable lands in the user's machine settings (tutti.agentPaths), never in the
//   folder's .vscode/settings.json, and the Host runs it from there.
// - New Issue lists command targets as ones that run tasks, not as planners.
// - One name per state: an unstarted manual issue is "Not started"; the board's context menu offers only what the
//   Host says applies to the issue under the cursor.
// - The Agents view lists a working worker of one issue and the source agent of another waiting on the developer;
//   Stop from the view stops the Run.
// - Tutti's diff editor: Accept Task and Request Changes (N comments) in its title bar, the comment thread named by
//   the task's title; Accept from the title bar accepts. Then Open Combined Diff from the board's menu.
// Screenshots of each new screen in Light+, Dark+ and High Contrast; the New Issue form's text contrast in each.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gateFile, gateStartedFile, writeGate } from '../../../scripts/workers/gate.js';
import type { VsCodeSession } from '../runInVsCode.js';
import type { Locator } from '../harness/playwright.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import { boardRow, boardRows, groupOf, type UiResult } from './board.ui.js';
import { commentOnDiffLine } from './diffComment.js';
import { ensureGitRepository } from './gitWorkspace.js';
import { fillAndCreate, openNewIssueForm } from './newIssueForm.js';
import { tidyForScreenshot } from './panel.ui.js';
import { ScriptedSource } from './scriptedSource.js';
import { runStage, startTutti } from './stageSteps.js';
import { inThemes } from './themes.js';
import { agentPathOf, tuttiCli, tuttiCliAsync } from './tuttiCli.js';
import { issuePanelFrame, waitInPanel } from './webviewFrame.js';

const quickInput = '.quick-input-widget .quick-input-box input';
const quickRows = '.quick-input-widget .quick-input-list .monaco-list-row';
const agentName = 'my-agent';
const cacheIssue = 'Ship the cache';
const releaseIssue = 'Plan the release';
const lintIssue = 'Lint the code';
const lintTask = 'Write the lint rules';

/** The custom agent's script, committed in the workspace: it reads its task and says hello from its environment. */
export const agentScript = "let s='';process.stdin.on('data',(d)=>{s+=d;}).on('end',()=>{console.log(`my-agent: ${process.env.GREETING} (${s.length} bytes of task)`);});\n";

/** An executable only this machine has (outside PATH): a link to Node under another name. */
export function machineOnlyAgent(): string {
	const dir = mkdtempSync(join(tmpdir(), 'tutti-agent-bin-'));
	const file = join(dir, agentName);
	symlinkSync(process.execPath, file);
	return file;
}

async function answerQuickInput(workbench: Workbench, prompt: string, text: string): Promise<void> {
	await workbench.page.locator('.quick-input-widget').filter({ hasText: prompt }).first().waitFor({ state: 'visible', timeout: 10_000 });
	await workbench.page.locator(quickInput).first().fill(text, { timeout: 5000 });
	await workbench.page.keyboard.press('Enter');
}

async function pickQuickRow(workbench: Workbench, filter: string, rowText: string): Promise<void> {
	const input = workbench.page.locator(quickInput).first();
	await input.waitFor({ state: 'visible', timeout: 15_000 });
	await input.fill(filter, { timeout: 5000 });
	const row = workbench.page.locator(quickRows).filter({ hasText: rowText }).first();
	await row.waitFor({ state: 'visible', timeout: 10_000 });
	await row.click({ timeout: 5000 });
}

/** The pane of a view in the Tutti container, expanded. */
async function viewPane(workbench: Workbench, title: string): Promise<Locator> {
	const page = workbench.page;
	const pane = page.locator('.part.sidebar .pane').filter({ has: page.locator('.pane-header .title', { hasText: new RegExp(`^${title}$`) }) }).first();
	const header = pane.locator('.pane-header').first();
	await header.waitFor({ state: 'visible', timeout: 15_000 });
	if ((await header.getAttribute('aria-expanded', { timeout: 2000 })) === 'false') { await header.click({ timeout: 5000 }); }
	return pane;
}

/** The items of the context menu open now (labels, in order), then closes it. */
async function contextMenuOf(workbench: Workbench, row: Locator): Promise<string[]> {
	await row.click({ button: 'right', timeout: 10_000 });
	const menu = workbench.page.locator('.context-view .monaco-menu').first();
	await menu.waitFor({ state: 'visible', timeout: 10_000 });
	const labels = (await menu.locator('.action-label').allInnerTexts()).map((l) => l.trim()).filter((l) => l !== '');
	return labels;
}

async function closeMenu(workbench: Workbench): Promise<void> {
	await workbench.page.keyboard.press('Escape');
	await workbench.page.locator('.context-view .monaco-menu').first().waitFor({ state: 'hidden', timeout: 5000 }).catch(() => undefined);
}

function titleAction(workbench: Workbench, label: string): Locator {
	return workbench.page.locator('.part.editor .editor-actions .action-label', { hasText: label }).first();
}

export async function runCockpitUi(session: VsCodeSession, workspace: string, gateDir: string, agentExecutable: string): Promise<UiResult> {
	const cli = tuttiCli(session, workspace);
	const issueId = (title: string): string => {
		const issues = cli(['issue', 'list', '--as-user'])['issues'] as { issueId: string; title: string }[];
		const found = issues.find((i) => i.title === title);
		if (found === undefined) { throw new Error(`no issue "${title}"`); }
		return found.issueId;
	};
	const task = (issue: string, taskId: string): { status: string; acceptanceState: string; latestRunId: string } => {
		const got = cli(['issue', 'get', '--issue-id', issue, '--task-id', taskId, '--as-user'])['tasks'] as { status: string; acceptanceState: string; latestRunId: string }[];
		if (got[0] === undefined) { throw new Error(`no task ${taskId} in ${issue}`); }
		return got[0];
	};
	let waiting = true;
	// The notifications say what a command reported (an error of Add Agent, a refused action).
	const showNotifications = (workbench: Workbench): Promise<void> => workbench.runCommand('Notifications: Show Notifications', { timeoutMs: 5000 });
	return runStage(session, workspace, { label: 'agents-view', beforeFailureShot: showNotifications }, async (stage) => {
		const { workbench, page, step, screenshots } = stage;
		try {
			await step('Add Agent → Custom command…: a command target from one line, a folder and NAME=value; its machine path goes to the user settings only', async () => {
				await startTutti(stage, session, workspace, { offered: true });
				await tidyForScreenshot(workbench);
				// The quick pick with "Custom command…", in each theme.
				await inThemes(workbench, workspace, undefined, async (theme) => {
					await workbench.runCommand('Tutti: Add Agent', { asksInput: true });
					await page.locator(quickRows).filter({ hasText: 'Custom command…' }).first().waitFor({ state: 'visible', timeout: 15_000 });
					screenshots.push(await workbench.screenshot(`add-agent-custom-${theme.suffix}`));
					await page.keyboard.press('Escape');
				});
				await workbench.runCommand('Tutti: Add Agent', { asksInput: true });
				await pickQuickRow(workbench, 'Custom command', 'Custom command…');
				await answerQuickInput(workbench, 'The command that runs a task', `${agentExecutable} tools/agent.js --quick`);
				await answerQuickInput(workbench, 'Its working directory', '');
				await answerQuickInput(workbench, 'Extra environment variables', 'GREETING=hello');
				await answerQuickInput(workbench, 'A name for this agent target', agentName);
				type Settings = { 'tutti.agentTargets': Record<string, unknown>[] };
				const target = await pollFor('the custom command target in the workspace settings', 15_000, async () =>
					(JSON.parse(readFileSync(join(workspace, '.vscode', 'settings.json'), 'utf8')) as Settings)['tutti.agentTargets'].find((t) => t['id'] === agentName));
				const expected = { id: agentName, adapter: 'command', argv: [agentName, 'tools/agent.js', '--quick'], env: { GREETING: 'hello' } };
				if (JSON.stringify(target) !== JSON.stringify(expected)) { throw new Error(`Add Agent wrote ${JSON.stringify(target)}, not ${JSON.stringify(expected)}`); }
				if (/"\//.test(JSON.stringify(target))) { throw new Error(`an absolute path in the folder's settings: ${JSON.stringify(target)}`); }
				const machinePath = await pollFor('tutti.agentPaths in the user settings', 10_000, async () => agentPathOf(session, agentName));
				if (machinePath !== agentExecutable) { throw new Error(`tutti.agentPaths.${agentName} is ${machinePath}, not ${agentExecutable}`); }
				// The window's Host restarted on the settings change and merged the machine's path in.
				const listed = await pollFor(`agent target ${agentName} found by the Host at its machine path`, 30_000, async () => {
					const targets = (cli(['agent', 'list', '--as-user'])['agentTargets'] as { id: string; found: boolean; path: string; canPlan: boolean }[]);
					const mine = targets.find((t) => t.id === agentName);
					return mine?.found === true && mine.path === agentExecutable ? mine : undefined;
				});
				return `${JSON.stringify(target)} in .vscode/settings.json; tutti.agentPaths.${agentName} = ${machinePath}; canPlan ${listed.canPlan}`;
			});

			await step('New Issue lists command targets as ones that run tasks (not choosable as planners); the form\'s text meets 4.5:1 in every theme', async () => {
				const form = await openNewIssueForm(workbench);
				const option = form.locator('.planner-option').filter({ hasText: `Agent "${agentName}" (command) — runs tasks` }).first();
				await pollFor('the custom agent listed as one that runs tasks', 15_000, async () => ((await option.isVisible()) ? true : undefined));
				const disabled = await option.locator('input').first().getAttribute('disabled', { timeout: 2000 });
				if (disabled === null) { throw new Error('a command target can be chosen as a planner'); }
				const contrast = await stage.inThemes('new-issue-planners', form);
				await fillAndCreate(form, { title: cacheIssue, goal: 'Warm it before the release.', planner: 'Manual tasks' });
				return contrast;
			});

			await step('an unstarted manual issue is "Not started" on the board; its context menu offers Start and Add Task, never Confirm Goal, Integrate or Pause', async () => {
				await boardRow(workbench, cacheIssue).waitFor({ state: 'visible', timeout: 15_000 });
				await pollFor(`"${cacheIssue}" under Not started`, 15_000, async () => ((await groupOf(workbench, cacheIssue)) === 'Not started' ? true : undefined));
				const menu = await contextMenuOf(workbench, boardRow(workbench, cacheIssue));
				await closeMenu(workbench);
				for (const wanted of ['Start Issue', 'Add Task', 'Open Issue']) { if (!menu.includes(wanted)) { throw new Error(`the menu lacks ${wanted}: ${menu.join(' | ')}`); } }
				for (const absent of ['Confirm Goal', 'Integrate Issue', 'Pause Issue', 'Open Run Output', 'Accept Task', 'Open Combined Diff']) {
					if (menu.includes(absent)) { throw new Error(`the menu offers ${absent} on an issue it does not apply to: ${menu.join(' | ')}`); }
				}
				await inThemes(workbench, workspace, undefined, async (theme) => {
					await contextMenuOf(workbench, boardRow(workbench, cacheIssue));
					screenshots.push(await workbench.screenshot(`board-menu-${theme.suffix}`));
					await closeMenu(workbench);
				});
				return menu.join(' | ');
			});

			await step('the custom command agent runs a task (the Host starts it from the machine path) once the issue is started', async () => {
				const cache = issueId(cacheIssue);
				cli(['issue', 'task', 'add', '--issue-id', cache, '--task-id', 'probe', '--title', 'Probe the cache', '--agent-target-id', agentName, '--as-user']);
				cli(['issue', 'task', 'add', '--issue-id', cache, '--task-id', 'warm', '--title', 'Warm the cache', '--agent-target-id', 'gate', '--as-user']);
				const row = boardRow(workbench, cacheIssue);
				await row.click({ timeout: 10_000 });
				await row.locator('.action-label[aria-label="Start Issue"]').first().click({ timeout: 10_000 });
				const probe = await pollFor('the custom agent\'s task to end', 30_000, async () => { const t = task(cache, 'probe'); return t.status !== 'not_started' && t.status !== 'running' ? t : undefined; });
				const log = cli(['run', 'log', '--run-id', probe.latestRunId, '--as-user'])['data'] as string;
				if (probe.status !== 'pending_acceptance' || !log.includes('my-agent: hello')) { throw new Error(`the custom agent's Run: ${probe.status}, output "${log}"`); }
				await pollFor('the gated worker of "Warm the cache" to start', 30_000, async () => (existsGate(gateDir, cache, 'warm') ? true : undefined));
				return log.trim();
			});

			await step('the Agents view lists a working worker of one issue and the source agent of another waiting on you, with elapsed time, tokens and cost', async () => {
				const source = ScriptedSource.create(session, workspace, releaseIssue, 'Release notes, reviewed.');
				source.add([{ taskId: 'notes', title: 'Write the notes', agentTargetId: 'sh' }]);
				source.schedule(['notes']);
				await pollFor('the release notes to await acceptance', 30_000, async () => (source.taskStatus('notes') === 'pending_acceptance' ? true : undefined));
				// The source agent waits for the developer's review in back-to-back bounded calls, as a real one does.
				void (async () => {
					while (waiting) { await tuttiCliAsync(session, workspace, ['await-review', '--issue-id', source.issueId], source.token).catch(() => undefined); }
				})();
				const pane = await viewPane(workbench, 'Agents');
				const rows = pane.locator('.monaco-list-row');
				const labels = await pollFor('two agents of two issues in the Agents view', 45_000, async () => {
					const seen: string[] = [];
					for (let i = 0; i < await rows.count(); i++) { seen.push((await rows.nth(i).getAttribute('aria-label', { timeout: 1000 })) ?? ''); }
					const worker = seen.find((l) => l.startsWith('Warm the cache, Working · '));
					const sourceRow = seen.find((l) => l.startsWith('Source agent, Waiting on you: in tutti await-review · '));
					return worker !== undefined && sourceRow !== undefined && seen.some((l) => l.startsWith(`${cacheIssue}:`)) && seen.some((l) => l.startsWith(`${releaseIssue}:`)) ? seen : undefined;
				});
				await stage.inThemes('agents-view');
				// Stop, inline on the worker's row: its Run is stopped and it leaves the view.
				const worker = rows.filter({ hasText: 'Warm the cache' }).first();
				// The row redraws each second (its elapsed time), which can take the inline action from under a click: hover and
				// click again until one lands.
				await pollFor('Stop Run on the worker\'s row to take a click', 45_000, async () => {
					try {
						await worker.hover({ timeout: 3000 });
						await worker.locator('.action-label[aria-label="Stop Run"]').first().click({ timeout: 3000 });
						return true;
					} catch {
						return undefined;
					}
				});
				await pollFor('the stopped worker to leave the Agents view', 30_000, async () => ((await rows.filter({ hasText: 'Warm the cache' }).count()) === 0 ? true : undefined));
				const stopped = task(issueId(cacheIssue), 'warm');
				if (stopped.status === 'running') { throw new Error('Stop from the Agents view left the Run running'); }
				return `${labels.join(' | ')}; after Stop: ${stopped.status}`;
			});

			await step('Tutti\'s diff editor: Accept Task and Request Changes in its title bar, Request Changes (1 comment) after a comment; the thread is named by the task', async () => {
				const lint = String(cli(['issue', 'create', '--title', lintIssue, '--auto-accept=false', '--as-user'])['issueId']);
				cli(['issue', 'task', 'add', '--issue-id', lint, '--task-id', 'rules', '--title', lintTask, '--agent-target-id', 'gate-worktree', '--as-user']);
				await pollFor('the lint task\'s worker to start', 30_000, async () => (existsGate(gateDir, lint, 'rules') ? true : undefined));
				writeGate(gateFile(gateDir, lint, 'rules'), 0);
				await pollFor('the lint task to await acceptance', 30_000, async () => (task(lint, 'rules').status === 'pending_acceptance' ? true : undefined));
				// A click on the board opens the issue (again, if the row was redrawn under the first click).
				const panel = await pollFor(`the issue panel of "${lintIssue}" from the board`, 60_000, async () => {
					await boardRow(workbench, lintIssue).click({ timeout: 10_000 });
					return issuePanelFrame(page, lintIssue, 10_000).catch(() => undefined);
				}, 0);
				const node = panel.locator('g.node[data-task-id="rules"]').first();
				await pollFor('the lint task in the graph', 30_000, async () => ((await node.isVisible()) ? true : undefined));
				await node.click({ timeout: 10_000 });
				await waitInPanel(panel, '#review-changes', 'the changed files', { contains: 'src/lint/rules.ts' });
				await panel.locator('#review-changes [data-action="task/openChanges"]').first().click({ timeout: 10_000 });
				await page.locator('.tabs-container .tab').filter({ hasText: `Changes of "${lintTask}"` }).first().waitFor({ state: 'visible', timeout: 20_000 });
				await titleAction(workbench, 'Accept Task').waitFor({ state: 'visible', timeout: 15_000 });
				await titleAction(workbench, 'Request Changes…').waitFor({ state: 'visible', timeout: 15_000 });
				await commentOnDiffLine(workbench, 'rules.ts', '"eqeqeq"', 2, 'Keep eqeqeq, but say why');
				const thread = await page.locator('.part.editor .review-widget .head').first().innerText({ timeout: 5000 });
				if (!thread.includes(`For “${lintTask}”`)) { throw new Error(`the thread is not named by the task's title: "${thread}"`); }
				await titleAction(workbench, 'Request Changes (1 comment)').waitFor({ state: 'visible', timeout: 15_000 });
				await stage.inThemes('diff-review');
				const bar = (await page.locator('.part.editor .editor-actions .action-label').allInnerTexts()).filter((t) => t.trim() !== '');
				return `title bar: ${bar.join(' | ')}; thread: ${thread.split('\n')[0]}`;
			});

			await step('Accept Task from the diff editor\'s title bar accepts the task; its buttons leave the title bar; the thread keeps the task\'s title', async () => {
				const lint = issueId(lintIssue);
				await titleAction(workbench, 'Accept Task').click({ timeout: 10_000 });
				const accepted = await pollFor('the task accepted', 20_000, async () => { const t = task(lint, 'rules'); return t.acceptanceState === 'user_accepted' ? t : undefined; });
				await pollFor('Accept Task to leave the title bar', 15_000, async () => ((await titleAction(workbench, 'Accept Task').count()) === 0 ? true : undefined));
				// The comment is kept, its thread still named by the task's title, and it says it will not be sent now.
				const thread = await pollFor('the thread to say its comment is not sent', 15_000, async () => {
					const head = await page.locator('.part.editor .review-widget .head').first().innerText({ timeout: 2000 }).catch(() => '');
					return head.includes('not sent: you accepted the task') ? head : undefined;
				});
				if (!thread.includes(`For “${lintTask}”`)) { throw new Error(`after Accept the thread is not named by the task's title: "${thread}"`); }
				return `${accepted.status}, ${accepted.acceptanceState}; thread: ${thread.split('\n')[0]}`;
			});

			await step('the board\'s menu of the accepted issue offers Integrate and Open Combined Diff; the combined diff opens the issue\'s whole work', async () => {
				// Its only task accepted, the manual issue needs the developer again: ready to integrate, under Needs you.
				const needsYou = boardRows(workbench).filter({ hasText: /^Needs you/ }).first();
				await needsYou.waitFor({ state: 'visible', timeout: 15_000 });
				if ((await needsYou.getAttribute('aria-expanded', { timeout: 2000 })) === 'false') { await needsYou.click({ timeout: 5000 }); }
				await boardRow(workbench, lintIssue).waitFor({ state: 'visible', timeout: 15_000 });
				const menu = await pollFor('Open Combined Diff in the board\'s menu', 20_000, async () => {
					const labels = await contextMenuOf(workbench, boardRow(workbench, lintIssue));
					if (labels.includes('Open Combined Diff')) { return labels; }
					await closeMenu(workbench);
					return undefined;
				});
				if (!menu.includes('Integrate Issue') || menu.includes('Start Issue') || menu.includes('Confirm Goal')) { throw new Error(`the menu: ${menu.join(' | ')}`); }
				await page.locator('.context-view .monaco-menu .action-label', { hasText: 'Open Combined Diff' }).first().click({ timeout: 5000 });
				const tab = page.locator('.tabs-container .tab').filter({ hasText: `Changes of issue "${lintIssue}" (1 accepted task)` }).first();
				await tab.waitFor({ state: 'visible', timeout: 20_000 });
				const entries = page.locator('.part.editor .multiDiffEntry');
				await pollFor('the combined diff\'s files', 20_000, async () => ((await entries.count()) >= 3 ? true : undefined));
				const headers = (await page.locator('.part.editor .multiDiffEntry .header').allInnerTexts()).join(' | ');
				for (const file of ['rules.ts', 'report.ts', 'LINT.md']) { if (!headers.includes(file)) { throw new Error(`the combined diff lists ${headers}, not ${file}`); } }
				await stage.inThemes('combined-diff');
				return `${menu.join(' | ')}; files: ${headers}`;
			});
		} finally {
			waiting = false;
		}
	});
}

function existsGate(gateDir: string, issueId: string, taskId: string): boolean {
	return existsSync(gateStartedFile(gateDir, issueId, taskId));
}

/** The workspace for this stage (before the Host starts): the custom agent's script, then a git repository of it. */
export function prepareCockpitWorkspace(workspace: string): void {
	mkdirSync(join(workspace, 'tools'), { recursive: true });
	writeFileSync(join(workspace, 'tools', 'agent.js'), agentScript);
	ensureGitRepository(workspace);
}
