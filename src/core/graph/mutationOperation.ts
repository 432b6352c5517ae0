// The operations of `plan issue mutate`, as the pure graph mutation reads them. src/protocol/operations.ts holds
// the strict zod schema the Host parses `--operations-json` with; test/unit/core/graph/mutation.test.ts pins that
// the schema's type and these two are the same.

/** Presence-aware task patch: an omitted field means "keep / inherit", never "clear". */
export interface TaskPatch {
	taskId?: string;
	title?: string;
	content?: string;
	priority?: 'high' | 'medium' | 'low';
	dueAtUnixMs?: number;
	agentTargetId?: string;
	modelPlanId?: string;
	model?: string;
	permissionModeId?: string;
	reasoningEffort?: string;
	executionDirectory?: string;
	dependencyTaskIds?: string[];
	parallelizable?: boolean;
	autoAccept?: boolean;
}

export interface MutationOperation {
	kind: 'add' | 'update' | 'rework' | 'supersede';
	taskId?: string;
	task?: TaskPatch;
}
