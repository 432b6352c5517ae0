// The Issue panel's message protocol (webview ↔ extension host). Imported by src/extension/panels/** and webview/**.
// Validate on receipt, every time, on both sides: webview input is untrusted, and the webview checks the Host's
// snapshots too (version skew after an update shows as an error, not as a broken graph).
import { z } from 'zod';
import { updatedInputSchema } from './approvalInput.js';
import { agentTargetDto, issueDto, issueWithTasksDto, planSnapshotDto, planTaskDto, runDto, taskStatus, transcriptEntryDto } from './dto.js';

export const webviewProtocolVersion = 1;

const id = z.string().min(1).max(200);
/** The longest note the Host takes with Request changes (its `review/requestChanges` limit). */
export const reviewNoteMaxChars = 10_000;
/** A developer's note: non-blank, at most 10,000 characters (kept verbatim, not trimmed). */
export const reviewNote = z.string().max(reviewNoteMaxChars).refine((s) => s.trim() !== '', { message: 'The note must not be empty.' });

/** The task form's limits: the Host's `task/add` and `task/update` limits. */
export const taskFormLimits = { titleChars: 500, contentChars: 100_000, dependencies: 1000 } as const;

/** What the task form sends (add, or edit of a not-started task): every field, as the form shows it. */
const taskFormFields = {
	title: z.string().max(taskFormLimits.titleChars).refine((s) => s.trim() !== '', { message: 'The title must not be empty.' }),
	content: z.string().max(taskFormLimits.contentChars),
	dependencyTaskIds: z.array(id).max(taskFormLimits.dependencies),
	agentTargetId: id,
};

/** Which task form is open: adding a task, editing one, editing a failed one to run it again (Edit and retry), or none. */
export const taskFormState = z.union([
	z.strictObject({ mode: z.literal('add') }),
	z.strictObject({ mode: z.literal('edit'), taskId: id }),
	z.strictObject({ mode: z.literal('retry'), taskId: id }),
]).nullable();
export type TaskFormState = z.infer<typeof taskFormState>;

/** At most this many tasks per Accept selected (a plan's list view selects from at most that many rows at once). */
export const acceptSelectedMax = 1000;

