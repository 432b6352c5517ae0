// Pause and resume of a managed issue. Pause mints no
// checkpoint and no revision and keeps every checkpoint and wake row; resume continues from the same checkpoint
// and revision. The Host records who paused (SECURITY.md): a developer's pause or stop is lifted only by the
// developer; the source session's resume lifts only what the source paused. Both are idempotent.
import { rejection } from '../../../core/hints.js';
import type { Execution, Pauser } from '../../../core/model.js';
import type { Caller } from '../../../protocol/controlPlane.js';
import { pauserOf, withPause } from '../../../core/issues/pauser.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import type { Tx } from '../../../store/tx.js';
import { callerSessionId, loadManaged, type PlanContext } from './planContext.js';

/** Executions a resume can no longer continue (their dispatch stays paused). */
const unresumable: readonly Execution['status'][] = ['archiving', 'archived', 'orphaned_source'];

/** `pauser` pauses or lifts; an agent lifts only a pause of its own (the developer's is refused `paused_by_developer`). */
function setPaused(tx: Tx, ctx: PlanContext, issueId: string, paused: boolean, command: string, pauser: Pauser): void {
	const { issue, execution } = loadManaged(tx, issueId, command);
	if (!paused && issue.dispatchPaused && unresumable.includes(execution.status)) {
		throw rejection('inactive_execution', `${command}: the execution is ${execution.status}; it cannot be resumed.`, { issueId });
	}
	const holder = pauserOf(issue);
	if (!paused && holder !== null && pauser !== 'developer' && holder !== pauser) {
		throw rejection('paused_by_developer', `${command}: the developer paused issue ${issueId}; it stays paused until they resume it.`,
			{ issueId }, { issueId, pausedBy: holder });
	}
	const next = withPause(issue, paused, pauser, ctx.clock.now());
	if (next) { issueRepository.update(tx, next); }
}

/**
 * `plan issue resume` (and the compat `issue update --dispatch-paused=false`): the developer, or the source session
 * for a pause of its own; a pause by the developer (their pause, stop or archive) is refused `paused_by_developer`.
 */
export async function resumeAsCaller(ctx: PlanContext, issueId: string, caller: Caller): Promise<void> {
	await setPausedAsCaller(ctx, issueId, caller, false);
}

/** `plan issue pause`: the source session (or the developer) pauses dispatch; the source's pause is one it may lift. */
export async function pauseAsCaller(ctx: PlanContext, issueId: string, caller: Caller): Promise<void> {
	await setPausedAsCaller(ctx, issueId, caller, true);
}

async function setPausedAsCaller(ctx: PlanContext, issueId: string, caller: Caller, paused: boolean): Promise<void> {
	const command = paused ? 'pause' : 'resume';
	await ctx.store.transaction((tx) => {
		const { execution } = loadManaged(tx, issueId, command);
		if (caller.kind === 'session' && callerSessionId(caller) !== execution.sourceSessionId) {
			throw rejection('wrong_source_session', `${command}: only the source session that created this issue may ${command} it.`, { issueId });
		}
		setPaused(tx, ctx, issueId, paused, command, caller.kind === 'user' ? 'developer' : 'source');
	});
}

/** The developer's pause/resume (UI, `issue pause|resume|stop --as-user`): a pause the developer alone lifts. */
export async function setPausedByUser(ctx: PlanContext, issueId: string, paused: boolean): Promise<void> {
	await ctx.store.transaction((tx) => { setPaused(tx, ctx, issueId, paused, paused ? 'pause' : 'resume', 'developer'); });
}
