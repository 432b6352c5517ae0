// The issue header (pure VNodes), calm: the title and progress, then ONE line with the Host's attention state — and,
// when the source agent must be handed back, the complete command with Copy and Open agent terminal beside it —,
// the issue controls, Goal Review, the tasks that need the developer, and the orchestration details (active
// checkpoint, backlog, recovery hint, wake history) collapsed. No text is said twice; Copy sits only beside a
// complete command.
import { badge, button, linkButton, textArea } from '../shared/components.js';
import { type Child, type ElementNode, h, type UiNode } from '../shared/vnode.js';
import type { CheckpointSummary, ConflictModel, ConflictWayModel, HeaderModel } from './headerModel.js';
import type { IssueControlsDto as IssueControls } from './snapshotTypes.js';

export const noteMaxLength = 10_000;

function checkpointLine(c: CheckpointSummary): string {
	return `#${c.sequence} ${c.kindLabel} · revision ${c.graphRevision}${c.subjectTaskId ? ` · task ${c.subjectTaskId}` : ''}`;
}

function controls(c: IssueControls, title: string, ready: boolean): ElementNode {
	return h('div', { id: 'issue-controls', role: 'toolbar', 'aria-label': 'Issue controls' },
		c.pause ? button({ label: 'Pause', action: 'issue/pause', ariaLabel: `Pause issue ${title}`, title: 'Stop starting new work; running Runs continue' }) : null,
		c.resume ? button({ label: 'Resume', action: 'issue/resume', appearance: 'primary', ariaLabel: `Resume issue ${title}` }) : null,
		c.stop ? button({ label: 'Stop', action: 'issue/stop', ariaLabel: `Stop issue ${title}`, title: 'Pause and stop every running Run' }) : null,
		c.integrate ? button({
			label: 'Integrate', action: 'issue/integrate', ariaLabel: `Integrate the accepted work of issue ${title}`, ...(ready ? { appearance: 'primary' as const } : {}),
			title: 'Merge the accepted task commits into the base branch (tutti issue integrate)',
		}) : null,
		c.integrate ? h('label', { id: 'integrate-push-label', class: 'checkbox', title: "Then push the branch to its upstream (tutti issue integrate --push); a failed push keeps the integration" },
			h('input', { type: 'checkbox', id: 'integrate-push' }), ' Push') : null,
		// At Goal Review the button sits in its callout, beside the decision.
		c.combinedChanges && !c.confirmGoal ? combinedDiffButton(title) : null,
		c.start ? button({ label: 'Start', action: 'issue/start', appearance: 'primary', ariaLabel: `Start issue ${title}`, title: 'Start running the tasks as they become ready' }) : null,
		c.addTask ? button({ label: 'Add task', action: 'task/add', ariaLabel: `Add a task to issue ${title}` }) : null,
		c.switchReviewToSelf ? button({ label: 'Switch to self review', action: 'goalReview/switchToSelf', title: 'The source agent reviews the goal itself; the independent reviewer\'s open review is canceled' }) : null,
		c.stopSource ? button({ label: 'Stop source session', action: 'source/stop', title: 'Archive this execution: its source agent gets no more work' }) : null);
}

/**
 * Integrate's conflict, next to Integrate: the paths in one line, then the Host's ways forward, each a short line beside
 * its button — Update from base (only when the Host's task control offers it) and Open the task's tree (when it has one).
 */
function conflictBlock(c: ConflictModel): ElementNode {
	const paths = c.paths.join(', ');
	const ways = c.ways.filter((w) => (w.action === 'update_from_base' ? c.updateFromBase : w.action === 'open_tree' ? c.tree !== '' : true));
	return h('section', { id: 'integrate-conflict', class: 'callout conflict', role: 'alert', 'aria-labelledby': 'conflict-summary' },
		h('p', { id: 'conflict-summary', title: paths }, h('strong', {}, `Integrate into ${c.into} conflicts: `),
			...c.paths.flatMap((p, i) => [i > 0 ? ', ' : null, h('code', { class: 'conflict-path' }, p)]),
			`, between task ${c.taskId} and ${c.withLabel}.`),
		ways.length === 0 ? null : h('div', { id: 'conflict-ways', role: 'group', 'aria-label': 'Ways forward' },
			...ways.flatMap((w) => [wayButton(c, w.action), h('p', { class: w.action === null ? 'conflict-way muted wide' : 'conflict-way muted' }, w.text)])));
}

function wayButton(c: ConflictModel, action: ConflictWayModel['action']): ElementNode | UiNode | null {
	switch (action) {
		case 'update_from_base': return button({
			label: 'Update from base', action: 'task/updateFromBase', appearance: 'primary', id: 'conflict-update-from-base', data: { 'task-id': c.taskId },
			ariaLabel: `Update task ${c.taskTitle} from ${c.into} in a new Run`, title: `A new Run merges ${c.into} into the task\u2019s tree; its result is reviewed again`,
		});
		case 'open_tree': return button({
			label: 'Open the task\u2019s tree', action: 'conflict/openTree', id: 'conflict-open-tree',
			ariaLabel: `Open a terminal in the tree of task ${c.taskTitle} (${c.tree})`, title: `A terminal in ${c.tree}, to resolve the conflict by hand`,
		});
		case null: return null;
	}
}

