// The pure graph mutation of `plan issue mutate`. All or nothing:
// either every operation applies and the resulting active graph is valid, or nothing changes. The Host loads the
// issue's tasks, calls this, and persists `addedTaskIds` (insert) and `changedTaskIds` (update) from `tasks`.
import type { MutationOperation, TaskPatch } from './mutationOperation.js';
import type { ReasonCode } from '../errors.js';
import type { Task } from '../model.js';
import { detectCycle } from './cycles.js';
import { taskIdProblem, taskTitleProblem } from './taskNames.js';

export interface MutationContext {
	nowUnixMs: number;
	issueId: string;
	/** sortIndex of the first task this mutation creates; each new task takes the next one. */
	nextSortIndex: number;
	/** When given, every task this mutation creates or re-targets must name one of these targets. */
	knownAgentTargetIds?: ReadonlySet<string>;
	/** autoAccept of added tasks that omit it (the issue's autoAcceptDefault; false for managed issues). */
	autoAcceptDefault?: boolean;
}

export type MutationRejectionReason = Extract<ReasonCode,
	'invalid_mutation_operation' | 'invalid_input' | 'task_not_found' | 'task_superseded' | 'task_not_started' | 'duplicate_task'
	| 'missing_agent_target' | 'dependency_unsatisfied' | 'invalid_task_graph'>;

export type MutationResult =
	| {
		ok: true;
		/**
		 * The whole new task list, history included: inputs in their order (changed ones replaced by new objects,
		 * untouched ones shared with the input), then new tasks.
		 */
		tasks: Task[];
		/** New rows (add, rework replacements), in operation order. Insert their final state from `tasks`. */
		addedTaskIds: string[];
		/** Pre-existing tasks whose fields changed (update, redirected dependents), first-change order. */
		updatedTaskIds: string[];
		/** Tasks superseded by supersede or rework, in operation order. */
		supersededTaskIds: string[];
		/** Every pre-existing row to rewrite (updated ∪ superseded, excluding rows added by this mutation). */
		changedTaskIds: string[];
	}
	| { ok: false; reasonCode: MutationRejectionReason; message: string; taskId?: string };

type Rejection = Extract<MutationResult, { ok: false }>;

class Rejected extends Error {
	constructor(readonly rejection: Rejection) { super(rejection.message); }
}

function reject(reasonCode: MutationRejectionReason, message: string, taskId?: string): never {
	throw new Rejected(taskId === undefined ? { ok: false, reasonCode, message } : { ok: false, reasonCode, message, taskId });
}

/** Present means "the key is there with a value"; omitted (or undefined) means keep / inherit — never clear. */
function has<K extends keyof TaskPatch>(patch: TaskPatch, key: K): patch is TaskPatch & Required<Pick<TaskPatch, K>> {
	return patch[key] !== undefined;
}

/** Trimmed, de-duplicated, empties dropped, first occurrence order kept. */
export function normalizeDependencyIds(ids: readonly string[]): string[] {
	const seen = new Set<string>();
	const out: string[] = [];
	for (const raw of ids) {
		const id = raw.trim();
		if (id === '' || seen.has(id)) { continue; }
		seen.add(id);
		out.push(id);
	}
	return out;
}

/** Fields an `update` may carry besides `taskId` (priority and dueAtUnixMs are accepted and not stored). */
const patchFields = [
	'title', 'content', 'priority', 'dueAtUnixMs', 'agentTargetId', 'modelPlanId', 'model', 'permissionModeId',
	'reasoningEffort', 'executionDirectory', 'dependencyTaskIds', 'parallelizable', 'autoAccept',
] as const satisfies readonly (keyof TaskPatch)[];

/**
 * Applies the present fields of `patch` to `task` in place. Changing agentTargetId clears modelPlanId, model,
 * permissionModeId and reasoningEffort unless the patch gives them (they belong to the old target).
 */
function applyPatch(task: Task, patch: TaskPatch): void {
	if (has(patch, 'title')) { task.title = patch.title.trim(); }
	if (has(patch, 'content')) { task.content = patch.content.trim(); }
	if (has(patch, 'agentTargetId')) {
		const target = patch.agentTargetId.trim();
		if (target !== task.agentTargetId.trim()) {
			task.modelPlanId = '';
			task.model = '';
			task.permissionModeId = '';
			task.reasoningEffort = '';
		}
		task.agentTargetId = target;
	}
	if (has(patch, 'modelPlanId')) { task.modelPlanId = patch.modelPlanId.trim(); }
	if (has(patch, 'model')) { task.model = patch.model.trim(); }
	if (has(patch, 'permissionModeId')) { task.permissionModeId = patch.permissionModeId.trim(); }
	if (has(patch, 'reasoningEffort')) { task.reasoningEffort = patch.reasoningEffort.trim(); }
	if (has(patch, 'executionDirectory')) { task.executionDirectory = patch.executionDirectory.trim(); }
	if (has(patch, 'dependencyTaskIds')) { task.dependencyTaskIds = normalizeDependencyIds(patch.dependencyTaskIds); }
	if (has(patch, 'parallelizable')) { task.parallelizable = patch.parallelizable; }
	if (has(patch, 'autoAccept')) { task.autoAccept = patch.autoAccept; }
}

