// An integrate conflict walked through the panel, as a developer meets it: a manual issue's worktree task is accepted
// in the panel (the issue then reads Ready to integrate, Integrate its primary action); the branch moves on the same
// line; Integrate is refused, changes nothing, and the panel draws the conflict next to Integrate (the path in one line,
// then the Host's ways forward as short lines beside Update from base and Open the task's tree, and one Update from
// base in the whole panel); Open the task's tree opens a terminal in the task's worktree (its name and `pwd` say so);
// Update from base in that block starts a new attempt that merges the branch in (its agent resolves the conflict),
// accepted again in the panel; then Integrate puts the work on main and the issue is done. Ready to integrate and the
// conflict are shot in Light+, Dark+ and High Contrast with every text's contrast measured. Facts are read back with
// the `tutti` CLI and git.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { UiResult } from './board.ui.js';
import { ensureGitRepository } from './gitWorkspace.js';
import { tidyForScreenshot } from './panel.ui.js';
import { runStage, startTutti } from './stageSteps.js';
import { type CliCaller, tuttiCli } from './tuttiCli.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

/** The screens this stage adds to docs/screenshots/ (each in -light, -dark and -hc). */
export const integrateConflictScreens = ['panel-ready-to-integrate', 'panel-conflict'] as const;

const shared = (middle: string): string => `top\n${middle}\nbottom\n`;

/**
 * The worktree target of this stage (`onMergeConflict: "agent"`): its first Run changes the middle line of shared.txt;
 * a Run that finds a merge in progress (Update from base) resolves it keeping both sides and stages the file.
 */
export const mergerTarget = {
	id: 'merger', adapter: 'command', isolation: 'worktree', onMergeConflict: 'agent',
	argv: ['sh', '-c', [
		`if git rev-parse -q --verify MERGE_HEAD >/dev/null; then printf '${shared('from main and from the task').replace(/\n/g, '\\n')}' > shared.txt && git add shared.txt && echo resolved;`,
		`else printf '${shared('from the task').replace(/\n/g, '\\n')}' > shared.txt && echo changed; fi`,
	].join(' ')],
} as const;

interface CliTask {
	readonly taskId: string;
	readonly status: string;
	readonly acceptedCommit: string;
	readonly attempt: number;
}

const issueTitle = 'Deliver the middle line';

function taskOf(cli: CliCaller, issueId: string): CliTask | undefined {
	return (cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['tasks'] as CliTask[]).find((t) => t.taskId === 'middle');
}

async function click(panel: WebviewFrame, selector: string, what: string): Promise<void> {
	const target = panel.locator(selector).first();
	await pollFor(what, 15_000, async () => ((await target.isVisible()) ? true : undefined));
	await target.click({ timeout: 5000 });
}

/** The workspace for this stage: a git repository with shared.txt on main. */
export function prepareConflictWorkspace(workspace: string): void {
	ensureGitRepository(workspace);
	writeFileSync(join(workspace, 'shared.txt'), shared('base'));
	execFileSync('git', ['add', 'shared.txt'], { cwd: workspace });
	execFileSync('git', ['commit', '-q', '-m', 'shared.txt'], { cwd: workspace });
}

