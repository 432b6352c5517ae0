// The one task form (add, edit of a task that has not started, or Edit and retry of a failed or canceled one): title, content, the tasks it waits for (a
// checklist of the other active tasks) and the agent that runs it (the Host's agent targets). Which tasks may be
// edited is the Host's (`controls.edit`, `controls.delete`); the Host checks the graph (no cycle, known tasks) when the
// form is sent. Pure.
import type { TaskFormState } from '../../src/protocol/webview.js';
import { taskStatusLabel } from './format.js';
import type { PanelTask } from './panelTasks.js';
import type { PanelSnapshot } from './snapshotTypes.js';

/** What the developer picked so far (null: not touched yet, so the task's own value, or the default). */
export interface TaskFormValues {
	readonly dependencyTaskIds: readonly string[] | null;
	readonly agentTargetId: string | null;
}

export const untouchedForm: TaskFormValues = { dependencyTaskIds: null, agentTargetId: null };

export interface TaskFormModel {
	readonly mode: 'add' | 'edit' | 'retry';
	/** The task edited; null when adding. */
	readonly taskId: string | null;
	readonly heading: string;
	readonly submitLabel: string;
	/** Where the panel keeps the unsent title and content (drafts survive a hidden panel). */
	readonly titleKey: string;
	readonly contentKey: string;
	/** What the fields start with: the task's own title and content (empty when adding). */
	readonly titleInitial: string;
	readonly contentInitial: string;
	readonly candidates: readonly { readonly taskId: string; readonly title: string; readonly statusLabel: string; readonly checked: boolean }[];
	readonly agents: readonly { readonly id: string; readonly label: string; readonly selected: boolean }[];
	/** No agent is set up: the form offers Add Agent instead of a choice. */
	readonly noAgents: boolean;
	/** The Host offers Delete on the task edited. */
	readonly canDelete: boolean;
}

/** The key of a form's picks and drafts: `add`, or `edit:<taskId>`. */
export function taskFormKey(form: NonNullable<TaskFormState>): string {
	return form.mode === 'add' ? 'add' : `${form.mode}:${form.taskId}`;
}

/** The form to draw; null when none is open, or the task edited is not (or no longer) editable. */
export function taskFormModel(s: PanelSnapshot, tasks: readonly PanelTask[], form: TaskFormState | undefined, values: TaskFormValues = untouchedForm): TaskFormModel | null {
	if (form === null || form === undefined) { return null; }
	const task = form.mode !== 'add' ? tasks.find((t) => t.taskId === form.taskId && !t.superseded) : undefined;
	// Edit needs the Host's Edit on the task; Edit and retry its Retry (a failed or canceled task, run again edited).
	if (form.mode === 'edit' && task?.controls.edit !== true) { return null; }
	if (form.mode === 'retry' && task?.controls.retry !== true) { return null; }
	const key = taskFormKey(form);
	const deps = new Set(values.dependencyTaskIds ?? task?.dependencyTaskIds ?? []);
	const targets = s.agentTargets ?? [];
	const chosen = values.agentTargetId ?? task?.agentTargetId ?? targets.find((a) => a.found)?.id ?? targets[0]?.id ?? '';
	const agents = targets.map((a) => ({ id: a.id, label: `${a.id} · ${a.adapter}${a.found ? '' : ' · not found'}`, selected: a.id === chosen }));
	// A task whose agent is no longer configured keeps it visible (the Host refuses it until it is changed).
	if (chosen !== '' && !targets.some((a) => a.id === chosen)) { agents.unshift({ id: chosen, label: `${chosen} · not configured`, selected: true }); }
	return {
		mode: form.mode,
		taskId: task?.taskId ?? null,
		heading: form.mode === 'retry' && task ? `Edit and retry task ${task.title}` : task ? `Edit task ${task.title}` : 'Add a task',
		submitLabel: form.mode === 'retry' ? 'Retry' : task ? 'Save' : 'Add task',
		titleKey: `form:${key}:title`,
		contentKey: `form:${key}:content`,
		titleInitial: task?.title ?? '',
		contentInitial: task?.content ?? '',
		candidates: tasks.filter((t) => !t.superseded && t.taskId !== task?.taskId).map((t) => ({
			taskId: t.taskId, title: t.title, statusLabel: taskStatusLabel[t.status], checked: deps.has(t.taskId),
		})),
		agents,
		noAgents: agents.length === 0,
		canDelete: form.mode === 'edit' && task?.controls.delete === true,
	};
}

/** The form's picks in the form's order: the dependencies checked (plan order) and the agent chosen. */
export function chosenValues(m: TaskFormModel): { dependencyTaskIds: string[]; agentTargetId: string } {
	return { dependencyTaskIds: m.candidates.filter((c) => c.checked).map((c) => c.taskId), agentTargetId: m.agents.find((a) => a.selected)?.id ?? '' };
}
