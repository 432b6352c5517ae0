// Comments a line of a file in Tutti's multi-file diff editor as a developer does: click the line, hover its gutter,
// click the "+" VS Code draws where the comment controller offers a range, type, press "Comment for the Agent".
import { pollFor } from '../harness/waitFor.js';
import type { Workbench } from '../harness/workbench.js';

/** `lineIndex`: the 0-based line in the modified side whose text is `lineText`. */
export async function commentOnDiffLine(workbench: Workbench, file: string, lineText: string, lineIndex: number, comment: string): Promise<void> {
	const page = workbench.page;
	// The entry whose header starts with the file's name (another file's text may mention it; its folder follows).
	const entries = page.locator('.part.editor .multiDiffEntry');
	let headers: string[] = [];
	const index = await pollFor(`the entry of ${file} in the diff editor`, 15_000, async () => {
		headers = await entries.locator('.header').allInnerTexts();
		const found = headers.findIndex((h) => h.trim().startsWith(file));
		return found < 0 ? undefined : found;
	}).catch(() => { throw new Error(`no entry for ${file} in the diff editor (headers: ${JSON.stringify(headers)})`); });
	const modified = entries.nth(index).locator('.editor.modified');
	// Monaco may draw an overlay above the text: the click goes to the line's place, whatever is drawn on top.
	await modified.locator('.view-line').filter({ hasText: lineText }).first().click({ timeout: 10_000, force: true }).catch(async (error: Error) => {
		const lines = await page.locator('.part.editor .multiDiffEntry .editor.modified .view-line').allInnerTexts();
		throw new Error(`${error.message.split('\n').slice(0, 8).join(' ')} (headers: ${JSON.stringify(headers)}; modified lines: ${JSON.stringify(lines)})`);
	});
	const gutter = modified.locator('.margin-view-overlays > div').nth(lineIndex);
	await gutter.hover({ timeout: 10_000 });
	await gutter.locator('.comment-range-glyph').first().click({ timeout: 10_000 });
	const form = page.locator('.part.editor .review-widget .comment-form').first();
	await form.waitFor({ state: 'visible', timeout: 15_000 });
	await page.keyboard.type(comment);
	await page.locator('.part.editor .review-widget .monaco-button').filter({ hasText: 'Comment for the Agent' }).first().click({ timeout: 10_000 });
	await page.locator('.part.editor .review-widget .comment-body').filter({ hasText: comment }).first().waitFor({ state: 'visible', timeout: 10_000 });
}
