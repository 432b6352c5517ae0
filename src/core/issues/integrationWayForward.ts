// What `tutti issue integrate` tells the developer when it refuses: the tasks that hold it back, each with the command
// that moves it on in the state it is in (accept what awaits review, retry what failed, wait for what runs), and for a
// conflict the two ways forward — Update from base (a new Run of the task merges the branch in) or a merge by hand in
// the task's tree, which integrate then shows for review. Every command named here is one the Host accepts in that
// state; the integration tests run each of them. Pure.
import type { MergeSource, TaskStatus } from '../model.js';
import { type IntegrateOptions, integrateCommand, issueGetCommand, retryCommand, reviewAcceptCommand, updateFromBaseCommand } from './developerCommands.js';

/** A task that keeps an issue from integrating: not accepted (any more). */
export interface BlockingTask {
	taskId: string;
	status: TaskStatus;
	/** Pending acceptance again because its branch moved after the developer accepted it. */
	changedAfterAcceptance: boolean;
}

function oneTask(issueId: string, managed: boolean, t: BlockingTask): string {
	switch (t.status) {
		case 'pending_acceptance':
			return t.changedAfterAcceptance
				? `task ${t.taskId} changed after you accepted it (a commit in its tree): review the change and accept it again with \`${reviewAcceptCommand(issueId, t.taskId)}\``
				: `task ${t.taskId} awaits your review: accept it with \`${reviewAcceptCommand(issueId, t.taskId)}\``;
		case 'running':
			return `task ${t.taskId} is running: wait for its result (\`${issueGetCommand(issueId)}\` shows it), then review it`;
		case 'not_started':
			return `task ${t.taskId} has not started yet: it starts once its dependencies are accepted (\`${issueGetCommand(issueId)}\` shows what it waits for)`;
		case 'failed':
		case 'canceled':
			return managed
				? `task ${t.taskId} is ${t.status}: its source agent decides what happens to it (it got that as a checkpoint)`
				: `task ${t.taskId} is ${t.status}: run it again with \`${retryCommand(issueId, t.taskId)}\``;
		case 'completed':
			return `task ${t.taskId} is completed but not accepted: accept it with \`${reviewAcceptCommand(issueId, t.taskId)}\``;
	}
}

/** The hint of a refusal because tasks are not accepted: each task's next command, then the accepted-only way. */
export function notAcceptedHint(issueId: string, managed: boolean, tasks: readonly BlockingTask[], into?: string): string {
	const shown = tasks.slice(0, 5).map((t) => oneTask(issueId, managed, t));
	const more = tasks.length > shown.length ? `; and ${tasks.length - shown.length} more (\`${issueGetCommand(issueId)}\`)` : '';
	const accepted = integrateCommand(issueId, { acceptedOnly: true, ...(into !== undefined ? { into } : {}) });
	return `${capitalized(shown.join('; '))}${more}. Then run \`${integrateCommand(issueId, into !== undefined ? { into } : {})}\` again — or integrate only the accepted work now with \`${accepted}\`.`;
}

