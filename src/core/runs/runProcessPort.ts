// The port between the Host's domain services and the real processes of Runs: what a Run is launched with,
// what its supervisor records at exit, and what the runner (src/host/runs/) implements. Core holds these types
// because the Host, the agent adapters and the supervisor all speak them and none of them may import another.
import type { CheckInput } from '../checks/checks.js';
import type { Disposable } from '../lifecycle.js';

/** What a Turn of an agent session needs beyond the target: its text and the session to continue. */
export interface AgentTurnInput {
	/** The Turn's text: the task content for a worker, the wake prompt for a source session. */
	prompt: string;
	/** Continue this provider session (claude `--resume`, codex `exec resume`); absent: start a new one. */
	resumeProviderSessionId?: string;
	/** claude only: the id to give a NEW session (`--session-id`), so it is known before the stream starts. */
	newProviderSessionId?: string;
	model?: string;
	reasoningEffort?: string;
	permissionModeId?: string;
	/** Adapter-specific launch flags added by Tutti itself (e.g. the Stop hook settings). */
	extraArgs?: string[];
}

/** One entry of `.tutti/config.json` `agentTargets` (headless) or `tutti.agentTargets` (VS Code). */
export interface AgentTargetConfig {
	id: string;
	adapter: 'command' | 'claude' | 'codex';
	/** command adapter: the exact argument vector; no shell unless `shell: true`. */
	argv?: string[];
	shell?: boolean;
	/** Working directory relative to the workspace (default: the task's executionDirectory or the workspace). */
	cwd?: string;
	env?: Record<string, string>;
	path?: string;
	args?: string[];
	model?: string;
	allowedTools?: string[];
	/**
	 * `worktree`: each task runs in its own git worktree `.tutti/worktrees/<issueId>/<taskId>`. Default (targetDefaults.ts):
	 * `worktree` for claude and codex in a git workspace, `none` otherwise.
	 */
	isolation?: 'none' | 'worktree';
	/**
	 * A worktree task whose parents' commits conflict: `fail` fails the Run before launch naming the paths;
	 * `agent` leaves the tree in the conflicted merge and tells the agent to resolve it. Default: `fail` for
	 * command targets, `agent` for claude and codex.
	 */
	onMergeConflict?: 'fail' | 'agent';
	/**
	 * claude: `ask`: a tool call outside allowedTools waits for the developer's answer (an approval request, through
	 * `tutti mcp`); `allowed-tools-only`: it is denied as Claude Code does by itself. codex app-server: `ask`: a command
	 * it asks to run outside its sandbox, a file change it asks for, and a question wait for the developer;
	 * `allowed-tools-only`: nothing is asked. Default (targetDefaults.ts): `ask`.
	 */
	approvals?: 'ask' | 'allowed-tools-only';
	/**
	 * codex only. `app-server` (default): Codex runs as `codex app-server`, driven over JSON-RPC by the Run's supervisor;
	 * `exec`: `codex exec --json` (older Codex builds). A Codex without app-server falls back to exec by itself.
	 */
	protocol?: 'app-server' | 'exec';
	/** Checks every task on this target runs after its Run reports success (src/core/checks/checks.ts). */
	checks?: readonly CheckInput[];
	/**
	 * How long a Run of this target may show no activity (no output, no tool call, no usage) before it is marked
	 * stalled; 0: never. Absent: the workspace's `stallSeconds`, else 600. Developer configuration only.
	 */
	stallSeconds?: number;
}

export interface RunLaunchSpec {
	runId: string;
	issueId: string;
	taskId: string;
	target: AgentTargetConfig;
	/** Absolute working directory of the agent process. */
	cwd: string;
	/** Written to the agent's stdin (the task content), then stdin is closed. */
	stdinText: string;
	/** TUTTI_* variables (TUTTI_IPC_HOOK, TUTTI_SESSION_TOKEN, TUTTI_SESSION_ID, TUTTI_ISSUE_ID, TUTTI_TASK_ID, TUTTI_RUN_ID). */
	env: Record<string, string>;
	/** For claude/codex targets: the Turn's prompt and session to continue. */
	turn?: AgentTurnInput;
}

/** The exit record a supervisor writes to `.tutti/runs/<runId>/exit.json` (authoritative after a restart). */
export interface RunExit {
	runId: string;
	/** The exact Turn binding: always `issue-run:<runId>`. */
	clientSubmitId: string;
	exitCode: number | null;
	signal: string | null;
	startedAtUnixMs: number;
	endedAtUnixMs: number;
	/** Set when the agent could not be started at all (missing executable, bad cwd). */
	spawnError?: string;
}

export type InterruptResult =
	/** The process group ended after our signal. */
	| 'exited'
	/** SIGKILL was sent and the process still shows as alive at the deadline. */
	| 'still_running'
	/** There was no live process to signal (never started or already ended). */
	| 'not_running';

export interface RunProcessPort extends Disposable {
	/** Starts the detached supervisor for this Run. Resolves once the agent process is started (or its spawn failure is recorded). */
	launch(spec: RunLaunchSpec): Promise<void>;
	/** SIGINT to the process group, wait, SIGTERM, wait, SIGKILL. Never throws. */
	interrupt(runId: string): Promise<InterruptResult>;
	/** The exit record on disk, if the supervisor wrote one. */
	exitRecord(runId: string): RunExit | null;
	/** Whether the Run's supervisor or agent process is alive (process table check). */
	isAlive(runId: string): boolean;
	/** Fires once per Run when its exit record appears (watching every Run launched or adopted by this Host). */
	onExit(listener: (exit: RunExit) => void): Disposable;
	/** Looks for this Run's exit record now rather than at the next poll (its supervisor reported the exit). */
	checkNow(runId: string): void;
	/**
	 * Restart reconciliation, for a launch the earlier Host began but never saw start: withdraws it when no agent of it
	 * can start any more (true: launch it again), false when a supervisor has it (adopt it).
	 */
	withdrawUnstarted(runId: string): boolean;
	/** Starts watching a Run that was launched by an earlier Host (restart reconciliation). */
	adopt(runId: string): void;
	/**
	 * What the Turn process `runId` has written to stdout and stderr so far (bytes) and when it last wrote (Unix ms, 0:
	 * nothing yet), from the files' metadata: nothing is read.
	 */
	outputProbe(runId: string): { bytes: number; writtenAtUnixMs: number };
	/** Reads a slice of the Run's captured stdout or stderr. */
	readLog(runId: string, stream: 'stdout' | 'stderr', offset: number, maxBytes: number): { data: string; nextOffset: number; size: number };
	/** Absolute directory `.tutti/runs/<runId>`. */
	runDir(runId: string): string;
}
