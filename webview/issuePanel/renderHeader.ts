// The execution header (pure VNodes): status, progress, paused banner, issue controls, goal review, the tasks that
// need the developer, active checkpoint and backlog, the hand-back command, and wake history by checkpoint.
import { badge, button, linkButton, textArea } from '../shared/components.js';
import { type Child, type ElementNode, h } from '../shared/vnode.js';
import type { CheckpointSummary, HeaderModel, IssueControls } from './viewModel.js';

export const noteMaxLength = 10_000;

function checkpointLine(c: CheckpointSummary): string {
	return `#${c.sequence} ${c.kindLabel} · revision ${c.graphRevision}${c.subjectTaskId ? ` · task ${c.subjectTaskId}` : ''}`;
}

function controls(c: IssueControls, title: string): ElementNode {
	return h('div', { id: 'issue-controls', role: 'toolbar', 'aria-label': 'Issue controls' },
		c.pause ? button({ label: 'Pause', action: 'issue/pause', ariaLabel: `Pause issue ${title}`, title: 'Stop starting new work; running Runs continue' }) : null,
		c.resume ? button({ label: 'Resume', action: 'issue/resume', appearance: 'primary', ariaLabel: `Resume issue ${title}` }) : null,
		c.stop ? button({ label: 'Stop', action: 'issue/stop', ariaLabel: `Stop issue ${title}`, title: 'Pause and stop every running Run' }) : null);
}

function goalReview(c: IssueControls): ElementNode | null {
	if (!c.confirmGoal && !c.requestGoalChanges) { return null; }
	return h('section', { id: 'goal-review', class: 'callout', 'aria-labelledby': 'goal-review-title' },
		h('h2', { id: 'goal-review-title' }, 'Goal review'),
		h('p', {}, 'Every task is terminal and the source agent reports the goal as satisfied. Confirm it, or send the goal back with a note.'),
		c.confirmGoal ? button({ label: 'Confirm goal', action: 'goal/confirm', appearance: 'primary' }) : null,
		c.requestGoalChanges ? h('div', { class: 'note-form' },
			textArea({ id: 'goal-note', label: 'What still needs to change', maxLength: noteMaxLength, draftKey: 'goal' }),
			button({ label: 'Request changes', action: 'goal/requestChanges', ariaLabel: 'Request changes to the goal with the note above' }),
			h('p', { class: 'form-error', role: 'alert', 'data-error-for': 'goal' })) : null);
}

function handBack(m: HeaderModel): ElementNode | null {
	if (!m.handBack) { return null; }
	const commands = m.handBack.commands;
	return h('section', { id: 'hand-back', class: 'callout', 'aria-labelledby': 'hand-back-title' },
		h('h2', { id: 'hand-back-title' }, 'No agent is waiting'),
		h('p', {}, commands.length ? 'Hand the session back: paste this command into the source agent\'s terminal (Tutti never types into it).' : 'What the source agent owes next:'),
		...commands.map((cmd, i) => h('div', { class: 'command-row' },
			h('code', { class: 'command', 'data-command-index': i }, cmd),
			button({ label: 'Copy', action: 'command/copy', ariaLabel: `Copy command ${i + 1}`, data: { text: cmd } }))),
		h('p', { class: 'hint' }, m.handBack.hint));
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

export function renderHeader(m: HeaderModel, c: IssueControls): ElementNode {
	const facts: Child[] = [];
	if (m.managed) {
		facts.push(
			h('dt', {}, 'Active checkpoint'),
			h('dd', { id: 'active-checkpoint' }, m.activeCheckpoint ? checkpointLine(m.activeCheckpoint) : 'None'),
			h('dt', {}, 'Pending backlog'),
			h('dd', { id: 'backlog' }, m.backlog.length === 0 ? 'Empty' : h('ol', { class: 'backlog' }, ...m.backlog.map((b) => h('li', { 'data-checkpoint-id': b.checkpointId }, checkpointLine(b))))),
			h('dt', {}, 'Source agent'),
			h('dd', { id: 'agent-state' }, m.agentState === 'waiting' ? 'Waiting for its next checkpoint' : m.agentState === 'working' ? 'Working on a checkpoint wake' : 'Idle (not waiting)'),
		);
	}
	return h('div', { id: 'issue-header' },
		h('div', { class: 'title-row' },
			h('h1', { id: 'issue-title', title: m.title }, m.title),
			h('span', { id: 'issue-status', class: `status-chip exec-${m.executionStatus ?? 'manual'}` }, m.statusLabel),
			h('span', { id: 'issue-progress', class: 'muted' }, `${m.progress.completed}/${m.progress.total} tasks completed`),
			h('span', { class: 'muted' }, m.managed ? 'Managed by a source agent' : 'Manual')),
		m.paused && !m.terminal ? h('div', { id: 'paused-banner', class: 'banner', role: 'status' },
			'Paused: no new work starts. Runs already running continue until they end or you stop them.') : null,
		controls(c, m.title),
		goalReview(c),
		m.needsYou.length ? h('section', { id: 'needs-you', 'aria-labelledby': 'needs-you-title' },
			h('h2', { id: 'needs-you-title' }, 'Needs you ', badge(String(m.needsYou.length), `${m.needsYou.length} tasks awaiting acceptance`)),
			h('ul', {}, ...m.needsYou.map((t) => h('li', {}, linkButton(t.title, 'task/select', { 'task-id': t.taskId }, `Open task ${t.title} (awaiting acceptance)`))))) : null,
		m.managed ? h('dl', { id: 'execution-facts', class: 'facts' }, ...facts) : null,
		handBack(m),
		wakeHistory(m));
}
