// The selected task's detail as the panel draws it: the evidence first (latest Run, changes, approvals, transcript,
// messages), then the Host's controls for it (Accept, Request changes, Open changes), its Runs, dependencies,
// replacements and launch settings. Pure; every decision is the Host's.
import { type ApprovalModel, approvalModels } from './approvalModel.js';
import { blockerLabel, taskStatusLabel } from './format.js';
import { taskStateLabel } from './graphModel.js';
import { type MessagesModel, messagesModel, type TranscriptModel, transcriptModel } from './liveRunModel.js';
import type { PanelTask } from './panelTasks.js';
import { type ReviewChangesModel, reviewChanges } from './reviewChangesModel.js';
import { type LatestRunModel, latestRunModel, type RunModel, runModel, runsOfTask, usageLabel } from './runModel.js';
import type { PanelSnapshot, TaskControlsDto, TaskStatus } from './snapshotTypes.js';

export interface RelatedTask {
	readonly taskId: string;
	readonly title: string;
	readonly statusLabel: string;
}

export interface VerificationModel {
	readonly status: 'running' | 'passed' | 'failed' | 'none';
	readonly label: string;
	/** The first check that did not pass, with the last lines of its output. */
	readonly failing: { readonly name: string; readonly outputTail: string } | null;
}

export interface DetailModel {
	readonly taskId: string;
	readonly title: string;
	readonly content: string;
	readonly status: TaskStatus;
	/** The Host's rework state ("Changes requested") over the task's status, as the graph names it. */
	readonly statusLabel: string;
	/** Waiting for a new attempt asked of it: its chip is not the status colour (a review decision is no failure). */
	readonly rework: boolean;
	/** Which attempt it is and one line per earlier one (the Host's count); superseded history: its one line. */
	readonly attempts: AttemptsModel;
	readonly acceptanceLabel: string;
	/** The Host's reason the task awaits acceptance again ("changed after acceptance"); '' when none. */
	readonly reopenedReason: string;
	/**
	 * What the developer's checks said of the latest result, in the Host's words ("Checks passed at abc1234",
	 * "Checks failed: test (exit 1)") with a failed check's output tail; null before a Run reported success.
	 */
	readonly verification: VerificationModel | null;
	readonly ready: boolean;
	readonly blocker: string | null;
	readonly launch: readonly (readonly [string, string])[];
	readonly dependencies: readonly RelatedTask[];
	readonly replacedBy: RelatedTask | null;
	readonly replaces: readonly RelatedTask[];
	readonly superseded: boolean;
	readonly runs: readonly RunModel[];
	readonly usageLabel: string;
	/** The latest Run, leading the detail; null before the first Run. */
	readonly latest: LatestRunModel | null;
	/** Tool calls of the task's Runs that asked the developer: pending ones (with Allow / Deny) first. */
	readonly approvals: readonly ApprovalModel[];
	/** The message box of a running agent (its latest Run), with what was sent to it; null when no agent runs. */
	readonly messages: MessagesModel | null;
	readonly transcript: TranscriptModel | null;
	/** The developer's comments on the diff (`path:line`, text), sent with Request changes. */
	readonly reviewComments: readonly { readonly where: string; readonly text: string }[];
	/** What the Host offers on this task now. */
	readonly controls: TaskControlsDto;
	/** The latest Run's changes, once it has settled; null while it runs or before any Run. */
	readonly changes: ReviewChangesModel | null;
	/** The latest Run failed: why, and what the developer decides (the Host's words); null otherwise. */
	readonly failure: FailureModel | null;
	/** Selected here and not yet echoed by the Host (its transcript and the keybindings' context follow with the next snapshot). */
	readonly busy: boolean;
}

export interface AttemptsModel {
	/** "Attempt 2 of 2"; '' while there was only one. */
	readonly label: string;
	readonly earlier: readonly string[];
	/** Superseded history: "Attempt 1 — changes requested: <note>", drawn instead of its status, blocker and result. */
	readonly line: string;
}

