import { strict as assert } from 'node:assert';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import { nextNodeId } from '../../../webview/issuePanel/graphNavigation.js';
import { graphNodeVNodes } from '../../../webview/issuePanel/renderGraph.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { nodeLabelMax } from '../../../webview/issuePanel/graphModel.js';
import { findAll, h, renderToString, svg, textContent, type VNode } from '../../../webview/shared/vnode.js';
import { repeatedPhrase } from '../../vscode/ui/repeatedText.js';
import { attentionFor } from '../attentionFixture.js';
import { aCheckpoint, aLayeredGraph, aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, anIssue } from './builders.js';

const hostile = [
	'<img src=x onerror=alert(1)>',
	'"><script>alert(document.cookie)</script>',
	"' onmouseover='alert(1)",
	'</text><foreignObject><iframe src="javascript:alert(1)"></iframe></foreignObject>',
	'&lt;b&gt; already escaped &amp; ambiguous',
	'<style>*{display:none}</style>',
];

/** Every attribute name in a rendered string. Text and values are escaped, so each raw `<` opens a real tag. */
function attributeNames(html: string): string[] {
	const names: string[] = [];
	for (const tag of html.matchAll(/<[a-zA-Z][^\s>]*([^>]*)>/g)) {
		for (const a of (tag[1] ?? '').matchAll(/\s([^\s=>"]+)(?:="[^"]*")?/g)) { names.push(a[1]!); }
	}
	return names;
}

function tagNames(html: string): string[] {
	return [...html.matchAll(/<([a-zA-Z][^\s>]*)/g)].map((m) => m[1]!.toLowerCase());
}

function render(s: PanelSnapshot, selectedTaskId: string | null = null, showHistory = false): VNode {
	return panelTree(renderPanel(s, { selectedTaskId, showHistory }, 1, new LayoutCache()));
}

function attrOf(tree: VNode, attr: string): string[] {
	return findAll(tree, (n) => n.attrs[attr] !== undefined && n.attrs[attr] !== null).map((n) => String(n.attrs[attr]));
}

describe('panel rendering', () => {
	describe('hostile titles never become markup', () => {
		const tasks = hostile.map((title, i) => aTask(`t${i}`, {
			title, content: title, status: i === 0 ? 'pending_acceptance' : 'completed', dependencyTaskIds: i ? [`t${i - 1}`] : [],
			model: title, executionDirectory: title,
		}));
		const issue = anIssue(tasks, { title: hostile[1]!, planningSource: 'tutti' });
		const snapshot = aSnapshot(issue, {
			plan: aManagedSnapshot(tasks.map((t) => aPlanTask(t.taskId, t)), {
				recoveryHint: `Run \`tutti plan issue get --issue-id ${hostile[1]!}\`.`,
			}).plan,
			runs: [aRun('r<1>', 't0', { summary: hostile[0]!, errorMessage: hostile[1]! })],
		});

		for (const selected of tasks.map((t) => t.taskId)) {
			it(`escapes every hostile string (task ${selected} selected)`, () => {
				const html = renderToString(render(snapshot, selected));
				const tags = new Set(tagNames(html));
				for (const bad of ['script', 'img', 'iframe', 'style', 'foreignobject']) { assert.ok(!tags.has(bad), `no <${bad}>`); }
				const names = attributeNames(html);
				assert.ok(names.length > 100);
				assert.deepEqual(names.filter((n) => /^on/i.test(n) || n.toLowerCase() === 'style'), [], 'no event-handler or inline style attribute (CSP)');
				assert.match(html, /&lt;img src=x onerror=alert\(1\)&gt;/);
				assert.match(html, /&amp;lt;b&amp;gt;/, 'already-escaped text is escaped again, not decoded');
			});
		}

		it('keeps the exact title as text and in aria-label (the tree holds data, not markup)', () => {
			const tree = render(snapshot, 't3', true);
			assert.ok(textContent(tree).includes(hostile[3]!));
			const labels = attrOf(tree, 'aria-label');
			assert.ok(labels.some((l) => l.includes(hostile[1]!)), 'full hostile title in an aria-label');
		});

		it('refuses event-handler and style attributes, and script/style elements, in any render code', () => {
			assert.throws(() => renderToString(h('div', { onclick: 'x()' })), /refused attribute/);
			assert.throws(() => renderToString(svg('g', { onLoad: 'x()' })), /refused attribute/);
			assert.throws(() => renderToString(h('div', { style: 'color:red' })), /refused attribute/);
			assert.throws(() => renderToString(h('div', { 'a b': '1' })), /refused attribute/);
			assert.throws(() => h('script'), /refused tag/);
			assert.throws(() => svg('style'), /refused tag/);
		});
	});

	describe('graph', () => {
		const tasks = aLayeredGraph(200);
		const s = aSnapshot(anIssue(tasks));

		it('draws one node per visible task, with data-task-id, a truncated label and the full title in <title> and aria-label', () => {
			const tree = render(s);
			const nodes = findAll(tree, (n) => n.kind === 'element' && n.tag === 'g' && n.attrs['data-task-id'] !== undefined);
			assert.equal(nodes.length, 200);
			for (const n of nodes) {
				const title = findAll(n, (c) => c.kind === 'element' && c.tag === 'title')[0]!;
				const label = findAll(n, (c) => c.kind === 'element' && c.attrs['class'] === 'node-title')[0]!;
				assert.ok(Array.from(textContent(label)).length <= nodeLabelMax);
				assert.match(textContent(title), /^Task number \d+ with a reasonably long descriptive title \(/);
				assert.match(String(n.attrs['aria-label']), /Task number \d+ with a reasonably long descriptive title/);
				assert.equal(n.attrs['role'], 'button');
			}
		});

		it('lets the DOM patch nodes one by one: each node group is found by its task id, in drawing order', () => {
			const tree = renderPanel(s, { selectedTaskId: null, showHistory: false }, 1, new LayoutCache()).regions.graph;
			const nodes = graphNodeVNodes(tree);
			assert.deepEqual(nodes.map(([id]) => id), tasks.map((t) => t.taskId));
			const one = renderToString(nodes[5]![1]);
			assert.match(one, /^<g class="node status-[a-z_]+[^"]*" transform="translate\([\d.]+,[\d.]+\)" data-task-id="t5"/);
		});

		it('puts exactly one node in the tab order (the selection, else the first)', () => {
			const tabbable = (tree: VNode): string[] => findAll(tree, (n) => n.attrs['tabindex'] === 0 && n.attrs['data-task-id'] !== undefined).map((n) => String(n.attrs['data-task-id']));
			assert.deepEqual(tabbable(render(s)), ['t0']);
			assert.deepEqual(tabbable(render(s, 't42')), ['t42']);
		});

		it('describes the graph for screen readers', () => {
			const tree = render(s);
			const graph = findAll(tree, (n) => n.attrs['id'] === 'task-graph')[0]!;
			assert.equal(graph.attrs['aria-describedby'], 'graph-summary');
			const summary = findAll(tree, (n) => n.attrs['id'] === 'graph-summary')[0]!;
			assert.match(textContent(summary), /^200 tasks: /);
			assert.ok(findAll(tree, (n) => n.attrs['class'] === 'edges')[0]!.attrs['aria-hidden'] === 'true');
		});

		it('scales with zoom through width/height, keeping the viewBox', () => {
			const at = (zoom: number): VNode => renderPanel(s, { selectedTaskId: null, showHistory: false }, zoom, new LayoutCache()).regions.graph;
			const one = at(1);
			const half = at(0.5);
			assert.equal(one.kind === 'element' && one.attrs['viewBox'], half.kind === 'element' && half.attrs['viewBox']);
			assert.equal(Math.ceil(Number(one.kind === 'element' && one.attrs['width']) / 2), Number(half.kind === 'element' && half.attrs['width']));
		});

		it('says so when every task is hidden history', () => {
			const only = aManagedSnapshot([aPlanTask('t1', { supersededAtUnixMs: 1, supersededByTaskId: 'x' })]);
			assert.match(renderToString(render(only)), /Show history/);
		});

		it('moves between nodes with the arrow keys', () => {
			const nodes = [
				{ id: 'a', x: 0, y: 0, width: 10, height: 10 }, { id: 'b', x: 0, y: 20, width: 10, height: 10 },
				{ id: 'c', x: 50, y: 0, width: 10, height: 10 }, { id: 'd', x: 50, y: 40, width: 10, height: 10 },
			];
			assert.equal(nextNodeId(nodes, 'a', 'ArrowDown'), 'b');
			assert.equal(nextNodeId(nodes, 'b', 'ArrowUp'), 'a');
			assert.equal(nextNodeId(nodes, 'a', 'ArrowRight'), 'c');
			assert.equal(nextNodeId(nodes, 'd', 'ArrowLeft'), 'b');
			assert.equal(nextNodeId(nodes, 'a', 'ArrowLeft'), null);
			assert.equal(nextNodeId(nodes, 'c', 'Home'), 'a');
			assert.equal(nextNodeId(nodes, 'a', 'End'), 'd');
			assert.equal(nextNodeId(nodes, 'gone', 'ArrowDown'), 'a');
		});
	});

	describe('controls and stable hooks', () => {
		const graphTools = /^(zoom|mode|filter|focus|completed|list)\//;
		const actions = (tree: VNode): string[] => attrOf(tree, 'data-action').filter((a) => !graphTools.test(a) && a !== 'task/select' && a !== 'history/toggle');

		it('renders Pause and Stop for a running manual issue, and no paused note', () => {
			const tree = render(aSnapshot(anIssue([aTask('t1')])));
			assert.deepEqual(actions(tree), ['issue/pause', 'issue/stop', 'task/add']);
			assert.equal(findAll(tree, (n) => n.attrs['id'] === 'paused-note').length, 0);
		});

		it('renders Integrate exactly when the Host offers it, and the last integration once there is one', () => {
			const issue = anIssue([aTask('t1', { status: 'completed' })], { status: 'completed', finished: true });
			assert.deepEqual(actions(render(aSnapshot(issue))), []);
			const offered = render(aSnapshot({ ...issue, controls: { ...issue.controls, integrate: true } }));
			assert.deepEqual(actions(offered), ['issue/integrate']);
			assert.equal(findAll(offered, (n) => n.attrs['id'] === 'integrated').length, 0);
			const done = render(aSnapshot({ ...issue, integratedCommit: 'abcdef0123456789abcdef0123456789abcdef01', integratedInto: 'main' }));
			assert.equal(textContent(findAll(done, (n) => n.attrs['id'] === 'integrated')[0]!), 'Integrated into main at abcdef012345');
		});

		it('makes Integrate the primary action while the work is ready to integrate, with a Push checkbox; says "not integrated" after Finish without it', () => {
			const issue = anIssue([aTask('t1', { status: 'completed' })], { status: 'completed' });
			const integrateButton = (tree: ReturnType<typeof render>) => findAll(tree, (n) => n.attrs['data-action'] === 'issue/integrate')[0]!;
			const ready = render(aSnapshot({ ...issue, delivery: 'ready_to_integrate', controls: { ...issue.controls, integrate: true } }));
			assert.equal(integrateButton(ready).attrs['appearance'], 'primary');
			const push = findAll(ready, (n) => n.attrs['id'] === 'integrate-push')[0]!;
			assert.equal(push.attrs['type'], 'checkbox');
			const offered = render(aSnapshot({ ...issue, delivery: 'integrated', controls: { ...issue.controls, integrate: true } }));
			assert.equal(integrateButton(offered).attrs['appearance'], 'secondary');
			const abandoned = render(aSnapshot({ ...issue, delivery: 'not_integrated' }));
			assert.equal(textContent(findAll(abandoned, (n) => n.attrs['id'] === 'not-integrated')[0]!), 'Finished without integrating: the accepted work is only on its tutti/* branches.');
		});

		it('renders Resume, the Paused state and what pausing means (id paused-note) when paused', () => {
			const tree = render(aSnapshot(anIssue([aTask('t1')], { dispatchPaused: true })));
			assert.deepEqual(actions(tree), ['issue/resume', 'task/add']);
			assert.equal(findAll(tree, (n) => n.attrs['id'] === 'paused-note').length, 1);
			assert.equal(textContent(findAll(tree, (n) => n.attrs['id'] === 'issue-status')[0]!), 'Paused');
		});

		it('renders Accept / Request changes with a note field for a task pending acceptance', () => {
			const tree = render(aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance' })])), 't1');
			assert.ok(actions(tree).includes('task/accept'));
			assert.ok(actions(tree).includes('task/requestChanges'));
			const area = findAll(tree, (n) => n.kind === 'ui' && n.component === 'textArea')[0]!;
			assert.equal(area.attrs['data-draft-key'], 'task:t1');
			assert.equal(area.attrs['maxlength'], 10_000);
			const accept = findAll(tree, (n) => n.attrs['data-action'] === 'task/accept')[0]!;
			assert.equal(accept.attrs['data-task-id'], 't1');
		});

		it('shows the Host\'s verification above Accept: a failed check in its words, its output one click away', () => {
			const check = { name: 'test', argv: ['npm', 'test'], shell: false, timeoutSeconds: 600, exitCode: 1, timedOut: false, durationMs: 800, interrupted: 0 };
			const verification = {
				status: 'failed' as const, subject: 'commit' as const, commit: 'abc1234def', label: 'Checks failed: test (exit 1)', stale: false, attempts: 1, startedAtUnixMs: 1, completedAtUnixMs: 2,
				checks: [{ ...check, state: 'failed' as const, outputTail: 'not ok 2 parser', label: 'test: exit 1 after 0.8 s' }],
			};
			const tree = render(aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance', verification })])), 't1');
			const block = findAll(tree, (n) => n.attrs['id'] === 'verification')[0]!;
			assert.match(textContent(block), /^Checks failed: test \(exit 1\)Output of testnot ok 2 parser$/);
			const acceptance = findAll(tree, (n) => n.attrs['id'] === 'acceptance')[0]!;
			const order = findAll(acceptance, (n) => n.attrs['id'] === 'verification' || n.attrs['data-action'] === 'task/accept').map((n) => n.attrs['data-action'] ?? n.attrs['id']);
			assert.deepEqual(order, ['verification', 'task/accept'], 'the verification comes before Accept');
		});

		it('an accepted task says by whom, at which commit and what its checks said then (the Host\'s words)', () => {
			const acceptance = { by: 'developer' as const, commit: 'abc1234def', checks: 'failed' as const, acceptedAtUnixMs: 5, label: 'Accepted by you at abc1234 — its checks had failed' };
			const tree = render(aSnapshot(anIssue([aTask('t1', { status: 'completed', acceptanceState: 'user_accepted', acceptance })])), 't1');
			assert.match(textContent(findAll(tree, (n) => n.attrs['class'] === 'detail-meta')[0]!), /Accepted by you at abc1234 — its checks had failed/);
		});

		it('lists the changed files with their counts above Accept, and Open Diff posts the task\'s open-changes message', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance', baseCommit: 'b0', resultCommit: 'r9' })]), {
				runs: [aRun('r1', 't1', { inWorktree: true, baseCommit: 'b0', resultCommit: 'r9', executionDirectory: '/wt/t1', changedFiles: [
					{ path: 'src/a.ts', added: 12, deleted: 3, binary: false }, { path: 'logo.png', added: 0, deleted: 0, binary: true },
				] })],
			});
			const tree = render(s, 't1');
			const list = findAll(tree, (n) => n.kind === 'element' && n.tag === 'ul' && n.attrs['class'] === 'changed-files')[0]!;
			assert.deepEqual(list.children.map((li) => textContent(li)), ['src/a.ts+12 \u22123, 12 lines added, 3 deleted', 'logo.pngbinary, binary file']);
			const html = renderToString(tree);
			assert.ok(html.indexOf('changed-files') < html.indexOf('data-action="task/accept"'), 'the files come before Accept');
			const diff = findAll(tree, (n) => n.attrs['data-action'] === 'task/openChanges' && n.attrs['aria-label'] === 'Open the diff of task Task t1');
			assert.equal(diff.length, 1);
			assert.equal(diff[0]!.attrs['data-task-id'], 't1');
		});

		it('offers Open Diff only when the Host offers Open changes on the task', () => {
			const run = aRun('r1', 't1', { inWorktree: true, baseCommit: 'b0', resultCommit: 'r9', changedFiles: [{ path: 'a.ts', added: 1, deleted: 0, binary: false }] });
			const issue = anIssue([aTask('t1', { status: 'pending_acceptance', baseCommit: 'b0', resultCommit: 'r9' })]);
			const withheld = { ...issue, tasks: issue.tasks.map((t) => ({ ...t, controls: { ...t.controls, openChanges: false } })) };
			const diffs = (s: ReturnType<typeof aSnapshot>): number => findAll(render(s, 't1'), (n) => n.attrs['data-action'] === 'task/openChanges').length;
			assert.equal(diffs(aSnapshot(issue, { runs: [run] })), 1);
			assert.equal(diffs(aSnapshot(withheld, { runs: [run] })), 0);
		});

		it('says "No files changed" (and offers no diff) in the review block when the Run changed nothing', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance' })]), {
				runs: [aRun('r1', 't1', { inWorktree: true, baseCommit: 'b0', resultCommit: 'b0' })],
			});
			const review = findAll(render(s, 't1'), (n) => n.attrs['id'] === 'review-changes')[0]!;
			assert.equal(textContent(review), 'No files changed');
		});

		it('renders Stop run and Open output per Run, carrying data-run-id', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), {
				runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null }), aRun('r0', 't1', { createdAtUnixMs: 1 })],
			});
			const tree = render(s, 't1');
			const stops = findAll(tree, (n) => n.attrs['data-action'] === 'run/stop').map((n) => n.attrs['data-run-id']);
			assert.deepEqual(stops, ['r1'], 'only the nonterminal Run can be stopped');
			const outputs = findAll(tree, (n) => n.attrs['data-action'] === 'run/openOutput').map((n) => n.attrs['data-run-id']);
			assert.deepEqual(outputs, ['r1', 'r0'], 'the latest Run\'s in its card, each older one in the list');
		});

		it('leads the detail with the latest Run (outcome, times, usage, summary, files) above Accept; content, dependencies and launch settings collapsed', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance', content: 'Make it work', model: 'opus' })]), {
				runs: [aRun('r1', 't1', {
					summary: 'Added the sum function', startedAtUnixMs: Date.UTC(2026, 11, 1, 14, 2, 11), completedAtUnixMs: Date.UTC(2026, 11, 1, 14, 4, 13),
					usage: { inputTokens: 1200, outputTokens: 300, cacheReadTokens: 0, cacheWriteTokens: 0 },
					inWorktree: true, baseCommit: 'b0', resultCommit: 'r9', changedFiles: [{ path: 'src/sum.ts', added: 4, deleted: 0, binary: false }],
				})],
			});
			const tree = render(s, 't1');
			const latest = findAll(tree, (n) => n.attrs['id'] === 'latest-run')[0]!;
			const text = textContent(latest);
			assert.ok(text.startsWith('Completed in 0m 05s'), text);
			assert.ok(text.includes('Started 14:02:11Z · ended 14:04:13Z · 1,200 in · 300 out'), text);
			assert.ok(text.includes('Added the sum function'), text);
			assert.ok(text.includes('src/sum.ts+4 \u22120'), text);
			const html = renderToString(tree);
			assert.ok(html.indexOf('id="latest-run"') < html.indexOf('data-action="task/accept"'), 'the evidence comes before Accept');
			assert.ok(html.indexOf('data-action="task/accept"') < html.indexOf('data-details-key="content"'), 'content follows the decision');
			const sections = findAll(tree, (n) => n.kind === 'element' && n.tag === 'details').map((n) => n.attrs['data-details-key']);
			assert.deepEqual(sections, ['content', 'dependencies', 'launch']);
			const launch = textContent(findAll(tree, (n) => n.attrs['data-details-key'] === 'launch')[0]!);
			assert.equal(launch, 'Launch settingsAgent targetshModelopus', 'only the settings the task set (and its agent target)');
		});

		it('draws the transcript of the latest Run with a live badge, a label only where the kind of line changes, and one output button', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), {
				runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null })],
				transcript: { runId: 'r1', omittedCount: 2, done: false, entries: [
					{ kind: 'assistant', text: 'Running the tests', tool: '' }, { kind: 'tool', text: '$ npm test', tool: 'Bash' }, { kind: 'edit', text: 'src/a.ts', tool: 'Edit' },
				] },
			});
			const tree = render(s, 't1');
			const section = findAll(tree, (n) => n.attrs['id'] === 'transcript')[0]!;
			const items = findAll(section, (n) => n.kind === 'element' && n.tag === 'li').map((li) => textContent(li));
			assert.deepEqual(items, ['AgentRunning the tests', 'Ran$ npm test', 'Editedsrc/a.ts']);
			const text = textContent(section);
			assert.ok(text.includes('live'), text);
			assert.ok(text.includes('Showing the latest 3 of 5 entries'), text);
			const outputs = findAll(tree, (n) => n.attrs['data-action'] === 'run/openOutput');
			assert.deepEqual(outputs.map((o) => o.attrs['data-run-id']), ['r1'], 'one output button for the latest Run');
			assert.equal(findAll(section, (n) => n.attrs['data-action'] === 'run/openOutput').length, 0, 'in its card, not the transcript\'s');
		});

		it('a running node shows what its agent is doing now (the Host\'s activity line); others show their status', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' }), aTask('t2', { status: 'running' }), aTask('t3', { status: 'completed' })]), {
				runs: [
					aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, activity: { kind: 'tool', text: '$ npm test -- --watch=false', tool: 'Bash' } }),
					aRun('r2', 't2', { status: 'running', outcome: null, outcomeLabel: null }),
					aRun('r3', 't3', { activity: { kind: 'assistant', text: 'stale', tool: '' } }),
				],
			});
			const statusOf = (taskId: string): string => textContent(findAll(render(s), (n) => n.kind === 'element' && n.attrs['data-task-id'] === taskId && n.tag === 'g')[0]!);
			assert.ok(statusOf('t1').includes('Running · Ran: $ npm test'), statusOf('t1'));
			assert.ok(statusOf('t1').includes('$ npm test -- --watch=false'), 'the hover title has the whole line');
			assert.ok(statusOf('t2').endsWith('Running'), statusOf('t2'));
			assert.ok(!statusOf('t3').includes('stale'), 'a settled Run says nothing about now');
		});

		it('draws no transcript that belongs to an older Run than the latest', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), {
				runs: [aRun('r2', 't1', { createdAtUnixMs: 9_000 }), aRun('r1', 't1')],
				transcript: { runId: 'r1', omittedCount: 0, done: true, entries: [{ kind: 'assistant', text: 'old', tool: '' }] },
			});
			assert.equal(findAll(render(s, 't1'), (n) => n.attrs['id'] === 'transcript').length, 0);
		});

		it('renders Confirm goal and the goal note at Goal Review', () => {
			const plan = aManagedSnapshot([]).plan!;
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'completed' })], {
				execution: { ...plan.execution, status: 'pending_goal_review' },
				activeCheckpoint: aCheckpoint(5, { kind: 'all_tasks_terminal' }),
			});
			const tree = render(s);
			assert.ok(actions(tree).includes('goal/confirm'));
			assert.ok(actions(tree).includes('goal/requestChanges'));
		});

		it('renders the hand-back command in the one status line, Copy and Open agent terminal beside it', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { ready: true })]);
			const tree = render({ ...s, view: { ...s.view, handBack: { command: 'tutti agent resume --session-id s1', decision: 'Accept' } } });
			const line = findAll(tree, (n) => n.attrs['id'] === 'attention-line')[0]!;
			const copy = findAll(line, (n) => n.attrs['data-action'] === 'command/copy');
			assert.deepEqual(copy.map((c) => c.attrs['data-text']), ['tutti agent resume --session-id s1']);
			assert.equal(findAll(line, (n) => n.attrs['data-action'] === 'agent/showTerminal').length, 1);
		});

		it('says nothing twice in the header\'s one line: the source agent\'s state is not repeated beside the label', () => {
			/** The line's words as a reader meets them, piece by piece (commands and buttons aside). */
			const lineText = (tree: VNode): string => {
				const line = findAll(tree, (n) => n.attrs['id'] === 'attention-line')[0]!;
				const pieces: string[] = [];
				const visit = (n: VNode): void => {
					if (n.kind === 'text') { pieces.push(n.text); return; }
					if (n.kind === 'ui' || n.tag === 'code') { return; }
					n.children.forEach(visit);
				};
				visit(line);
				return pieces.join(' ');
			};
			const working = attentionFor({
				issueStatus: 'in_progress', executionStatus: 'awaiting_main', dispatchPaused: false, tasks: [{ taskId: 't1', status: 'not_started' }],
				activeCheckpoint: { kind: 'initial_schedule', createdAtUnixMs: 900 }, source: { sessionId: 's1', lastContactUnixMs: 950, turnRunning: true },
			});
			const idle = attentionFor({
				issueStatus: 'in_progress', executionStatus: 'awaiting_main', dispatchPaused: false, tasks: [{ taskId: 't1', status: 'completed' }],
				activeCheckpoint: { kind: 'task_settled', createdAtUnixMs: 900 }, source: { sessionId: 's1', lastContactUnixMs: 100 },
			});
			for (const attention of [working, idle]) {
				const s = aManagedSnapshot([aPlanTask('t1')]);
				const text = lineText(render({ ...s, issue: { ...s.issue, attention: { ...attention, reasons: attention.reasons.map((r) => ({ ...r, taskIds: [...r.taskIds] })), sourceAgent: attention.sourceAgent && { ...attention.sourceAgent }, runs: [] } } }));
				assert.ok(text.toLowerCase().includes('source agent'), `the line names the source agent: ${text}`);
				assert.equal(repeatedPhrase(text), null, `repeated in "${text}"`);
			}
		});

		it('puts Copy only beside complete commands: the recovery hint\'s example commands have none, collapsed in the details', () => {
			const tree = render(aManagedSnapshot([aPlanTask('t1', { ready: true })]));
			assert.equal(findAll(tree, (n) => n.attrs['data-action'] === 'command/copy').length, 0);
			const details = findAll(tree, (n) => n.attrs['id'] === 'orchestration')[0]!;
			assert.equal(details.kind === 'element' && details.tag, 'details');
			assert.equal(details.attrs['open'], undefined);
			assert.equal(findAll(details, (n) => n.attrs['id'] === 'recovery-hint').length, 1);
			assert.equal(findAll(details, (n) => n.attrs['id'] === 'active-checkpoint').length, 1);
		});

		it('gives every button an accessible name', () => {
			const s = aSnapshot(anIssue([aTask('t1', { status: 'pending_acceptance' })]), { runs: [aRun('r1', 't1')] });
			for (const b of findAll(render(s, 't1'), (n) => (n.kind === 'ui' && n.component === 'button') || (n.kind === 'element' && n.tag === 'button'))) {
				assert.ok(String(b.attrs['aria-label'] ?? '').length > 0, `button ${String(b.attrs['data-action'])} has an aria-label`);
			}
		});
	});
});
