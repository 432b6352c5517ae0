// Exactly one hint per reason code, naming the exact next command: each rejection carries one action-specific
// hint. The Record type makes a missing reason a compile error; a test checks every code.
import { DomainError, type ReasonCode } from './errors.js';
import { getCommand, resumeCommand, resumeCompatCommand, shellQuote } from './execution/planCommands.js';

/** What a hint may name. Missing ids are written as `<issue-id>` etc. so the sentence stays a usable template. */
export interface HintContext {
	issueId?: string;
	checkpointId?: string;
	taskId?: string;
	runId?: string;
}

const neverTouchDb = 'never query or modify the database';

interface Names { issue: string; task: string; get: string; taskArg: string }

type HintBuilder = (n: Names, ctx: HintContext) => string;

const hints: Record<ReasonCode, HintBuilder> = {
	execution_not_found: (n) =>
		`Run \`tutti issue get --issue-id ${n.issue} --json\` to check the issue id; only issues created with \`tutti plan issue create\` have a managed execution.`,
	wrong_source_session: () =>
		'Run this command from the source session that created the issue (its TUTTI_SESSION_TOKEN); never supply or guess a session id.',
	inactive_execution: (n) =>
		`Run \`${n.get}\` and follow its allowedActions; this execution does not accept this command in its current status.`,
	inactive_checkpoint: (n) =>
		`Run \`${n.get}\` once and use the returned activeCheckpoint and graphRevision; if the same error repeats, report it.`,
	stale_graph_revision: (n) =>
		`Run \`${n.get}\` once and use the returned graphRevision; never increment or guess it.`,
	task_not_found: (n) =>
		`Run \`${n.get}\` and use a taskId from its readyTaskIds or tasks (every task: add --full).`,
	task_not_started: (n) =>
		`Only not-started tasks can be scheduled or updated: rework a failed or canceled ${n.task} into a new taskId with \`tutti plan issue mutate\` (kind "rework"), then schedule the replacement with the graphRevision the mutation returns; running and completed tasks cannot be changed.`,
	task_superseded: (n) =>
		`Run \`${n.get}\` and use the replacement task named by supersededByTaskId of ${n.task}.`,
	missing_agent_target: (n) =>
		`Choose a target from \`tutti agent list --json\` and set it on ${n.task} with \`tutti plan issue mutate\` (kind "update" or "rework" with task.agentTargetId); a sparse rework inherits the old task's target.`,
	dependency_unsatisfied: (n) =>
		`Run \`${n.get}\` and schedule only tasks listed in readyTaskIds; a dependency must be completed and accepted, and a failed or canceled one needs a rework first.`,
	dispatch_paused: (n) =>
		`Run \`${resumeCommand(n.issue)}\` (or the compat form \`${resumeCompatCommand(n.issue)}\`), then retry with the same checkpoint and graphRevision.`,
	paused_by_developer: (n) =>
		`The developer paused this issue (a pause or a stop of theirs); it stays paused until they resume it, so do not retry and do not try to resume it. Wait with \`tutti plan issue await --issue-id ${n.issue}\` (run it again while it reports waiting; a session Tutti wakes may end its turn instead: its next wake comes after the developer resumes); ${neverTouchDb}.`,
	budget_exceeded: (n) =>
		`The issue has spent its budget, so nothing more starts (running work finishes). Do not retry: tell the developer; only they raise it, with the developer's own command \`tutti issue update --issue-id ${n.issue} --budget-usd <usd> --as-user\` (never run it yourself). Meanwhile wait with \`tutti plan issue await --issue-id ${n.issue}\` (a session Tutti wakes may end its turn instead: its next wake comes once the budget lets work start); ${neverTouchDb}.`,
	budget_unavailable: (n) =>
		`The issue has a USD budget and this launch's model has no known price (the message names the target and model), so Tutti cannot count its cost and refuses it. Do not retry the same launch: rework the task onto an agent target whose model has a price (\`tutti agent list --json\`), or tell the developer, who can add the model's price to the setting tutti.modelPrices (headless: modelPrices in .tutti/config.json, then restart the Host), set a token budget instead (\`tutti issue update --issue-id ${n.issue} --budget-tokens <tokens> --budget-usd none --as-user\`) or remove the USD budget (\`tutti issue update --issue-id ${n.issue} --budget-usd none --as-user\`) — those are the developer's commands, never yours; ${neverTouchDb}.`,
	capacity_exhausted: (n) =>
		`Too many Runs are active: wait for the next checkpoint wake (a Run settling), then run \`${n.get}\` and schedule again.`,
	parallelism_rejected: (n) =>
		`Schedule a smaller set: run \`${n.get}\` and pick fewer tasks from readyTaskIds (tasks with parallelizable=false run alone).`,
	duplicate_task: (n) =>
		`Use unique task ids: remove repeated ids from the request and pick new taskIds that are not in \`${n.get}\`.`,
	invalid_task_graph: (n) =>
		`Fix missing titles or missing, superseded, self-referential or cyclic dependencies in one \`tutti plan issue mutate\` (check \`${n.get}\`).`,
	invalid_mutation_operation: () =>
		'Run `tutti plan issue mutate --help` once and resend --operations-json with entries {"kind":"add|update|rework|supersede","taskId":…,"task":{…}} ("op" and "replacement" are not supported).',
	request_id_conflict: (n) =>
		`This --request-id was already used with a different payload: send the new payload with a new --request-id (the original payload replays its result); run \`${n.get}\` to see what was applied.`,
	tutti_issue_managed: (n) =>
		`This issue is managed by its source session: change its tasks with \`tutti plan issue mutate\` from that session (run \`${n.get}\` first for the checkpoint and graphRevision).`,
	issue_aborted: (n) =>
		`Read the final state with \`tutti issue get --issue-id ${n.issue} --json\` and tell the developer the issue was stopped and archived; nothing more runs in it, so do not retry or wait again.`,
	review_not_pending: (n) =>
		`Run \`tutti issue get --issue-id ${n.issue} --json\` and decide only on a task whose status is pending_acceptance, or on the goal while \`${n.get}\` shows execution.status pending_goal_review awaiting your confirmation.`,
	acceptance_pending: (n) =>
		`The developer has not decided on every task awaiting acceptance yet: wait with \`tutti await-review --issue-id ${n.issue} --json\` (run it again while it reports waiting), then run the command it returns.`,
	approval_not_found: () =>
		'Run `tutti approval list --json` and use an approvalId it lists.',
	approval_answered: () =>
		'A request is answered once and the agent already has that answer: run `tutti approval list --json` to see it; a later call of the tool asks again.',
	not_integrable: (n) =>
		`Run \`tutti issue get --issue-id ${n.issue} --json\` to see what each task named in the message needs (accept what awaits your review, retry what failed, wait for what runs), or integrate only what is accepted with \`tutti issue integrate --issue-id ${n.issue} --accepted-only --as-user\`.`,
	dirty_workspace: (n) =>
		`Commit or stash the changes to the tracked files named in the message (\`git status\`), then run \`tutti issue integrate --issue-id ${n.issue} --as-user\` again; untracked files are never touched.`,
	workspace_busy: (n) =>
		`Git is busy in the tree named in the message: finish or abort the merge or rebase in progress there (\`git status\` says which), or, if no git command is running, delete the lock file it names (a crashed git left it); then run \`tutti issue integrate --issue-id ${n.issue} --as-user\` again.`,
	merge_conflict: (n) =>
		`Nothing was changed. Bring the conflicting task named in the message up to date: \`tutti task update-from-base --issue-id ${n.issue} --task-id ${n.taskArg} --as-user\` (a new Run merges the branch into its tree), or merge the branch by hand in its tree and commit; then run \`tutti issue integrate --issue-id ${n.issue} --as-user\` again and accept the change it shows.`,
	not_integrated: (n) =>
		`It is the developer's decision to integrate the accepted work first (\`tutti issue integrate --issue-id ${n.issue} --as-user\`) or to finish without integrating it (\`tutti finish --issue-id ${n.issue} --without-integrating --as-user\`); the tasks' branches keep the work either way.`,
	push_failed: (n) =>
		`The integration stays on your local branch; nothing was undone. Fix what the message names (the remote, your access to it, or a remote branch that moved: pull it and integrate again), then push the branch yourself with git, or run \`tutti issue integrate --issue-id ${n.issue} --push --as-user\` again (the developer's command).`,
	issue_not_found: () =>
		'Run `tutti issue list --json` and use an issueId it lists.',
	run_not_found: (n) =>
		`Run \`tutti run list --issue-id ${n.issue} --json\` and use a runId it lists.`,
	session_not_found: () =>
		'Use the session Tutti started you in (its TUTTI_SESSION_TOKEN is already set) and never guess a session id; only the developer opens a new session (`tutti session open --role source --as-user --json`).',
	agent_target_not_found: () =>
		'Run `tutti agent list --json` and use an id it lists.',
	invalid_input: () =>
		'Run the same command with `--help` and fix the flag or value named in the message.',
	unauthenticated: () =>
		'Run it with the TUTTI_SESSION_TOKEN Tutti set for your session (a Run\'s token ends with its Run; another workspace\'s is refused). Only the developer opens a new session (`tutti session open --role source --as-user --json`) or acts with --as-user, from their own terminal.',
	forbidden: () =>
		'An agent session acts only on its own work (its own Run, approvals and plan) and never makes the developer\'s decisions: do not retry this, and never use --as-user (the developer\'s own credential); tell the developer what you need (they decide in VS Code or in their own terminal), and go on with your own work.',
	not_managed: (n) =>
		`This is a manual issue, which has no plan: read it with \`tutti issue get --issue-id ${n.issue} --json\` and change its tasks with \`tutti issue task add\` or \`tutti issue task update\` (see their --help) instead of the plan issue commands.`,
	host_unavailable: () =>
		'Open the folder in VS Code with Tutti, or run `tutti host --workspace DIR`, then run the same command again.',
	store_unavailable: () =>
		`Run the same command again in a few seconds; if it keeps failing, report this exact error; ${neverTouchDb}.`,
	store_corrupt: () =>
		`Report this exact error; Tutti never overwrites a damaged store; ${neverTouchDb}.`,
	identity_mismatch: () =>
		`A stored execution, checkpoint or Run does not carry the id it is derived from, so Tutti refuses to act on it and changed nothing: report this exact error; ${neverTouchDb}.`,
	store_locked: () =>
		'Another Tutti Host owns this store: use that VS Code window, or stop that Host and run `tutti host --workspace DIR` again.',
	version_mismatch: () =>
		'The tutti CLI, the extension and the Host that answered are different Tutti versions: reload the VS Code window (headless: stop the Host and run `tutti host --workspace DIR` again) so they all run the installed version, then run the same command again.',
	internal: (n) => defaultHint(n),
};