/** Webview → Host. The panel is bound to one issue, so issue-level messages carry no issue id. */
export const toHost = z.discriminatedUnion('type', [
	z.strictObject({ type: z.literal('ready'), protocol: z.literal(webviewProtocolVersion) }),
	z.strictObject({ type: z.literal('issue/pause') }),
	z.strictObject({ type: z.literal('issue/resume') }),
	z.strictObject({ type: z.literal('issue/stop') }),
	/** push: the Push checkbox next to Integrate (the branch then goes to its upstream). */
	z.strictObject({ type: z.literal('issue/integrate'), push: z.boolean().optional() }),
	z.strictObject({ type: z.literal('run/stop'), runId: id }),
	z.strictObject({ type: z.literal('task/accept'), taskId: id }),
	z.strictObject({ type: z.literal('task/requestChanges'), taskId: id, note: reviewNote }),
	z.strictObject({ type: z.literal('goal/confirm') }),
	z.strictObject({ type: z.literal('goal/requestChanges'), note: reviewNote }),
	/** UI state the Host keeps so a re-sent snapshot (and the serializer) carries it; null clears the selection. */
	z.strictObject({ type: z.literal('task/select'), taskId: id.nullable() }),
	z.strictObject({ type: z.literal('history/toggle'), show: z.boolean() }),
	z.strictObject({ type: z.literal('command/copy'), text: z.string().min(1).max(10_000) }),
	z.strictObject({ type: z.literal('run/openOutput'), runId: id }),
	z.strictObject({ type: z.literal('task/openChanges'), taskId: id }),
	/** Show the issue's source agent terminal (the one Tutti opened for its session), to paste a hand-back command. */
	z.strictObject({ type: z.literal('agent/showTerminal') }),
	/** The developer's answer to an agent's tool call (an approval request the snapshot shows pending). */
	/** A message to the task's running agent (`tutti run send`): into its running Turn, or queued for the next. */
	z.strictObject({ type: z.literal('run/send'), runId: id, text: z.string().trim().min(1).max(100_000) }),
	z.strictObject({
		type: z.literal('approval/answer'), approvalId: id, choice: z.enum(['allow', 'allowForTask', 'deny']), message: z.string().max(reviewNoteMaxChars).optional(),
		/** Allow once with the developer's edit of the tool's input (the Host's `updatedInput`). */
		updatedInput: updatedInputSchema.optional(),
	}).refine((m) => m.updatedInput === undefined || m.choice === 'allow', { message: 'An edited input goes with Allow once only.' }),
	/** The developer's answers to an agent's question: the text of its only question, or `<question id>=<text>` each. */
	z.strictObject({ type: z.literal('question/answer'), approvalId: id, answers: z.array(z.string().trim().min(1).max(reviewNoteMaxChars)).min(1).max(50) }),
	/** The Host's other issue controls; each runs its palette command, which asks for what it needs. */
	z.strictObject({ type: z.literal('issue/start') }),
	z.strictObject({ type: z.literal('issue/finish') }),
	z.strictObject({ type: z.literal('issue/followUp') }),
	z.strictObject({ type: z.literal('source/stop') }),
	z.strictObject({ type: z.literal('goalReview/switchToSelf') }),
	/** Open the whole issue's accepted work as one multi-file diff (at Goal Review, before Integrate). */
	z.strictObject({ type: z.literal('issue/openChanges') }),
	/** Open or close the task form (UI state the Host keeps, like the selection). */
	z.strictObject({ type: z.literal('taskForm/set'), form: taskFormState }),
	z.strictObject({ type: z.literal('task/create'), ...taskFormFields }),
	z.strictObject({ type: z.literal('task/update'), taskId: id, ...taskFormFields }),
	z.strictObject({ type: z.literal('task/delete'), taskId: id }),
	/** Run a failed or canceled task again as a new attempt (Retry), with the form's fields when edited first (Edit and retry). */
	z.strictObject({ type: z.literal('task/retry'), taskId: id, fields: z.strictObject(taskFormFields).optional() }),
	/** Merge its base branch into an accepted task's tree, in a new Run (Update from base). */
	z.strictObject({ type: z.literal('task/updateFromBase'), taskId: id }),
	/** Accept every one of these tasks (the list view's Accept selected). */
	z.strictObject({ type: z.literal('tasks/accept'), taskIds: z.array(id).min(1).max(acceptSelectedMax) }),
	/** Add an agent to run tasks (the task form has none to offer). */
	z.strictObject({ type: z.literal('agent/add') }),
	/** Open a terminal in the tree of the task whose work conflicts (the conflict block the panel shows); no path: the Host's. */
	z.strictObject({ type: z.literal('conflict/openTree') }),
]);
export type ToHost = z.infer<typeof toHost>;
export type ToHostType = ToHost['type'];

/** The UI state both sides agree on (the webview's choice, echoed back in every snapshot). */
export const panelViewState = z.object({
	selectedTaskId: id.nullable(),
	showHistory: z.boolean(),
	/** The open task form (absent: none). */
	taskForm: taskFormState.optional(),
});
export type PanelViewState = z.infer<typeof panelViewState>;

/**
 * The Host's `merge_conflict` refusal of Integrate, as the panel shows it: read from the refusal's details (untrusted
 * shape, so parsed here) with its message and the hint that prints the ways forward.
 */
export const integrateConflict = z.object({
	into: z.string().min(1).max(1_000),
	paths: z.array(z.string().min(1).max(4_096)).min(1).max(1_000),
	/** The task whose work conflicts: the one Update from base and the tree are for. */
	taskId: id,
	/** What conflicts, as task ids or commits: [what comes before, the task]. */
	between: z.array(z.string().max(200)).max(2),
	/** The task's tree relative to the workspace; '' when it has none any more. */
	tree: z.string().max(4_096),
	updateFromBase: z.enum(['agent', 'developer', 'unavailable']),
	/** The ways forward as the Host words them, one short line each, with the block's button it goes with (null: none). */
	ways: z.array(z.object({ action: z.enum(['update_from_base', 'open_tree']).nullable(), text: z.string().min(1).max(1_000) })).max(5),
	message: z.string().max(10_000),
	/** The printed ways forward (commands to run by hand). */
	hint: z.string().max(10_000),
});
export type IntegrateConflict = z.infer<typeof integrateConflict>;