/** Run-state of a fresh task: not started, no acceptance, no run, not superseded, created now. */
function freshState(task: Task, taskId: string, sortIndex: number, now: number, issueId: string): Task {
	return {
		...task, issueId, taskId, status: 'not_started', acceptanceState: '', latestRunId: '', sortIndex,
		supersededAtUnixMs: 0, supersededByTaskId: '', createdAtUnixMs: now, updatedAtUnixMs: now,
	};
}

function blankTask(): Task {
	return {
		issueId: '', taskId: '', title: '', content: '', status: 'not_started', sortIndex: 0, agentTargetId: '', modelPlanId: '',
		model: '', permissionModeId: '', reasoningEffort: '', executionDirectory: '', dependencyTaskIds: [],
		parallelizable: true, autoAccept: false, acceptanceState: '', latestRunId: '', supersededAtUnixMs: 0,
		supersededByTaskId: '', createdAtUnixMs: 0, updatedAtUnixMs: 0,
	};
}

function cloneTask(t: Task): Task {
	return { ...t, dependencyTaskIds: [...t.dependencyTaskIds] };
}

const describeOp = (index: number, op: MutationOperation): string => `operation ${index + 1} (${op.kind})`;

class GraphDraft {
	readonly byId = new Map<string, Task>();
	readonly order: string[] = [];
	readonly originalIds: ReadonlySet<string>;
	readonly added: string[] = [];
	readonly updated: string[] = [];
	readonly #updatedSet = new Set<string>();
	readonly superseded: string[] = [];
	/** Tasks whose launch target this mutation set (checked against knownAgentTargetIds). */
	readonly targeted = new Set<string>();
	/** old task id → replacement id, for dependency redirects. */
	readonly replacements = new Map<string, string>();
	#sortIndex: number;

	/** Ids whose row in byId is this draft's own copy (copy-on-write: untouched input rows are shared, never written). */
	readonly #owned = new Set<string>();

	constructor(tasks: readonly Task[], readonly ctx: MutationContext) {
		for (const t of tasks) {
			if (!this.byId.has(t.taskId)) { this.order.push(t.taskId); }
			this.byId.set(t.taskId, t);
		}
		this.originalIds = new Set(this.byId.keys());
		this.#sortIndex = ctx.nextSortIndex;
	}

