// `plan issue get`: readable by the source session and the developer; any other session is wrong_source_session.
import { rejection } from '../../../core/hints.js';
import type { Caller } from '../../../protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../protocol/dto.js';
import { loadManaged, type PlanContext } from './planContext.js';
import { readPlanSnapshot } from './planSnapshot.js';

export function getPlan(ctx: PlanContext, issueId: string, caller: Caller): PlanSnapshotDto {
	return ctx.store.read((r) => {
		const { issue, execution } = loadManaged(r, issueId, 'get');
		if (caller.kind === 'session' && caller.sessionId !== execution.sourceSessionId) {
			throw rejection('wrong_source_session', `get: issue ${issueId} belongs to a different source session.`, { issueId });
		}
		return readPlanSnapshot(r, issue, execution, ctx.config);
	});
}
