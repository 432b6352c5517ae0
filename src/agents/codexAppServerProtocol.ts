// The part of `codex app-server`'s JSON-RPC protocol (Codex CLI 0.171.0) that Tutti sends and reads, as zod
// schemas: the client requests and their results, the server notifications and the server requests with the answers
// Tutti gives. Everything else the server sends passes through unread. docs/codex-app-server.md says what each
// message does; test/agents/codexAppServerPin.test.ts compares every field named here with the schema the pinned
// CLI generates (`codex app-server generate-json-schema`), so a Codex upgrade that changes one fails loudly.
//
// zod/mini keeps the Run supervisor (which speaks this protocol) small and quick to start. Objects strip the fields
// they do not name: the server adds fields freely (observed: `availableDecisions`, `environments`, `emittedAtMs`).
import * as z from 'zod/mini';

const requestId = z.union([z.string(), z.number()]);
const nullableString = z.nullable(z.string());

/** One text item of a user's input (`UserInput` of type `text`; `text_elements` marks UI spans, none here). */
export const textInput = z.object({ type: z.literal('text'), text: z.string(), text_elements: z.array(z.unknown()) });
export type TextInput = z.infer<typeof textInput>;

export function textInputOf(text: string): TextInput {
	return { type: 'text', text, text_elements: [] };
}

/**
 * `AskForApproval` values a thread takes from Tutti: `never` (nothing is asked), `on-request` (the agent may ask to run
 * a command outside the sandbox), `untrusted` (every command is asked; a target's own choice).
 */
export const askForApproval = z.enum(['never', 'on-request', 'untrusted']);
export type AskForApproval = z.infer<typeof askForApproval>;

/** `SandboxMode`: the same three modes as `codex exec -s`. */
export const sandboxMode = z.enum(['read-only', 'workspace-write', 'danger-full-access']);
export type SandboxMode = z.infer<typeof sandboxMode>;

/** `ReasoningEffort`. */
export const reasoningEffort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);

const threadRef = z.object({ id: z.string() });

export const turnStatus = z.enum(['completed', 'interrupted', 'failed', 'inProgress']);
export type TurnStatus = z.infer<typeof turnStatus>;

const turnError = z.object({ message: z.string() });

/** A Turn as the server reports it (the fields Tutti reads). */
export const turnRef = z.object({ id: z.string(), status: turnStatus, error: z.nullable(turnError) });

/** What a client request carries and what its answer is; `resultType` names the answer's type in the generated schema. */
interface ClientRequestSpec {
	params: z.ZodMiniType;
	result: z.ZodMiniType;
	resultType: string;
}

export const clientRequests = {
	/** The first request of a connection; anything else before it is refused ("Not initialized"). */
	'initialize': {
		params: z.object({
			clientInfo: z.object({ name: z.string(), title: nullableString, version: z.string() }),
			capabilities: z.object({
				experimentalApi: z.boolean(),
				requestAttestation: z.boolean(),
				/** Notifications this connection never wants (the deltas of text and output: the items carry the whole). */
				optOutNotificationMethods: z.optional(z.array(z.string())),
			}),
		}),
		result: z.object({ userAgent: z.string() }),
		resultType: 'InitializeResponse',
	},
	'thread/start': {
		params: z.object({
			cwd: z.string(),
			approvalPolicy: z.optional(askForApproval),
			sandbox: z.optional(sandboxMode),
			model: z.optional(z.string()),
		}),
		result: z.object({ thread: threadRef }),
		resultType: 'ThreadStartResponse',
	},
	/** Loads a thread from its rollout in CODEX_HOME (a new process can resume it); unknown ids: "no rollout found". */
	'thread/resume': {
		params: z.object({
			threadId: z.string(),
			cwd: z.string(),
			approvalPolicy: z.optional(askForApproval),
			sandbox: z.optional(sandboxMode),
			model: z.optional(z.string()),
			excludeTurns: z.boolean(),
		}),
		result: z.object({ thread: threadRef }),
		resultType: 'ThreadResumeResponse',
	},
	'turn/start': {
		params: z.object({
			threadId: z.string(),
			input: z.array(textInput),
			/** Comes back as the `clientId` of the turn's userMessage item. */
			clientUserMessageId: z.optional(z.string()),
			effort: z.optional(reasoningEffort),
		}),
		result: z.object({ turn: z.object({ id: z.string() }) }),
		resultType: 'TurnStartResponse',
	},
	/** Adds input to the running turn; refused when `expectedTurnId` is not the active turn or no turn is active. */
	'turn/steer': {
		params: z.object({
			threadId: z.string(),
			expectedTurnId: z.string(),
			input: z.array(textInput),
			clientUserMessageId: z.string(),
		}),
		result: z.object({ turnId: z.string() }),
		resultType: 'TurnSteerResponse',
	},
	/** Ends the running turn: answered `{}`, then `turn/completed` with status `interrupted`. */
	'turn/interrupt': {
		params: z.object({ threadId: z.string(), turnId: z.string() }),
		result: z.object({}),
		resultType: 'TurnInterruptResponse',
	},
} as const satisfies Record<string, ClientRequestSpec>;

