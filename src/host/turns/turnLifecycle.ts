// The one owner of an agent Turn's process, from launch to exit, for worker Runs (their first Turn and the Turns of
// queued messages), source-session wakes and independent-reviewer wakes alike: the launch spec with its TUTTI_*
// environment and a freshly rotated session token, the Stop hook flags, the exit inbox (each exit delivered once to
// whoever expects it), and the Turn facts read back from the agent's stdout. What a Turn's end means (exit → outcome)
// and when a Turn may start are pure rules in src/core/turns; the Run owner (src/host/runs) and the wake loop
// (src/host/wakes) settle in their own transactions with them.
import { adapterFor as builtInAdapterFor } from '../../agents/command.js';
import type { AgentAdapter, TurnFacts } from '../../agents/adapter.js';
import { stopHookLaunchArgs } from '../../agents/stopHook.js';
import { claudeApprovalArgs } from '../../agents/approvalLaunch.js';
import { effectiveApprovals } from '../../core/runs/targetDefaults.js';
import { type Disposable } from '../../core/lifecycle.js';
import type { Clock, IdSource } from '../../core/ports.js';
import type { Store } from '../../store/database.js';
import { priceTable, turnCost } from '../../core/usage/prices.js';
import { executionRepository } from '../../store/repositories/executionRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { turnRepository } from '../../store/repositories/turnRepository.js';
import { usageRepository } from '../../store/repositories/usageRepository.js';
import { wakeIdBySubmitId } from '../../store/repositories/wakeDeliveryRepository.js';
import { wakeRepository } from '../../store/repositories/wakeRepository.js';
import type { Tx } from '../../store/tx.js';
import type { HostConfig } from '../config.js';
import type { AgentTargetConfig, AgentTurnInput, InterruptResult, RunExit, RunLaunchSpec, RunProcessPort } from '../../core/runs/runProcessPort.js';
import { ExitInbox, type ExitHandler } from './exitInbox.js';
import { runIdOfProcess } from './turnIds.js';
import { mintToken, tokenHash } from './sessionTokens.js';

/** How much of a Turn's stdout is read for its facts (in 1 MiB slices). */
export const maxFactsBytes = 32 * 1024 * 1024;
const factsSliceBytes = 1_048_576;

export interface TurnLifecycleDeps {
	/** TUTTI_IPC_HOOK for agents. */
	endpoint: string;
	runs: RunProcessPort;
	config: HostConfig;
	log(line: string): void;
	/** The adapter of a target (default: src/agents/command.ts `adapterFor`); tests pass fakes. */
	adapterFor?: (target: AgentTargetConfig) => AgentAdapter;
	/** The shell command of the agents' Stop hook (`<shim> hook stop`); absent: agents get no hook. */
	stopHookCommand?: string;
	/** The `tutti` executable (the shim) that claude runs as `tutti mcp` for approvals; absent: no approvals. */
	mcpCommand?: string;
}

/** What an owner that starts Turns is built over (the wake loop; the Run owner takes the same). */
export interface TurnServiceDeps extends TurnLifecycleDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	ids: IdSource;
	/** The Turn lifecycle the owners share (default: one over these deps). */
	turns?: TurnLifecycle;
}

/** Whose Turn it is: the session and issue, and for a worker also its task and Run. */
export interface TurnIdentity {
	sessionId: string;
	issueId: string;
	worker?: { taskId: string; runId: string };
}

/** One Turn process to start. */
export interface TurnStart {
	/** The runner id (directory `.tutti/runs/<processId>`). */
	processId: string;
	identity: TurnIdentity;
	target: AgentTargetConfig;
	/** Absolute working directory. */
	cwd: string;
	/** Written to stdin (command targets read their task there); claude/codex read the Turn's prompt instead. */
	stdinText: string;
	turn?: AgentTurnInput;
	/** The session's token, rotated by `issueToken` in the transaction that allowed this launch. */
	token: string;
}

export type TurnStartResult =
	| { started: true }
	/** `exit`: the exit record the runner left (e.g. a spawn failure), null when there is none. */
	| { started: false; exit: RunExit | null; message: string };

export class TurnLifecycle implements Disposable {
	readonly #d: TurnLifecycleDeps;
	readonly #adapterFor: (target: AgentTargetConfig) => AgentAdapter;
	readonly #exits: ExitInbox;

	constructor(deps: TurnLifecycleDeps) {
		this.#d = deps;
		this.#adapterFor = deps.adapterFor ?? builtInAdapterFor;
		this.#exits = new ExitInbox(deps.runs);
	}

