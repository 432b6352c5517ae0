// The issue panel's second pass, as view models and VNodes: a failed Run's cause (the Host's words, its stderr's last
// lines) and one output button; transcript labels only where the kind of line changes; the task form (add, edit,
// delete) drawn from the Host's task controls; the list view's agent / duration / cost columns and Accept selected;
// middle-ellipsis node titles; a detail pane that takes no width with nothing selected; the review reached first in
// the Tab order; Ctrl+Enter wired to every text field's button; and the approval input editor.
import { strict as assert } from 'node:assert';
import type { ApprovalDto } from '../../../src/protocol/approvals.js';
import { approvalInputEditor, editedApprovalInput } from '../../../src/protocol/approvalInput.js';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import { snapshotDelta, applySnapshotDelta } from '../../../src/protocol/webviewDelta.js';
import { middleTruncate } from '../../../webview/issuePanel/format.js';
import { nodeLabelMax } from '../../../webview/issuePanel/graphModel.js';
import { transcriptModel } from '../../../webview/issuePanel/liveRunModel.js';
import { derivePanelModel, type PanelUi } from '../../../webview/issuePanel/panelModel.js';
import { LayoutCache, panelTree, renderPanel } from '../../../webview/issuePanel/renderPanel.js';
import { chosenValues, taskFormModel } from '../../../webview/issuePanel/taskFormModel.js';
import { findAll, renderToString, textContent, type ElementNode, type UiNode, type VNode } from '../../../webview/shared/vnode.js';
import { aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, anIssue } from './builders.js';

const agents = [
	{ id: 'sh', adapter: 'command' as const, found: true, detail: 'found sh' },
	{ id: 'claude', adapter: 'claude' as const, found: false, detail: 'claude not found' },
];

function rendered(s: PanelSnapshot, ui: Partial<PanelUi> = {}): ReturnType<typeof renderPanel> {
	return renderPanel(s, { selectedTaskId: null, showHistory: false, ...ui }, 1, new LayoutCache());
}

function tree(s: PanelSnapshot, ui: Partial<PanelUi> = {}): VNode {
	return panelTree(rendered(s, ui));
}

const byId = (t: VNode, id: string): ElementNode | UiNode | undefined => findAll(t, (n) => n.attrs['id'] === id)[0];
const actions = (t: VNode): string[] => findAll(t, (n) => typeof n.attrs['data-action'] === 'string').map((n) => String(n.attrs['data-action']));

/** A manual issue: t1 failed (exit 3), t2 and t3 not started (t3 waits for t2), t4 pending acceptance. */
function manual(over: Partial<Omit<PanelSnapshot, 'type'>> = {}): PanelSnapshot {
	const issue = anIssue([
		aTask('t1', { status: 'failed', title: 'Run the suite', latestRunId: 'r1', sortIndex: 0 }),
		aTask('t2', { title: 'Write the parser', content: 'Parse it.', agentTargetId: 'sh', sortIndex: 1 }),
		aTask('t3', { title: 'Document the parser', dependencyTaskIds: ['t2'], sortIndex: 2 }),
		aTask('t4', { status: 'pending_acceptance', title: 'Fix the lint', latestRunId: 'r4', sortIndex: 3 }),
	]);
	const withAttention = { ...issue, tasks: issue.tasks.map((t) => (t.taskId === 't1' ? { ...t, attention: { state: 'needs_you' as const, label: 'Failed: exit code 3 — retry, edit or stop' } } : t)) };
	return aSnapshot(withAttention, {
		runs: [
			aRun('r1', 't1', { status: 'failed', outcome: 'failure', outcomeLabel: 'Failed after 1.0s — exited with code 3', exitCode: 3, errorMessage: 'exited with code 3', costUsd: null }),
			aRun('r0', 't1', { createdAtUnixMs: 1_000, costUsd: 0.25, durationMs: 65_000 }),
			aRun('r4', 't4', { status: 'pending_acceptance', costUsd: 0.5, durationMs: 123_000 }),
		],
		agentTargets: agents,
		...over,
	});
}

