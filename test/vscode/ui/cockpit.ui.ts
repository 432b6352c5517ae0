// The issue panel's second pass through the real workbench, as a developer uses it: a failed task shows its cause
// (the Host's words and its stderr line in the card, the line in the transcript, one output button); the task form adds
// two tasks (multi-line content, a dependency, the agent; the second sent with Ctrl+Enter), edits one and deletes it;
// the List view shows agent / duration / cost and accepts two checked tasks at once; the keyboard reaches the review
// first, and Ctrl+Alt+A / Ctrl+Alt+R / Ctrl+Alt+N accept, request changes and go to the next task needing the developer;
// request changes reads "Changes requested" (never a failure), then the rework stays selected as "Attempt 2 of 2";
// an agent's tool call is allowed with an edited command line, from the panel and from the notification's Edit….
// Each new screen is shot in Light+, Dark+ and High Contrast with every text's contrast measured. Facts are read back
// with the `tutti` CLI from outside VS Code; every wait is bounded.
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import type { UiResult } from './board.ui.js';
import { tidyForScreenshot } from './panel.ui.js';
import { runStage, startTutti } from './stageSteps.js';
import { type CliCaller, tuttiCli } from './tuttiCli.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

interface CliTask {
	readonly taskId: string;
	readonly title: string;
	readonly content: string;
	readonly status: string;
	readonly acceptanceState: string;
	readonly dependencyTaskIds: string[];
	readonly rework?: { readonly kind: string } | null;
	readonly agentTargetId: string;
}

const quickInput = '.quick-input-widget .quick-input-box input';

/** The screens this stage adds to docs/screenshots/ (each in -light, -dark and -hc). */
export const cockpitScreens = ['panel-failed', 'panel-way-forward', 'panel-task-form', 'panel-list-accept', 'panel-approval-edit', 'panel-changes-requested', 'panel-attempts'] as const;

function tasksOf(cli: CliCaller, issueId: string): CliTask[] {
	return cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['tasks'] as CliTask[];
}

function taskOf(cli: CliCaller, issueId: string, taskId: string): CliTask | undefined {
	return tasksOf(cli, issueId).find((t) => t.taskId === taskId);
}

/** Opens an issue's panel from the board (its row), with every other editor closed. */
async function openFromBoard(workbench: Workbench, title: string): Promise<WebviewFrame> {
	await workbench.runCommand('View: Close All Editors');
	await tidyForScreenshot(workbench);
	const row = workbench.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: title }).first();
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await row.click({ timeout: 5000 });
	return issuePanelFrame(workbench.page, title);
}

async function selectNode(panel: WebviewFrame, taskId: string): Promise<void> {
	await panel.locator(`g.node[data-task-id="${taskId}"]`).first().click({ timeout: 10_000 });
	await waitInPanel(panel, `#task-detail[data-task-id="${taskId}"][aria-busy="false"]`, `the detail of task ${taskId}, echoed by the Host`);
}

async function click(panel: WebviewFrame, selector: string, what: string): Promise<void> {
	const target = panel.locator(selector).first();
	await pollFor(what, 15_000, async () => ((await target.isVisible()) ? true : undefined));
	await target.click({ timeout: 5000 });
}

/** The id of the element focused in the panel (its own document). */
function focusedId(panel: WebviewFrame): Promise<string> {
	return panel.evaluate<string>('document.activeElement ? document.activeElement.id : ""');
}

