// The conflict block the panel draws when Integrate conflicts, and the schema the refusal's details are read with.
import { strict as assert } from 'node:assert';
import { type IntegrateConflict, parseIntegrateConflict, parseToHost, type PanelSnapshot } from '../../../src/protocol/webview.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { type ElementNode, findAll, renderToString, textContent, type UiNode, type VNode } from '../../../webview/shared/vnode.js';
import { aRun, aSnapshot, aTask, anIssue } from './builders.js';

/** The details the Host's `merge_conflict` refusal carries (as conflictRefusalOf writes them). */
const hostDetails = {
	issueId: 'i1', into: 'main', paths: ['src/a.ts', 'README.md'], between: ['main', 'middle'], taskId: 'middle',
	tree: '.tutti/worktrees/i1/middle', sources: [{ label: 'main', commit: 'a'.repeat(40) }], updateFromBase: 'agent',
	ways: [
		{ action: 'update_from_base', text: 'A new Run merges main into the task\'s tree and its agent resolves the conflict.' },
		{ action: 'open_tree', text: 'By hand in the task\'s tree: git merge main, fix the conflicts, commit.' },
	],
};
const hint = 'Either update task middle from main: `tutti task update-from-base --issue-id i1 --task-id middle --into main`; or resolve it by hand.';

function conflictOf(details: unknown): IntegrateConflict {
	const parsed = parseIntegrateConflict(details, 'Integrating issue i1 into main conflicts.', hint);
	assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
	return parsed.value;
}

function render(conflict: IntegrateConflict | null, updateFromBase: boolean, otherTasks: string[] = [], selectedTaskId: string | null = null): VNode {
	const issue = anIssue([aTask('middle', { status: 'completed', title: 'Change the middle line', latestRunId: 'r1' }), ...otherTasks.map((t) => aTask(t, { status: 'completed' }))]);
	const withControl = { ...issue, delivery: 'ready_to_integrate' as const, controls: { ...issue.controls, integrate: true }, tasks: issue.tasks.map((t) => (t.taskId === 'middle' ? { ...t, controls: { ...t.controls, updateFromBase } } : t)) };
	const s: PanelSnapshot = aSnapshot(withControl, { runs: [aRun('r1', 'middle', { status: 'completed' })] });
	return panelTree(renderPanel({ ...s, view: { ...s.view, selectedTaskId, conflict } }, { selectedTaskId, showHistory: false }, 1, new LayoutCache()));
}

function byId(tree: VNode, id: string): ElementNode | UiNode | undefined {
	return findAll(tree, (n) => n.attrs['id'] === id)[0];
}

