// "At every step the board, the status bar and the panel agree on the state": what each of the three shows for one
// issue, read from the screen (the board's group above the issue's row, the Tutti status bar item, the panel's
// status chip), mapped to the attention state it names. Also fails when the panel's one header line says anything
// twice. For a workspace with this one issue (the status bar counts every issue).
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';
import { groupOf } from './board.ui.js';
import { repeatedPhrase } from './repeatedText.js';
import type { WebviewFrame } from './webviewFrame.js';

export type ShownState = 'needs you' | 'agent working' | 'waiting on agent' | 'paused' | 'not started' | 'planned' | 'done';

export interface Shown {
	readonly board: string;
	readonly statusBar: string;
	readonly chip: string;
	/** A phrase the panel's header line says twice, or null. */
	readonly repeated: string | null;
	readonly line: string;
}

const boardStates: Readonly<Record<string, ShownState>> = {
	'Needs you': 'needs you', 'Agent working': 'agent working', 'Waiting on agent': 'waiting on agent', Paused: 'paused', 'Not started': 'not started', Planned: 'planned', Done: 'done',
};

function chipState(chip: string): ShownState | undefined {
	const prefixes: [string, ShownState][] = [['Needs you', 'needs you'], ['Agent working', 'agent working'], ['Waiting on', 'waiting on agent'],
		['Paused', 'paused'], ['Not started', 'not started'], ['Planned', 'planned'], ['Done', 'done'], ['Stopped', 'done']];
	return prefixes.find(([p]) => chip.startsWith(p))?.[1];
}

/** The states a status bar text is consistent with for a workspace of one issue ("nothing needs you" is done or planned). */
function statusBarStates(text: string): ShownState[] {
	if (/\b1 needs you\b/.test(text)) { return ['needs you']; }
	if (/\b1 agent working\b/.test(text)) { return ['agent working']; }
	if (/\b1 waiting on agent\b/.test(text)) { return ['waiting on agent']; }
	if (/\b1 paused\b/.test(text)) { return ['paused']; }
	if (/\b1 not started\b/.test(text)) { return ['not started']; }
	if (/nothing needs you/.test(text)) { return ['done', 'planned']; }
	return [];
}

/** The header line's words as a reader meets them, piece by piece (commands and buttons aside). */
const attentionLineText = `(() => {
	const line = document.querySelector('#attention-line');
	if (!line) { return ''; }
	const pieces = [];
	const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
	for (let n = walker.nextNode(); n; n = walker.nextNode()) {
		if (n.parentElement && n.parentElement.closest('code, vscode-button, button')) { continue; }
		if (n.textContent.trim() !== '') { pieces.push(n.textContent.trim()); }
	}
	return pieces.join(' ');
})()`;

async function expandDoneGroup(workbench: Workbench): Promise<void> {
	const done = workbench.page.locator('.part.sidebar .monaco-list-row[aria-level="1"][aria-expanded="false"]').filter({ hasText: /^Done/ }).first();
	if ((await done.count()) > 0) { await done.click({ timeout: 5000 }); }
}

export async function readShown(workbench: Workbench, panel: WebviewFrame, issueTitle: string): Promise<Shown> {
	let board = await groupOf(workbench, issueTitle);
	if (board === undefined) {
		await expandDoneGroup(workbench);
		board = await groupOf(workbench, issueTitle);
	}
	const item = workbench.page.locator('.part.statusbar .statusbar-item').filter({ hasText: 'Tutti:' }).first();
	const statusBar = (await item.innerText({ timeout: 2000 }).catch(() => '')).trim();
	const chip = (await panel.locator('#issue-status').first().innerText({ timeout: 2000 }).catch(() => '')).trim();
	const line = await panel.evaluate<string>(attentionLineText);
	return { board: board ?? '(not on the board)', statusBar, chip, repeated: repeatedPhrase(line), line };
}

/** Waits (bounded) until the board, the status bar and the panel all show `expected`; names what each showed last. */
export async function agreeOn(workbench: Workbench, panel: WebviewFrame, issueTitle: string, expected: ShownState, timeoutMs = 60_000): Promise<string> {
	let last: Shown | undefined;
	try {
		await pollFor(`the board, the status bar and the panel to agree on "${expected}"`, timeoutMs, async () => {
			last = await readShown(workbench, panel, issueTitle);
			if (last.repeated !== null) { return true; }
			const ok = boardStates[last.board] === expected && chipState(last.chip) === expected && statusBarStates(last.statusBar).includes(expected);
			return ok ? true : undefined;
		}, 250);
	} catch (error) {
		throw new Error(`${(error as Error).message}; last seen: board "${last?.board}", status bar "${last?.statusBar}", panel chip "${last?.chip}"`);
	}
	if (last!.repeated !== null) {
		throw new Error(`the panel's header line says "${last!.repeated}" twice: "${last!.line}"`);
	}
	return `board "${last!.board}" · status bar "${last!.statusBar}" · chip "${last!.chip}"`;
}
