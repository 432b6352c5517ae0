// `plan issue stop`: the source agent's explicit terminal
// path. Source authority from the caller, fenced on the active checkpoint and revision (every failure reads
// inactive_checkpoint), then the recoverable archive flow. A replay after the first stop already canceled the
// checkpoint returns the original result (replay is checked before the fences).
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { continueArchive, requestArchive } from './archiveExecution.js';
import { callerSessionId, passFences, type PlanContext } from './planContext.js';
import { recordResult, replayOf, requestIdentity } from './requestIdentity.js';

type StopResult = Result<'plan/stop'>;

export async function stopPlan(ctx: PlanContext, params: ParsedParams<'plan/stop'>, caller: Caller): Promise<StopResult> {
	const identity = requestIdentity('stop', callerSessionId(caller), params.issueId, params.requestId, {
		checkpointId: params.checkpointId, expectedGraphRevision: params.expectedGraphRevision, reason: params.reason,
	});
	const first = await ctx.store.transaction((tx) => {
		const replay = replayOf<StopResult>(tx, identity);
		if (replay) { return { result: replay, continueOperation: false }; }
		const { issue, execution } = passFences(tx, { ...params, caller, command: 'stop' });
		const now = ctx.clock.now();
		const op = requestArchive(tx, {
			issue, execution, operationId: ctx.ids.next('archive'), requestId: params.requestId,
			requestedBy: callerSessionId(caller), reason: params.reason, nowUnixMs: now,
		});
		const result = recordResult(tx, identity, {
			executionId: execution.executionId,
			issueId: issue.issueId,
			operationId: op.operationId,
			requestId: params.requestId,
			status: op.status,
			reason: params.reason,
			replayed: false,
		}, execution.graphRevision, now);
		return { result, continueOperation: true };
	});
	if (!first.continueOperation) { return first.result; }
	// Outside every transaction: Run cancellation may settle Runs synchronously (their settlement is suppressed).
	const status = await continueArchive(ctx, first.result.operationId);
	return { ...first.result, status };
}