	/** The owner of `processId` (a Run, a wake) takes its exit from the inbox, once, whichever route reports it first. */
	expectExit(processId: string, handler: ExitHandler): void {
		this.#exits.expect(processId, handler);
	}

	forgetExit(processId: string): void {
		this.#exits.forget(processId);
	}

	/** A route (the supervisor's `run/report`, a restart) says the process may have ended: the inbox looks now. */
	lookNow(processId: string): Promise<void> {
		return this.#exits.lookNow(processId);
	}

	/** The configured targets and prices a launch's budget check reads (src/host/usage/issueSpend.ts). */
	get pricing(): Pick<HostConfig, 'agentTargets' | 'modelPrices'> {
		return this.#d.config;
	}

	/** The configured agent target, if it still exists. */
	target(targetId: string): AgentTargetConfig | undefined {
		return this.#d.config.agentTargets.find((t) => t.id === targetId);
	}

	/**
	 * Inside the transaction that allows a launch: gives the session a fresh token (the previous one stops working)
	 * and returns it. The raw token leaves the Host only towards the agent's environment; the store keeps its hash.
	 */
	issueToken(tx: Tx, sessionId: string): string {
		const token = mintToken();
		sessionRepository.updateTokenHash(tx, sessionId, tokenHash(token));
		return token;
	}

	/** Adapter flags of the Stop hook (absent when the Host runs without one). */
	stopHookArgs(adapter: AgentTargetConfig['adapter']): string[] | undefined {
		return this.#d.stopHookCommand === undefined ? undefined : stopHookLaunchArgs(adapter, this.#d.stopHookCommand);
	}

