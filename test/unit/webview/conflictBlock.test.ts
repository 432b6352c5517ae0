// The conflict block the panel draws when Integrate conflicts, and the schema the refusal's details are read with.
import { strict as assert } from 'node:assert';
import { type IntegrateConflict, parseIntegrateConflict, parseToHost, type PanelSnapshot } from '../../../src/protocol/webview.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { type ElementNode, findAll, renderToString, textContent, type UiNode, type VNode } from '../../../webview/shared/vnode.js';
import { aSnapshot, aTask, anIssue } from './builders.js';

/** The details the Host's `merge_conflict` refusal carries (as conflictRefusalOf writes them). */
const hostDetails = {
	issueId: 'i1', into: 'main', paths: ['src/a.ts', 'README.md'], between: ['main', 'middle'], taskId: 'middle',
	tree: '.tutti/worktrees/i1/middle', sources: [{ label: 'main', commit: 'a'.repeat(40) }], updateFromBase: 'agent',
};
const hint = 'Either update task middle from main: `tutti task update-from-base --issue-id i1 --task-id middle --into main`; or resolve it by hand.';

function conflictOf(details: unknown): IntegrateConflict {
	const parsed = parseIntegrateConflict(details, 'Integrating issue i1 into main conflicts.', hint);
	assert.ok(parsed.ok, parsed.ok ? '' : parsed.error);
	return parsed.value;
}

function render(conflict: IntegrateConflict | null, updateFromBase: boolean, otherTasks: string[] = []): VNode {
	const issue = anIssue([aTask('middle', { status: 'completed', title: 'Change the middle line' }), ...otherTasks.map((t) => aTask(t, { status: 'completed' }))]);
	const withControl = { ...issue, delivery: 'ready_to_integrate' as const, controls: { ...issue.controls, integrate: true }, tasks: issue.tasks.map((t) => (t.taskId === 'middle' ? { ...t, controls: { ...t.controls, updateFromBase } } : t)) };
	const s: PanelSnapshot = aSnapshot(withControl);
	return panelTree(renderPanel({ ...s, view: { ...s.view, conflict } }, { selectedTaskId: null, showHistory: false }, 1, new LayoutCache()));
}

function byId(tree: VNode, id: string): ElementNode | UiNode | undefined {
	return findAll(tree, (n) => n.attrs['id'] === id)[0];
}

describe('integrate conflict block', () => {
	it('reads the Host\'s details, keeping only what the panel shows', () => {
		const c = conflictOf(hostDetails);
		assert.deepEqual(c, {
			into: 'main', paths: ['src/a.ts', 'README.md'], taskId: 'middle', between: ['main', 'middle'], tree: '.tutti/worktrees/i1/middle',
			updateFromBase: 'agent', message: 'Integrating issue i1 into main conflicts.', hint,
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
		]) {
			assert.equal(parseIntegrateConflict(bad, 'm', 'h').ok, false, JSON.stringify(bad));
		}
	});

	it('the panel\'s Open the task\'s tree message carries no path', () => {
		assert.equal(parseToHost({ type: 'conflict/openTree' }).ok, true);
		assert.equal(parseToHost({ type: 'conflict/openTree', tree: '/etc' }).ok, false);
	});

	it('says the paths and what conflicts, offers Update from base and the tree as buttons, and prints the ways forward', () => {
		const tree = render(conflictOf(hostDetails), true);
		const block = byId(tree, 'integrate-conflict');
		assert.ok(block);
		assert.equal(textContent(byId(block, 'conflict-summary')!), 'Integrate into main conflicts: src/a.ts, README.md, between task middle and main.');
		const update = byId(block, 'conflict-update-from-base')!;
		// A button component (a focusable, keyboard-pressable button), not a clickable span.
		assert.deepEqual([update.kind === 'ui' ? update.component : '', update.attrs['data-action'], update.attrs['data-task-id']], ['button', 'task/updateFromBase', 'middle']);
		const open = byId(block, 'conflict-open-tree')!;
		assert.deepEqual([open.kind === 'ui' ? open.component : '', open.attrs['data-action']], ['button', 'conflict/openTree']);
		assert.equal(textContent(byId(block, 'conflict-hint')!), hint);
		// It sits with the issue's controls, before the task graph.
		const html = renderToString(tree);
		assert.ok(html.indexOf('id="issue-controls"') < html.indexOf('id="integrate-conflict"'));
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
		assert.ok(byId(tree, 'conflict-open-tree'));
		assert.equal(byId(render(conflictOf({ ...hostDetails, tree: '' }), true), 'conflict-open-tree'), undefined, 'no tree, no button');
		assert.equal(byId(render(null, true), 'integrate-conflict'), undefined);
	});

	it('draws hostile paths and hints as text', () => {
		const evil = '<img src=x onerror=alert(1)>';
		const html = renderToString(render(conflictOf({ ...hostDetails, paths: [evil] }), true));
		assert.ok(!html.includes(evil));
		assert.ok(html.includes('&lt;img src=x onerror=alert(1)&gt;'));
	});
});