const stderrTranscript = {
	runId: 'r1', omittedCount: 0, done: true,
	entries: [
		{ kind: 'output' as const, text: 'compiling', tool: '' }, { kind: 'output' as const, text: 'testing', tool: '' },
		{ kind: 'stderr' as const, text: 'npm ERR! 3 tests failed', tool: '' }, { kind: 'output' as const, text: 'cleaning up', tool: '' },
	],
	stderrTail: ['npm ERR! 3 tests failed'],
};

describe('issue panel, second pass', () => {
	describe('a failure shows its cause', () => {
		it('the failure card leads with the Host\'s words and the last stderr lines, and has the one output button', () => {
			const t = tree(manual({ transcript: stderrTranscript }), { selectedTaskId: 't1' });
			const card = byId(t, 'latest-run')!;
			assert.equal(textContent(byId(card, 'failure-decision')!), 'Failed: exit code 3 — retry, edit or stop');
			assert.match(textContent(byId(card, 'stderr-tail')!), /npm ERR! 3 tests failed$/);
			const outputs = findAll(t, (n) => n.attrs['data-action'] === 'run/openOutput').map((n) => n.attrs['data-run-id']);
			assert.deepEqual(outputs, ['r1', 'r0'], 'the latest Run\'s button is in its card; the older Run keeps its own in the list');
			assert.equal(findAll(card, (n) => n.attrs['data-action'] === 'run/openOutput').length, 1);
		});

		it('the failure card offers Retry and Edit and retry exactly when the Host sends the retry control', () => {
			const s = manual({ transcript: stderrTranscript });
			assert.equal(s.issue.tasks.find((t) => t.taskId === 't1')!.controls.retry, true, 'the Host offers retry on a failed task of a manual issue');
			const group = byId(tree(s, { selectedTaskId: 't1' }), 'way-forward')!;
			assert.deepEqual(actions(group), ['task/retry', 'taskForm/retry']);
			assert.deepEqual(findAll(group, (n) => n.attrs['data-action'] !== undefined).map((n) => n.attrs['data-task-id']), ['t1', 't1']);
			const withheld = manual({ issue: { ...s.issue, tasks: s.issue.tasks.map((t) => ({ ...t, controls: { ...t.controls, retry: false } })) } });
			assert.equal(byId(tree(withheld, { selectedTaskId: 't1' }), 'way-forward'), undefined, 'no control, no button: the panel derives nothing');
			assert.equal(byId(tree(s, { selectedTaskId: 't4' }), 'way-forward'), undefined, 'a task awaiting acceptance has none');
		});

		it('an accepted task with a commit of its own tree offers Update from base (from the Host\'s control), and no Retry', () => {
			const issue = anIssue([aTask('t1', { status: 'completed', title: 'Run the suite', latestRunId: 'r1', baseCommit: 'a'.repeat(40), resultCommit: 'b'.repeat(40), acceptedCommit: 'b'.repeat(40) })]);
			const s = aSnapshot(issue, { runs: [aRun('r1', 't1', { status: 'completed' })], agentTargets: agents });
			assert.equal(issue.tasks[0]!.controls.updateFromBase, true);
			assert.deepEqual(actions(byId(tree(s, { selectedTaskId: 't1' }), 'way-forward')!), ['task/updateFromBase']);
		});

		it('Edit and retry opens the task form on the failed task: its own fields, submitted as Retry; none without the control', () => {
			const s = manual();
			const m = taskFormModel(s, s.issue.tasks, { mode: 'retry', taskId: 't1' })!;
			assert.deepEqual([m.mode, m.heading, m.submitLabel, m.titleInitial, m.canDelete], ['retry', 'Edit and retry task Run the suite', 'Retry', 'Run the suite', false]);
			assert.equal(taskFormModel(s, s.issue.tasks, { mode: 'retry', taskId: 't2' }), null, 'not started: nothing to retry');
			const form = byId(tree(s, { selectedTaskId: 't1', taskForm: { mode: 'retry', taskId: 't1' } }), 'task-form')!;
			assert.equal(form.attrs['data-mode'], 'retry');
			assert.equal(textContent(byId(form, 'task-form-submit')!), 'Retry');
		});

		it('a Run that did not fail has no failure card', () => {
			assert.equal(derivePanelModel(manual(), { selectedTaskId: 't4', showHistory: false }).detail!.failure, null);
		});

		it('the transcript labels a line only where its kind changes, and marks stderr', () => {
			const m = transcriptModel(stderrTranscript, aRun('r1', 't1'))!;
			assert.deepEqual(m.entries.map((e) => [e.label, e.showLabel]), [['Output', true], ['Output', false], ['stderr', true], ['Output', true]]);
			const section = byId(tree(manual({ transcript: stderrTranscript }), { selectedTaskId: 't1' }), 'transcript')!;
			assert.deepEqual(findAll(section, (n) => n.attrs['class'] === 't-label').map(textContent), ['Output', 'stderr', 'Output']);
			assert.equal(findAll(section, (n) => String(n.attrs['class']).includes('t-stderr')).length, 1);
		});
	});

	describe('the task form', () => {
		it('adding: empty fields, every active task to wait for, the first agent found chosen', () => {
			const s = manual();
			const m = taskFormModel(s, s.issue.tasks, { mode: 'add' })!;
			assert.deepEqual([m.heading, m.submitLabel, m.titleInitial, m.contentInitial, m.taskId], ['Add a task', 'Add task', '', '', null]);
			assert.deepEqual(m.candidates.map((c) => [c.taskId, c.checked]), [['t1', false], ['t2', false], ['t3', false], ['t4', false]]);
			assert.deepEqual(m.agents.map((a) => [a.label, a.selected]), [['sh · command', true], ['claude · claude · not found', false]]);
			assert.deepEqual(chosenValues(m), { dependencyTaskIds: [], agentTargetId: 'sh' });
		});

		it('editing: the task\'s own title, content, dependencies and agent; itself not among the tasks to wait for; what was picked wins', () => {
			const s = manual();
			const m = taskFormModel(s, s.issue.tasks, { mode: 'edit', taskId: 't3' })!;
			assert.deepEqual([m.titleInitial, m.submitLabel, m.canDelete], ['Document the parser', 'Save', true]);
			assert.deepEqual(m.candidates.map((c) => c.taskId), ['t1', 't2', 't4']);
			assert.deepEqual(chosenValues(m), { dependencyTaskIds: ['t2'], agentTargetId: 'sh' });
			const picked = taskFormModel(s, s.issue.tasks, { mode: 'edit', taskId: 't3' }, { dependencyTaskIds: ['t4', 't1'], agentTargetId: 'claude' })!;
			assert.deepEqual(chosenValues(picked), { dependencyTaskIds: ['t1', 't4'], agentTargetId: 'claude' }, 'in plan order');
		});

		it('a task the Host does not let be edited (started, or of a managed plan) draws no form; one others wait for draws no Delete', () => {
			const s = manual();
			assert.equal(taskFormModel(s, s.issue.tasks, { mode: 'edit', taskId: 't1' }), null, 'failed: it ran');
			assert.equal(taskFormModel(s, s.issue.tasks, { mode: 'edit', taskId: 't2' })!.canDelete, false, 't3 waits for t2');
			const managed = aManagedSnapshot([aPlanTask('m1')]);
			assert.equal(taskFormModel(managed, managed.plan!.tasks, { mode: 'edit', taskId: 'm1' }), null);
		});

		it('an agent that is no longer configured stays visible on the task that names it', () => {
			const s = manual({ agentTargets: [agents[1]!] });
			const m = taskFormModel(s, s.issue.tasks, { mode: 'edit', taskId: 't2' })!;
			assert.deepEqual(m.agents.map((a) => [a.label, a.selected]), [['sh · not configured', true], ['claude · claude · not found', false]]);
			const none = manual({ agentTargets: [] });
			assert.equal(taskFormModel(none, none.issue.tasks, { mode: 'add' })!.noAgents, true);
			assert.ok(actions(tree(none, { taskForm: { mode: 'add' } })).includes('agent/add'), 'the form offers Add Agent instead');
		});

		it('takes the detail pane\'s place, with Ctrl+Enter on every field pressing its submit button', () => {
			const t = tree(manual(), { selectedTaskId: 't2', taskForm: { mode: 'edit', taskId: 't2' } });
			assert.equal(byId(t, 'task-detail'), undefined);
			const form = byId(t, 'task-form')!;
			const fields = findAll(form, (n) => n.attrs['data-submit'] !== undefined).map((n) => n.attrs['id']);
			assert.deepEqual(fields, ['task-form-title', 'task-form-content', 'dep-t1', 'dep-t3', 'dep-t4', 'task-form-agent']);
			assert.ok(findAll(form, (n) => n.attrs['data-submit'] !== undefined).every((n) => n.attrs['data-submit'] === 'task-form-submit'));
			assert.deepEqual(actions(form), ['taskForm/submit', 'taskForm/cancel']);
		});

		it('a not-started task offers Edit and Delete…; Delete asks once more in place', () => {
			const s = manual();
			assert.deepEqual(actions(byId(tree(s, { selectedTaskId: 't3' }), 'task-actions')!), ['taskForm/edit', 'task/deleteAsk']);
			assert.deepEqual(actions(byId(tree(s, { selectedTaskId: 't2' }), 'task-actions')!), ['taskForm/edit'], 't3 waits for it');
			assert.equal(byId(tree(s, { selectedTaskId: 't4' }), 'task-actions'), undefined, 'a task that ran');
			const asking = byId(tree(s, { selectedTaskId: 't3', confirmDeleteTaskId: 't3' }), 'task-actions')!;
			assert.deepEqual(actions(asking), ['taskForm/edit', 'task/delete', 'task/deleteCancel']);
			assert.match(textContent(asking), /Delete task Document the parser\? It has never run/);
		});
	});

	describe('large plans', () => {
		it('node titles keep both ends (the part that differs) within the label\'s width; the full title is on hover', () => {
			const a = 'Migrate the users table to the new billing schema';
			const b = 'Migrate the users table to the new orders schema';
			assert.notEqual(middleTruncate(a, nodeLabelMax), middleTruncate(b, nodeLabelMax));
			assert.ok(Array.from(middleTruncate(a, nodeLabelMax)).length <= nodeLabelMax);
			assert.match(middleTruncate(a, nodeLabelMax), /^Migrate the \S+…\S+ schema$/);
			assert.match(middleTruncate(b, nodeLabelMax), /rders schema$/, 'the end that differs is kept');
			assert.equal(middleTruncate('Short title', nodeLabelMax), 'Short title');
			const t = tree(aSnapshot(anIssue([aTask('t1', { title: a })])));
			assert.equal(textContent(findAll(t, (n) => n.kind === 'element' && n.tag === 'title')[0]!), `${a} (Not started)`);
		});

		it('the list view shows each task\'s agent, its latest Run\'s duration and its Runs\' cost', () => {
			const m = derivePanelModel(manual(), { selectedTaskId: null, showHistory: false, graphView: { mode: 'list', statusFilter: [], search: '', focusTaskId: null, hideCompleted: false, listSort: 'plan' } });
			assert.deepEqual(m.graph.list.map((r) => [r.taskId, r.agent, r.durationLabel, r.costLabel]), [
				['t1', 'sh', '5s', '$0.25 + unknown'], ['t2', 'sh', '—', '—'], ['t3', 'sh', '—', '—'], ['t4', 'sh', '2m 03s', '$0.50'],
			]);
		});

		it('only rows the Host offers Accept on can be checked; Accept selected counts them and is off with none checked', () => {
			const list = { mode: 'list' as const, statusFilter: [], search: '', focusTaskId: null, hideCompleted: false, listSort: 'plan' as const };
			const none = rendered(manual(), { graphView: list }).regions.graph;
			assert.deepEqual(findAll(none, (n) => n.attrs['data-field'] === 'list/check').map((n) => n.attrs['data-task-id']), ['t4']);
			const button = byId(none, 'accept-selected')!;
			assert.deepEqual([textContent(button), button.attrs['disabled']], ['Accept selected', true]);
			const checked = rendered(manual(), { graphView: list, checked: new Set(['t4', 't2']) }).regions.graph;
			const on = byId(checked, 'accept-selected')!;
			assert.deepEqual([textContent(on), on.attrs['disabled']], ['Accept selected (1)', false], 'a checked row the Host offers no Accept on does not count');
		});

		it('the detail pane takes no width with nothing selected and no form; collapsed, only its toggle stays', () => {
			assert.equal(rendered(manual()).detailPane, 'hidden');
			assert.equal(rendered(manual(), { taskForm: { mode: 'add' } }).detailPane, 'open');
			assert.equal(rendered(manual(), { selectedTaskId: 't1', detailCollapsed: true }).detailPane, 'collapsed');
			assert.ok(actions(rendered(manual(), { selectedTaskId: 't1' }).regions.detail).includes('detail/toggle'));
		});
	});

	describe('keyboard', () => {
		it('the first control of the panel goes to the review of the task awaiting the developer (the selected one first)', () => {
			const html = renderToString(tree(manual()));
			assert.ok(html.indexOf('data-action="review/jump"') < html.indexOf('data-action="issue/pause"'), 'before the issue controls');
			assert.equal(byId(tree(manual()), 'review-jump')!.attrs['data-task-id'], 't4');
			assert.equal(byId(tree(manual()), 'accept-task'), undefined);
			assert.equal(byId(tree(manual(), { selectedTaskId: 't4' }), 'accept-task')!.attrs['data-action'], 'task/accept', 'where the jump lands');
			assert.equal(byId(tree(aSnapshot(anIssue([aTask('t1')]))), 'review-jump'), undefined, 'nothing to review: no jump');
		});

		it('a task selected here is busy until the Host echoes the selection (its transcript and the keybindings\' context come with it)', () => {
			assert.equal(byId(tree(manual(), { selectedTaskId: 't4' }), 'task-detail')!.attrs['aria-busy'], 'true');
			const echoed = manual();
			assert.equal(byId(tree({ ...echoed, view: { ...echoed.view, selectedTaskId: 't4' } }, { selectedTaskId: 't4' }), 'task-detail')!.attrs['aria-busy'], 'false');
		});

		it('every text field presses its own button on Ctrl+Enter', () => {
			const t = tree(manual(), { selectedTaskId: 't4' });
			const fields = findAll(t, (n) => n.attrs['data-draft-key'] !== undefined);
			assert.ok(fields.length > 0);
			for (const f of fields) {
				const target = byId(t, String(f.attrs['data-submit']));
				assert.ok(target && typeof target.attrs['data-action'] === 'string', `${String(f.attrs['data-draft-key'])} presses a button`);
			}
			assert.equal(byId(t, 'task-note')!.attrs['data-submit'], 'request-changes');
		});
	});

	describe('approvals: an edited input', () => {
		const bash = { command: 'git push --force', description: 'push' };
		it('the editor shows Bash\'s command line, any other tool\'s input as JSON', () => {
			assert.deepEqual(approvalInputEditor('Bash', bash), { kind: 'command', text: 'git push --force' });
			assert.deepEqual(approvalInputEditor('exec_command', { command: 'npm test', cwd: '/w' }), { kind: 'command', text: 'npm test' });
			assert.deepEqual(approvalInputEditor('WebFetch', { url: 'https://example.com' }), { kind: 'json', text: '{\n  "url": "https://example.com"\n}' });
		});

		it('reads the edit back: the command replaced (the rest kept), or the JSON object; anything else is refused with why', () => {
			assert.deepEqual(editedApprovalInput('Bash', bash, 'git push'), { ok: true, value: { command: 'git push', description: 'push' } });
			assert.deepEqual(editedApprovalInput('Bash', bash, '  '), { ok: false, error: 'Write the command to run (or Deny).' });
			assert.deepEqual(editedApprovalInput('exec_command', { command: 'npm test', cwd: '/w' }, 'npm run lint'), { ok: true, value: { command: 'npm run lint', cwd: '/w' } });
			assert.deepEqual(editedApprovalInput('WebFetch', { url: 'a' }, '{"url":"b"}'), { ok: true, value: { url: 'b' } });
			for (const bad of ['[1]', '"x"', 'null', '{']) { assert.equal(editedApprovalInput('WebFetch', { url: 'a' }, bad).ok, false, bad); }
		});

		it('a pending request offers Allow with this input under its editor, pressed by Ctrl+Enter', () => {
			const approval: ApprovalDto = {
				approvalId: 'a1', issueId: 'i1', taskId: 't1', runId: 'r1', sessionId: 's', toolUseId: '', tool: 'Bash', input: bash, kind: 'tool', questions: [], requestedAtUnixMs: 1, status: 'pending',
				answer: '', answeredBy: '', answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '', answerLabel: 'not answered yet',
			};
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, approvals: [approval] })] });
			const t = tree(s, { selectedTaskId: 't1' });
			const editor = byId(t, 'approval-input-a1')!;
			assert.deepEqual([editor.attrs['data-initial'], editor.attrs['data-submit']], ['git push --force', 'approval-allow-edited-a1']);
			assert.equal(byId(t, 'approval-allow-edited-a1')!.attrs['data-action'], 'approval/allowEdited');
		});

		it('a pending question has no input editor; its answer and its Decline message are sent by Ctrl+Enter', () => {
			const question: ApprovalDto = {
				approvalId: 'q1', issueId: 'i1', taskId: 't1', runId: 'r1', sessionId: 's', toolUseId: '', tool: 'request_user_input', input: {}, kind: 'question',
				questions: [{ id: 'colour', header: 'Colour', question: 'Which colour?', options: [{ label: 'Blue', description: '' }], isOther: true, isSecret: false }],
				requestedAtUnixMs: 1, status: 'pending', answer: '', answeredBy: '', answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '', answerLabel: 'not answered yet',
			};
			const s = aSnapshot(anIssue([aTask('t1', { status: 'running' })]), { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, approvals: [question] })] });
			const t = tree(s, { selectedTaskId: 't1' });
			assert.equal(byId(t, 'approval-input-q1'), undefined);
			assert.equal(byId(t, 'question-q1-colour')!.attrs['data-submit'], 'question-answer-q1');
			assert.equal(byId(t, 'question-answer-q1')!.attrs['data-action'], 'question/answer');
			assert.equal(byId(t, 'approval-note-q1')!.attrs['data-submit'], 'question-decline-q1');
			assert.equal(byId(t, 'question-decline-q1')!.attrs['data-action'], 'approval/deny');
		});
	});

	it('the agent choices travel in deltas like the rest of the snapshot', () => {
		const base = manual();
		const next = { ...base, seq: 2, agentTargets: [agents[0]!] };
		const delta = snapshotDelta(base, next)!;
		assert.deepEqual(delta.agentTargets, [agents[0]]);
		assert.deepEqual(applySnapshotDelta(base, delta)!.agentTargets, [agents[0]]);
		const { agentTargets: _gone, ...without } = next;
		assert.equal(snapshotDelta(base, without as PanelSnapshot), null, 'choices that went away: a complete snapshot');
	});
});
