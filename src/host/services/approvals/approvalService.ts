// The Host side of approvals: `tutti mcp` asks for a Run's tool call (approval/request) and waits for the
// answer in bounded calls (approval/wait, ≤ 45 s each, like the await calls); the developer lists and answers them
// (approval/list, approval/answer). Rules are in src/core/approvals; rows in the store; Stop and settlement close
// the open requests of their Run in their own transactions (approvalRepository.closeOpenOfRun).
//
// What an agent is told is durable first: a store read may see a commit whose journal frame is not on disk
// yet (database.ts, "Visibility note"), so a wait that reads an answer re-reads it in a transaction, which resolves
// only once everything committed before it is fsynced. A Host killed -9 before that never told the agent anything
// its restarted self does not find recorded (the request stays pending, and expires if its Run then ends).
import { type Approval, type ApprovalDecision, answerFields, approvalInputMaxChars, shownStatus } from '../../../core/approvals/approvalRules.js';
import { approvalQuestions, recommendedAnswers, resolveQuestionAnswers } from '../../../core/approvals/questions.js';
import { rejection } from '../../../core/hints.js';
import type { Clock, IdSource } from '../../../core/ports.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import { runRepository } from '../../../store/repositories/runRepository.js';
import { approvalRepository } from '../../../store/repositories/approvalRepository.js';
import type { Reader } from '../../../store/tx.js';
import { type WaitTimer, awaitTimeoutMs, storeTimer } from '../await/awaitService.js';
import { requireUser } from '../callerPolicy.js';
import { isRunRunning, toApprovalDto, withPermission } from './approvalDtos.js';

export interface ApprovalServiceDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	timer?: WaitTimer;
	/** How often a waiting call re-reads the store (a commit wakes it sooner). */
	pollMs?: number;
	/** The Host's log: one line per request recorded, answer recorded and answer handed to the waiting agent. */
	log?: (line: string) => void;
}

type WithPermission = Result<'approval/wait'>;

function loadApproval(r: Reader, approvalId: string): Approval {
	const approval = approvalRepository.get(r, approvalId);
	if (!approval) { throw rejection('approval_not_found', `Approval ${approvalId} does not exist.`); }
	return approval;
}

/** Only the Run's own worker session asks and waits (the developer may wait too, e.g. from a test or a script). */
function requireRunSession(caller: Caller, sessionId: string, what: string): void {
	if (caller.kind === 'user' || caller.sessionId === sessionId) { return; }
	throw rejection('forbidden', `${what} belongs to another agent session; only the Run's own agent asks and waits for it.`);
}

export class ApprovalService {
	readonly #timer: WaitTimer;
	readonly #pollMs: number;
	readonly #log: (line: string) => void;

	constructor(private readonly deps: ApprovalServiceDeps) {
		this.#timer = deps.timer ?? storeTimer(deps.store);
		this.#pollMs = deps.pollMs ?? 500;
		this.#log = deps.log ?? (() => undefined);
	}