	/**
	 * claude worker Turns of a target with approvals `ask`: the flags that route a tool call outside allowedTools to the
	 * developer (`tutti mcp`); undefined otherwise.
	 */
	approvalArgs(target: AgentTargetConfig): string[] | undefined {
		if (this.#d.mcpCommand === undefined || target.adapter !== 'claude' || effectiveApprovals(target) !== 'ask') { return undefined; }
		return claudeApprovalArgs(this.#d.mcpCommand);
	}

	/** Starts the Turn's process; a failure to start is returned with the exit record the runner left, if any. */
	async start(start: TurnStart): Promise<TurnStartResult> {
		const spec: RunLaunchSpec = {
			runId: start.processId,
			issueId: start.identity.issueId,
			taskId: start.identity.worker?.taskId ?? '',
			target: start.target,
			cwd: start.cwd,
			stdinText: start.stdinText,
			...(start.turn !== undefined ? { turn: start.turn } : {}),
			env: this.#environment(start.identity, start.token),
		};
		try {
			await this.#d.runs.launch(spec);
			return { started: true };
		} catch (e) {
			return { started: false, exit: this.exitRecord(start.processId), message: (e as Error).message };
		}
	}

	/** What every agent process gets: the Host's socket, its session's own token and ids; never the user credential. */
	#environment(identity: TurnIdentity, token: string): Record<string, string> {
		return {
			TUTTI_IPC_HOOK: this.#d.endpoint,
			TUTTI_SESSION_TOKEN: token,
			TUTTI_SESSION_ID: identity.sessionId,
			TUTTI_ISSUE_ID: identity.issueId,
			...(identity.worker ? { TUTTI_TASK_ID: identity.worker.taskId, TUTTI_RUN_ID: identity.worker.runId } : {}),
		};
	}

	/**
	 * The facts of a claude/codex Turn, read from its captured stdout (at most `maxFactsBytes`) — never inside a
	 * transaction. Null for command targets and when nothing can be read (the Turn then settles from its exit alone).
	 */
	facts(processId: string, target: AgentTargetConfig | undefined): TurnFacts | null {
		if (!target || target.adapter === 'command') { return null; }
		try {
			const adapter = this.#adapterFor(target);
			if (!adapter.parseTurnFacts) { return null; }
			let text = '';
			let offset = 0;
			for (;;) {
				const slice = this.#d.runs.readLog(processId, 'stdout', offset, factsSliceBytes);
				text += slice.data;
				if (slice.nextOffset <= offset || slice.nextOffset >= slice.size || slice.nextOffset >= maxFactsBytes) { break; }
				offset = slice.nextOffset;
			}
			return adapter.parseTurnFacts(text);
		} catch (e) {
			this.#d.log(`reading the facts of Turn ${processId} failed (it settles from its exit alone): ${(e as Error).message}`);
			return null;
		}
	}

	/**
	 * Inside the transaction that handles a Turn's exit: records what the Turn used and cost against its issue, once
	 * per runner id (an exit seen twice or replayed after a restart counts once). The one place usage is recorded for
	 * every kind of Turn: a worker Run's (its first and its queued messages'), a source wake's and a reviewer's. The
	 * cost is the agent's own figure where it reports one, else the usage priced by the model it reported or was
	 * launched with (`modelPrices` over the dated defaults), else unknown. Nothing is recorded without facts.
	 */
	recordUsageInTx(tx: Tx, processId: string, facts: TurnFacts | null, now: number): void {
		if (!facts) { return; }
		const run = runRepository.get(tx, runIdOfProcess(processId));
		let owner: { issueId: string; runId: string; role: 'source' | 'worker' | 'reviewer'; launchModel: string } | undefined;
		if (run) {
			const task = taskRepository.get(tx, run.issueId, run.taskId);
			owner = { issueId: run.issueId, runId: run.runId, role: 'worker', launchModel: task?.model || this.target(run.agentTargetId)?.model || '' };
		} else {
			// A wake Turn counts against its wake's issue (a source session may own several issues).
			const turn = turnRepository.byProcessId(tx, processId);
			const session = turn ? sessionRepository.get(tx, turn.sessionId) : undefined;
			const wake = turn ? wakeRepository.get(tx, wakeIdBySubmitId(tx, turn.clientSubmitId) ?? '') : undefined;
			const issueId = (wake ? executionRepository.get(tx, wake.executionId)?.issueId : undefined) ?? session?.issueId ?? '';
			if (session && issueId !== '') {
				owner = { issueId, runId: '', role: session.role, launchModel: this.target(session.agentTargetId)?.model ?? '' };
			}
		}
		if (!owner) {
			this.#d.log(`the usage of Turn ${processId} has no issue to count against; it is not recorded`);
			return;
		}
		const model = facts.model !== '' ? facts.model : owner.launchModel;
		const cost = turnCost(facts.usage, model, facts.costUsd, priceTable(this.#d.config.modelPrices));
		usageRepository.record(tx, {
			processId, issueId: owner.issueId, runId: owner.runId, role: owner.role, model, usage: { ...facts.usage },
			costUsd: cost.usd, costSource: cost.source, recordedAtUnixMs: now,
		});
	}

	/**
	 * Records, in one transaction whose body runs before this returns, the usage of each candidate Turn that has
	 * ended (its exit record is on disk) — at Host start, before any request is answered, so the budget sees what
	 * Turns that ended while the Host was down used. Their settlement records the same usage again: counted once.
	 */
	countEndedTurns(store: Store, candidates: readonly { processId: string; target: AgentTargetConfig | undefined }[], now: number): Promise<void> {
		const ended = candidates.flatMap((c) => {
			const facts = this.exitRecord(c.processId) ? this.facts(c.processId, c.target) : null;
			return facts ? [{ processId: c.processId, facts }] : [];
		});
		if (ended.length === 0) { return Promise.resolve(); }
		return store.transaction((tx) => { for (const e of ended) { this.recordUsageInTx(tx, e.processId, e.facts, now); } });
	}

	/** The exit record on disk, or null (none yet, or unreadable). */
	exitRecord(processId: string): RunExit | null {
		try {
			return this.#d.runs.exitRecord(processId);
		} catch {
			return null;
		}
	}

	/** Whether the Turn's process was started (it is alive, or left an exit record that is not a spawn failure). */
	accepted(processId: string): boolean {
		try {
			if (this.#d.runs.isAlive(processId)) { return true; }
			const exit = this.#d.runs.exitRecord(processId);
			return exit !== null && !exit.spawnError;
		} catch {
			return false;
		}
	}

	/** A launch an earlier Host began and never saw start: true when it is withdrawn (nothing can start it now). */
	withdrawUnstarted(processId: string): boolean {
		try {
			return this.#d.runs.withdrawUnstarted(processId);
		} catch (e) {
			this.#d.log(`withdrawing the unstarted launch of ${processId} failed (it is adopted instead): ${(e as Error).message}`);
			return false;
		}
	}

	/** Re-attaches a Turn launched by an earlier Host: alive, its exit is awaited; dead without a record, the runner records it lost. */
	adopt(processId: string): void {
		this.#d.runs.adopt(processId);
	}

	interrupt(processId: string): Promise<InterruptResult> {
		return this.#d.runs.interrupt(processId);
	}

	dispose(): void {
		this.#exits.dispose();
	}
}
