// Contracts between the Host's domain services (so they can be built and tested separately).
import type { Clock, IdSource } from '../../core/ports.js';
import type { Issue, Run, Task } from '../../core/model.js';
import type { Caller, Method, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import type { RunProcessPort } from '../../core/runs/runProcessPort.js';

export interface ServiceDeps {
	/** Absolute workspace root. */
	workspace: string;
	/** Absolute `.tutti` directory. */
	tuttiDir: string;
	store: Store;
	clock: Clock;
	ids: IdSource;
	runs: RunProcessPort;
	config: HostConfig;
	/** The control-plane socket path, given to agents as TUTTI_IPC_HOOK. */
	endpoint: string;
	/** The developer's credential (never passed to agents). */
	userCredential: string;
	/**
	 * Absolute path of the `tutti` shim in the Host's private directory (outside the workspace), which agents' Stop
	 * hooks and `tutti mcp` run; '' when agents get no shim.
	 */
	cliShim: string;
}

export interface AdmittedRun {
	runId: string;
	taskId: string;
}

/** Run admission and launch, shared by the manual dispatcher and managed `schedule` (implemented in runService). */
export interface RunAdmission {
	/**
	 * Inside the caller's transaction: per task create a Run (`running`), its worker session, a `prepared` launch intent
	 * (`launch-intent:<runId>`, submit id `issue-run:<runId>`) and a Turn bound to that submit id; claim the task
	 * (`not_started → running`, latestRunId). Throws DomainError (e.g. agent_target_not_found / missing_agent_target).
	 */
	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[];
	/**
	 * Before admitting `taskIds` (never inside a transaction): each worktree parent of theirs whose branch moved after
	 * its acceptance goes back to pending_acceptance ("changed after acceptance"), so nothing starts from a stale
	 * acceptance. Returns the ids of the tasks reopened.
	 */
	reopenChangedParents(issueId: string, taskIds: readonly string[]): Promise<string[]>;
	/**
	 * Before admitting (never inside a transaction): what the Turns of running Runs that have ended (their exit record
	 * is on disk) used counts now — of one issue, or of every issue — so admission's budget check does not wait for
	 * the Host to notice those exits.
	 */
	countEndedTurns(issueId?: string): Promise<void>;
	/** After commit only (never inside a transaction): start the admitted Runs from their persisted launch intents. */
	launch(runIds: readonly string[]): Promise<void>;
	/** After commit only: stop every running Run of the issue, recording Stop events with this reason. */
	stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void>;
}

/** Called by Run settlement inside the settlement transaction, for `tutti` issues only (implemented by planService). */
export interface SettlementObserver {
	onRunSettled(tx: Tx, settled: { issue: Issue; task: Task; run: Run }): void;
}

type Handler<M extends Method> = (params: ParsedParams<M>, caller: Caller) => Promise<Result<M>>;

/** Managed execution (digest §1.5–§1.7). */
export interface PlanService extends SettlementObserver {
	create: Handler<'plan/create'>;
	get: Handler<'plan/get'>;
	schedule: Handler<'plan/schedule'>;
	mutate: Handler<'plan/mutate'>;
	acknowledge: Handler<'plan/acknowledge'>;
	complete: Handler<'plan/complete'>;
	stop: Handler<'plan/stop'>;
	resume: Handler<'plan/resume'>;
	/** The source session's own pause (`plan issue pause`): one its resume may lift. */
	pause: Handler<'plan/pause'>;
	/** Developer pause/resume from the UI or `issue pause|resume --as-user` on a managed issue. */
	setPausedByUser(issueId: string, paused: boolean): Promise<void>;
	/** Host start: local repair only (e.g. rearm a stranded terminal checkpoint); creates no wake for paused/archived issues. */
	repairOnStart(): Promise<void>;
}