export type ClientMethod = keyof typeof clientRequests;
export type ClientParams<M extends ClientMethod> = z.input<(typeof clientRequests)[M]['params']>;
export type ClientResult<M extends ClientMethod> = z.output<(typeof clientRequests)[M]['result']>;

/** Client notifications (no answer): `initialized` follows the answer to `initialize`. */
export const clientNotifications = ['initialized'] as const;

/** Token counts of one model response (`last`) or of the thread so far (`total`); `inputTokens` includes the cached ones. */
export const tokenUsageBreakdown = z.object({
	inputTokens: z.number(),
	cachedInputTokens: z.number(),
	cacheWriteInputTokens: z.number(),
	outputTokens: z.number(),
});
export type TokenUsageBreakdown = z.infer<typeof tokenUsageBreakdown>;

const textContent = z.object({ type: z.string(), text: z.optional(z.string()) });

/** The thread items Tutti reads (`ThreadItem` variants; every other type passes as `otherItem`). */
export const userMessageItem = z.object({ type: z.literal('userMessage'), id: z.string(), clientId: nullableString, content: z.array(textContent) });
export const agentMessageItem = z.object({ type: z.literal('agentMessage'), id: z.string(), text: z.string() });
export const commandExecutionItem = z.object({
	type: z.literal('commandExecution'), id: z.string(), command: z.string(),
	status: z.enum(['inProgress', 'completed', 'failed', 'declined']), exitCode: z.nullable(z.number()), aggregatedOutput: nullableString,
});
export const fileChangeItem = z.object({
	type: z.literal('fileChange'), id: z.string(),
	changes: z.array(z.object({ path: z.string(), diff: z.string() })),
	status: z.enum(['inProgress', 'completed', 'failed', 'declined']),
});
export const mcpToolCallItem = z.object({ type: z.literal('mcpToolCall'), id: z.string(), server: z.string(), tool: z.string(), arguments: z.unknown() });
export const webSearchItem = z.object({ type: z.literal('webSearch'), id: z.string(), query: z.string() });
export const threadItem = z.discriminatedUnion('type', [userMessageItem, agentMessageItem, commandExecutionItem, fileChangeItem, mcpToolCallItem, webSearchItem]);
export type ThreadItem = z.infer<typeof threadItem>;

const turnNotice = { threadId: z.string(), turn: turnRef };
const itemNotice = { threadId: z.string(), turnId: z.string(), item: z.looseObject({ type: z.string(), id: z.string() }) };

/** The server notifications Tutti reads (the params of each). */
export const serverNotifications = {
	'thread/started': z.object({ thread: threadRef }),
	'turn/started': z.object(turnNotice),
	/** The turn's end: `completed`, `failed` (with `error`) or `interrupted`. */
	'turn/completed': z.object(turnNotice),
	'item/started': z.object(itemNotice),
	'item/completed': z.object(itemNotice),
	/** After each model response: `last` is that response's usage, `total` the thread's (also sent once on resume). */
	'thread/tokenUsage/updated': z.object({
		threadId: z.string(), turnId: z.string(),
		tokenUsage: z.object({ total: tokenUsageBreakdown, last: tokenUsageBreakdown }),
	}),
	/** A turn's error; `willRetry` false means the turn fails with it. */
	'error': z.object({ error: turnError, willRetry: z.boolean(), threadId: z.string(), turnId: z.string() }),
} as const satisfies Record<string, z.ZodMiniType>;

