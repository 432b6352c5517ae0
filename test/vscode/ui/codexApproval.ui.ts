// A codex approval answered from VS Code's notification, through the real workbench: a worker Run on a codex target
// (the pinned Codex CLI from node_modules, `codex app-server` driven by the Run's supervisor) whose scripted model
// (the Responses API on 127.0.0.1) asks to run a command outside its sandbox; the notification names the task and the
// command, its Allow is clicked, and the command ran (its file in the workspace, its output in the model's next
// request, the approval recorded as allowed once by the developer). Then the agent of a second task asks a question
// (request_user_input): its notification reads as the question with its options as buttons, and clicking one answers
// it (the model receives that answer as the tool's result). Screenshots of each notification and of the end.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { Locator } from '../harness/playwright.js';
import type { Workbench } from '../harness/workbench.js';
import { codexBin } from '../../agents/agentKit.js';
import { codexTestArgs } from '../../agents/codexKit.js';
import type { Script } from '../../agents/modelServer/script.js';
import type { ScriptedServer } from '../../agents/modelServer/server.js';
import type { UiResult } from './board.ui.js';
import { tidyForScreenshot } from './panel.ui.js';
import { runStage, startTutti } from './stageSteps.js';
import { tuttiCli } from './tuttiCli.js';

/** What the scripted model asks to run, and the file it writes (in the workspace, where the Run works). */
export const codexApprovalCommand = 'echo allowed-from-vscode > codex-approved.txt && echo wrote-codex-approved';
const approvedFile = 'codex-approved.txt';
const issueTitle = 'Codex asks in VS Code';

const markerTask = 'Write codex-approved.txt.';
const questionTask = 'Ask me which color to use.';

/**
 * The model. The first task: one escalated exec_command (it must ask), then, once it sees the command's output, a final
 * answer. The second: a question (request_user_input) with two options, then an answer naming what it was told.
 */
export const codexApprovalScript: Script = {
	turns: [
		{ when: { any_includes: markerTask }, blocks: [{ type: 'tool', name: 'exec_command', id: 'call_vscode_allow', input: { cmd: codexApprovalCommand, sandbox_permissions: 'require_escalated', justification: 'write the approval marker' } }] },
		{ when: { last_user_includes: 'call_vscode_allow' }, blocks: [{ type: 'text', text: 'Wrote codex-approved.txt.' }] },
		{ when: { any_includes: questionTask }, blocks: [{ type: 'tool', name: 'request_user_input', id: 'call_vscode_q', input: { questions: [{ id: 'color', header: 'Color', question: 'Which color?', options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] }] } }] },
		{ when: { last_user_includes: 'call_vscode_q' }, blocks: [{ type: 'text', text: 'Using the color I was told.' }] },
	],
	default: { blocks: [{ type: 'text', text: 'done' }] },
};

/** The codex target of the stage's workspace settings: the pinned CLI against `serverUrl`, its homes under `home`. */
export function codexApprovalTarget(serverUrl: string, home: string): Record<string, unknown> {
	mkdirSync(join(home, 'codex-home'), { recursive: true });
	return {
		id: 'codex-ask', adapter: 'codex', path: codexBin, model: 'gpt-5.5', args: [...codexTestArgs],
		env: { OPENAI_BASE_URL: `${serverUrl}/v1`, CODEX_HOME: join(home, 'codex-home'), HOME: home },
	};
}

/** The notification (a toast, or a row of the notification center) whose text includes `text`. */
function notificationWith(workbench: Workbench, text: string): Locator {
	return workbench.page.locator('.notification-toast, .notifications-center .notification-list-item').filter({ hasText: text }).first();
}

