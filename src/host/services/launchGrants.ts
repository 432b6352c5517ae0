// An agent may narrow the launch settings it was given, never widen them (SECURITY.md, "Who may do what"): a permission mode wider than
// its target's configured default, or auto-accept on an issue whose default is to ask the developer, is the
// developer's to set. The rule is core's (launchAuthority.ts); this refuses an agent's write that breaks it.
import { DomainError } from '../../core/errors.js';
import { hintFor } from '../../core/hints.js';
import type { Task } from '../../core/model.js';
import { type LaunchGrantFields, launchWidening } from '../../core/runs/launchAuthority.js';
import type { Caller } from '../../protocol/controlPlane.js';
import type { HostConfig } from '../config.js';

export interface GrantCheck {
	issueId: string;
	/** Whether the issue's tasks run through a source session (`plan issue mutate`) rather than the generic task writers. */
	managed: boolean;
	issueAutoAcceptDefault: boolean;
	/** The command the agent ran, for the message ("issue task add", "plan issue mutate: operation 2 (rework)"). */
	command: string;
}

function grantFields(task: Pick<Task, 'agentTargetId' | 'permissionModeId' | 'autoAccept'>): LaunchGrantFields {
	return { agentTargetId: task.agentTargetId, permissionModeId: task.permissionModeId, autoAccept: task.autoAccept };
}

/** The developer's way to widen it, named as theirs (an agent never runs it). */
function developerWay(check: GrantCheck, taskId: string, field: 'permissionModeId' | 'autoAccept', mode: string): string {
	if (field === 'autoAccept') {
		return `the developer can turn auto-accept on with the developer's own command \`tutti issue update --issue-id ${check.issueId} --auto-accept true --as-user\``;
	}
	return check.managed
		? 'the developer can configure an agent target whose own "args" choose that mode (.tutti/config.json or the tutti.agentTargets setting) for tasks to run on'
		: `the developer can set it with the developer's own command \`tutti issue task update --issue-id ${check.issueId} --task-id ${taskId} --permission-mode-id ${mode} --as-user\``;
}

/**
 * Throws when an agent's write of `after` (from `before`; absent for a new task or a rework's replacement) widens
 * what the task's agent may do. The developer (`caller.kind === 'user'`) may set anything.
 */
export function requireAgentWithinGrants(
	caller: Caller, config: HostConfig, check: GrantCheck,
	after: Pick<Task, 'taskId' | 'agentTargetId' | 'permissionModeId' | 'autoAccept'>,
	before: Pick<Task, 'agentTargetId' | 'permissionModeId' | 'autoAccept'> | undefined,
): void {
	if (caller.kind === 'user') { return; }
	const target = config.agentTargets.find((t) => t.id === after.agentTargetId);
	const widening = launchWidening(grantFields(after), before && grantFields(before), target, check.issueAutoAcceptDefault);
	if (widening === null) { return; }
	const ctx = { issueId: check.issueId, taskId: after.taskId };
	if (widening.field === 'permissionModeId' && widening.standing.kind === 'unknown') {
		throw new DomainError('invalid_input',
			`${check.command}: task ${after.taskId}: the permission mode '${widening.requested}' is not one of agent target '${widening.agentTargetId}': ${widening.standing.known.join(', ')}; nothing was changed.`,
			`Give one of ${widening.standing.known.join(', ')} that is no wider than the target's default, or leave the permission mode out (the target's default).`,
			{ ...ctx, permissionModeId: widening.requested, agentTargetId: widening.agentTargetId });
	}
	const forbidden = hintFor('forbidden', ctx);
	if (widening.field === 'permissionModeId' && widening.standing.kind === 'wider') {
		const { targetDefault, narrower } = widening.standing;
		throw new DomainError('forbidden',
			`${check.command}: task ${after.taskId}: the permission mode '${widening.requested}' is wider than agent target '${widening.agentTargetId}' runs with by default ('${targetDefault}'); an agent session (role ${caller.role}) may only narrow it; nothing was changed.`,
			`${forbidden} To go on yourself, leave the permission mode out or give one no wider than '${targetDefault}' (${narrower.join(', ')}). A wider mode is the developer's decision: ${developerWay(check, after.taskId, 'permissionModeId', widening.requested)}.`,
			{ ...ctx, permissionModeId: widening.requested, agentTargetId: widening.agentTargetId, targetDefault, sessionId: caller.sessionId });
	}
	throw new DomainError('forbidden',
		`${check.command}: task ${after.taskId}: auto-accept is off for issue ${check.issueId} (the developer confirms each task); an agent session (role ${caller.role}) cannot turn it on; nothing was changed.`,
		`${forbidden} To go on yourself, leave autoAccept out (or false). Auto-accept is the developer's decision: ${developerWay(check, after.taskId, 'autoAccept', '')}.`,
		{ ...ctx, autoAccept: true, sessionId: caller.sessionId });
}

/**
 * Throws when an agent creating an issue asks for less developer control than the settings give: auto-accept where
 * `autoAcceptDefault` is off, or Goal Review without the developer's confirmation where `developerConfirmation` is on.
 * Asking for as much control or more (autoAccept false, developerConfirmation true) is always allowed.
 */
export function requireAgentIssueControl(
	caller: Caller, config: Pick<HostConfig, 'autoAcceptDefault' | 'developerConfirmation'>,
	asked: { autoAccept?: boolean | undefined; developerConfirmation?: boolean | undefined }, command: string,
): void {
	if (caller.kind === 'user') { return; }
	const forbidden = hintFor('forbidden');
	if (asked.autoAccept === true && !config.autoAcceptDefault) {
		throw new DomainError('forbidden',
			`${command} --auto-accept: auto-accept is off by the developer's setting autoAcceptDefault; an agent session (role ${caller.role}) cannot turn it on; nothing was created.`,
			`${forbidden} To go on yourself, run it again without --auto-accept. Auto-accept is the developer's decision: once the issue exists, the developer can turn it on with the developer's own command \`tutti issue update --issue-id <issue-id> --auto-accept true --as-user\`.`,
			{ autoAccept: true, sessionId: caller.sessionId });
	}
	if (asked.developerConfirmation === false && config.developerConfirmation !== false) {
		throw new DomainError('forbidden',
			`${command} --developer-confirmation=false: Goal Review waits for the developer's confirmation by the developer's setting developerConfirmation; an agent session (role ${caller.role}) cannot switch it off; nothing was created.`,
			`${forbidden} To go on yourself, run it again without --developer-confirmation=false. Only the developer switches the confirmation off (their developerConfirmation setting, or their own \`tutti plan issue create … --developer-confirmation=false --source-target <id> --as-user\`).`,
			{ developerConfirmation: false, sessionId: caller.sessionId });
	}
}
