// codex app-server's approval requests and questions, answered by the developer: each becomes a Tutti approval of the
// Run through the same Host methods `tutti mcp` uses (approval/request, then approval/wait in bounded calls, riding out
// a Host restart: src/ipc/developerAnswer.ts), with the Run's own worker token. The answer goes back as app-server's
// decision (src/agents/codexAppServerApprovals.ts maps what it cannot say: a denial's message and an edited command are
// steered into the turn first). When the session ends (a Stop, the turn over) the wait is abandoned.
import type { ServerRequestHandlers } from '../agents/codexAppServerClient.js';
import {
	type ApprovalAskOf, commandAsk, commandDecision, fileChangeAsk, fileChangeDecision, permissionsAsk, permissionsDecision, questionAnswers,
	questionAsk, type TuttiAnswer, unwrappedCommand,
} from '../agents/codexAppServerApprovals.js';
import type { CodexAppServerSession } from '../agents/codexAppServerSession.js';
import { type ApprovalCall, outcomeOfReply, waitForDeveloper } from '../ipc/developerAnswer.js';
import { postToHost } from '../ipc/postToHost.js';

/** Connection failures that mean the Host is away (a restart): asked again. */
const hostAway = new Set(['ENOENT', 'ECONNREFUSED', 'ECONNRESET', 'EAGAIN', 'ENOTSOCK', 'ETIMEDOUT']);

/** approval/request and approval/wait over the Host's socket with the Run's worker token. */
export function hostApprovalCall(env: Readonly<Record<string, string | undefined>>): ApprovalCall | undefined {
	const socketPath = env.TUTTI_IPC_HOOK;
	const token = env.TUTTI_SESSION_TOKEN;
	if (!socketPath || !token) { return undefined; }
	return async (method, params, timeoutMs) => {
		try {
			return outcomeOfReply(await postToHost({ socketPath, method, body: JSON.stringify(params), token, timeoutMs }));
		} catch (e) {
			const code = (e as NodeJS.ErrnoException).code ?? '';
			return { ok: false, error: { reasonCode: hostAway.has(code) ? 'host_unavailable' : 'internal', message: (e as Error).message } };
		}
	};
}

export interface ApprovalBridgeOptions {
	/** The Run whose approvals these are (TUTTI_RUN_ID). */
	runId: string;
	call: ApprovalCall;
	session: () => CodexAppServerSession | undefined;
	sleep?: (ms: number) => Promise<void>;
	log?: (line: string) => void;
}

/** The server-request handlers that ask the developer. */
export function approvalHandlers(o: ApprovalBridgeOptions): ServerRequestHandlers {
	const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
	/** Commands the developer allowed by editing an ask: run without asking again, once each. */
	const allowedNext: string[] = [];
	const ask = (asked: ApprovalAskOf): Promise<TuttiAnswer> => {
		const signal = o.session()?.over;
		return waitForDeveloper({ runId: o.runId, ...asked }, { call: o.call, sleep, ...(signal !== undefined ? { signal } : {}), ...(o.log ? { log: o.log } : {}) });
	};
	const note = async (text: string | undefined): Promise<void> => { if (text !== undefined) { await o.session()?.note(text); } };
	return {
		'item/commandExecution/requestApproval': async (params) => {
			const asked = commandAsk(params);
			const pre = allowedNext.indexOf(unwrappedCommand(String(asked.input.command)));
			if (pre >= 0) { allowedNext.splice(pre, 1); return { decision: 'accept' }; }
			const decided = commandDecision(await ask(asked), asked);
			if (decided.allowNext !== undefined) { allowedNext.push(decided.allowNext); }
			await note(decided.steer);
			return { decision: decided.decision };
		},
		'item/fileChange/requestApproval': async (params) => {
			const decided = fileChangeDecision(await ask(fileChangeAsk(params, o.session()?.fileChanges(params.itemId))));
			await note(decided.steer);
			return { decision: decided.decision };
		},
		'item/permissions/requestApproval': async (params) => {
			const asked = permissionsAsk(params);
			return permissionsDecision(await ask(asked), asked);
		},
		'item/tool/requestUserInput': async (params) => questionAnswers(await ask(questionAsk(params)), params.questions),
	};
}
