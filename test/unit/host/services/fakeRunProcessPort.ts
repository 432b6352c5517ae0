// A scripted RunProcessPort: records launches, lets the test decide when and how each Run exits, and what an
// interrupt answers. `exit()` writes the exit record and fires onExit, like the real runner.
import { join } from 'node:path';
import { Emitter } from '../../../../src/core/events.js';
import type { Disposable } from '../../../../src/core/lifecycle.js';
import type { InterruptResult, RunExit, RunLaunchSpec, RunProcessPort } from '../../../../src/core/runs/runProcessPort.js';

export interface ExitFacts {
	exitCode?: number | null;
	signal?: string | null;
	startedAtUnixMs?: number;
	endedAtUnixMs?: number;
	spawnError?: string;
	clientSubmitId?: string;
}

export class FakeRunProcessPort implements RunProcessPort {
	readonly launches: RunLaunchSpec[] = [];
	readonly interrupts: string[] = [];
	readonly adopted: string[] = [];
	readonly exits = new Map<string, RunExit>();
	readonly alive = new Set<string>();
	readonly logs = new Map<string, string>();
	readonly launchedAt = new Map<string, number>();
	readonly #emitter = new Emitter<RunExit>();
	/** What the next interrupts answer, and whether the process "exits" (fires onExit) during the interrupt. */
	interruptBehaviour: (runId: string) => { result: InterruptResult; exit?: ExitFacts } = () => ({ result: 'exited', exit: { exitCode: null, signal: 'SIGINT' } });
	/** When set, launch waits for this promise before resolving (a launch in flight). */
	holdLaunch: Promise<void> | undefined;
	launchError: Error | undefined;

	constructor(private readonly root: string, private readonly now: () => number) {}

	async launch(spec: RunLaunchSpec): Promise<void> {
		this.launches.push(spec);
		this.launchedAt.set(spec.runId, this.now());
		if (this.holdLaunch) { await this.holdLaunch; }
		if (this.launchError) { throw this.launchError; }
		this.alive.add(spec.runId);
	}

	async interrupt(runId: string): Promise<InterruptResult> {
		this.interrupts.push(runId);
		if (!this.alive.has(runId)) { return 'not_running'; }
		const behaviour = this.interruptBehaviour(runId);
		if (behaviour.exit) { this.exit(runId, behaviour.exit); }
		return behaviour.result;
	}

	exitRecord(runId: string): RunExit | null {
		return this.exits.get(runId) ?? null;
	}

	isAlive(runId: string): boolean {
		return this.alive.has(runId);
	}

	onExit(listener: (exit: RunExit) => void): Disposable {
		return this.#emitter.event(listener);
	}

	/** Launches withdrawn at a restart (nothing had started them). */
	readonly withdrawn: string[] = [];

	withdrawUnstarted(runId: string): boolean {
		if (this.alive.has(runId) || this.exits.has(runId)) { return false; }
		this.withdrawn.push(runId);
		return true;
	}

	adopt(runId: string): void {
		this.adopted.push(runId);
	}

	/** The Turn processes whose stdout was read from its start (a reading of its facts, or of its activity). */
	readonly factReads: string[] = [];

	/** When each Turn process last wrote (the probe's file time; absent: 0, nothing written). */
	readonly writtenAt = new Map<string, number>();

	outputProbe(runId: string): { bytes: number; writtenAtUnixMs: number } {
		return { bytes: (this.logs.get(runId) ?? '').length, writtenAtUnixMs: this.writtenAt.get(runId) ?? 0 };
	}

	readLog(runId: string, stream: 'stdout' | 'stderr', offset: number, maxBytes: number): { data: string; nextOffset: number; size: number } {
		if (stream === 'stdout' && offset === 0) { this.factReads.push(runId); }
		const text = this.logs.get(runId) ?? '';
		const data = text.slice(offset, offset + maxBytes);
		return { data, nextOffset: offset + data.length, size: text.length };
	}

	runDir(runId: string): string {
		return join(this.root, 'runs', runId);
	}

	/** Exit records written while the runner was not looking (see exitUnseen); checkNow fires them. */
	readonly #unseen = new Set<string>();

	checkNow(runId: string): void {
		const exit = this.exits.get(runId);
		if (exit && this.#unseen.delete(runId)) { this.#emitter.fire(exit); }
	}

	/** The Run's process ends and its exit record appears, but the runner has not looked yet (no onExit until checkNow). */
	exitUnseen(runId: string, facts: ExitFacts = {}): RunExit {
		const exit = this.#record(runId, facts);
		this.#unseen.add(runId);
		return exit;
	}

	/** The process ends and its exit record appears where the runner does not watch (checkNow fires nothing). */
	exitSilently(runId: string, facts: ExitFacts = {}): RunExit {
		return this.#record(runId, facts);
	}

	/** The runner's watch reports the exit record already on disk (again, or late). */
	fireExit(runId: string): void {
		const exit = this.exits.get(runId);
		if (exit) { this.#emitter.fire(exit); }
	}

	/** The Run's process ends: the exit record appears and onExit fires. */
	exit(runId: string, facts: ExitFacts = {}): RunExit {
		const exit = this.#record(runId, facts);
		this.#emitter.fire(exit);
		return exit;
	}

	#record(runId: string, facts: ExitFacts): RunExit {
		const now = this.now();
		const exit: RunExit = {
			runId,
			clientSubmitId: facts.clientSubmitId ?? `issue-run:${runId}`,
			exitCode: facts.exitCode === undefined ? 0 : facts.exitCode,
			signal: facts.signal ?? null,
			startedAtUnixMs: facts.startedAtUnixMs ?? this.launchedAt.get(runId) ?? now,
			endedAtUnixMs: facts.endedAtUnixMs ?? now,
		};
		if (facts.spawnError !== undefined) { exit.spawnError = facts.spawnError; }
		this.alive.delete(runId);
		this.exits.set(runId, exit);
		return exit;
	}

	dispose(): void {
		this.#emitter.dispose();
	}
}