export type NotificationMethod = keyof typeof serverNotifications;
export type NotificationParams<M extends NotificationMethod> = z.output<(typeof serverNotifications)[M]>;

/** `CommandExecutionApprovalDecision` values Tutti answers with. */
export const commandDecision = z.enum(['accept', 'acceptForSession', 'decline', 'cancel']);
/** `FileChangeApprovalDecision`. */
export const fileChangeDecision = z.enum(['accept', 'acceptForSession', 'decline', 'cancel']);

const questionOption = z.object({ label: z.string(), description: z.string() });
export const userInputQuestion = z.object({
	id: z.string(), header: z.string(), question: z.string(), isOther: z.boolean(), isSecret: z.boolean(),
	options: z.nullable(z.array(questionOption)),
});

/** The server requests Tutti answers: what each asks and the answer's shape. */
export const serverRequests = {
	'item/commandExecution/requestApproval': {
		params: z.object({
			threadId: z.string(), turnId: z.string(), itemId: z.string(),
			command: z.optional(nullableString), cwd: z.optional(nullableString), reason: z.optional(nullableString),
		}),
		result: z.object({ decision: commandDecision }),
		resultType: 'CommandExecutionRequestApprovalResponse',
	},
	'item/fileChange/requestApproval': {
		params: z.object({
			threadId: z.string(), turnId: z.string(), itemId: z.string(),
			reason: z.optional(nullableString), grantRoot: z.optional(nullableString),
		}),
		result: z.object({ decision: fileChangeDecision }),
		resultType: 'FileChangeRequestApprovalResponse',
	},
	'item/permissions/requestApproval': {
		params: z.object({
			threadId: z.string(), turnId: z.string(), itemId: z.string(), reason: nullableString, permissions: z.unknown(),
		}),
		result: z.object({ permissions: z.record(z.string(), z.unknown()), scope: z.enum(['turn', 'session']) }),
		resultType: 'PermissionsRequestApprovalResponse',
	},
	'item/tool/requestUserInput': {
		params: z.object({ threadId: z.string(), turnId: z.string(), itemId: z.string(), questions: z.array(userInputQuestion) }),
		result: z.object({ answers: z.record(z.string(), z.object({ answers: z.array(z.string()) })) }),
		resultType: 'ToolRequestUserInputResponse',
	},
} as const satisfies Record<string, ClientRequestSpec>;

export type ServerRequestMethod = keyof typeof serverRequests;
export type ServerRequestParams<M extends ServerRequestMethod> = z.output<(typeof serverRequests)[M]['params']>;
export type ServerRequestResult<M extends ServerRequestMethod> = z.input<(typeof serverRequests)[M]['result']>;

/** The JSON-RPC envelopes (no `jsonrpc` member on either side; the server accepts one and ignores it). */
export const rpcError = z.object({ code: z.number(), message: z.string(), data: z.optional(z.unknown()) });
export const rpcResponse = z.union([
	z.object({ id: requestId, result: z.unknown() }),
	z.object({ id: requestId, error: rpcError }),
]);
export const rpcRequest = z.object({ id: requestId, method: z.string(), params: z.optional(z.unknown()) });
export const rpcNotification = z.object({ method: z.string(), params: z.optional(z.unknown()) });
export type RpcRequestId = z.infer<typeof requestId>;

/** Notifications Tutti opts out of at `initialize`: streaming deltas whose whole arrives in `item/completed`. */
export const optedOutNotifications: readonly string[] = [
	'item/agentMessage/delta', 'item/plan/delta', 'item/reasoning/summaryTextDelta', 'item/reasoning/summaryPartAdded',
	'item/reasoning/textDelta', 'item/commandExecution/outputDelta', 'item/fileChange/outputDelta', 'item/fileChange/patchUpdated',
	'command/exec/outputDelta', 'process/outputDelta', 'account/rateLimits/updated', 'remoteControl/status/changed',
];