/** A failed latest Run's card: the Host's attention label and the last lines its agent wrote to stderr. */
export interface FailureModel {
	/** "Failed: exit code 3 — retry, edit or stop" (the Host's attention label for the task); '' when it sent none. */
	readonly decision: string;
	readonly stderrTail: readonly string[];
}

const acceptanceLabels = { '': 'Not accepted', agent_claimed: 'Claimed by the agent', auto_checked: 'Accepted automatically', user_accepted: 'Accepted by you' } as const;

/** Launch settings a task set itself (defaults are not repeated): the agent target always, the rest when set. */
function launchSettings(t: PanelTask): (readonly [string, string])[] {
	const rows: (readonly [string, string])[] = [['Agent target', t.agentTargetId || '(none)']];
	if (t.model) { rows.push(['Model', t.model]); }
	if (t.permissionModeId) { rows.push(['Permission mode', t.permissionModeId]); }
	if (t.reasoningEffort) { rows.push(['Reasoning effort', t.reasoningEffort]); }
	if (t.executionDirectory) { rows.push(['Execution directory', t.executionDirectory]); }
	if (t.autoAccept) { rows.push(['Auto-accept', 'yes']); }
	return rows;
}

function related(t: PanelTask | undefined, taskId: string): RelatedTask {
	return { taskId, title: t?.title ?? taskId, statusLabel: t ? taskStatusLabel[t.status] : 'Unknown task' };
}

/** Null when nothing is selected, or the selection is not among the tasks drawn. */
export function detailModel(s: PanelSnapshot, tasks: readonly PanelTask[], selectedTaskId: string | null): DetailModel | null {
	if (selectedTaskId === null) { return null; }
	const byId = new Map(tasks.map((t) => [t.taskId, t]));
	const t = byId.get(selectedTaskId);
	if (!t) { return null; }
	const runs = runsOfTask(s.runs, t.taskId);
	const transcript = transcriptModel(s.transcript, runs[0]);
	const attention = s.issue.tasks.find((o) => o.taskId === t.taskId)?.attention;
	return {
		taskId: t.taskId,
		title: t.title,
		content: t.content,
		status: t.status,
		statusLabel: taskStateLabel(t),
		rework: (t.attempts?.stateLabel ?? '') !== '',
		attempts: { label: t.attempts?.label ?? '', earlier: t.attempts?.earlier ?? [], line: t.attempts?.line ?? '' },
		// The Host's acceptance words say by whom, at which commit and what the checks said then.
		acceptanceLabel: t.acceptance?.label ?? acceptanceLabels[t.acceptanceState],
		reopenedReason: t.reopenedReason,
		verification: t.verification ? {
			status: t.verification.status, label: t.verification.label,
			failing: ((f) => (f ? { name: f.name, outputTail: f.outputTail } : null))(t.verification.checks.find((c) => c.state === 'failed')),
		} : null,
		ready: t.ready,
		// A task that already ran (or runs) is not blocked: `task_not_started` only says it cannot be scheduled again.
		blocker: t.blockerReason === '' || t.blockerReason === 'task_not_started' ? null : blockerLabel[t.blockerReason],
		launch: launchSettings(t),
		dependencies: t.dependencyTaskIds.map((d) => related(byId.get(d), d)),
		replacedBy: t.supersededByTaskId ? related(byId.get(t.supersededByTaskId), t.supersededByTaskId) : null,
		replaces: tasks.filter((o) => o.supersededByTaskId === t.taskId).map((o) => related(o, o.taskId)),
		superseded: t.superseded,
		runs: runs.map(runModel),
		usageLabel: usageLabel(runs),
		latest: latestRunModel(runs[0]),
		approvals: approvalModels(runs),
		messages: messagesModel(runs[0]),
		transcript,
		reviewComments: (s.reviewComments ?? []).map((c) => ({ where: `${c.path}:${c.line}`, text: c.text })),
		controls: t.controls,
		changes: reviewChanges(runs[0]),
		busy: s.view.selectedTaskId !== t.taskId,
		failure: runs[0]?.status === 'failed' ? { decision: t.status === 'failed' ? attention?.label ?? '' : '', stderrTail: transcript?.stderrTail ?? [] } : null,
	};
}