	/** A tool call of a running Run: answered at once by an allow-for-task of the same tool and task, else pending. */
	async request(params: ParsedParams<'approval/request'>, caller: Caller): Promise<WithPermission> {
		const inputJson = JSON.stringify(params.input ?? null);
		if (inputJson.length > approvalInputMaxChars) {
			throw rejection('invalid_input', `The tool input is ${inputJson.length} characters of JSON; an approval request carries at most ${approvalInputMaxChars}.`);
		}
		const toolUseId = params.toolUseId ?? '';
		const asked = await this.deps.store.transaction((tx) => {
			const run = runRepository.load(tx, params.runId);
			requireRunSession(caller, run.agentSessionId, `Run ${run.runId}`);
			if (toolUseId !== '') {
				const earlier = approvalRepository.byToolUse(tx, run.runId, toolUseId);
				if (earlier) { return { ...withPermission(tx, earlier), resent: true }; }
			}
			const now = this.deps.clock.now();
			const base: Approval = {
				approvalId: this.deps.ids.next('approval'), issueId: run.issueId, taskId: run.taskId, runId: run.runId, sessionId: run.agentSessionId,
				toolUseId, tool: params.tool, input: params.input ?? null, requestedAtUnixMs: now, status: 'pending', answer: '', answeredBy: '',
				answeredAtUnixMs: 0, message: '', updatedInput: null, grantedByApprovalId: '',
			};
			// A question is the developer's to answer each time: no earlier allow covers it.
			const isQuestion = approvalQuestions(base).length > 0;
			const grant = run.status === 'running' && !isQuestion ? approvalRepository.taskGrant(tx, run.issueId, run.taskId, params.tool) : undefined;
			const approval: Approval = run.status !== 'running'
				? { ...base, status: 'expired', answeredBy: 'host', answeredAtUnixMs: Math.max(1, now), message: 'The request expired: its Run is no longer running.' }
				: grant
					? { ...base, status: 'allowed', answer: 'task_grant', answeredBy: 'task_grant', answeredAtUnixMs: Math.max(1, now), grantedByApprovalId: grant.approvalId }
					: base;
			approvalRepository.insert(tx, approval);
			return { ...withPermission(tx, approval), resent: false };
		});
		const { resent, ...reply } = asked;
		const a = reply.approval;
		this.#log(`approval ${a.approvalId}: run ${a.runId} ${resent ? 'asked again about its tool call' : 'asks about'} ${a.tool} (tool call ${a.toolUseId || 'without an id'}): ${a.answerLabel}${reply.permission ? `; its agent is told ${reply.permission.behavior}` : ''}`);
		return reply;
	}

	/** Waits at most `waitMs` (≤ 45 s) for the answer; `permission` is null while the request is still pending. */
	async wait(params: ParsedParams<'approval/wait'>, caller: Caller): Promise<WithPermission> {
		const bound = Math.min(params.waitMs ?? awaitTimeoutMs, awaitTimeoutMs);
		const started = this.#timer.now();
		for (;;) {
			const current = this.deps.store.read((r) => {
				const approval = loadApproval(r, params.approvalId);
				requireRunSession(caller, approval.sessionId, `Approval ${approval.approvalId}`);
				return withPermission(r, approval);
			});
			if (current.permission !== null) { return this.#tellDurably(params.approvalId); }
			const elapsed = this.#timer.now() - started;
			if (elapsed >= bound) { return current; }
			await this.#timer.pause(Math.min(this.#pollMs, bound - elapsed));
		}
	}

	/**
	 * The settled request as it is on disk: read in a transaction (it writes nothing), which resolves only once every
	 * commit before it is fsynced, so the answer (or the Run's end that expired the request) it returns survives a
	 * kill -9. A store that cannot write refuses it (store_unavailable, retryable): the agent asks again.
	 */
	async #tellDurably(approvalId: string): Promise<WithPermission> {
		const told = await this.deps.store.transaction((tx) => withPermission(tx, loadApproval(tx, approvalId)));
		const a = told.approval;
		this.#log(`approval ${a.approvalId}: its agent (run ${a.runId}) is told ${told.permission?.behavior ?? 'to wait'}: ${a.answerLabel}`);
		return told;
	}

	async list(params: ParsedParams<'approval/list'>): Promise<Result<'approval/list'>> {
		return this.deps.store.read((r) => {
			const rows = params.issueId !== undefined ? approvalRepository.listByIssue(r, params.issueId) : approvalRepository.listPending(r);
			const running = new Map<string, boolean>();
			const shown = rows.map((a) => toApprovalDto(a, isRunRunning(r, a.runId, running)));
			const wanted = params.status ?? (params.issueId === undefined ? 'pending' : undefined);
			return { approvals: wanted === undefined ? shown : shown.filter((a) => a.status === wanted) };
		});
	}

