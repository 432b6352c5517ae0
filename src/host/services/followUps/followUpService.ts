// `issue/followUp` (developer action, issue 4 "Next steps after completion"): after a managed execution completes,
// the developer picks a follow-up instead of Finish. Recorded durably; `tutti next-action` offers it once.
import { rejection } from '../../../core/hints.js';
import { followUpCommand } from '../../../core/next/followUp.js';
import type { Clock } from '../../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { finishRepository } from '../../../store/repositories/finishRepository.js';
import { followUpRepository } from '../../../store/repositories/followUpRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { requireUser } from '../callerPolicy.js';
import { requireExecutionIdentity } from '../identityChecks.js';

export interface FollowUpServiceDeps {
	store: Store;
	clock: Clock;
}

export class FollowUpService {
	constructor(private readonly deps: FollowUpServiceDeps) {}

	/** Records the follow-up; the same text while the previous one is still pending is a replay. */
	async record(params: ParsedParams<'issue/followUp'>, caller: Caller): Promise<Result<'issue/followUp'>> {
		requireUser(caller, 'follow-up', { issueId: params.issueId });
		const text = params.text.trim();
		if (text === '') {
			throw rejection('invalid_input', 'The follow-up text is empty; say what the agent should do next.', { issueId: params.issueId });
		}
		const now = this.deps.clock.now();
		return this.deps.store.transaction((tx) => {
			if (issueRepository.get(tx, params.issueId) === undefined) {
				throw rejection('issue_not_found', `Issue ${params.issueId} does not exist.`, { issueId: params.issueId });
			}
			const execution = executionRepository.getByIssue(tx, params.issueId);
			if (execution) { requireExecutionIdentity(execution, params.issueId); }
			if (execution?.status !== 'completed') {
				throw rejection('inactive_execution', `Issue ${params.issueId} is not a completed managed issue; a follow-up is offered only after completion.`, { issueId: params.issueId });
			}
			if (finishRepository.finishedAt(tx, params.issueId) > 0) {
				throw rejection('inactive_execution', `Finish was already recorded for issue ${params.issueId}; nothing more is offered to its agent. Start a new issue instead.`, { issueId: params.issueId });
			}
			const pending = followUpRepository.pending(tx, params.issueId);
			const replayed = pending !== undefined && pending.text === text;
			const row = replayed ? pending : followUpRepository.record(tx, params.issueId, text, now);
			return {
				followUpId: row.followUpId, issueId: params.issueId, text: row.text, requestedAtUnixMs: row.requestedAtUnixMs,
				next: followUpCommand(row), replayed,
			};
		});
	}
}
