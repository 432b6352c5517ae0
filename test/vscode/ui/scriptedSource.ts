// A scripted source agent for the UI tests and benchmarks: opens a source session with the CLI, creates a
// managed issue, and adds and schedules tasks with `tutti plan issue mutate/schedule` under that session's token
// (the same commands a real source agent runs).
import type { VsCodeSession } from '../runInVsCode.js';
import { type CliCaller, type CliJson, tuttiCli } from './tuttiCli.js';

export interface PlannedTask {
	readonly taskId: string;
	readonly title: string;
	readonly agentTargetId: string;
	readonly dependencyTaskIds?: readonly string[];
}

let requests = 0;
const requestId = (what: string): string => `ui-${what}-${process.pid}-${++requests}`;

export class ScriptedSource {
	private constructor(
		readonly issueId: string,
		/** The CLI as this source session. */
		readonly asSource: CliCaller,
		/** The CLI as the developer (`--as-user` is added by the caller). */
		readonly asUser: CliCaller,
		/** The source session's token (TUTTI_SESSION_TOKEN), for calls the test makes without blocking. */
		readonly token: string,
	) {}

	/** Opens a source session and creates a managed issue owned by it (autoAccept off: results wait for the developer). */
	static create(session: VsCodeSession, workspace: string, title: string, content: string): ScriptedSource {
		const asUser = tuttiCli(session, workspace);
		const opened = asUser(['session', 'open', '--role', 'source', '--as-user']);
		const asSource = tuttiCli(session, workspace, String(opened['token']));
		const created = asSource(['plan', 'issue', 'create', '--title', title, '--content', content, '--request-id', requestId('create')]);
		return new ScriptedSource(String(created['issueId']), asSource, asUser, String(opened['token']));
	}

	/** `tutti plan issue get` as the source session. */
	get(): CliJson {
		return this.asSource(['plan', 'issue', 'get', '--issue-id', this.issueId]);
	}

	private fence(what: string): string[] {
		const snapshot = this.get();
		const checkpoint = snapshot['activeCheckpoint'] as { checkpointId?: string } | null;
		const execution = snapshot['execution'] as { graphRevision: number };
		return ['--issue-id', this.issueId, '--checkpoint-id', checkpoint?.checkpointId ?? 'none',
			'--expected-graph-revision', String(execution.graphRevision), '--request-id', requestId(what)];
	}

	/** Adds the tasks in one `plan issue mutate`. */
	add(tasks: readonly PlannedTask[]): CliJson {
		const operations = tasks.map((task) => ({ kind: 'add', task: { ...task, dependencyTaskIds: task.dependencyTaskIds ?? [] } }));
		return this.asSource(['plan', 'issue', 'mutate', ...this.fence('mutate'), '--operations-json', JSON.stringify(operations)]);
	}

	/** Starts Runs for the ready tasks named. */
	schedule(taskIds: readonly string[]): CliJson {
		return this.asSource(['plan', 'issue', 'schedule', ...this.fence('schedule'), '--task-ids-json', JSON.stringify(taskIds)]);
	}

	/** The task's status (`plan issue get --task-id`: the compact snapshot lists only the tasks the agent acts on). */
	taskStatus(taskId: string): string | undefined {
		const view = this.asSource(['plan', 'issue', 'get', '--issue-id', this.issueId, '--task-id', taskId]);
		return (view['task'] as { status?: string } | undefined)?.status;
	}
}