/**
 * After the work is over: Finish, or a Follow Up for a managed issue's source agent. With accepted work not integrated,
 * Integrate (in the controls above) is the one primary action and Finish says what it skips.
 */
function completion(c: IssueControls): ElementNode | null {
	if (!c.finish && !c.followUp) { return null; }
	const unintegrated = c.integrate;
	return h('section', { id: 'completion', class: 'callout', 'aria-labelledby': 'completion-title' },
		h('h2', { id: 'completion-title' }, 'Issue complete'),
		h('p', {}, unintegrated
			? 'Integrate the accepted work (above), or finish without integrating: it stays only on its tutti/* branches.'
			: `Finish it${c.followUp ? ' (the source agent may exit), or give its source agent a follow-up to work on next' : ''}.`),
		c.finish ? button(unintegrated
			? { label: 'Finish without integrating', action: 'issue/finish', id: 'finish-issue', ariaLabel: 'Finish the issue without integrating its accepted work (it stays on its tutti/* branches)' }
			: { label: 'Finish', action: 'issue/finish', appearance: 'primary', id: 'finish-issue' }) : null,
		c.followUp ? button({ label: 'Follow up…', action: 'issue/followUp', ariaLabel: 'Follow up: give the source agent its next goal' }) : null);
}

function combinedDiffButton(title: string): Child {
	return button({
		label: 'Open combined diff', action: 'issue/openChanges', ariaLabel: `Open the accepted work of issue ${title} as one diff`,
		title: "The issue's base commit against its accepted task commits combined, file by file",
	});
}

function goalReview(c: IssueControls, title: string): ElementNode | null {
	if (!c.confirmGoal && !c.requestGoalChanges) { return null; }
	return h('section', { id: 'goal-review', class: 'callout', 'aria-labelledby': 'goal-review-title' },
		h('h2', { id: 'goal-review-title' }, 'Goal review'),
		h('p', {}, 'Every task is terminal and the source agent reports the goal as satisfied. Confirm it, or send the goal back with a note.'),
		c.confirmGoal ? button({ label: 'Confirm goal', action: 'goal/confirm', appearance: 'primary' }) : null,
		c.combinedChanges ? combinedDiffButton(title) : null,
		c.requestGoalChanges ? h('div', { class: 'note-form' },
			textArea({ id: 'goal-note', label: 'What still needs to change', maxLength: noteMaxLength, draftKey: 'goal', submitButtonId: 'goal-request-changes' }),
			button({ label: 'Request changes', action: 'goal/requestChanges', ariaLabel: 'Request changes to the goal with the note above', id: 'goal-request-changes', title: 'Request changes (Ctrl+Enter in the note)' }),
			h('p', { class: 'form-error', role: 'alert', 'data-error-for': 'goal' })) : null);
}

/** The one status line: the state, the source agent's side, and the hand-back command when one is owed. */
function attentionLine(m: HeaderModel): ElementNode {
	const a = m.attention;
	const handBack = m.handBack;
	return h('div', { id: 'attention-line', class: `attention attention-${a.state}${a.stalled ? ' stalled' : ''}`, role: 'status' },
		h('span', { id: 'issue-status', class: `status-chip attention-${a.state}${a.stalled ? ' stalled' : ''}`, title: m.statusLabel }, a.label),
		m.sourceAgent !== null && !(handBack !== null && m.sourceAgent === handBack.why)
			? h('span', { id: 'agent-state', class: 'muted' }, m.sourceAgent) : null,
		handBack ? h('span', { id: 'hand-back', class: 'command-row' },
			handBack.why !== '' ? h('span', { class: 'hand-back-why' }, `${handBack.why} — `) : null,
			h('code', { class: 'command', 'data-command-index': 0 }, handBack.command),
			button({ label: 'Copy hand-back command', action: 'command/copy', ariaLabel: 'Copy the hand-back command', data: { text: handBack.command } }),
			m.managed ? button({ label: 'Open agent terminal', action: 'agent/showTerminal', ariaLabel: 'Open the source agent\'s terminal' }) : null) : null);
}