export async function runCodexApprovalUi(session: VsCodeSession, workspace: string, server: ScriptedServer): Promise<UiResult> {
	const cli = tuttiCli(session, workspace);
	let issueId = '';
	let approvalId = '';
	const approvals = (): { approvalId: string; status: string; tool: string; answer: string; answeredBy: string; answerLabel: string }[] =>
		cli(['approval', 'list', '--issue-id', issueId, '--as-user'])['approvals'] as ReturnType<typeof approvals>;
	return runStage(session, workspace, { label: 'codex-approval' }, async (stage) => {
		const { workbench, step, shot } = stage;
		await step('Tutti starts in the folder; a task on the codex target runs and its agent asks to run a command outside its sandbox', async () => {
			await startTutti(stage, session, workspace, { offered: true });
			await tidyForScreenshot(workbench);
			issueId = String(cli(['issue', 'create', '--title', issueTitle, '--as-user'])['issueId']);
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'marker', '--title', 'Write the marker', '--content', markerTask,
				'--agent-target-id', 'codex-ask', '--as-user']);
			const pending = await pollFor('the codex agent\'s approval to be pending', 90_000, async () => approvals().find((a) => a.status === 'pending'), 250);
			approvalId = pending.approvalId;
			if (existsSync(join(workspace, approvedFile))) { throw new Error('the command ran before anyone answered'); }
			return `approval ${approvalId} (${pending.tool})`;
		});
		await step('a notification names the task and the command, with Allow / Allow for Task / Deny', async () => {
			await workbench.waitForNotification('asks to run', { timeoutMs: 30_000 });
			const notification = notificationWith(workbench, 'asks to run');
			const text = await notification.innerText({ timeout: 5000 });
			for (const part of ['task marker', issueTitle, 'echo allowed-from-vscode > codex-approved.txt']) {
				if (!text.includes(part)) { throw new Error(`the notification does not say "${part}": ${text}`); }
			}
			for (const label of ['Allow', 'Allow for Task', 'Deny']) {
				await notification.locator('.monaco-button').filter({ hasText: new RegExp(`^${label}$`) }).first().waitFor({ state: 'visible', timeout: 10_000 });
			}
			await shot('codex-approval-notification');
			return text.replace(/\s+/g, ' ').trim().slice(0, 200);
		});
		await step("the notification's Allow is clicked: the command runs, its output reaches the model, and the Run completes", async () => {
			await notificationWith(workbench, 'asks to run').locator('.monaco-button').filter({ hasText: /^Allow$/ }).first().click({ timeout: 10_000 });
			await pollFor(`${approvedFile} written by the allowed command`, 60_000, async () => (existsSync(join(workspace, approvedFile)) ? true : undefined), 200);
			const written = readFileSync(join(workspace, approvedFile), 'utf8');
			if (written !== 'allowed-from-vscode\n') { throw new Error(`${approvedFile} holds ${JSON.stringify(written)}`); }
			const answered = approvals().find((a) => a.approvalId === approvalId);
			if (answered?.answer !== 'allow_once' || answered.answeredBy !== 'user') { throw new Error(`the approval reads ${JSON.stringify(answered)}`); }
			const run = await pollFor('the codex Run to complete', 60_000, async () => {
				const task = (cli(['issue', 'get', '--issue-id', issueId, '--as-user'])['tasks'] as { taskId: string; latestRunId: string }[]).find((t) => t.taskId === 'marker');
				const got = task && task.latestRunId !== '' ? cli(['run', 'get', '--run-id', task.latestRunId, '--as-user']) : undefined;
				return got !== undefined && got['status'] === 'completed' ? got : undefined;
			}, 250);
			const next = JSON.stringify(server.modelRequests()[1]?.body ?? null);
			if (!next.includes('wrote-codex-approved')) { throw new Error('the model\'s next request does not carry the command\'s output'); }
			await workbench.waitForNotification(`exec_command ${answered.answerLabel}`, { timeoutMs: 15_000 }).catch(() => undefined);
			await shot('codex-approval-allowed');
			return `${answered.answerLabel}; run ${String(run['runId'])}: ${String(run['summary'])}`;
		});
		await step("the agent's question is a notification in its own words with its options as buttons; clicking Blue answers it", async () => {
			await tidyForScreenshot(workbench);
			cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'color', '--title', 'Pick a color', '--content', questionTask, '--agent-target-id', 'codex-ask', '--as-user']);
			const asked = 'asks: Which color? (Red (Recommended) · Blue)';
			await workbench.waitForNotification(asked, { timeoutMs: 90_000 });
			const notification = notificationWith(workbench, asked);
			for (const label of ['Red \\(Recommended\\)', 'Blue', 'Other…', 'Decline']) {
				await notification.locator('.monaco-button').filter({ hasText: new RegExp(`^${label}$`) }).first().waitFor({ state: 'visible', timeout: 10_000 });
			}
			await shot('codex-question-notification');
			await notification.locator('.monaco-button').filter({ hasText: /^Blue$/ }).first().click({ timeout: 10_000 });
			const question = await pollFor('the question to be answered', 30_000, async () => approvals().find((a) => a.tool === 'request_user_input' && a.status === 'allowed'), 250);
			if (!/^answered by the developer at .*: Blue$/.test(question.answerLabel)) { throw new Error(`the question reads ${question.answerLabel}`); }
			await pollFor('the model to receive the answer', 60_000, async () =>
				(server.modelRequests().some((r) => /\\"answers\\":\[\\"Blue\\"\]/.test(JSON.stringify(r.body))) ? true : undefined), 250);
			return question.answerLabel;
		});
	});
}
