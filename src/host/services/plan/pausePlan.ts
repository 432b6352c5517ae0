// Pause and resume of a managed issue (troubleshooting "Paused Tutti Issue keeps reopening…"). Pause mints no
// checkpoint and no revision and keeps every checkpoint and wake row; resume continues from the same checkpoint
// and revision. Only the original source session (or the developer) may resume; both are idempotent.
import { rejection } from '../../../core/hints.js';
import type { Execution } from '../../../core/model.js';
import type { Caller } from '../../../protocol/controlPlane.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import type { Tx } from '../../../store/tx.js';
import { callerSessionId, loadManaged, type PlanContext } from './planContext.js';

/** Executions a resume can no longer continue (their dispatch stays paused). */
const unresumable: readonly Execution['status'][] = ['archiving', 'archived', 'orphaned_source'];

function setPaused(tx: Tx, ctx: PlanContext, issueId: string, paused: boolean, command: string): void {
	const { issue, execution } = loadManaged(tx, issueId, command);
	if (issue.dispatchPaused === paused) { return; }
	if (!paused && unresumable.includes(execution.status)) {
		throw rejection('inactive_execution', `${command}: the execution is ${execution.status}; it cannot be resumed.`, { issueId });
	}
	issueRepository.update(tx, { ...issue, dispatchPaused: paused, updatedAtUnixMs: ctx.clock.now() });
}

/** `plan issue resume` (and the compat `issue update --dispatch-paused=false`): the source session, or the developer. */
export async function resumeAsCaller(ctx: PlanContext, issueId: string, caller: Caller): Promise<void> {
	await ctx.store.transaction((tx) => {
		const { execution } = loadManaged(tx, issueId, 'resume');
		if (caller.kind === 'session' && callerSessionId(caller) !== execution.sourceSessionId) {
			throw rejection('wrong_source_session', 'resume: only the source session that created this issue may resume it.', { issueId });
		}
		setPaused(tx, ctx, issueId, false, 'resume');
	});
}

/** The developer's pause/resume (UI, `issue pause|resume --as-user`). */
export async function setPausedByUser(ctx: PlanContext, issueId: string, paused: boolean): Promise<void> {
	await ctx.store.transaction((tx) => { setPaused(tx, ctx, issueId, paused, paused ? 'pause' : 'resume'); });
}
