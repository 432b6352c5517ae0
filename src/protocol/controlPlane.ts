// The control-plane method table: `POST /v1/<method>` with a JSON body of `params`.
// Shared by the server (src/control-plane) and the client (src/cli). Validate on receipt, every time.
import { z } from 'zod';
import {
	agentTargetDto, issueDto, issueWithTasksDto, planSnapshotDto, runDto, sessionRole, taskDto,
} from './dto.js';

export const protocolVersion = 1;

const id = z.string().min(1).max(200);
const requestId = z.string().min(1).max(200);
const revision = z.number().int().min(1);
const text = (max: number) => z.string().max(max);

/** Optional launch settings accepted by generic task writers. */
const launchFields = {
	agentTargetId: text(200).optional(),
	model: text(200).optional(),
	permissionModeId: text(200).optional(),
	reasoningEffort: text(50).optional(),
	executionDirectory: text(4096).optional(),
	autoAccept: z.boolean().optional(),
};

const fenced = {
	issueId: id,
	checkpointId: id,
	expectedGraphRevision: revision,
	requestId,
};

export const methods = {
	'hello': {
		params: z.strictObject({ client: text(100), protocol: z.number().int() }),
		result: z.object({ protocol: z.number().int(), workspace: z.string(), pid: z.number().int(), caller: z.string() }),
	},
	'session/open': {
		params: z.strictObject({ role: sessionRole, issueId: id.optional(), agentTargetId: id.optional() }),
		result: z.object({ sessionId: z.string(), token: z.string(), role: sessionRole }),
	},
	'agent/list': {
		params: z.strictObject({}),
		result: z.object({ agentTargets: z.array(agentTargetDto) }),
	},
	'issue/create': {
		params: z.strictObject({ title: z.string().min(1).max(500), content: text(100_000).optional(), autoAccept: z.boolean().optional() }),
		result: issueDto,
	},
	'issue/get': { params: z.strictObject({ issueId: id }), result: issueWithTasksDto },
	'issue/list': { params: z.strictObject({}), result: z.object({ issues: z.array(issueDto) }) },
	'issue/update': {
		params: z.strictObject({
			issueId: id,
			title: z.string().min(1).max(500).optional(),
			content: text(100_000).optional(),
			dispatchPaused: z.boolean().optional(),
		}),
		result: issueDto,
	},
	/** Developer actions (user only). */
	'issue/pause': { params: z.strictObject({ issueId: id }), result: issueDto },
	'issue/resume': { params: z.strictObject({ issueId: id }), result: issueDto },
	/** Developer Stop for the whole issue: pause dispatch, then stop every running Run (person Stop events). */
	'issue/stop': { params: z.strictObject({ issueId: id }), result: issueDto },
	'task/add': {
		params: z.strictObject({
			issueId: id, taskId: id.optional(), title: z.string().min(1).max(500), content: text(100_000).optional(),
			dependencyTaskIds: z.array(id).max(1000).optional(), ...launchFields,
		}),
		result: taskDto,
	},
	'task/update': {
		params: z.strictObject({
			issueId: id, taskId: id, title: z.string().min(1).max(500).optional(), content: text(100_000).optional(),
			dependencyTaskIds: z.array(id).max(1000).optional(), ...launchFields,
		}),
		result: taskDto,
	},
	'task/delete': { params: z.strictObject({ issueId: id, taskId: id }), result: z.object({ issueId: z.string(), taskId: z.string(), deleted: z.literal(true) }) },

	// Managed (`tutti`) issues — digest §1.6. Caller authority comes from the session token only.
	'plan/create': {
		params: z.strictObject({ title: z.string().min(1).max(500), content: text(100_000), requestId, autoAccept: z.boolean().optional() }),
		result: z.object({ issueId: z.string(), executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), sourceSessionId: z.string(), replayed: z.boolean() }),
	},
	'plan/get': { params: z.strictObject({ issueId: id }), result: planSnapshotDto },
	'plan/schedule': {
		params: z.strictObject({ ...fenced, taskIds: z.array(id).min(1).max(1000) }),
		result: z.object({ executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), runIds: z.array(z.string()), replayed: z.boolean() }),
	},
	'plan/mutate': {
		/** The raw `--operations-json` text: the Host parses it strictly so every client gets the same message. */
		params: z.strictObject({ ...fenced, operationsJson: z.string().min(1).max(1_000_000) }),
		result: z.object({
			executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(),
			addedTaskIds: z.array(z.string()), updatedTaskIds: z.array(z.string()), supersededTaskIds: z.array(z.string()), replayed: z.boolean(),
		}),
	},
	'plan/acknowledge': {
		params: z.strictObject(fenced),
		result: z.object({
			executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(),
			nextCheckpointId: z.string(), nextCheckpointKind: z.string(), nextCheckpointState: z.string(), replayed: z.boolean(),
		}),
	},
	'plan/complete': {
		params: z.strictObject({ ...fenced, decision: z.literal('goal_satisfied'), disagreementReason: text(10_000).optional() }),
		result: z.object({ executionId: z.string(), checkpointId: z.string(), graphRevision: z.number().int(), decision: z.literal('goal_satisfied'), replayed: z.boolean() }),
	},
	'plan/stop': {
		params: z.strictObject({ ...fenced, reason: z.string().min(1).max(10_000) }),
		result: z.object({ executionId: z.string(), issueId: z.string(), operationId: z.string(), requestId: z.string(), status: z.string(), reason: z.string(), replayed: z.boolean() }),
	},
	'plan/resume': { params: z.strictObject({ issueId: id }), result: planSnapshotDto },

	// Runs.
	'run/get': { params: z.strictObject({ runId: id }), result: runDto },
	'run/list': { params: z.strictObject({ issueId: id }), result: z.object({ runs: z.array(runDto) }) },
	'run/stop': { params: z.strictObject({ runId: id }), result: z.object({ runId: z.string(), eventId: z.string(), answer: z.string() }) },
	'run/log': {
		params: z.strictObject({ runId: id, stream: z.enum(['stdout', 'stderr']).default('stdout'), offset: z.number().int().nonnegative().default(0), maxBytes: z.number().int().positive().max(1_048_576).default(262_144) }),
		result: z.object({ runId: z.string(), data: z.string(), nextOffset: z.number().int(), done: z.boolean() }),
	},
	/** From a Run's supervisor: its process started or exited (the exit record on disk stays authoritative). */
	'run/report': {
		params: z.strictObject({ runId: id, event: z.enum(['started', 'exited']) }),
		result: z.object({ ok: z.literal(true) }),
	},
} as const satisfies Record<string, { params: z.ZodType; result: z.ZodType }>;