export async function runCockpitUi(session: VsCodeSession, workspace: string): Promise<UiResult> {
	const cli = tuttiCli(session, workspace);
	const manualIssue = (title: string, paused = false): string =>
		cli(['issue', 'create', '--title', title, '--as-user', ...(paused ? ['--dispatch-paused'] : [])])['issueId'] as string;
	return runStage(session, workspace, { label: 'cockpit' }, async (stage) => {
		const { workbench, page, step, inThemes } = stage;
		// A new window starts its own Host (in a folder with no store yet, once the developer starts Tutti in it): the CLI
		// reaches it once it answers.
		await startTutti(stage, session, workspace);
		await step('a failed task shows its cause: the Host\'s words and its stderr line in the card, the line in the transcript, one output button', async () => {
			const issueId = manualIssue('Cause of a failure');
			const added = cli(['issue', 'task', 'add', '--issue-id', issueId, '--title', 'Run the test suite', '--agent-target-id', 'tests-fail', '--as-user']);
			if (added['taskId'] !== 'run-the-test-suite') { throw new Error(`task add without an id named it ${String(added['taskId'])}, not after its title`); }
			await pollFor('the task to fail', 30_000, async () => (taskOf(cli, issueId, 'run-the-test-suite')?.status === 'failed' ? true : undefined));
			const panel = await openFromBoard(workbench, 'Cause of a failure');
			await selectNode(panel, 'run-the-test-suite');
			const decision = await waitInPanel(panel, '#failure-decision', 'the failure card\'s decision line', { contains: 'Failed: exit code 3' });
			if (decision.trim() !== 'Failed: exit code 3 — retry, edit or stop') { throw new Error(`the card says "${decision}"`); }
			await waitInPanel(panel, '#stderr-tail', 'the stderr line in the failure card', { contains: 'npm ERR! 3 tests failed' });
			const transcript = await waitInPanel(panel, '#transcript', 'the stderr line in the transcript', { contains: 'npm ERR! 3 tests failed' });
			if (transcript.indexOf('running 12 tests') < 0 || transcript.indexOf('running 12 tests') > transcript.indexOf('npm ERR!')) {
				throw new Error(`the transcript does not read stdout then stderr: ${transcript}`);
			}
			const outputs = await panel.locator('#task-detail [data-action="run/openOutput"]').count();
			if (outputs !== 1) { throw new Error(`${outputs} output buttons for the one Run`); }
			return `${decision.trim()}; ${await inThemes('panel-failed', panel)}`;
		});

		await step('a failed task offers Retry and Edit and retry (the Host\'s retry control): Edit and retry opens the form on the task, its edit goes with the new attempt; Retry runs it again', async () => {
			const issueId = (cli(['issue', 'list', '--as-user'])['issues'] as { issueId: string; title: string }[]).find((i) => i.title === 'Cause of a failure')!.issueId;
			const runsOf = (): number => (cli(['run', 'list', '--issue-id', issueId, '--as-user'])['runs'] as unknown[]).length;
			const panel = await openFromBoard(workbench, 'Cause of a failure');
			await selectNode(panel, 'run-the-test-suite');
			await waitInPanel(panel, '#way-forward', 'the ways forward on the failed task', { contains: 'Edit and retry' });
			const contrast = await inThemes('panel-way-forward', panel);
			await click(panel, '#way-forward [data-action="taskForm/retry"]', 'Edit and retry');
			await waitInPanel(panel, '#task-form-heading', 'the task form on the failed task', { contains: 'Edit and retry task Run the test suite' });
			const title = panel.locator('#task-form-title');
			await pollFor('the form filled with the task', 10_000, async () => ((await title.inputValue({ timeout: 1000 })) === 'Run the test suite' ? true : undefined));
			await panel.locator('#task-form-content textarea').first().fill('Run the suite one file at a time.', { timeout: 5000 });
			await click(panel, '#task-form-submit', 'Retry in the form');
			await pollFor('a second Run with the edited content, failed again (the same agent)', 30_000, async () => {
				const t = taskOf(cli, issueId, 'run-the-test-suite');
				return runsOf() === 2 && t?.status === 'failed' && t.content === 'Run the suite one file at a time.' ? true : undefined;
			});
			await pollFor('the form to close once the retry was taken', 15_000, async () => ((await panel.locator('#task-form').count()) === 0 ? true : undefined));
			await click(panel, '#way-forward [data-action="task/retry"]', 'Retry');
			await pollFor('a third Run', 30_000, async () => (runsOf() === 3 && taskOf(cli, issueId, 'run-the-test-suite')?.status === 'failed' ? true : undefined));
			return contrast;
		});

		await step('the task form adds two tasks (multi-line content, a dependency, the agent; the second with Ctrl+Enter), edits one and deletes it', async () => {
			const issueId = manualIssue('Plan by hand', true);
			const panel = await openFromBoard(workbench, 'Plan by hand');
			await click(panel, '#issue-controls [data-action="task/add"]', 'Add task in the issue controls');
			await waitInPanel(panel, '#task-form', 'the task form');
			if (await focusedId(panel) !== 'task-form-title') { throw new Error(`the form opened with the focus on "${await focusedId(panel)}", not its title`); }
			await panel.locator('#task-form-title').fill('Write the parser', { timeout: 5000 });
			await panel.locator('#task-form-content textarea').first().fill('Parse the input.\nReport errors with line numbers.', { timeout: 5000 });
			await panel.locator('#task-form-agent').selectOption('sh', { timeout: 5000 });
			await click(panel, '#task-form-submit', 'Add task in the form');
			await pollFor('the first task in the graph', 15_000, async () => ((await panel.locator('g.node[data-task-id="write-the-parser"]').count()) === 1 ? true : undefined));
			const first = taskOf(cli, issueId, 'write-the-parser');
			if (first?.content !== 'Parse the input.\nReport errors with line numbers.' || first.agentTargetId !== 'sh') { throw new Error(`the first task reads ${JSON.stringify(first)}`); }
			await click(panel, '#issue-controls [data-action="task/add"]', 'Add task again');
			await waitInPanel(panel, '#task-form', 'the task form, empty again');
			await panel.locator('#task-form-title').fill('Document the parser', { timeout: 5000 });
			await panel.locator('#dep-write-the-parser').check({ timeout: 5000 });
			await panel.locator('#task-form-content textarea').first().fill('Every error message, with an example.', { timeout: 5000 });
			const contrast = await inThemes('panel-task-form', panel);
			await panel.locator('#task-form-content textarea').first().press('Control+Enter', { timeout: 5000 });
			await pollFor('the second task, sent with Ctrl+Enter', 15_000, async () => (taskOf(cli, issueId, 'document-the-parser') ? true : undefined));
			if (JSON.stringify(taskOf(cli, issueId, 'document-the-parser')?.dependencyTaskIds) !== '["write-the-parser"]') { throw new Error('the dependency was not sent'); }
			await pollFor('the form to close once the task was taken', 15_000, async () => ((await panel.locator('#task-form').count()) === 0 ? true : undefined));

			await selectNode(panel, 'document-the-parser');
			await click(panel, '#task-actions [data-action="taskForm/edit"]', 'Edit on the task');
			const title = panel.locator('#task-form-title');
			await pollFor('the form filled with the task', 10_000, async () => ((await title.inputValue({ timeout: 1000 })) === 'Document the parser' ? true : undefined));
			await title.fill('Document the parser and its errors', { timeout: 5000 });
			await panel.locator('#dep-write-the-parser').uncheck({ timeout: 5000 });
			await click(panel, '#task-form-submit', 'Save in the form');
			await pollFor('the edit in the store', 15_000, async () => {
				const t = taskOf(cli, issueId, 'document-the-parser');
				return t?.title === 'Document the parser and its errors' && t.dependencyTaskIds.length === 0 ? true : undefined;
			});
			await waitInPanel(panel, '#detail-title', 'the new title in the detail', { contains: 'and its errors' });
			await click(panel, '#task-actions [data-action="task/deleteAsk"]', 'Delete… on the task');
			await waitInPanel(panel, '#delete-confirm', 'the delete confirmation', { contains: 'It has never run' });
			await click(panel, '#delete-confirm [data-action="task/delete"]', 'Delete task in the confirmation');
			await pollFor('the task gone from the store and the graph', 15_000, async () =>
				(taskOf(cli, issueId, 'document-the-parser') === undefined && (await panel.locator('g.node[data-task-id]').count()) === 1 ? true : undefined));
			return contrast;
		});

		await step('the List view shows agent, duration and cost, and accepts the two checked tasks at once', async () => {
			const issueId = manualIssue('Accept in bulk');
			for (const title of ['Greet Ada', 'Greet Bob', 'Greet Cy', 'Greet Di']) {
				cli(['issue', 'task', 'add', '--issue-id', issueId, '--title', title, '--agent-target-id', 'sh', '--as-user']);
			}
			await pollFor('four tasks awaiting acceptance', 60_000, async () => (tasksOf(cli, issueId).every((t) => t.status === 'pending_acceptance') ? true : undefined));
			const panel = await openFromBoard(workbench, 'Accept in bulk');
			await click(panel, '[data-action="mode/set"][data-mode="list"]', 'the List toggle');
			await waitInPanel(panel, '#task-list thead', 'the list\'s columns', { contains: 'Duration' });
			const head = await panel.locator('#task-list thead').innerText({ timeout: 2000 });
			if (!['Agent', 'Duration', 'Cost'].every((c) => head.includes(c))) { throw new Error(`the list's columns: ${head}`); }
			const row = await panel.locator('#task-list tr[data-task-id="greet-ada"]').innerText({ timeout: 2000 });
			if (!/\bsh\b/.test(row) || !/\d+(\.\d)?s/.test(row) || !row.includes('$')) { throw new Error(`the row of greet-ada: ${row}`); }
			await panel.locator('#task-list tr[data-task-id="greet-ada"] input[type="checkbox"]').check({ timeout: 5000 });
			await panel.locator('#task-list tr[data-task-id="greet-bob"] input[type="checkbox"]').check({ timeout: 5000 });
			await waitInPanel(panel, '#accept-selected', 'Accept selected (2)', { contains: 'Accept selected (2)' });
			const contrast = await inThemes('panel-list-accept', panel);
			await click(panel, '#accept-selected', 'Accept selected');
			await pollFor('greet-ada and greet-bob accepted, the others still awaiting', 20_000, async () => {
				const tasks = tasksOf(cli, issueId);
				const accepted = tasks.filter((t) => t.status === 'completed' && t.acceptanceState === 'user_accepted').map((t) => t.taskId).sort();
				return accepted.join(',') === 'greet-ada,greet-bob' && tasks.filter((t) => t.status === 'pending_acceptance').length === 2 ? true : undefined;
			});
			await click(panel, '[data-action="mode/set"][data-mode="graph"]', 'the Graph toggle');
			return contrast;
		});

		await step('the keyboard reaches the review first (Tab, Enter), and Ctrl+Alt+A, Ctrl+Alt+R and Ctrl+Alt+N accept, request changes and go on', async () => {
			const issueId = (cli(['issue', 'list', '--as-user'])['issues'] as { issueId: string; title: string }[]).find((i) => i.title === 'Accept in bulk')!.issueId;
			const panel = await issuePanelFrame(page, 'Accept in bulk');
			// A click on the header's empty top edge puts the panel's Tab starting point before everything in it.
			await panel.locator('#header-region').click({ position: { x: 4, y: 2 }, timeout: 5000 });
			await page.keyboard.press('Tab');
			if (await focusedId(panel) !== 'review-jump') { throw new Error(`the first Tab stop is "${await focusedId(panel)}", not the review`); }
			await page.keyboard.press('Enter');
			await pollFor('Accept focused after one Tab and Enter', 10_000, async () => ((await focusedId(panel)) === 'accept-task' ? true : undefined));
			const reviewed = await panel.locator('#task-detail').getAttribute('data-task-id', { timeout: 2000 }) ?? '';
			// The Host has the selection (its snapshot echoed it): the keybinding's context follows it.
			await waitInPanel(panel, `#task-detail[data-task-id="${reviewed}"][aria-busy="false"]`, 'the selection echoed by the Host');
			await page.keyboard.press('Control+Alt+KeyA');
			await pollFor(`Ctrl+Alt+A accepting ${reviewed}`, 20_000, async () => (taskOf(cli, issueId, reviewed)?.status === 'completed' ? true : undefined));
			const other = tasksOf(cli, issueId).find((t) => t.status === 'pending_acceptance')!.taskId;
			await selectNode(panel, other);
			await page.keyboard.press('Control+Alt+KeyR');
			await page.locator('.quick-input-widget').filter({ hasText: 'What should change?' }).first().waitFor({ state: 'visible', timeout: 10_000 });
			await page.locator(quickInput).first().fill('Greet in French too.', { timeout: 5000 });
			await page.keyboard.press('Enter');
			await pollFor(`Ctrl+Alt+R requesting changes on ${other}`, 20_000, async () => (taskOf(cli, issueId, other)?.rework?.kind === 'changes_requested' ? true : undefined));
			// What needs the developer now, by the Host: Ctrl+Alt+N opens one of those tasks.
			type Listed = { title: string; attention: { state: string; reasons: { taskIds: string[] }[] } };
			const listed = cli(['issue', 'list', '--as-user'])['issues'] as Listed[];
			const needs = new Set(listed.flatMap((i) => i.attention.reasons.flatMap((r) => r.taskIds)));
			// An issue that needs the developer for itself (Goal Review, an idle source agent) opens with no task selected.
			const forItself = new Set(listed.filter((i) => i.attention.state === 'needs_you'
				&& (i.attention.reasons.length === 0 || i.attention.reasons.some((r) => r.taskIds.length === 0))).map((i) => i.title));
			const titles = new Map<string, string>(listed.map((i) => [`Tutti: ${i.title}`, i.title]));
			await panel.locator('#header-region').click({ position: { x: 4, y: 2 }, timeout: 5000 });
			await page.keyboard.press('Control+Alt+KeyN');
			const opened = await pollFor('Ctrl+Alt+N opening a task that needs you', 20_000, async () => {
				const tab = (await page.locator('.tabs-container .tab.active').first().innerText({ timeout: 1000 }).catch(() => '')).trim().split('\n')[0] ?? '';
				const title = titles.get(tab);
				if (title === undefined) { return undefined; }
				const frame = await issuePanelFrame(page, title, 5000).catch(() => undefined);
				const id = frame ? await frame.evaluate<string>("document.querySelector('#task-detail')?.getAttribute('data-task-id') ?? ''").catch(() => '') : '';
				if (id === '') { return forItself.has(title) ? `"${title}" itself` : undefined; }
				return id !== other && needs.has(id) ? `${id} of "${title}"` : undefined;
			});
			await page.keyboard.press('F1');
			await page.locator(quickInput).first().fill('>Tutti: Next Task Needing You', { timeout: 5000 });
			const keys = page.locator('.quick-input-widget .quick-input-list .monaco-list-row').filter({ hasText: 'Next Task Needing You' }).first().locator('.monaco-keybinding');
			await keys.waitFor({ state: 'visible', timeout: 10_000 });
			const shown = (await keys.innerText({ timeout: 2000 })).replace(/\s+/g, '');
			await page.keyboard.press('Escape');
			if (!/Ctrl\+Alt\+N/i.test(shown)) { throw new Error(`the palette shows "${shown}" beside Next Task Needing You`); }
			return `review reached in 1 Tab; accepted ${reviewed}; changes requested on ${other}; Ctrl+Alt+N opened ${opened}; palette shows ${shown}`;
		});

		await step('request changes → "Changes requested" (not a failure), then the rework selected as "attempt 2 of 2" with one line for attempt 1', async () => {
			const issueId = manualIssue('Rework a greeting');
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--title', 'Greet Eve', '--agent-target-id', 'sh', '--as-user']);
			await pollFor('the task awaiting acceptance', 30_000, async () => (taskOf(cli, issueId, 'greet-eve')?.status === 'pending_acceptance' ? true : undefined));
			const panel = await openFromBoard(workbench, 'Rework a greeting');
			await selectNode(panel, 'greet-eve');
			// Paused from the panel, so the state between the decision and the new attempt stays on the screen.
			await click(panel, '#issue-controls [data-action="issue/pause"]', 'Pause in the issue controls');
			await waitInPanel(panel, '#issue-controls [data-action="issue/resume"]', 'Resume, once paused');
			await panel.locator('#task-note textarea').first().fill('Greet her in French too.', { timeout: 5000 });
			await click(panel, '#acceptance [data-action="task/requestChanges"]', 'Request changes in the detail');
			const chip = await waitInPanel(panel, '#task-detail .detail-meta .status-chip', 'the detail\'s state', { contains: 'Changes requested' });
			const chipClass = await panel.locator('#task-detail .detail-meta .status-chip').first().getAttribute('class', { timeout: 2000 }) ?? '';
			const node = panel.locator('g.node[data-task-id="greet-eve"]').first();
			const nodeClass = await node.getAttribute('class', { timeout: 2000 }) ?? '';
			if (/status-failed/.test(`${chipClass} ${nodeClass}`) || !/status-rework/.test(nodeClass)) { throw new Error(`drawn as "${chipClass}" / "${nodeClass}"`); }
			const svgText = (selector: string): Promise<string> => panel.evaluate<string>(`document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`);
			const nodeText = await svgText('g.node[data-task-id="greet-eve"] .node-status');
			if (!nodeText.includes('Changes requested')) { throw new Error(`the node reads "${nodeText}"`); }
			// The status chips count it by the same state: one "Changes requested 1", no Failed or Not started chip.
			const chipsRead = await pollFor('the status chips to read "Changes requested 1"', 10_000, async () => {
				const texts = (await panel.locator('[data-action="filter/status"]').allInnerTexts()).map((x) => x.replace(/\s+/g, ' ').trim());
				return texts.length === 1 && texts[0] === 'Changes requested 1' ? texts.join(', ') : undefined;
			}).catch(async (e: unknown) => {
				throw new Error(`${String(e)}; the chips read "${(await panel.locator('[data-action="filter/status"]').allInnerTexts()).join(' | ')}"`);
			});
			const earlier = await waitInPanel(panel, '#attempts', 'the earlier attempt\'s line', { contains: 'Attempt 1 — changes requested: Greet her in French too.' });
			if ((await panel.locator('#task-detail [data-action="run/openOutput"]').count()) !== 1 || (await panel.locator('#failure-cause').count()) !== 0) { throw new Error('the decision is drawn as a failure'); }
			const waiting = await inThemes('panel-changes-requested', panel);
			await click(panel, '#issue-controls [data-action="issue/resume"]', 'Resume in the issue controls');
			await pollFor('the second attempt awaiting acceptance', 30_000, async () => {
				const t = taskOf(cli, issueId, 'greet-eve') as (CliTask & { attempts?: { label: string } }) | undefined;
				return t?.status === 'pending_acceptance' && t.attempts?.label === 'Attempt 2 of 2' ? true : undefined;
			});
			// The rework is the same task's next attempt: it stays selected and reads attempt 2 of 2.
			await waitInPanel(panel, '#task-detail[data-task-id="greet-eve"] #attempt-label', 'the attempt in the detail', { contains: 'Attempt 2 of 2' });
			await waitInPanel(panel, '#task-detail .detail-meta .status-chip', 'the new attempt awaiting acceptance', { contains: 'Awaiting acceptance' });
			const status = await pollFor('the node to read attempt 2 of 2', 10_000, async () => {
				const tag = await svgText('g.node[data-task-id="greet-eve"] .node-attempt');
				const label = await node.getAttribute('aria-label', { timeout: 2000 }) ?? '';
				return tag === '2 of 2' && label.includes('attempt 2 of 2') ? `${tag} (${label})` : undefined;
			});
			const attempts = await inThemes('panel-attempts', panel);
			return `${chip.trim()} (${chipClass}); chips: ${chipsRead}; ${earlier.replace(/\s+/g, ' ').trim()}; then "${status}"; ${waiting}; ${attempts}`;
		});

		await step('an agent\'s tool call is allowed with an edited command line, from the panel and from the notification\'s Edit…', async () => {
			const issueId = manualIssue('Ask before cleaning');
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--title', 'Clean the build', '--agent-target-id', 'asker', '--auto-accept', '--as-user']);
			await pollFor('the agent\'s approval request', 30_000, async () =>
				((cli(['approval', 'list', '--as-user'])['approvals'] as { issueId: string }[]).some((a) => a.issueId === issueId) ? true : undefined));
			const panel = await openFromBoard(workbench, 'Ask before cleaning');
			await selectNode(panel, 'clean-the-build');
			await waitInPanel(panel, '#approvals', 'the pending approval', { contains: 'rm -rf build' });
			await panel.locator('#approvals details.approval-edit summary').first().click({ timeout: 5000 });
			const editor = panel.locator('#approvals details.approval-edit textarea').first();
			await pollFor('the editor filled with the command line', 10_000, async () => ((await editor.inputValue({ timeout: 1000 })) === 'rm -rf build' ? true : undefined));
			await editor.fill('rm -rf build/tmp', { timeout: 5000 });
			const contrast = await inThemes('panel-approval-edit', panel);
			await editor.press('Control+Enter', { timeout: 5000 });
			const runId = await pollFor('the task\'s Run', 10_000, async () => (taskOf(cli, issueId, 'clean-the-build') as unknown as { latestRunId?: string })?.latestRunId || undefined);
			const answered = await pollFor('the agent told to run the edited command', 30_000, async () => {
				const log = cli(['run', 'log', '--run-id', runId, '--as-user'])['data'] as string;
				return log.includes('answer:') ? log : undefined;
			});
			if (!answered.includes('"command":"rm -rf build/tmp"') || !answered.includes('"behavior":"allow"')) { throw new Error(`the agent got ${answered}`); }

			// The same from the notification: Edit… opens the command line in an input box.
			await workbench.runCommand('Notifications: Clear All Notifications', { timeoutMs: 5000 }).catch(() => undefined);
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--title', 'Clean the cache', '--agent-target-id', 'asker', '--auto-accept', '--as-user']);
			await workbench.runCommand('View: Close All Editors');
			await workbench.waitForNotification('task clean-the-cache', { timeoutMs: 30_000 });
			const toast = page.locator('.notification-toast, .notifications-center').filter({ hasText: 'task clean-the-cache' }).first();
			await toast.locator('a.monaco-button, .monaco-button').filter({ hasText: 'Edit…' }).first().click({ timeout: 5000 });
			await page.locator('.quick-input-widget').filter({ hasText: 'command line to run instead' }).first().waitFor({ state: 'visible', timeout: 10_000 });
			const box = page.locator(quickInput).first();
			if ((await box.inputValue({ timeout: 2000 })) !== 'rm -rf build') { throw new Error(`the input box starts with "${await box.inputValue()}"`); }
			await box.fill('rm -rf build/cache', { timeout: 5000 });
			await page.keyboard.press('Enter');
			const second = await pollFor('the second Run', 10_000, async () => (taskOf(cli, issueId, 'clean-the-cache') as unknown as { latestRunId?: string })?.latestRunId || undefined);
			const fromNotification = await pollFor('the agent told to run the command edited in the notification', 30_000, async () => {
				const log = cli(['run', 'log', '--run-id', second, '--as-user'])['data'] as string;
				return log.includes('answer:') ? log : undefined;
			});
			if (!fromNotification.includes('"command":"rm -rf build/cache"')) { throw new Error(`the agent got ${fromNotification}`); }
			return contrast;
		});
	});
}
