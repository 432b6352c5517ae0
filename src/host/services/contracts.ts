// Contracts between the Host's domain services (so they can be built and tested separately).
import type { Clock, IdSource } from '../../core/ports.js';
import type { Caller, Method, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import type { SettlementObserver } from '../runs/runSettlement.js';
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

type Handler<M extends Method> = (params: ParsedParams<M>, caller: Caller) => Promise<Result<M>>;

/** Managed execution. */
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
