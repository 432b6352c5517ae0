// The first Turn of a worker session on a claude/codex target: the task content behind a short preamble that
// names the TUTTI_* variables and the `tutti` CLI on PATH; model, effort and permission mode come from the
// task's launch settings, falling back to the target's.
import { randomUUID } from 'node:crypto';
import type { Task } from '../../core/model.js';
import type { AgentTargetConfig, AgentTurnInput } from '../../core/runs/runProcessPort.js';

export interface WorkerTurnIds {
	issueId: string;
	taskId: string;
	runId: string;
}

/** The text in front of the task content (stable: tests pin its key phrases). */
export function workerPreamble(ids: WorkerTurnIds): string {
	return [
		`You are a Tutti worker agent: do task ${ids.taskId} of issue ${ids.issueId} (Run ${ids.runId}).`,
		'The `tutti` command is on your PATH and already signed in through TUTTI_IPC_HOOK and TUTTI_SESSION_TOKEN;',
		'TUTTI_SESSION_ID, TUTTI_ISSUE_ID, TUTTI_TASK_ID and TUTTI_RUN_ID name your session, issue, task and Run',
		`(for example \`tutti run get --run-id ${ids.runId} --json\`; write ids literally, not as $VARIABLES). Never pass any other credential.`,
		'When the task is done, end your turn with a short summary of what you changed.',
	].join('\n');
}

export function workerTurnInput(task: Task, target: AgentTargetConfig, ids: WorkerTurnIds, newSessionId: () => string = randomUUID): AgentTurnInput {
	const turn: AgentTurnInput = { prompt: `${workerPreamble(ids)}\n\n--- task ---\n${task.content}` };
	// Claude Code takes the new session's id up front (`--session-id`); codex reports its own in the stream.
	if (target.adapter === 'claude') { turn.newProviderSessionId = newSessionId(); }
	return { ...turn, ...turnLaunchSettings(task, target) };
}

/** Model, effort and permission mode of a worker Turn: the task's launch settings, the model falling back to the target's. */
export function turnLaunchSettings(task: Task, target: AgentTargetConfig): Pick<AgentTurnInput, 'model' | 'reasoningEffort' | 'permissionModeId'> {
	const settings: Pick<AgentTurnInput, 'model' | 'reasoningEffort' | 'permissionModeId'> = {};
	const model = task.model !== '' ? task.model : target.model;
	if (model !== undefined && model !== '') { settings.model = model; }
	if (task.reasoningEffort !== '') { settings.reasoningEffort = task.reasoningEffort; }
	if (task.permissionModeId !== '') { settings.permissionModeId = task.permissionModeId; }
	return settings;
}