/** The conflict a `merge_conflict` refusal describes, or an error when its details are not what the panel shows. */
export function parseIntegrateConflict(details: unknown, message: string, hint: string): Parsed<IntegrateConflict> {
	const d = typeof details === 'object' && details !== null ? details : {};
	return parseWith(integrateConflict, { ...pick(d, ['into', 'paths', 'taskId', 'between', 'tree', 'updateFromBase', 'ways']), message, hint });
}

function pick(o: object, keys: readonly string[]): Record<string, unknown> {
	const all = o as Record<string, unknown>;
	return Object.fromEntries(keys.filter((k) => Object.hasOwn(all, k)).map((k) => [k, all[k]]));
}

export const snapshotView = panelViewState.extend({
	/** The Host's clock when the snapshot was built (running durations are measured to it). */
	nowUnixMs: z.number().int().nonnegative(),
	/**
	 * Whether the issue's source agent is attached and waiting for its next checkpoint (fresh heartbeat).
	 * null when the Host cannot tell; the panel then reads the active wake's delivery state.
	 */
	agentWaiting: z.boolean().nullable(),
	/**
	 * The hand-back command the Host returned for the developer's last Accept, Request changes or Confirm in this
	 * panel (no agent was waiting to hear it), until the source agent is seen again. Absent/null: none.
	 */
	handBack: z.object({ command: z.string().min(1), decision: z.string() }).nullable().optional(),
	/** The last Integrate from this panel conflicted: what the Host said, until the issue's delivery state changes. Absent/null: none. */
	conflict: integrateConflict.nullable().optional(),
});
export type SnapshotView = z.infer<typeof snapshotView>;

/** The live transcript of the selected task's latest Run: its newest entries (at most `transcriptMaxEntries`). */
export const transcriptMaxEntries = 300;
export const panelTranscript = z.object({
	runId: id,
	entries: z.array(transcriptEntryDto).max(transcriptMaxEntries),
	/** Entries read before the ones listed (not shown; `Open output` has everything). */
	omittedCount: z.number().int().nonnegative(),
	/** The Run has ended and its whole output was read. */
	done: z.boolean(),
	/** The last lines the Run wrote to stderr (at most `stderrTailMax`), for its failure card; absent: none. */
	stderrTail: z.array(z.string().max(2_000)).max(5).optional(),
});

/** How many of the last stderr lines a failure card shows. */
export const stderrTailMax = 5;

/** An agent target the task form offers (`agent/list`): its id, adapter, and whether its executable was found. */
export const panelAgentTarget = agentTargetDto.pick({ id: true, adapter: true, found: true, detail: true });
export type PanelAgentTarget = z.infer<typeof panelAgentTarget>;
export type PanelTranscript = z.infer<typeof panelTranscript>;

/** A comment the developer wrote on the task's diff, sent with Request changes. */
export const panelReviewComment = z.object({ path: z.string().max(4_096), line: z.number().int().positive(), text: z.string().max(2_000) });

/**
 * A list of a snapshot keyed by id (tasks by taskId, Runs by runId), as what changed since the base snapshot: the
 * items new or changed, whole, and the keys in order when the base's keys were added to, removed or reordered.
 */
function keyedListPatch<T extends z.ZodType>(item: T) {
	return z.object({
		/** Every key of the new list, in order; absent: the same keys as the base, in the same order. */
		keys: z.array(z.string()).optional(),
		upsert: z.array(item),
	});
}

/** A snapshot's tasks as the issue lists them (with the Host's attention state per task). */
export const issueTaskDto = issueWithTasksDto.shape.tasks.element;

/**
 * Host → webview: what changed since the last snapshot the webview drew (`baseSeq`), so a status change does not
 * re-send, re-validate and re-clone the whole 1,000-task snapshot. Absent fields did not change. Applied by
 * `applySnapshotDelta` (src/protocol/webviewDelta.ts); a webview without that base asks for a full snapshot
 * (`ready`). The Host sends a complete snapshot whenever a change does not fit (e.g. a plan appears).
 */
export const panelSnapshotDelta = z.object({
	type: z.literal('delta'),
	seq: z.number().int().positive(),
	baseSeq: z.number().int().positive(),
	/** The issue without its tasks. */
	issue: issueDto.optional(),
	issueTasks: keyedListPatch(issueTaskDto).optional(),
	/** The plan without its tasks (a plan that appears or goes away is a full snapshot). */
	plan: planSnapshotDto.omit({ tasks: true }).optional(),
	planTasks: keyedListPatch(planTaskDto).optional(),
	runs: keyedListPatch(runDto).optional(),
	view: snapshotView.optional(),
	transcript: panelTranscript.nullable().optional(),
	reviewComments: z.array(panelReviewComment).max(200).optional(),
	agentTargets: z.array(panelAgentTarget).max(200).optional(),
});
export type PanelSnapshotDelta = z.infer<typeof panelSnapshotDelta>;

