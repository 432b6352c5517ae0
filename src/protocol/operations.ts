// `plan issue mutate` operations on the wire: strict. Unknown keys are rejected so `op`/`replacement` never pass silently.
import { z } from 'zod';

/** Presence-aware task patch: an omitted field means "keep / inherit", never "clear". */
export const taskPatch = z.strictObject({
	taskId: z.string().min(1).max(200).optional(),
	title: z.string().min(1).max(500).optional(),
	content: z.string().max(100_000).optional(),
	priority: z.enum(['high', 'medium', 'low']).optional(),
	dueAtUnixMs: z.number().int().nonnegative().optional(),
	agentTargetId: z.string().max(200).optional(),
	modelPlanId: z.string().max(200).optional(),
	model: z.string().max(200).optional(),
	permissionModeId: z.string().max(200).optional(),
	reasoningEffort: z.string().max(50).optional(),
	executionDirectory: z.string().max(4096).optional(),
	dependencyTaskIds: z.array(z.string().min(1).max(200)).max(1000).optional(),
	parallelizable: z.boolean().optional(),
	autoAccept: z.boolean().optional(),
});
export type TaskPatch = z.infer<typeof taskPatch>;

export const mutationOperation = z.strictObject({
	kind: z.enum(['add', 'update', 'rework', 'supersede']),
	taskId: z.string().min(1).max(200).optional(),
	task: taskPatch.optional(),
});
export type MutationOperation = z.infer<typeof mutationOperation>;

/** Up to 5,000 operations: a whole plan of that size in one mutate (it fits the 8 MiB request cap). */
export const mutationOperations = z.array(mutationOperation).min(1).max(5000);