function capitalized(text: string): string {
	return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** What Update from base would do for the conflicting task now. */
export type UpdateFromBaseMode =
	/** Its agent target resolves merge conflicts: the Run's agent gets the paths. */
	| 'agent'
	/** Its target fails on conflicts (`onMergeConflict: "fail"`): the Run leaves the merge in its tree for the developer. */
	| 'developer'
	/** Not in this state (the message says why). */
	| 'unavailable';

export interface ConflictFacts {
	issueId: string;
	into: string;
	paths: readonly string[];
	/** The task whose work conflicts with what is integrated before it: the one to bring up to date. */
	taskId: string;
	/** What it conflicts with: "main (0123456789ab)" or "task b". */
	withLabel: string;
	/** The task's tree, relative to the workspace ('' when it has none any more). */
	tree: string;
	/** What the task's tree lacks of what is integrated before it, in order (the branch first). */
	sources: readonly MergeSource[];
	updateFromBase: UpdateFromBaseMode;
	/** Why Update from base is not offered (with `unavailable`). */
	unavailableReason?: string;
	/** How this integrate was asked for (squash, push, accepted only): the printed integrate repeats it. */
	asked?: Omit<IntegrateOptions, 'into'>;
}

function sourceRef(into: string, s: MergeSource): string {
	return s.label === into ? into : s.commit;
}

/**
 * One way forward in a line short enough to read beside its button: `update_from_base` goes with Update from base,
 * `open_tree` with a terminal in the task's tree, null with no action (why Update from base is not possible now).
 */
export interface ConflictWay {
	action: 'update_from_base' | 'open_tree' | null;
	text: string;
}

/** The ways forward as short lines (the hint says the same with every command spelled out, for the CLI). */
function conflictWays(f: ConflictFacts): ConflictWay[] {
	const ways: ConflictWay[] = [];
	const merged = f.sources.map((s) => s.label).join(' and ') || f.into;
	if (f.updateFromBase === 'agent') {
		ways.push({ action: 'update_from_base', text: `A new Run merges ${merged} into the task's tree and its agent resolves the conflict; accept it, then integrate again.` });
	} else if (f.updateFromBase === 'developer') {
		ways.push({ action: 'update_from_base', text: `A new Run merges ${merged} into the task's tree and leaves the conflict there for you to resolve and commit; then accept it and integrate again.` });
	} else if (f.unavailableReason !== undefined) {
		ways.push({ action: null, text: `Update from base is not possible now: ${f.unavailableReason}.` });
	}
	if (f.tree !== '') {
		const merges = f.sources.map((s) => `git merge ${sourceRef(f.into, s)}`).join(', then ');
		ways.push({ action: 'open_tree', text: `By hand in the task's tree: ${merges || `git merge ${f.into}`}, fix the conflicts, commit; then accept the change and integrate again.` });
	}
	return ways;
}

/** The refusal of an integration that conflicts: the paths, and both ways forward (in full, and as short lines). */
export function conflictRefusal(f: ConflictFacts): { message: string; hint: string; ways: ConflictWay[] } {
	const ways = conflictWays(f);
	const message = `Integrating issue ${f.issueId} into ${f.into} conflicts: task ${f.taskId} and ${f.withLabel} both change ${f.paths.join(', ')}. Nothing was changed.`;
	const again = integrateCommand(f.issueId, { ...f.asked, into: f.into });
	const printed: string[] = [];
	if (f.updateFromBase !== 'unavailable') {
		const who = f.updateFromBase === 'agent'
			? 'its agent resolves the conflict'
			: `its agent target does not resolve conflicts, so the merge is left in ${f.tree} for you to resolve and commit`;
		printed.push(`update task ${f.taskId} from ${f.into}: \`${updateFromBaseCommand(f.issueId, f.taskId, f.into)}\` starts a new Run of it that merges `
			+ `${f.sources.map((s) => s.label).join(' and ')} into its tree (${who}); review and accept its new result, then run \`${again}\` again`);
	}
	if (f.tree !== '') {
		const merges = f.sources.map((s) => `\`git -C ${f.tree} merge ${sourceRef(f.into, s)}\``).join(', then ');
		printed.push(`resolve it by hand in the task's tree: ${merges}, fix ${f.paths.join(', ')}, \`git -C ${f.tree} add\` them and \`git -C ${f.tree} commit --no-edit\`; `
			+ `then \`${again}\` shows that commit for review (changed after acceptance): accept it with \`${reviewAcceptCommand(f.issueId, f.taskId)}\` and integrate again`);
	}
	const unavailable = f.updateFromBase === 'unavailable' && f.unavailableReason !== undefined ? ` (Update from base is not possible now: ${f.unavailableReason}.)` : '';
	if (printed.length === 0) {
		return { message, hint: `Bring task ${f.taskId}'s work up to date with ${f.into} and accept it again, then run \`${again}\` again.${unavailable}`, ways };
	}
	const hint = printed.length === 1 ? `${capitalized(printed[0]!)}.${unavailable}` : `Either ${printed[0]!}; or ${printed.slice(1).join('; or ')}.`;
	return { message, hint, ways };
}
