// The New Issue form's message protocol (webview ↔ extension host) and its validation, shared by both sides: the
// webview checks the form before sending (errors beside the fields), the Host checks every message on receipt.
import { z } from 'zod';

export const newIssueFormProtocolVersion = 1;

const targetId = z.string().min(1).max(200);
export const issueTitleMax = 500;
export const issueGoalMax = 100_000;

/** Who plans the issue. */
export const newIssuePlanner = z.discriminatedUnion('kind', [
	/** A configured agent target: Tutti launches the source agent and wakes it itself (`plan/create sourceTargetId`). */
	z.strictObject({ kind: z.literal('agent'), agentTargetId: targetId }),
	/** The developer's own agent, in a Tutti agent terminal carrying the source session. */
	z.strictObject({ kind: z.literal('terminal') }),
	/** A manual issue: the developer adds the tasks, then starts it. */
	z.strictObject({ kind: z.literal('manual') }),
]);
export type NewIssuePlanner = z.infer<typeof newIssuePlanner>;

export const newIssueFormValues = z.strictObject({
	title: z.string()
		.refine((s) => s.trim() !== '', { message: 'Give the issue a title (the goal in a few words).' })
		.refine((s) => s.trim().length <= issueTitleMax, { message: `The title is too long (at most ${issueTitleMax} characters).` }),
	goal: z.string().max(issueGoalMax, { message: `The goal is too long (at most ${issueGoalMax.toLocaleString('en-US')} characters).` }),
	planner: newIssuePlanner,
	autoAccept: z.boolean(),
}).superRefine((v, ctx) => {
	if (v.planner.kind !== 'manual' && v.goal.trim() === '') {
		ctx.addIssue({ code: 'custom', path: ['goal'], message: 'Describe the goal: the source agent plans the tasks from it.' });
	}
});
export type NewIssueFormValues = z.infer<typeof newIssueFormValues>;

export type NewIssueField = 'title' | 'goal' | 'planner' | 'autoAccept';
export type NewIssueFieldErrors = Partial<Record<NewIssueField, string>>;

export type NewIssueValidation =
	| { readonly ok: true; readonly values: NewIssueFormValues }
	| { readonly ok: false; readonly errors: NewIssueFieldErrors };

/** The form's values, or one message per field that is wrong (the first problem of each). */
export function validateNewIssueForm(raw: unknown): NewIssueValidation {
	const r = newIssueFormValues.safeParse(raw);
	if (r.success) { return { ok: true, values: r.data }; }
	const errors: NewIssueFieldErrors = {};
	for (const issue of r.error.issues) {
		const head = issue.path[0];
		const field: NewIssueField = head === 'title' || head === 'goal' || head === 'autoAccept' ? head : 'planner';
		errors[field] ??= field === 'planner' ? 'Choose who plans this issue.' : issue.message;
	}
	return { ok: false, errors };
}

/** An agent target the form offers as a planner. */
export const formAgentTarget = z.object({
	id: targetId,
	adapter: z.enum(['command', 'claude', 'codex']),
	/** Its executable was found: a target that is not found is listed but cannot be chosen. */
	found: z.boolean(),
	/** The Host says it can plan an issue (claude, codex); a command target is listed as one that runs tasks. */
	canPlan: z.boolean(),
	detail: z.string().max(1000),
});
export type FormAgentTarget = z.infer<typeof formAgentTarget>;

/** Webview → Host. */
export const newIssueToHost = z.discriminatedUnion('type', [
	z.strictObject({ type: z.literal('ready'), protocol: z.literal(newIssueFormProtocolVersion) }),
	z.strictObject({ type: z.literal('submit'), values: newIssueFormValues }),
	z.strictObject({ type: z.literal('cancel') }),
	z.strictObject({ type: z.literal('addAgent') }),
]);
export type NewIssueToHost = z.infer<typeof newIssueToHost>;

/** Host → webview. */
export const newIssueToWebview = z.discriminatedUnion('type', [
	/** The choices and defaults; sent after `ready` and again when the agent targets change. */
	z.object({ type: z.literal('init'), agentTargets: z.array(formAgentTarget).max(200), autoAcceptDefault: z.boolean() }),
	/** The Host refused or could not create the issue; the form stays filled in. */
	z.object({ type: z.literal('failed'), message: z.string().max(10_000), errors: z.partialRecord(z.enum(['title', 'goal', 'planner', 'autoAccept']), z.string().max(1000)).optional() }),
	/** Creating: the form is disabled until the result. */
	z.object({ type: z.literal('busy') }),
]);
export type NewIssueToWebview = z.infer<typeof newIssueToWebview>;

export function parseNewIssueToHost(raw: unknown): { ok: true; value: NewIssueToHost } | { ok: false; error: string } {
	const r = newIssueToHost.safeParse(raw);
	return r.success ? { ok: true, value: r.data } : { ok: false, error: z.prettifyError(r.error) };
}

export function parseNewIssueToWebview(raw: unknown): { ok: true; value: NewIssueToWebview } | { ok: false; error: string } {
	const r = newIssueToWebview.safeParse(raw);
	return r.success ? { ok: true, value: r.data } : { ok: false, error: z.prettifyError(r.error) };
}
