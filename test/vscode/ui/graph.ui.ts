// The task graph at 200 tasks through the real workbench: a scripted source agent plans 200 tasks (10 per layer,
// each depending on two of the layer above; never scheduled), the panel draws them, Fit zooms out to coloured blocks,
// the search rings one match and Enter selects it, Focus keeps only that task's ancestors and descendants (fitted to
// the view), a match off screen is brought into view, and the Graph | List toggle shows the tasks as rows (the search
// filters them). Screenshots of the graph and the list.
import type { VsCodeSession } from '../runInVsCode.js';
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import { type PlannedTask, ScriptedSource } from './scriptedSource.js';
import { issuePanelFrame, waitInPanel, type WebviewFrame } from './webviewFrame.js';

export const bigGraphTitle = 'A plan of 200 tasks';
const size = 200;
const width = 10;

/** t0…t199 in layers of 10; each task after the first layer depends on the one above it and its right neighbour's. */
export function layeredPlan(agentTargetId: string): PlannedTask[] {
	return Array.from({ length: size }, (_, i) => {
		const layer = Math.floor(i / width);
		const deps = layer === 0 ? [] : [i - width, (layer - 1) * width + ((i + 1) % width)];
		return { taskId: `t${i}`, title: `Task ${i}`, agentTargetId, dependencyTaskIds: [...new Set(deps)].map((d) => `t${d}`) };
	});
}

/** Ancestors and descendants of `taskId` in `plan`, itself included: what Focus must keep (computed here, not by the panel). */
export function expectedLineage(plan: readonly PlannedTask[], taskId: string): Set<string> {
	const walk = (next: (id: string) => string[]): string[] => {
		const seen: string[] = [];
		const stack = [taskId];
		while (stack.length > 0) {
			for (const n of next(stack.pop()!)) { if (!seen.includes(n)) { seen.push(n); stack.push(n); } }
		}
		return seen;
	};
	const up = walk((id) => [...(plan.find((t) => t.taskId === id)?.dependencyTaskIds ?? [])]);
	const down = walk((id) => plan.filter((t) => (t.dependencyTaskIds ?? []).includes(id)).map((t) => t.taskId));
	return new Set([taskId, ...up, ...down]);
}

async function count(frame: WebviewFrame, selector: string, n: number, what: string): Promise<void> {
	let last = -1;
	await pollFor(`${what} (${n})`, 20_000, async () => {
		last = await frame.locator(selector).count();
		return last === n ? true : undefined;
	}).catch((error: Error) => { throw new Error(`${error.message}; last count ${last}`); });
}

async function click(frame: WebviewFrame, selector: string): Promise<void> {
	await frame.locator(selector).first().click({ timeout: 10_000 });
}

/** In the panel: the drawn graph fits in the scrolled area (zoom to fit). */
const fits = "(() => { const s = document.getElementById('graph-scroll'); const g = document.getElementById('task-graph'); return !!s && !!g && g.getBoundingClientRect().width <= s.clientWidth + 1 && g.getBoundingClientRect().height <= s.clientHeight + 1; })()";

/** In the panel: the task's node lies wholly inside the scrolled area's view. */
function inView(taskId: string): string {
	return `(() => { const s = document.getElementById('graph-scroll').getBoundingClientRect(); const n = document.querySelector('g.node[data-task-id="${taskId}"]'); if (!n) { return false; } const b = n.getBoundingClientRect(); return b.left >= s.left && b.right <= s.right && b.top >= s.top && b.bottom <= s.bottom; })()`;
}

/** Returns a line for the step's report. `shot` saves a screenshot of the window under that name. */
export async function checkBigGraph(
	session: VsCodeSession, workspace: string, workbench: Workbench, agentTargetId: string, shot: (name: string) => Promise<void>,
	shootInThemes?: (name: string, frame: WebviewFrame) => Promise<void>,
): Promise<string> {
	const plan = layeredPlan(agentTargetId);
	const source = ScriptedSource.create(session, workspace, bigGraphTitle, `${size} tasks, never scheduled`);
	source.add(plan);
	await workbench.runCommand('View: Close All Editors');
	const row = workbench.page.locator('.part.sidebar .monaco-list-row').filter({ hasText: bigGraphTitle }).first();
	await row.waitFor({ state: 'visible', timeout: 15_000 });
	await row.click({ timeout: 5000 });
	const frame = await issuePanelFrame(workbench.page, bigGraphTitle);
	await count(frame, 'g.node[data-task-id]', size, 'every task drawn');

	await click(frame, '[data-action="zoom/fit"]');
	await count(frame, '#task-graph[data-detail="blocks"]', 1, 'the fitted graph drawn as blocks');
	await shot('panel-200-tasks');
	// The same graph in Light+, Dark+ and High Contrast (docs/screenshots/panel-200-tasks-*.png).
	await shootInThemes?.('panel-200-tasks', frame);

	await frame.locator('#graph-search').first().fill('Task 42');
	await count(frame, 'g.node.match', 1, 'one node ringed by the search "Task 42"');
	await count(frame, 'g.node.dim', size - 1, 'every other node faded');
	await click(frame, '#graph-search');
	await workbench.page.keyboard.press('Enter');
	await waitInPanel(frame, '#task-detail[data-task-id="t42"]', 'Enter in the search selecting Task 42');

	const lineage = expectedLineage(plan, 't42');
	await click(frame, '[data-action="focus/set"]');
	await count(frame, 'g.node[data-task-id]', lineage.size, 'Focus keeping Task 42\'s ancestors and descendants');
	await pollFor('the focused lineage fitted to the view', 10_000, async () => (await frame.evaluate<boolean>(fits) ? true : undefined));
	const drawn = new Set<string>();
	for (let i = 0; i < lineage.size; i++) { drawn.add(await frame.locator('g.node[data-task-id]').nth(i).getAttribute('data-task-id') ?? ''); }
	const missing = [...lineage].filter((id) => !drawn.has(id));
	if (missing.length > 0) { throw new Error(`Focus drew ${[...drawn].join(', ')}; missing ${missing.join(', ')}`); }
	await shot('panel-200-focus');
	await click(frame, '[data-action="focus/clear"]');
	await count(frame, 'g.node[data-task-id]', size, 'every task back after clearing the focus');

	// At 100 %, scrolled to the start, a search match far off screen: Enter selects it and brings it into view.
	await click(frame, '[data-action="zoom/reset"]');
	await frame.evaluate("document.getElementById('graph-scroll').scrollTo(0, 0)");
	await frame.locator('#graph-search').first().fill('Task 199');
	await click(frame, '#graph-search');
	await workbench.page.keyboard.press('Enter');
	await waitInPanel(frame, '#task-detail[data-task-id="t199"]', 'Enter in the search selecting Task 199');
	await pollFor('Task 199 scrolled into view', 10_000, async () => (await frame.evaluate<boolean>(inView('t199')) ? true : undefined));

	await click(frame, '[data-action="mode/set"][data-mode="list"]');
	await count(frame, '#task-list tr[data-task-id]', 1, 'the list filtered by the search');
	await frame.locator('#graph-search').first().fill('');
	await count(frame, '#task-list tr[data-task-id]', size, 'every task as a row once the search is cleared');
	await shot('panel-200-list');
	await click(frame, '[data-action="mode/set"][data-mode="graph"]');
	await count(frame, 'g.node[data-task-id]', size, 'the graph back');
	return `${size} nodes; search rang 1; focus kept ${lineage.size}; list ${size} rows`;
}
