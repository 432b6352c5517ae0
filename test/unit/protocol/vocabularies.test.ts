// Every closed vocabulary on the wire is a z.enum in src/protocol held equal to core's list: at compile time (the
// `agree` calls below stop `npm run typecheck` when a list drifts) and at run time (the table below fails the test).
import * as assert from 'node:assert/strict';
import type { z } from 'zod';
import { approvalAnswerers, approvalAnswers, approvalStatuses } from '../../../src/core/approvals/approvalRules.js';
import { attentionStates, needsYouReasonKinds } from '../../../src/core/attention/attention.js';
import { agentTurnStates } from '../../../src/core/attention/vocabulary.js';
import { type ReasonCode, reasonCodes } from '../../../src/core/errors.js';
import { deliveryStates } from '../../../src/core/issues/delivery.js';
import {
	acceptanceStates, archiveStatuses, blockerReasons, checkpointKinds, checkpointStatuses, executionStatuses, issueStatuses, pausers, planActions,
	planningSources, runOutcomes, sessionRoles, stopAnswers, stopReasons, taskStatuses, wakeStatuses,
} from '../../../src/core/model.js';
import { owedStates } from '../../../src/core/next/owed.js';
import { owedState } from '../../../src/protocol/agentResponse.js';
import { approvalAnswer, approvalAnswerer, approvalStatus } from '../../../src/protocol/approvals.js';
import { reasonCode, wireError } from '../../../src/protocol/controlPlane.js';
import {
	agentTurnState, archiveStatus, attentionState, blockerReason, deliveryState, checkpointKind, checkpointStatus, executionStatus, issueDto, needsYouReasonDto, pauserDto, planAction,
	runOutcome, sessionRole, stopAnswer, stopNoteDto, taskDto, taskStatus, wakeDto,
} from '../../../src/protocol/dto.js';
import { type WireReasonCode, wireReasonCodes } from '../../../src/protocol/reasonCodes.js';

/** true only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true : false;
type Values<L extends readonly string[]> = L[number];
/** Compiles only when its type argument is `true`. */
function agree<T extends true>(): T | undefined { return undefined; }

// Compile-time: each wire enum's values are exactly core's list.
agree<Equal<z.infer<typeof reasonCode>, ReasonCode>>();
agree<Equal<WireReasonCode, ReasonCode>>();
agree<Equal<z.infer<typeof wireError>['reasonCode'], ReasonCode>>();
agree<Equal<z.infer<typeof taskStatus>, Values<typeof taskStatuses>>>();
agree<Equal<z.infer<typeof runOutcome>, Values<typeof runOutcomes>>>();
agree<Equal<z.infer<typeof stopAnswer>, Values<typeof stopAnswers>>>();
agree<Equal<z.infer<typeof stopNoteDto>['reason'], Values<typeof stopReasons>>>();
agree<Equal<z.infer<typeof executionStatus>, Values<typeof executionStatuses>>>();
agree<Equal<z.infer<typeof checkpointKind>, Values<typeof checkpointKinds>>>();
agree<Equal<z.infer<typeof checkpointStatus>, Values<typeof checkpointStatuses>>>();
agree<Equal<z.infer<typeof blockerReason>, Values<typeof blockerReasons>>>();
agree<Equal<z.infer<typeof planAction>, Values<typeof planActions>>>();
agree<Equal<z.infer<typeof sessionRole>, Values<typeof sessionRoles>>>();
agree<Equal<z.infer<typeof archiveStatus>, Values<typeof archiveStatuses>>>();
agree<Equal<z.infer<typeof pauserDto>, Values<typeof pausers>>>();
agree<Equal<z.infer<typeof attentionState>, Values<typeof attentionStates>>>();
agree<Equal<z.infer<typeof agentTurnState>, Values<typeof agentTurnStates>>>();
agree<Equal<z.infer<typeof needsYouReasonDto>['kind'], Values<typeof needsYouReasonKinds>>>();
agree<Equal<z.infer<typeof taskDto>['acceptanceState'], Values<typeof acceptanceStates>>>();
agree<Equal<z.infer<typeof issueDto>['status'], Values<typeof issueStatuses>>>();
agree<Equal<z.infer<typeof issueDto>['planningSource'], Values<typeof planningSources>>>();
agree<Equal<z.infer<typeof wakeDto>['status'], Values<typeof wakeStatuses>>>();
agree<Equal<z.infer<typeof approvalStatus>, Values<typeof approvalStatuses>>>();
agree<Equal<z.infer<typeof approvalAnswer>, Values<typeof approvalAnswers>>>();
agree<Equal<z.infer<typeof approvalAnswerer>, Values<typeof approvalAnswerers>>>();
agree<Equal<z.infer<typeof owedState>, Values<typeof owedStates>>>();
agree<Equal<z.infer<typeof deliveryState>, Values<typeof deliveryStates>>>();

const sorted = (values: readonly string[]): string[] => [...values].sort();

describe('closed vocabularies on the wire', () => {
	const pairs: Array<[string, readonly string[], readonly string[]]> = [
		['reasonCode (z.enum)', reasonCode.options, reasonCodes],
		['reasonCode (the CLI\'s plain list)', wireReasonCodes, reasonCodes],
		['task status', taskStatus.options, taskStatuses],
		['Run outcome', runOutcome.options, runOutcomes],
		['Stop answer', stopAnswer.options, stopAnswers],
		['Stop reason', stopNoteDto.shape.reason.options, stopReasons],
		['execution status', executionStatus.options, executionStatuses],
		['checkpoint kind', checkpointKind.options, checkpointKinds],
		['checkpoint status', checkpointStatus.options, checkpointStatuses],
		['blocker reason', blockerReason.options, blockerReasons],
		['plan action', planAction.options, planActions],
		['session role', sessionRole.options, sessionRoles],
		['archive status', archiveStatus.options, archiveStatuses],
		['pauser', pauserDto.options, pausers],
		['attention state', attentionState.options, attentionStates],
		['agent turn state', agentTurnState.options, agentTurnStates],
		['needs-you reason', needsYouReasonDto.shape.kind.options, needsYouReasonKinds],
		['acceptance state', taskDto.shape.acceptanceState.options, acceptanceStates],
		['issue status', issueDto.shape.status.options, issueStatuses],
		['planning source', issueDto.shape.planningSource.options, planningSources],
		['wake status', wakeDto.shape.status.options, wakeStatuses],
		['approval status', approvalStatus.options, approvalStatuses],
		['approval answer', approvalAnswer.options, approvalAnswers],
		['approval answerer', approvalAnswerer.options, approvalAnswerers],
		['owed state', owedState.options, owedStates],
		['delivery state', deliveryState.options, deliveryStates],
	];
	for (const [name, wire, core] of pairs) {
		it(`${name}: the wire's list is core's`, () => {
			assert.deepEqual(sorted(wire), sorted(core));
			assert.equal(new Set(wire).size, wire.length, 'no value twice');
		});
	}

	it('an error reply carrying a reason code outside the list does not parse', () => {
		assert.equal(wireError.safeParse({ reasonCode: 'not_available', message: 'm', hint: 'h' }).success, false);
		assert.equal(wireError.safeParse({ reasonCode: 'version_mismatch', message: 'm', hint: 'h' }).success, true);
	});
});