	/** Developer only. A request is answered once: a second answer is refused and reports the first. */
	async answer(params: ParsedParams<'approval/answer'>, caller: Caller): Promise<Result<'approval/answer'>> {
		requireUser(caller, 'approval answer');
		// Answers to a question are an allow of it.
		const allow = params.allow === true || (params.answers !== undefined && params.deny !== true);
		if (allow === (params.deny === true)) {
			throw rejection('invalid_input', 'Give exactly one of --allow and --deny (or a question\'s --answer).');
		}
		if (!allow && params.forTask === true) {
			throw rejection('invalid_input', '--for-task goes with --allow (it allows this tool for the rest of the task); a denial is for this call only.');
		}
		if (!allow && (params.updatedInput !== undefined || params.answers !== undefined)) {
			throw rejection('invalid_input', `${params.answers !== undefined ? 'Answers (--answer)' : 'An edited input (updatedInput)'} go with an allow only; --deny declines.`);
		}
		if (params.answers !== undefined && params.updatedInput !== undefined) {
			throw rejection('invalid_input', 'Give the answers either with --answer or inside --input-json, not both.');
		}
		return this.#answer(params.approvalId, {
			allow, forTask: params.forTask === true, message: params.message ?? '',
			...(params.updatedInput !== undefined ? { updatedInput: params.updatedInput } : {}),
		}, params.answers);
	}

	/** Developer only: answers an agent's question (refused for a tool call). */
	async answerQuestion(params: ParsedParams<'question/answer'>, caller: Caller): Promise<Result<'question/answer'>> {
		requireUser(caller, 'question answer');
		return this.#answer(params.approvalId, { allow: true, forTask: false, message: '' }, params.answers, true);
	}

	async #answer(approvalId: string, decision: ApprovalDecision, answers: readonly string[] | undefined, questionsOnly = false): Promise<Result<'approval/answer'>> {
		// A refusal reports the first answer only once that is on disk too: it is returned from the transaction (which
		// then waits for the journal) rather than thrown from it (which would reply at once).
		const outcome = await this.deps.store.transaction((tx) => {
			const approval = loadApproval(tx, approvalId);
			const running = isRunRunning(tx, approval.runId);
			if (shownStatus(approval, running) !== 'pending') {
				return { first: toApprovalDto(approval, running) };
			}
			const fields = answerFields(questionDecision(approval, decision, answers, questionsOnly), this.deps.clock.now());
			approvalRepository.answer(tx, approval.approvalId, fields);
			return { answered: { approval: toApprovalDto({ ...approval, ...fields }, running) } };
		});
		if (outcome.first) {
			const first = outcome.first;
			throw rejection('approval_answered', `Approval ${first.approvalId} (${first.kind === 'question' ? 'a question' : first.tool}) was already answered: ${first.answerLabel}.`, {}, { approval: first });
		}
		const answered = outcome.answered;
		this.#log(`approval ${answered.approval.approvalId}: the developer's answer is recorded: ${answered.approval.answerLabel}`);
		return answered;
	}
}

/**
 * The decision as recorded: a question's answers become the input its agent receives (`{answers: {<id>: [text…]}}`;
 * a plain allow takes each question's recommended option), and a question is never allowed for the task.
 */
function questionDecision(approval: Approval, decision: ApprovalDecision, answers: readonly string[] | undefined, questionsOnly: boolean): ApprovalDecision {
	const questions = approvalQuestions(approval);
	if (questions.length === 0) {
		if (answers !== undefined || questionsOnly) {
			throw rejection('invalid_input', `Approval ${approval.approvalId} is a tool call (${approval.tool}), not a question: answer it with --allow or --deny instead.`);
		}
		return decision;
	}
	if (!decision.allow) {
		return decision.message.trim() === '' ? { ...decision, message: 'The developer declined to answer.' } : decision;
	}
	if (decision.forTask) {
		throw rejection('invalid_input', `Approval ${approval.approvalId} is a question: it is answered each time it is asked, so --for-task does not apply.`);
	}
	if (decision.updatedInput !== undefined) { return decision; }
	const resolved = answers !== undefined ? resolveQuestionAnswers(questions, answers) : recommendedAnswers(questions);
	if (!resolved.ok) { throw rejection('invalid_input', resolved.problem); }
	return { ...decision, updatedInput: { answers: resolved.answers } };
}