/**
 * Host → webview: a complete snapshot (after `ready`, and whenever a delta does not fit), a delta against the last
 * one drawn, or an error. Hidden webviews are rebuilt on show and say `ready` again, so they get a complete one.
 */
export const toWebview = z.discriminatedUnion('type', [
	z.object({
		type: z.literal('snapshot'),
		/** Strictly increasing per panel; the webview ignores a snapshot older than one it has drawn. */
		seq: z.number().int().positive(),
		issue: issueWithTasksDto,
		/** `plan issue get` for a managed (`tutti`) issue; null for a manual one. */
		plan: planSnapshotDto.nullable(),
		runs: z.array(runDto),
		view: snapshotView,
		/** The selected task's latest Run, read as a transcript; null when no task is selected or it has no Run. */
		transcript: panelTranscript.nullable().optional(),
		/** The selected task's comments on its diff (they go with Request changes). */
		reviewComments: z.array(panelReviewComment).max(200).optional(),
		/** The agents a task can run on (the task form's choices); absent when the issue's tasks cannot be added or edited. */
		agentTargets: z.array(panelAgentTarget).max(200).optional(),
	}),
	panelSnapshotDelta,
	z.object({ type: z.literal('error'), message: z.string().max(10_000) }),
]);
export type ToWebview = z.infer<typeof toWebview>;
export type PanelSnapshot = Extract<ToWebview, { type: 'snapshot' }>;

/** What the webview persists with `vscode.setState` (UI state only); the serializer reads it back after a reload. */
/** A chip for a task waiting for the new attempt asked of it, by the Host's name for that state. */
const reworkDisplayState = z.custom<`rework:${string}`>((v) => typeof v === 'string' && v.startsWith('rework:') && v.length <= 120,
	{ message: 'expected "rework:<state>" of at most 120 characters' });

export const panelPersistedState = z.object({
	issueId: id,
	selectedTaskId: id.nullable(),
	showHistory: z.boolean(),
	scroll: z.object({ left: z.number().finite().nonnegative(), top: z.number().finite().nonnegative() }),
	zoom: z.number().finite().min(0.1).max(4),
	/** Unsent review notes by draft key (`goal`, `task:<taskId>`): the page is rebuilt whenever the panel is hidden. */
	drafts: z.record(z.string().max(300), z.string().max(10_000)).optional(),
	/** The developer hid the task detail pane (the graph takes the width). */
	detailCollapsed: z.boolean().optional(),
	/** The graph's own view options (Graph | List, status chips, search, focus, hide completed, list order). */
	graphView: z.object({
		mode: z.enum(['graph', 'list']),
		/** Statuses, or `rework:<the Host's rework state>` ("rework:Changes requested"). */
		statusFilter: z.array(z.union([taskStatus, reworkDisplayState])).max(16),
		search: z.string().max(200),
		focusTaskId: id.nullable(),
		hideCompleted: z.boolean(),
		listSort: z.enum(['status', 'title', 'plan']),
	}).optional(),
});
export type PanelPersistedState = z.infer<typeof panelPersistedState>;

/**
 * For the webview, whose CSP has no 'unsafe-eval': validate without zod's `new Function` fast path, so zod does not
 * even probe for it (each probe is a logged CSP violation). Call once, before the first parse.
 */
export function useJitlessValidation(): void {
	z.config({ jitless: true });
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; error: string };

function parseWith<T>(schema: z.ZodType<T>, raw: unknown): Parsed<T> {
	const r = schema.safeParse(raw);
	return r.success ? { ok: true, value: r.data } : { ok: false, error: z.prettifyError(r.error) };
}

export function parseToHost(raw: unknown): Parsed<ToHost> {
	return parseWith(toHost, raw);
}

export function parseToWebview(raw: unknown): Parsed<ToWebview> {
	return parseWith(toWebview, raw);
}

export function parsePersistedState(raw: unknown): Parsed<PanelPersistedState> {
	return parseWith(panelPersistedState, raw);
}