export type Method = keyof typeof methods;
export type Params<M extends Method> = z.input<(typeof methods)[M]['params']>;
export type ParsedParams<M extends Method> = z.output<(typeof methods)[M]['params']>;
export type Result<M extends Method> = z.output<(typeof methods)[M]['result']>;

/** Who is calling, derived by the Host from the bearer token (never from a flag). */
export type Caller =
	| { kind: 'user' }
	| { kind: 'session'; sessionId: string; role: 'source' | 'worker' | 'reviewer' };

export const wireError = z.object({
	reasonCode: z.string(),
	message: z.string(),
	hint: z.string(),
	retryable: z.boolean().optional(),
	details: z.record(z.string(), z.unknown()).optional(),
});
export type WireError = z.infer<typeof wireError>;
/** Every reply body: `{ok:true,result}` (HTTP 200) or `{ok:false,error}` (HTTP 400 invalid input, 401/403/404/409/500 otherwise). */
export const wireReply = z.union([
	z.object({ ok: z.literal(true), result: z.unknown() }),
	z.object({ ok: z.literal(false), error: wireError }),
]);

/** Bearer token header. `TUTTI_SESSION_TOKEN` for agents, the user credential for `--as-user`. */
export const authHeader = 'authorization';
export const maxBodyBytes = 1_048_576;