describe('integrate conflict block', () => {
	it('reads the Host\'s details, keeping only what the panel shows', () => {
		const c = conflictOf(hostDetails);
		assert.deepEqual(c, {
			into: 'main', paths: ['src/a.ts', 'README.md'], taskId: 'middle', between: ['main', 'middle'], tree: '.tutti/worktrees/i1/middle',
			updateFromBase: 'agent', ways: hostDetails.ways, message: 'Integrating issue i1 into main conflicts.', hint,
		});
	});

	it('refuses details of another shape', () => {
		for (const bad of [
			undefined, null, 'main', {},
			{ ...hostDetails, paths: 'src/a.ts' },
			{ ...hostDetails, paths: [] },
			{ ...hostDetails, taskId: '' },
			{ ...hostDetails, updateFromBase: 'always' },
			{ ...hostDetails, tree: 42 },
			{ ...hostDetails, between: ['a', 'b', 'c'] },
			{ ...hostDetails, ways: undefined },
			{ ...hostDetails, ways: 'Update from base' },
			{ ...hostDetails, ways: [{ action: 'run', text: 'rm -rf .' }] },
			{ ...hostDetails, ways: [{ action: null, text: '' }] },
		]) {
			assert.equal(parseIntegrateConflict(bad, 'm', 'h').ok, false, JSON.stringify(bad));
		}
	});

	it('the panel\'s Open the task\'s tree message carries no path', () => {
		assert.equal(parseToHost({ type: 'conflict/openTree' }).ok, true);
		assert.equal(parseToHost({ type: 'conflict/openTree', tree: '/etc' }).ok, false);
	});

	it('says the paths in one line, then each of the Host\'s ways forward as a short line beside its button; no paragraph', () => {
		const tree = render(conflictOf(hostDetails), true);
		const block = byId(tree, 'integrate-conflict');
		assert.ok(block);
		assert.equal(textContent(byId(block, 'conflict-summary')!), 'Integrate into main conflicts: src/a.ts, README.md, between task middle and main.');
		const ways = byId(block, 'conflict-ways')!;
		// Button, its line; button, its line: in the Host's order.
		const shown = ways.children.filter((c): c is ElementNode | UiNode => c.kind !== 'text')
			.map((c) => (c.kind === 'ui' ? `[${String(c.attrs['data-action'])}]` : textContent(c)));
		assert.deepEqual(shown, ['[task/updateFromBase]', hostDetails.ways[0]!.text, '[conflict/openTree]', hostDetails.ways[1]!.text]);
		const update = byId(block, 'conflict-update-from-base')!;
		// A button component (a focusable, keyboard-pressable button), not a clickable span.
		assert.deepEqual([update.kind === 'ui' ? update.component : '', update.attrs['data-action'], update.attrs['data-task-id']], ['button', 'task/updateFromBase', 'middle']);
		const open = byId(block, 'conflict-open-tree')!;
		assert.deepEqual([open.kind === 'ui' ? open.component : '', open.attrs['data-action']], ['button', 'conflict/openTree']);
		assert.equal(byId(block, 'conflict-hint'), undefined, 'the printed hint is the CLI\'s, not the block\'s');
		assert.ok(!textContent(block).includes('tutti task update-from-base'));
		// It sits with the issue's controls, before the task graph.
		const html = renderToString(tree);
		assert.ok(html.indexOf('id="issue-controls"') < html.indexOf('id="integrate-conflict"'));
	});

	it('shows one Update from base: the conflicting task\'s detail drops its own while the block offers it', () => {
		const inDetail = (tree: VNode): number => findAll(byId(tree, 'task-detail')!, (n) => n.attrs['data-action'] === 'task/updateFromBase').length;
		const everywhere = (tree: VNode): number => findAll(tree, (n) => n.attrs['data-action'] === 'task/updateFromBase').length;
		const withBlock = render(conflictOf(hostDetails), true, [], 'middle');
		assert.equal(inDetail(withBlock), 0);
		assert.equal(everywhere(withBlock), 1);
		assert.equal(inDetail(render(null, true, [], 'middle')), 1, 'no block: the detail offers it');
		assert.equal(inDetail(render(conflictOf({ ...hostDetails, ways: [hostDetails.ways[1]!] }), true, [], 'middle')), 1, 'a block without it: the detail keeps it');
	});

	it('draws a way without a button (why Update from base is not possible) as a line of its own', () => {
		const why = 'Update from base is not possible now: its tasks are the source agent\'s until the Goal Review.';
		const tree = render(conflictOf({ ...hostDetails, updateFromBase: 'unavailable', ways: [{ action: null, text: why }, hostDetails.ways[1]] }), false);
		assert.equal(byId(tree, 'conflict-update-from-base'), undefined);
		assert.deepEqual(findAll(byId(tree, 'conflict-ways')!, (n) => n.attrs['class'] === 'conflict-way muted wide').map(textContent), [why]);
	});

	it('makes its way forward the primary action: Integrate is primary only while no conflict is shown', () => {
		const integrate = (tree: VNode): unknown => findAll(tree, (n) => n.attrs['data-action'] === 'issue/integrate')[0]?.attrs['appearance'];
		assert.equal(integrate(render(null, true)), 'primary');
		assert.equal(integrate(render(conflictOf(hostDetails), true)), 'secondary');
	});

	it('names the task it conflicts with, and offers Update from base only where the Host\'s task control does', () => {
		const tree = render(conflictOf({ ...hostDetails, between: ['left', 'middle'] }), false, ['left']);
		assert.match(textContent(byId(tree, 'conflict-summary')!), /between task middle and task left\.$/);
		assert.equal(byId(tree, 'conflict-update-from-base'), undefined);
		assert.ok(!textContent(byId(tree, 'conflict-ways')!).includes(hostDetails.ways[0]!.text), 'no button, no line for it');
		assert.ok(byId(tree, 'conflict-open-tree'));
		const noTree = render(conflictOf({ ...hostDetails, tree: '' }), true);
		assert.equal(byId(noTree, 'conflict-open-tree'), undefined, 'no tree, no button');
		assert.ok(!textContent(byId(noTree, 'conflict-ways')!).includes(hostDetails.ways[1]!.text));
		assert.equal(byId(render(null, true), 'integrate-conflict'), undefined);
	});

	it('draws hostile paths and ways as text', () => {
		const evil = '<img src=x onerror=alert(1)>';
		const html = renderToString(render(conflictOf({ ...hostDetails, paths: [evil], ways: [{ action: 'open_tree', text: evil }] }), true));
		assert.ok(!html.includes(evil));
		assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
	});
});