function defaultHint(n: Names): string {
	return `Run \`${n.get}\` once; if it does not explain the failure, report this exact error; ${neverTouchDb}.`;
}

function names(ctx: HintContext): Names {
	const issue = ctx.issueId ? shellQuote(ctx.issueId) : '<issue-id>';
	return {
		issue,
		task: ctx.taskId ? `task ${ctx.taskId}` : 'the task',
		taskArg: ctx.taskId ? shellQuote(ctx.taskId) : '<task-id>',
		get: ctx.issueId ? getCommand(ctx.issueId) : `tutti plan issue get --issue-id ${issue} --json`,
	};
}

/** The one hint for `reason`. An unknown reason (e.g. from a newer peer) gets the default "report it" hint. */
export function hintFor(reason: ReasonCode, ctx: HintContext = {}): string {
	const build = Object.prototype.hasOwnProperty.call(hints, reason) ? hints[reason] : undefined;
	return build ? build(names(ctx), ctx) : defaultHint(names(ctx));
}

/** Reasons a client may retry as is (the Host was briefly away); everything else needs a different request. */
const retryableReasons: ReadonlySet<ReasonCode> = new Set<ReasonCode>(['host_unavailable', 'store_unavailable']);

/** A DomainError for `reason` carrying its one hint. */
export function rejection(reason: ReasonCode, message: string, ctx: HintContext = {}, details: Record<string, unknown> = {}): DomainError {
	return new DomainError(reason, message, hintFor(reason, ctx), details, retryableReasons.has(reason));
}
