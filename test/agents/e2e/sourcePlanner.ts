// The "model" of a Tutti source agent for the end-to-end tier (a Brain for brainServer.ts). It reads what Claude
// Code (Anthropic Messages) or Codex (Responses API) sends and answers with shell tool calls of the real `tutti` CLI
// (Claude Code's Bash, Codex's exec_command), deriving every id from the conversation:
//   wake prompt (marker line)        → `tutti plan issue get --issue-id <marker.issueId> --json`
//   tool_result of `plan issue get`  → by the active checkpoint's kind: initial_schedule → mutate (add the planned
//                                      tasks); task_failed/task_canceled/changes_requested → mutate (rework into `<id>-fixed` with the
//                                      fixed content); task_settled / task_accepted → schedule readyTaskIds, else
//                                      acknowledge when allowedActions has it, else end the turn (only the
//                                      developer can move); all_tasks_terminal → complete
//   tool_result of `mutate`          → schedule its addedTaskIds (those planned without dependencies) at its
//                                      checkpointId and graphRevision
//   tool_result of anything else     → end the turn with a short text
// A tool_result that carries no JSON, or a CLI error envelope, ends the turn with the error text (visible in the
// log). Every decision is recorded in `actions` for the test's assertions.
import { shellQuote } from '../../../src/agents/stopHook.js';
import { wakeMarkerPrefix } from '../../../src/core/wakes/wakeMarker.js';
import type { Turn } from '../modelServer/script.js';
import type { Brain, BrainRequest } from './brainServer.js';

export interface PlannedTask {
	taskId: string;
	title: string;
	content: string;
	agentTargetId: string;
	dependencyTaskIds?: string[];
	autoAccept?: boolean;
}

export interface PlannerAction {
	/** What the request showed: a wake of this kind, or the result of this command verb. */
	on: string;
	/** The `tutti …` command the planner ran next, or `end: <text>`. */
	did: string;
}

export interface SourcePlanner {
	brain: Brain;
	readonly actions: PlannerAction[];
}

type Json = Record<string, unknown>;