export async function runIntegrateConflictUi(session: VsCodeSession, workspace: string): Promise<UiResult> {
	const cli = tuttiCli(session, workspace);
	const git = (...args: string[]): string => execFileSync('git', args, { cwd: workspace, encoding: 'utf8' }).trim();
	let issueId = '';
	let panel: WebviewFrame | undefined;
	const inPanel = (): WebviewFrame => panel!;
	const selectTask = async (): Promise<void> => {
		await inPanel().locator('g.node[data-task-id="middle"]').first().click({ timeout: 10_000 });
		await waitInPanel(inPanel(), '#task-detail[data-task-id="middle"][aria-busy="false"]', 'the detail of task middle, echoed by the Host');
	};
	return runStage(session, workspace, { label: 'integrate-conflict' }, async (stage) => {
		const { workbench, page, step, inThemes } = stage;
		await startTutti(stage, session, workspace);

		await step('a worktree task accepted in the panel: the issue reads Ready to integrate, Integrate is its primary action', async () => {
			issueId = cli(['issue', 'create', '--title', issueTitle, '--as-user'])['issueId'] as string;
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'middle', '--title', 'Change the middle line', '--agent-target-id', mergerTarget.id, '--as-user']);
			await pollFor('the task awaiting acceptance', 30_000, async () => (taskOf(cli, issueId)?.status === 'pending_acceptance' ? true : undefined));
			await workbench.runCommand('View: Close All Editors');
			await tidyForScreenshot(workbench);
			const row = page.locator('.part.sidebar .monaco-list-row').filter({ hasText: issueTitle }).first();
			await row.waitFor({ state: 'visible', timeout: 15_000 });
			await row.click({ timeout: 5000 });
			panel = await issuePanelFrame(page, issueTitle);
			await selectTask();
			await click(inPanel(), '#accept-task', 'Accept in the detail');
			await pollFor('the task accepted', 20_000, async () => (taskOf(cli, issueId)?.acceptedCommit ? true : undefined));
			const delivery = cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['delivery'] as string;
			if (delivery !== 'ready_to_integrate') { throw new Error(`the Host says the issue is "${delivery}"`); }
			const status = await waitInPanel(inPanel(), '#issue-status', 'the issue\'s state in the panel', { contains: 'ready to integrate' });
			const integrate = inPanel().locator('#issue-controls [data-action="issue/integrate"]').first();
			await pollFor('Integrate in the issue controls', 10_000, async () => ((await integrate.isVisible()) ? true : undefined));
			const appearance = await integrate.getAttribute('appearance', { timeout: 2000 }) ?? '';
			if (appearance !== 'primary') { throw new Error(`Integrate is drawn as "${appearance}", not the primary action`); }
			const board = await page.locator('.part.sidebar .monaco-list-row').filter({ hasText: issueTitle }).first().innerText({ timeout: 2000 });
			return `"${status.trim()}", Integrate primary; board row "${board.replace(/\s+/g, ' ').trim()}"; ${await inThemes('panel-ready-to-integrate', inPanel())}`;
		});

		await step('main moves on the same line; Integrate is refused, the panel\'s conflict block names shared.txt and offers Update from base and the task\'s tree; main does not move', async () => {
			writeFileSync(join(workspace, 'shared.txt'), shared('from main'));
			git('commit', '-qam', 'main changes the middle line');
			const mainBefore = git('rev-parse', 'main');
			await click(inPanel(), '#issue-controls [data-action="issue/integrate"]', 'Integrate in the issue controls');
			// The panel draws the refusal next to Integrate: the paths in one line, then each way forward beside its button.
			const summary = (await waitInPanel(inPanel(), '#integrate-conflict #conflict-summary', 'the conflict block in the panel', { contains: 'shared.txt', timeoutMs: 20_000 })).replace(/\s+/g, ' ').trim();
			if (summary !== 'Integrate into main conflicts: shared.txt, between task middle and main.') { throw new Error(`the conflict block reads "${summary}"`); }
			const update = inPanel().locator('#integrate-conflict #conflict-update-from-base');
			const tree = inPanel().locator('#integrate-conflict #conflict-open-tree');
			await pollFor('Update from base and Open the task\'s tree in the conflict block', 10_000, async () => ((await update.isVisible()) && (await tree.isVisible()) ? true : undefined));
			const ways = (await waitInPanel(inPanel(), '#integrate-conflict #conflict-ways', 'the ways forward beside the buttons')).replace(/\s+/g, ' ').trim();
			for (const line of ['A new Run merges main into the task\'s tree and its agent resolves the conflict', 'By hand in the task\'s tree: git merge main, fix the conflicts, commit']) {
				if (!ways.includes(line)) { throw new Error(`the block's ways forward do not say "${line}": "${ways}"`); }
			}
			if ((await inPanel().locator('#conflict-hint').count()) > 0 || ways.includes('tutti task update-from-base')) { throw new Error(`the block prints the CLI's paragraph: "${ways}"`); }
			// One Update from base: the selected task's detail does not offer it again beside the block's.
			const updates = await inPanel().locator('[data-action="task/updateFromBase"]').count();
			if (updates !== 1) { throw new Error(`${updates} Update from base buttons in the panel`); }
			const toasts = await page.locator('.notification-toast').filter({ hasText: 'both change shared.txt' }).count();
			if (toasts > 0) { throw new Error('the refusal is also a notification: the panel already says it'); }
			if (git('rev-parse', 'main') !== mainBefore || readFileSync(join(workspace, 'shared.txt'), 'utf8') !== shared('from main')) { throw new Error('the refused integrate moved main'); }
			return `"${summary}"; ways: "${ways}"; ${await inThemes('panel-conflict', inPanel())}`;
		});

		await step('Open the task\'s tree in the conflict block: a terminal named by the tree opens, and `pwd` typed in it prints the task\'s tree', async () => {
			const treeDir = realpathSync(join(workspace, '.tutti', 'worktrees', issueId, 'middle'));
			const name = `Tutti: .tutti/worktrees/${issueId}/middle`;
			// Outside the workspace, so the tree's git status and main stay as they are.
			const printed = join(session.runDir, 'tree-pwd.txt');
			await click(inPanel(), '#integrate-conflict #conflict-open-tree', 'Open the task\'s tree in the conflict block');
			let shown = '';
			await pollFor(`a terminal named "${name}"`, 15_000, async () => {
				shown = await page.locator('.part.panel').first().innerText({ timeout: 2000 }).catch(() => '');
				return shown.includes(name) ? true : undefined;
			}).catch((error: Error) => { throw new Error(`${error.message} (the panel shows "${shown.replace(/\s+/g, ' ').slice(0, 300)}")`); });
			const terminal = page.locator('.part.panel .terminal-wrapper.active .xterm, .part.panel .xterm').first();
			await terminal.waitFor({ state: 'visible', timeout: 15_000 });
			// The shell may still be starting: the line is typed again until its output file appears (it only overwrites it).
			const cwd = await pollFor('pwd typed in the terminal to print its folder', 30_000, async () => {
				await terminal.click({ timeout: 5000 });
				await page.keyboard.type(`pwd > '${printed}'`);
				await page.keyboard.press('Enter');
				return pollFor('the printed folder', 5000, async () => (existsSync(printed) && readFileSync(printed, 'utf8').endsWith('\n') ? readFileSync(printed, 'utf8').trim() : undefined)).catch(() => undefined);
			}, 0);
			if (cwd !== treeDir) { throw new Error(`the terminal opened in ${cwd}, not the task's tree ${treeDir}`); }
			await tidyForScreenshot(workbench);
			return `terminal "${name}" in ${cwd}`;
		});

		await step('Update from base: a new attempt merges main in (its agent resolves), accepted again in the panel; Integrate puts it on main', async () => {
			await click(inPanel(), '#integrate-conflict #conflict-update-from-base', 'Update from base in the conflict block');
			await pollFor('attempt 2 awaiting acceptance', 30_000, async () => {
				const t = taskOf(cli, issueId);
				return t?.status === 'pending_acceptance' && t.attempt === 2 ? true : undefined;
			});
			await waitInPanel(inPanel(), '#task-detail[data-task-id="middle"] #attempt-label', 'the new attempt in the detail', { contains: 'Attempt 2 of 2' });
			await click(inPanel(), '#accept-task', 'Accept on the new attempt');
			await pollFor('attempt 2 accepted', 20_000, async () => (taskOf(cli, issueId)?.acceptedCommit ? true : undefined));
			await tidyForScreenshot(workbench);
			await click(inPanel(), '#issue-controls [data-action="issue/integrate"]', 'Integrate again');
			const text = await waitInPanel(inPanel(), '#integrated', 'the integrated commit in the panel', { contains: 'Integrated into main', timeoutMs: 20_000 });
			await pollFor('the Integrate button and the conflict block to go', 10_000, async () =>
				((await inPanel().locator('[data-action="issue/integrate"], #integrate-conflict').count()) === 0 ? true : undefined));
			const head = git('rev-parse', 'main');
			if (!text.includes(head.slice(0, 12))) { throw new Error(`the panel shows "${text}", not main's new commit ${head}`); }
			if (readFileSync(join(workspace, 'shared.txt'), 'utf8') !== shared('from main and from the task')) { throw new Error(`shared.txt on main reads ${readFileSync(join(workspace, 'shared.txt'), 'utf8')}`); }
			const delivery = cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['delivery'] as string;
			if (delivery !== 'integrated') { throw new Error(`the Host says the issue is "${delivery}" after integrating`); }
			const status = await waitInPanel(inPanel(), '#issue-status', 'the issue\'s state in the panel');
			await stage.shot('panel-conflict-integrated');
			return `${text.replace(/\s+/g, ' ').trim()}; the issue reads "${status.trim()}"`;
		});
	});
}