	/** A writable copy of an existing task (cloned on first write). */
	edit(taskId: string): Task {
		const task = this.byId.get(taskId)!;
		if (this.#owned.has(taskId)) { return task; }
		const copy = cloneTask(task);
		this.byId.set(taskId, copy);
		this.#owned.add(taskId);
		return copy;
	}

	nextSortIndex(): number { return this.#sortIndex++; }

	insert(task: Task): void {
		this.#owned.add(task.taskId);
		this.byId.set(task.taskId, task);
		this.order.push(task.taskId);
		this.added.push(task.taskId);
	}

	markUpdated(taskId: string): void {
		if (!this.originalIds.has(taskId) || this.#updatedSet.has(taskId)) { return; }
		this.#updatedSet.add(taskId);
		this.updated.push(taskId);
	}

	/** The task an operation names, which must exist and be active. */
	activeTask(taskId: string, what: string): Task {
		const task = this.byId.get(taskId);
		if (!task) { reject('task_not_found', `${what}: task ${taskId} does not exist in this issue`, taskId); }
		if (task.supersededAtUnixMs > 0) {
			reject('task_superseded', `${what}: task ${taskId} is superseded${task.supersededByTaskId ? ` by ${task.supersededByTaskId}` : ''} and cannot change`, taskId);
		}
		return task;
	}
}

function opTaskId(op: MutationOperation): string {
	return (op.taskId ?? '').trim();
}

/** A new task's id must name a git branch and folder, and a title it is given must be a commit message. */
function requireGitNames(what: string, patch: TaskPatch, newTaskId?: string): void {
	const idProblem = newTaskId === undefined ? null : taskIdProblem(newTaskId);
	if (idProblem !== null) { reject('invalid_input', `${what}: ${idProblem}`, newTaskId); }
	const titleProblem = patch.title === undefined ? null : taskTitleProblem(patch.title);
	if (titleProblem !== null) { reject('invalid_input', `${what}: ${titleProblem}`, newTaskId ?? patch.taskId); }
}

function applyAdd(draft: GraphDraft, op: MutationOperation, what: string): void {
	if (!op.task) { reject('invalid_mutation_operation', `${what}: "task" with taskId, title and agentTargetId is required`); }
	const taskId = (op.task.taskId ?? '').trim();
	if (taskId === '') { reject('invalid_mutation_operation', `${what}: task.taskId is required`); }
	const named = opTaskId(op);
	if (named !== '' && named !== taskId) {
		reject('invalid_mutation_operation', `${what}: taskId ${named} differs from task.taskId ${taskId}`, taskId);
	}
	if (draft.byId.has(taskId)) { reject('duplicate_task', `${what}: task ${taskId} already exists (task ids are never reused, superseded ones included)`, taskId); }
	requireGitNames(what, op.task, taskId);
	const task = freshState(blankTask(), taskId, draft.nextSortIndex(), draft.ctx.nowUnixMs, draft.ctx.issueId);
	task.autoAccept = draft.ctx.autoAcceptDefault ?? false;
	applyPatch(task, op.task);
	if (task.agentTargetId === '') { reject('missing_agent_target', `${what}: task ${taskId} needs task.agentTargetId`, taskId); }
	draft.targeted.add(taskId);
	draft.insert(task);
}

function applyUpdate(draft: GraphDraft, op: MutationOperation, what: string): void {
	const taskId = opTaskId(op);
	if (taskId === '') { reject('invalid_mutation_operation', `${what}: taskId is required`); }
	const current = draft.activeTask(taskId, what);
	if (current.status !== 'not_started') {
		reject('task_not_started', `${what}: task ${taskId} is ${current.status}; only not-started tasks can be updated (rework a failed or canceled task instead)`, taskId);
	}
	const patch = op.task;
	if (!patch || !patchFields.some((k) => has(patch, k))) {
		reject('invalid_mutation_operation', `${what}: "task" must carry at least one field to change`, taskId);
	}
	if (patch.taskId !== undefined && patch.taskId.trim() !== taskId) {
		reject('invalid_mutation_operation', `${what}: task ids cannot be renamed (task.taskId ${patch.taskId.trim()} ≠ ${taskId}); use rework`, taskId);
	}
	requireGitNames(what, patch);
	const task = draft.edit(taskId);
	applyPatch(task, patch);
	task.updatedAtUnixMs = draft.ctx.nowUnixMs;
	if (has(patch, 'agentTargetId')) { draft.targeted.add(taskId); }
	draft.markUpdated(taskId);
}

function supersedable(task: Task, what: string): void {
	if (task.status === 'running' || task.status === 'completed') {
		reject('task_not_started', `${what}: task ${task.taskId} is ${task.status}; running and completed tasks cannot be superseded or reworked`, task.taskId);
	}
}

function applySupersede(draft: GraphDraft, op: MutationOperation, what: string): void {
	const taskId = opTaskId(op);
	if (taskId === '') { reject('invalid_mutation_operation', `${what}: taskId is required`); }
	if (op.task !== undefined) { reject('invalid_mutation_operation', `${what}: supersede takes only taskId; "task" is not allowed`, taskId); }
	supersedable(draft.activeTask(taskId, what), what);
	const task = draft.edit(taskId);
	task.supersededAtUnixMs = draft.ctx.nowUnixMs;
	task.updatedAtUnixMs = draft.ctx.nowUnixMs;
	draft.superseded.push(taskId);
}

/**
 * Rework: the replacement is a copy of the old task with the patch's present fields applied (sparse rework
 * inherits target, model plan, model, permission mode, effort, directory, dependencies, and also title, content,
 * parallelizable and autoAccept), in a fresh not-started state. The old task stays as superseded history.
 */
function applyRework(draft: GraphDraft, op: MutationOperation, what: string): void {
	const oldId = opTaskId(op);
	const newId = (op.task?.taskId ?? '').trim();
	if (oldId === '' || !op.task || newId === '') {
		reject('invalid_mutation_operation', `${what}: rework needs taskId (the old task) and task.taskId (the new one)`, oldId || undefined);
	}
	const current = draft.activeTask(oldId, what);
	supersedable(current, what);
	if (draft.byId.has(newId)) { reject('duplicate_task', `${what}: replacement task ${newId} already exists; choose a new taskId`, newId); }
	requireGitNames(what, op.task, newId);
	const replacement = freshState(cloneTask(current), newId, draft.nextSortIndex(), draft.ctx.nowUnixMs, draft.ctx.issueId);
	applyPatch(replacement, op.task);
	if (replacement.agentTargetId === '') { reject('missing_agent_target', `${what}: replacement ${newId} has no agentTargetId (and ${oldId} had none to inherit)`, newId); }
	const old = draft.edit(oldId);
	old.supersededAtUnixMs = draft.ctx.nowUnixMs;
	old.supersededByTaskId = newId;
	old.updatedAtUnixMs = draft.ctx.nowUnixMs;
	draft.superseded.push(oldId);
	draft.targeted.add(newId);
	draft.insert(replacement);
	draft.replacements.set(oldId, newId);
}

/**
 * Redirects every active task's edges from reworked tasks to their replacements, following chains
 * (a → b → c when b was itself reworked), guarded against cycles. A task whose edges move must be not started.
 */
function redirectDependents(draft: GraphDraft): void {
	if (draft.replacements.size === 0) { return; }
	for (const id of draft.order) {
		const current = draft.byId.get(id)!;
		if (current.supersededAtUnixMs > 0 || !current.dependencyTaskIds.some((d) => draft.replacements.has(d))) { continue; }
		let changed = false;
		const deps = current.dependencyTaskIds.map((depId) => {
			let target = depId;
			for (let hops = 0; draft.replacements.has(target); hops++) {
				if (hops > draft.replacements.size) {
					reject('invalid_task_graph', `task ${id}: rework replacements of ${depId} form a cycle`, id);
				}
				target = draft.replacements.get(target)!;
				changed = true;
			}
			return target;
		});
		if (!changed) { continue; }
		if (current.status !== 'not_started') {
			reject('task_not_started', `task ${id} depends on a reworked task but is already ${current.status}; its dependency cannot be redirected`, id);
		}
		const task = draft.edit(id);
		task.dependencyTaskIds = normalizeDependencyIds(deps);
		task.updatedAtUnixMs = draft.ctx.nowUnixMs;
		draft.markUpdated(id);
	}
}

/** The active graph after all operations: non-empty, titled, targeted, no dangling edges, acyclic. */
function validateActiveGraph(draft: GraphDraft): void {
	const active: Task[] = [];
	for (const id of draft.order) {
		const task = draft.byId.get(id)!;
		if (task.supersededAtUnixMs > 0) { continue; }
		if (task.title.trim() === '') { reject('invalid_task_graph', `task ${id} has no title`, id); }
		if (task.agentTargetId.trim() === '') { reject('missing_agent_target', `task ${id} has no agentTargetId`, id); }
		const known = draft.ctx.knownAgentTargetIds;
		if (known && draft.targeted.has(id) && !known.has(task.agentTargetId)) {
			reject('missing_agent_target', `task ${id} names agent target ${task.agentTargetId}, which is not configured`, id);
		}
		for (const depId of task.dependencyTaskIds) {
			const dep = draft.byId.get(depId);
			if (!dep) { reject('dependency_unsatisfied', `task ${id} depends on ${depId}, which does not exist`, id); }
			if (dep.supersededAtUnixMs > 0) {
				reject('dependency_unsatisfied', `task ${id} depends on ${depId}, which is superseded; update or rework ${id} in the same mutation`, id);
			}
		}
		active.push(task);
	}
	if (active.length === 0) { reject('invalid_task_graph', 'the mutation would leave no active task; stop the issue instead'); }
	const cycle = detectCycle(active);
	if (cycle) { reject('invalid_task_graph', `dependency cycle: ${cycle.join(' → ')}`, cycle[0]); }
}

const appliers: Record<MutationOperation['kind'], (d: GraphDraft, op: MutationOperation, what: string) => void> = {
	add: applyAdd, update: applyUpdate, rework: applyRework, supersede: applySupersede,
};

/**
 * Applies `ops` in order to `tasks` (all of the issue's tasks, superseded history included). Never mutates its
 * inputs. Rejections name the first failing rule with a stable reason code and, when there is one, the task.
 */
export function applyMutationGraph(tasks: readonly Task[], ops: readonly MutationOperation[], ctx: MutationContext): MutationResult {
	try {
		if (ops.length === 0) { reject('invalid_mutation_operation', 'at least one operation is required'); }
		const draft = new GraphDraft(tasks, ctx);
		ops.forEach((op, i) => {
			const apply = Object.prototype.hasOwnProperty.call(appliers, op.kind) ? appliers[op.kind] : undefined;
			if (!apply) {
				reject('invalid_mutation_operation', `${describeOp(i, op)}: entries must use kind add, update, rework, or supersede`);
			}
			apply(draft, op, describeOp(i, op));
		});
		redirectDependents(draft);
		validateActiveGraph(draft);
		const added = new Set(draft.added);
		const changed = [...new Set([...draft.updated, ...draft.superseded])].filter((id) => !added.has(id));
		return {
			ok: true,
			tasks: draft.order.map((id) => draft.byId.get(id)!),
			addedTaskIds: draft.added,
			updatedTaskIds: draft.updated,
			supersededTaskIds: draft.superseded,
			changedTaskIds: changed,
		};
	} catch (e) {
		if (e instanceof Rejected) { return e.rejection; }
		throw e;
	}
}