function isObject(v: unknown): v is Json {
	return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function blocksOf(message: Json): Json[] {
	const content = message.content;
	if (typeof content === 'string') { return [{ type: 'text', text: content }]; }
	return Array.isArray(content) ? content.filter(isObject) : [];
}

function textOf(content: unknown): string {
	if (typeof content === 'string') { return content; }
	if (Array.isArray(content)) { return content.filter(isObject).map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n'); }
	return '';
}

/** The first JSON object in a tool's output (the CLI prints one JSON document with --json). */
function jsonIn(text: string): Json {
	const start = text.indexOf('{');
	const end = text.lastIndexOf('}');
	if (start < 0 || end < start) { throw new Error(`no JSON in the tool output: ${text.slice(0, 300)}`); }
	const value: unknown = JSON.parse(text.slice(start, end + 1));
	if (!isObject(value)) { throw new Error(`the tool output is not a JSON object: ${text.slice(0, 300)}`); }
	return value;
}

const tutti = (...args: string[]): string => `tutti ${args.map(shellQuote).join(' ')}`;

/**
 * `followStopHook`: a Stop hook's block ("This Tutti turn is not over: … Run this now: tutti plan issue get …") is
 * followed like a wake (recorded `on: 'hook'`); without it such a text ends the turn again.
 */
export function sourcePlanner(plan: { tasks: PlannedTask[]; fixedContent: string; followStopHook?: boolean }): SourcePlanner {
	const actions: PlannerAction[] = [];
	let toolSeq = 0;

	/** The shell tool of the agent in front of this request: Claude Code's Bash, or Codex's exec_command (Responses API). */
	let codex = false;
	const bash = (on: string, command: string): Turn => {
		actions.push({ on, did: command });
		return codex
			? { blocks: [{ type: 'tool', name: 'exec_command', id: `call_src_${++toolSeq}`, input: { cmd: command, yield_time_ms: 30_000 } }] }
			: { blocks: [{ type: 'tool', name: 'Bash', id: `toolu_src_${++toolSeq}`, input: { command, description: `tutti ${on}` } }] };
	};
	const end = (on: string, text: string): Turn => {
		actions.push({ on, did: `end: ${text}` });
		return { blocks: [{ type: 'text', text }] };
	};

	function fence(issueId: string, checkpointId: string, revision: number, verb: string): string[] {
		return ['--issue-id', issueId, '--checkpoint-id', checkpointId, '--expected-graph-revision', String(revision),
			'--request-id', `${checkpointId}-${verb}-r${revision}`, '--json'];
	}

	function onSnapshot(snapshot: Json): Turn {
		const issueId = String(snapshot.issueId);
		const cp = isObject(snapshot.activeCheckpoint) ? snapshot.activeCheckpoint : null;
		const execution = isObject(snapshot.execution) ? snapshot.execution : {};
		if (cp === null) { return end('get', `No active checkpoint (execution ${String(execution.status)}); nothing to do.`); }
		const checkpointId = String(cp.checkpointId);
		const kind = String(cp.kind);
		const revision = Number(execution.graphRevision);
		const ready = Array.isArray(snapshot.readyTaskIds) ? snapshot.readyTaskIds.map(String) : [];
		// The compact snapshot lists only some tasks; its counts say whether the plan has any.
		const counts = isObject(snapshot.counts) ? Object.values(snapshot.counts).map(Number) : [];
		const taskCount = counts.reduce((sum, n) => sum + n, 0);
		const on = `get:${kind}`;
		switch (kind) {
			case 'initial_schedule': {
				if (taskCount > 0) { return bash(on, tutti('plan', 'issue', 'schedule', ...fence(issueId, checkpointId, revision, 'schedule'), '--task-ids-json', JSON.stringify(ready))); }
				const ops = plan.tasks.map((task) => ({ kind: 'add', task }));
				return bash(on, tutti('plan', 'issue', 'mutate', ...fence(issueId, checkpointId, revision, 'mutate'), '--operations-json', JSON.stringify(ops)));
			}
			case 'task_failed':
			case 'task_canceled':
			case 'changes_requested': {
				const subject = String(cp.subjectTaskId);
				const ops = [{ kind: 'rework', taskId: subject, task: { taskId: `${subject}-fixed`, content: plan.fixedContent } }];
				return bash(on, tutti('plan', 'issue', 'mutate', ...fence(issueId, checkpointId, revision, 'mutate'), '--operations-json', JSON.stringify(ops)));
			}
			case 'task_settled':
			case 'task_accepted': {
				if (ready.length > 0) { return bash(on, tutti('plan', 'issue', 'schedule', ...fence(issueId, checkpointId, revision, 'schedule'), '--task-ids-json', JSON.stringify(ready))); }
				const allowed = Array.isArray(snapshot.allowedActions) ? snapshot.allowedActions.map(String) : [];
				if (!allowed.includes('acknowledge')) { return end(on, 'Nothing is mine to do until the developer decides; ending my turn.'); }
				return bash(on, tutti('plan', 'issue', 'acknowledge', ...fence(issueId, checkpointId, revision, 'acknowledge')));
			}
			case 'all_tasks_terminal':
				return bash(on, tutti('plan', 'issue', 'complete', ...fence(issueId, checkpointId, revision, 'complete'), '--decision', 'goal_satisfied'));
			default:
				return bash(on, tutti('plan', 'issue', 'acknowledge', ...fence(issueId, checkpointId, revision, 'acknowledge')));
		}
	}

	function onToolResult(command: string, output: string): Turn {
		const verb = /^tutti plan issue (\w+)/.exec(command)?.[1] ?? 'unknown';
		let result: Json;
		try {
			result = jsonIn(output);
		} catch (e) {
			return end(verb, `The command printed no JSON: ${(e as Error).message}`);
		}
		if (isObject(result.error)) { return end(verb, `The command failed: ${JSON.stringify(result.error)}`); }
		if (verb === 'get') { return onSnapshot(result); }
		if (verb === 'mutate') {
			const issueId = /--issue-id (\S+)/.exec(command)?.[1] ?? '';
			const waits = (id: string): boolean => (plan.tasks.find((t) => t.taskId === id)?.dependencyTaskIds ?? []).length > 0;
			const added = (Array.isArray(result.addedTaskIds) ? result.addedTaskIds.map(String) : []).filter((id) => !waits(id));
			return bash('mutate', tutti('plan', 'issue', 'schedule', ...fence(issueId, String(result.checkpointId), Number(result.graphRevision), 'schedule'),
				'--task-ids-json', JSON.stringify(added)));
		}
		return end(verb, `Done: ${verb} succeeded.`);
	}

	/** What the request ends with: a tool's result (the command and its output), or the user's text. */
	function lastEvent(body: unknown): { command: string; output: string } | { text: string } {
		if (isObject(body) && Array.isArray(body.messages)) {
			codex = false;
			const messages = body.messages.filter(isObject);
			const lastUser = [...messages].reverse().find((m) => m.role === 'user');
			if (lastUser === undefined) { throw new Error('no user message'); }
			const blocks = blocksOf(lastUser);
			const toolResult = blocks.find((b) => b.type === 'tool_result');
			if (toolResult !== undefined) {
				const toolUse = messages.filter((m) => m.role === 'assistant').flatMap(blocksOf)
					.find((b) => b.type === 'tool_use' && b.id === toolResult.tool_use_id);
				return { command: isObject(toolUse) && isObject(toolUse.input) ? String(toolUse.input.command) : '', output: textOf(toolResult.content) };
			}
			return { text: blocks.map((b) => (typeof b.text === 'string' ? b.text : '')).join('\n') };
		}
		if (isObject(body) && Array.isArray(body.input)) {
			// Responses API (Codex): the last user message or function_call_output item; a call's command is in its arguments.
			codex = true;
			const items = body.input.filter(isObject);
			const last = [...items].reverse().find((i) => i.role === 'user' || i.type === 'function_call_output');
			if (last === undefined) { throw new Error('no user input item'); }
			if (last.type === 'function_call_output') {
				const call = items.find((i) => i.type === 'function_call' && i.call_id === last.call_id);
				const args: unknown = isObject(call) && typeof call.arguments === 'string' ? JSON.parse(call.arguments) : {};
				return { command: isObject(args) ? String(args.cmd) : '', output: typeof last.output === 'string' ? last.output : textOf(last.output) };
			}
			return { text: textOf(last.content) };
		}
		throw new Error('neither an Anthropic Messages nor a Responses request');
	}

	const brain: Brain = (request: BrainRequest): Turn => {
		const event = lastEvent(request.body);
		if ('command' in event) { return onToolResult(event.command, event.output); }
		const markerLine = event.text.split('\n').find((l) => l.startsWith(wakeMarkerPrefix));
		const owed = plan.followStopHook === true ? /^This Tutti turn is not over: .* Run this now: (tutti plan issue get --issue-id \S+ --json)$/s.exec(event.text) : null;
		if (markerLine === undefined && owed !== null) { return bash('hook', owed[1]!); }
		if (markerLine === undefined) { return end('text', 'I only act on Tutti wakes.'); }
		const marker = jsonIn(markerLine);
		return bash(`wake:${String(marker.kind)}`, tutti('plan', 'issue', 'get', '--issue-id', String(marker.issueId), '--json'));
	};

	return { brain, actions };
}