function wakeHistory(m: HeaderModel): ElementNode | null {
	if (!m.managed || m.wakeHistory.length === 0) { return null; }
	return h('details', { id: 'wake-history', 'data-details-key': 'wake-history' },
		h('summary', {}, `Wake history (${m.wakeHistory.length} open checkpoint${m.wakeHistory.length === 1 ? '' : 's'})`),
		h('ol', { class: 'wake-groups' }, ...m.wakeHistory.map((g) => h('li', { 'data-checkpoint-id': g.checkpoint.checkpointId },
			h('span', { class: 'checkpoint-line' }, `${checkpointLine(g.checkpoint)} · ${g.checkpoint.status}`),
			g.wakes.length === 0
				? h('p', { class: 'muted' }, 'No wake prepared yet.')
				: h('ul', { class: 'wakes' }, ...g.wakes.map((w) => h('li', { 'data-wake-id': w.wakeId },
					h('span', {}, `Wake ${w.wakeSequence} · ${w.status} · ${w.compact}`),
					h('details', { 'data-details-key': `wake:${w.wakeId}` }, h('summary', {}, 'Prompt'), h('pre', { class: 'prompt' }, w.body)))))))));
}

/** Checkpoint, backlog, recovery hint and wake history: for the curious, collapsed. */
function orchestration(m: HeaderModel): ElementNode | null {
	if (!m.managed) { return null; }
	const facts: Child[] = [
		h('dt', {}, 'Execution'),
		h('dd', { id: 'execution-status' }, m.statusLabel),
		h('dt', {}, 'Active checkpoint'),
		h('dd', { id: 'active-checkpoint' }, m.activeCheckpoint ? checkpointLine(m.activeCheckpoint) : 'None'),
		h('dt', {}, 'Pending backlog'),
		h('dd', { id: 'backlog' }, m.backlog.length === 0 ? 'Empty' : h('ol', { class: 'backlog' }, ...m.backlog.map((b) => h('li', { 'data-checkpoint-id': b.checkpointId }, checkpointLine(b))))),
	];
	if (m.recoveryHint !== '') {
		facts.push(h('dt', {}, 'Source agent\'s next step'), h('dd', { id: 'recovery-hint' }, m.recoveryHint));
	}
	return h('details', { id: 'orchestration', 'data-details-key': 'orchestration' },
		h('summary', {}, 'Orchestration details'),
		h('dl', { id: 'execution-facts', class: 'facts' }, ...facts),
		wakeHistory(m));
}

/**
 * The first stop of the Tab order when a task awaits the developer's decision: it selects that task and moves the focus
 * to its Accept, so the review is one Tab and Enter away however many controls come before it.
 */
function reviewJump(m: HeaderModel): ElementNode | null {
	const r = m.reviewJump;
	if (r === null) { return null; }
	return h('button', {
		type: 'button', id: 'review-jump', class: 'skip-link', 'data-action': 'review/jump', 'data-task-id': r.taskId, 'data-focus-key': 'review-jump',
		'aria-label': `Go to the review of task ${r.title}${r.count > 1 ? ` (${r.count} tasks await your decision)` : ''}`,
	}, `Review: ${r.title}${r.count > 1 ? ` (+${r.count - 1} more)` : ''}`);
}

export function renderHeader(m: HeaderModel, c: IssueControls): ElementNode {
	return h('div', { id: 'issue-header' },
		reviewJump(m),
		h('div', { class: 'title-row' },
			h('h1', { id: 'issue-title', title: m.title }, m.title),
			h('span', { id: 'issue-progress', class: 'muted' }, `${m.progress.completed}/${m.progress.total} tasks completed · ${m.managed ? 'managed by a source agent' : 'manual'}`),
			h('span', { id: 'issue-spend', class: 'muted' }, m.spendLabel)),
		attentionLine(m),
		m.paused && !m.terminal ? h('p', { id: 'paused-note', class: 'muted' }, c.start
			? 'Not started: add the tasks, then Start. Nothing runs before.'
			: 'No new work starts; Runs already running continue until they end or you stop them.') : null,
		// With a conflict shown, its way forward is the primary action, not Integrate again.
		controls(c, m.title, m.delivery === 'ready_to_integrate' && m.conflict === null),
		m.conflict ? conflictBlock(m.conflict) : null,
		m.integrated ? h('p', { id: 'integrated', role: 'status' }, 'Integrated into ', h('code', {}, m.integrated.into), ' at ',
			h('code', { title: m.integrated.commit }, m.integrated.commit.slice(0, 12)),
			m.delivery === 'ready_to_integrate' ? '; accepted work since then is not integrated yet.' : null) : null,
		m.delivery === 'not_integrated' ? h('p', { id: 'not-integrated', role: 'status' }, 'Finished without integrating: the accepted work is only on its tutti/* branches.') : null,
		goalReview(c, m.title),
		completion(c),
		m.needsYou.length ? h('section', { id: 'needs-you', 'aria-labelledby': 'needs-you-title' },
			h('h2', { id: 'needs-you-title' }, 'Tasks that need you ', badge(String(m.needsYou.length), `${m.needsYou.length} task${m.needsYou.length === 1 ? '' : 's'}`)),
			h('ul', {}, ...m.needsYou.map((t) => h('li', {},
				linkButton(t.title, 'task/select', { 'task-id': t.taskId }, `Open task ${t.title}${t.why ? ` (${t.why})` : ''}`),
				t.why ? h('span', { class: 'muted' }, ` — ${t.why}`) : null)))) : null,
		orchestration(m));
}
