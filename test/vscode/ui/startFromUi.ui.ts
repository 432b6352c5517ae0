// Starting work without a terminal, through the real workbench: Tutti: New Issue opens the form (an empty title is
// refused beside the field), a manual issue created from it opens its panel with an empty graph offering Add task
// and Start, Add task opens the panel's task form (title, content, agent), and Start runs the task. Checked
// with `tutti issue get` from outside VS Code; screenshots at each stage.
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { UiResult, UiStep } from './board.ui.js';
import { openNewIssueForm } from './newIssueForm.js';
import { tidyForScreenshot } from './panel.ui.js';
import { checkContrast } from './contrast.js';
import { inThemes } from './themes.js';
import { tuttiCli } from './tuttiCli.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

const title = 'Write the changelog';
const taskTitle = 'Say hello';

export async function runStartUi(session: VsCodeSession, workspace: string): Promise<UiResult> {
	const steps: UiStep[] = [];
	const screenshots: string[] = [];
	const workbench = await session.openWorkbench();
	const cli = tuttiCli(session, workspace);
	const step = async (name: string, body: () => Promise<string | void>): Promise<void> => {
		const detail = await body();
		steps.push({ name, ok: true, ...(detail ? { detail } : {}) });
	};
	const shot = async (name: string): Promise<void> => { screenshots.push(await workbench.screenshot(name)); };
	const issueOf = (): Record<string, unknown> | undefined => {
		const issues = cli(['issue', 'list', '--as-user'])['issues'] as { issueId: string; title: string }[];
		const found = issues.find((i) => i.title === title);
		return found ? cli(['issue', 'get', '--issue-id', found.issueId, '--as-user']) : undefined;
	};
	let panel: WebviewFrame | undefined;
	try {
		await step('Tutti: New Issue opens the form; Create with an empty title shows the error beside the field', async () => {
			await workbench.runCommand('View: Close All Editors');
			await tidyForScreenshot(workbench);
			const form = await openNewIssueForm(workbench);
			await form.locator('#create').click({ timeout: 5000 });
			await pollFor('the title error', 10_000, async () => ((await form.locator('#title-error').isVisible()) ? true : undefined));
			const error = await form.locator('#title-error').innerText({ timeout: 2000 });
			await shot('new-issue-form-error');
			await form.locator('#issue-title').fill(title, { timeout: 5000 });
			await form.locator('#issue-goal').fill('Every change since the last release, in CHANGELOG.md.', { timeout: 5000 });
			await form.locator('.planner-option label').filter({ hasText: 'Manual tasks' }).first().click({ timeout: 5000 });
			await shot('new-issue-form');
			// Every text of the form (its error included) against its background, in Light+, Dark+ and High Contrast.
			const contrast: string[] = [];
			const low: string[] = [];
			await inThemes(workbench, workspace, form, async (theme) => {
				await checkContrast(form, `the New Issue form in ${theme.name}`).then((ok) => contrast.push(`${theme.suffix}: ${ok}`), (e: Error) => low.push(e.message));
			});
			if (low.length > 0) { throw new Error(low.join(' | ')); }
			await form.locator('#create').click({ timeout: 5000 });
			return `${error}; text contrast ${contrast.join('; ')}`;
		});
		await step('the manual issue is created paused and its panel offers Add task and Start in the empty graph', async () => {
			panel = await issuePanelFrame(workbench.page, title);
			await waitInPanel(panel, '#graph-empty', 'the empty graph with Add task and Start', { contains: 'Add the tasks, then Start' });
			await pollFor('the Start button in the empty graph', 10_000, async () => ((await panel!.locator('#graph-empty [data-action="issue/start"]').isVisible()) ? true : undefined));
			const issue = issueOf();
			if (issue?.['dispatchPaused'] !== true || issue['planningSource'] !== 'manual') { throw new Error(`expected a paused manual issue, got ${JSON.stringify(issue)?.slice(0, 300)}`); }
			await tidyForScreenshot(workbench);
			await shot('panel-empty-manual');
			return String(issue['issueId']);
		});
		await step('Add task from the empty graph opens the task form (title, content, agent), and the task appears in the graph, not started, named after its title', async () => {
			await panel!.locator('#graph-empty [data-action="task/add"]').first().click({ timeout: 5000 });
			await waitInPanel(panel!, '#task-form', 'the task form');
			await panel!.locator('#task-form-title').fill(taskTitle, { timeout: 5000 });
			await panel!.locator('#task-form-content textarea').first().fill('Print hello.', { timeout: 5000 });
			await panel!.locator('#task-form-agent').selectOption('sh', { timeout: 5000 });
			await panel!.locator('#task-form-submit').first().click({ timeout: 5000 });
			await pollFor('the task node in the graph', 15_000, async () => ((await panel!.locator('g.node[data-task-id]').count()) === 1 ? true : undefined));
			const tasks = (issueOf()?.['tasks'] ?? []) as { taskId: string; title: string; content: string; status: string; agentTargetId: string }[];
			if (tasks.length !== 1 || tasks[0]!.taskId !== 'say-hello' || tasks[0]!.title !== taskTitle || tasks[0]!.content !== 'Print hello.' || tasks[0]!.status !== 'not_started' || tasks[0]!.agentTargetId !== 'sh') {
				throw new Error(`expected one not-started task say-hello on sh, got ${JSON.stringify(tasks)}`);
			}
			await shot('panel-task-added');
		});
		await step('Start in the panel starts dispatch and the task runs', async () => {
			await panel!.locator('#issue-controls [data-action="issue/start"]').first().click({ timeout: 5000 });
			const status = await pollFor('the task to run', 30_000, async () => {
				const task = ((issueOf()?.['tasks'] ?? []) as { status: string }[])[0];
				return task && task.status !== 'not_started' ? task.status : undefined;
			});
			await pollFor('the Start button to go', 10_000, async () => ((await panel!.locator('[data-action="issue/start"]').count()) === 0 ? true : undefined));
			await tidyForScreenshot(workbench);
			await shot('panel-started');
			return `task ${status}`;
		});
	} catch (error) {
		steps.push({ name: `start step ${steps.length + 1}`, ok: false, detail: error instanceof Error ? error.message : String(error) });
		await shot('start-failure').catch(() => undefined);
	} finally {
		await workbench.close();
	}
	return { steps, screenshots };
}
