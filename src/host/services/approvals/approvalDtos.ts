// Approvals as shown on the wire: a pending request whose Run ended reads as expired, with a one-line label of its
// answer, whether it is an agent's question (and what it asks), and what the waiting agent receives. Shared by the
// approval service, `run get` and the UI snapshot.
import { type Approval, describeAnswer, permissionResult, shownStatus } from '../../../core/approvals/approvalRules.js';
import { approvalQuestions } from '../../../core/approvals/questions.js';
import type { ApprovalDto } from '../../../protocol/approvals.js';
import type { Result } from '../../../protocol/controlPlane.js';
import { approvalRepository } from '../../../store/repositories/approvalRepository.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import type { Reader } from '../../../store/tx.js';

/** The request as shown: a pending request whose Run no longer runs reads as expired. */
export function toApprovalDto(approval: Approval, runRunning: boolean): ApprovalDto {
	const status = shownStatus(approval, runRunning);
	const questions = approvalQuestions(approval);
	return {
		approvalId: approval.approvalId, issueId: approval.issueId, taskId: approval.taskId, runId: approval.runId, sessionId: approval.sessionId,
		toolUseId: approval.toolUseId, tool: approval.tool, input: approval.input, kind: questions.length > 0 ? 'question' : 'tool', questions, requestedAtUnixMs: approval.requestedAtUnixMs, status,
		answer: approval.answer, answeredBy: approval.answeredBy, answeredAtUnixMs: approval.answeredAtUnixMs, message: approval.message,
		updatedInput: approval.updatedInput, grantedByApprovalId: approval.grantedByApprovalId,
		answerLabel: describeAnswer({ ...approval, status }),
	};
}

export function isRunRunning(r: Reader, runId: string, cache?: Map<string, boolean>): boolean {
	const known = cache?.get(runId);
	if (known !== undefined) { return known; }
	const running = runRepository.get(r, runId)?.status === 'running';
	cache?.set(runId, running);
	return running;
}

/** Every approval of a Run, as shown (for `tutti run get` and the transcript). */
export function readRunApprovals(r: Reader, runId: string): ApprovalDto[] {
	const running = isRunRunning(r, runId);
	return approvalRepository.listByRun(r, runId).map((a) => toApprovalDto(a, running));
}

export function withPermission(r: Reader, approval: Approval): Result<'approval/wait'> {
	const running = isRunRunning(r, approval.runId);
	return { approval: toApprovalDto(approval, running), permission: permissionResult(approval, running) };
}

