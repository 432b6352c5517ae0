// Drives the New Issue form (a webview) like a developer: Tutti: New Issue from the palette, type the title and the
// goal, pick who plans it by its label, press Create issue. Every wait is bounded and names what did not appear.
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import { webviewFrameWith, type WebviewFrame } from './webviewFrame.js';

export interface FormInput {
	readonly title: string;
	readonly goal: string;
	/** The planner option's label: "Manual tasks", "My own agent in a terminal", or `Agent "<id>" (…)`. */
	readonly planner: string;
	readonly autoAccept?: boolean;
}

/** Opens the form from the palette and waits until its planner choices have arrived from the Host. */
export async function openNewIssueForm(workbench: Workbench): Promise<WebviewFrame> {
	await workbench.runCommand('Tutti: New Issue');
	const form = await webviewFrameWith(workbench.page, '#new-issue-form', 'the New Issue form');
	await pollFor('the planner choices in the form', 15_000, async () => ((await form.locator('input[name="planner"]').count()) > 0 ? true : undefined));
	return form;
}

/** Fills the open form and presses Create issue (keyboard and clicks only). */
export async function fillAndCreate(form: WebviewFrame, input: FormInput): Promise<void> {
	await form.locator('#issue-title').fill(input.title, { timeout: 5000 });
	await form.locator('#issue-goal').fill(input.goal, { timeout: 5000 });
	await form.locator('.planner-option label').filter({ hasText: input.planner }).first().click({ timeout: 5000 });
	if (input.autoAccept !== undefined) {
		const box = form.locator('#issue-auto-accept');
		if ((await box.isChecked()) !== input.autoAccept) { await box.click({ timeout: 5000 }); }
	}
	await form.locator('#create').click({ timeout: 5000 });
}

export async function createIssueThroughForm(workbench: Workbench, input: FormInput): Promise<void> {
	await fillAndCreate(await openNewIssueForm(workbench), input);
}
