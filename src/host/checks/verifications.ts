// The owner of every verification, from the Run's reported success to the checks' answer. Once the Host has started,
// every store commit asks for a pass (hostServices.ts); a pass takes each running verification not in hand and runs
// its checks one after another in the task's tree (or the workspace, for a Run in the shared folder), each bounded by
// its timeout, unless its issue is paused (then it waits for the resume, as a launch does). Each check that ends is recorded once, and the answer settles the task in the same transaction as the
// last result (verificationSteps.ts). A Host that starts while a verification runs ends the check process the last
// Host left behind and runs that check again, once; a check that ended before the restart is not run again.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { checkPassed, type CheckResult, shortCommit } from '../../core/checks/checks.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { Clock } from '../../core/ports.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { type Verification, verificationRepository } from '../../store/repositories/verificationRepository.js';
import { processIsAlive } from '../../supervisor/processTable.js';
import type { SettlementObserver } from '../runs/runSettlement.js';
import { gitExit } from '../worktrees/git.js';
import { appendLog, checkEnvironment, type RunningCheck, startCheck } from './checkProcess.js';
import { completeVerificationInTx } from './verificationSteps.js';

export interface VerificationsDeps {
	workspace: string;
	store: Store;
	clock: Clock;
	/** The plan's settlement hook (a managed task's answer is its source agent's checkpoint). */
	observer: SettlementObserver;
	/** A Run's folder (its stderr log gets each check's output). */
	runDir(runId: string): string;
	log(line: string): void;
	/** The environment checks start from (default: the Host's). */
	env?: NodeJS.ProcessEnv;
	/** Told when a check's process started and when its answer was recorded (the bench measures the Host's part). */
	onTiming?(event: { kind: 'check_started' | 'answer_recorded'; verificationId: string; index: number; atMs: number }): void;
}

export class Verifications implements Disposable {
	readonly #d: VerificationsDeps;
	readonly #inHand = new Map<string, Promise<void>>();
	readonly #live = new Map<string, RunningCheck>();
	#wanted = false;
	#loop: Promise<void> | undefined;
	#started = false;
	#disposed = false;

	constructor(deps: VerificationsDeps) {
		this.#d = deps;
	}

	/**
	 * Host start: every verification a Host left running has its check process (if it still lives) ended and one more
	 * attempt counted, then runs on from its first check without an answer. Call once, before the first trigger.
	 */
	async start(): Promise<void> {
		if (this.#started) { return; }
		this.#started = true;
		const running = this.#d.store.read((r) => verificationRepository.listRunning(r));
		for (const v of running) {
			if (v.currentIndex >= 0 && v.currentPid > 0 && processIsAlive(v.currentPid, v.currentStartTicks === '' ? null : v.currentStartTicks)) {
				try { process.kill(-v.currentPid, 'SIGKILL'); } catch { /* gone meanwhile */ }
			}
			if (v.currentIndex >= 0) {
				this.#d.log(`check ${v.checks[v.currentIndex]?.name ?? v.currentIndex} of run ${v.runId} was interrupted by a Host restart; it runs again`);
			}
			try {
				await this.#d.store.transaction((tx) => { verificationRepository.resume(tx, v); });
			} catch (e) {
				this.#d.log(`resuming the checks of run ${v.runId} failed (the next start tries again): ${(e as Error).message}`);
			}
		}
		this.trigger();
	}

	/** Run a pass soon (coalesced): every commit asks for one once the Host has started. */
	trigger(): void {
		if (this.#disposed || !this.#started) { return; }
		this.#wanted = true;
		this.#loop ??= this.#passes();
	}

	isIdle(): boolean {
		return this.#loop === undefined && this.#inHand.size === 0;
	}

	async whenIdle(): Promise<void> {
		while (this.#loop !== undefined || this.#inHand.size > 0) {
			await Promise.allSettled([this.#loop, ...this.#inHand.values()]);
		}
	}

	/** Ends every check process in flight: its verification stays running and the next Host start runs that check again. */
	dispose(): void {
		this.#disposed = true;
		for (const check of this.#live.values()) { check.kill(); }
	}

	async #passes(): Promise<void> {
		await Promise.resolve();
		try {
			while (this.#wanted && !this.#disposed) {
				this.#wanted = false;
				// Most commits leave no verification waiting: one read, nothing more. A paused issue's checks wait for its resume.
				const waiting = this.#d.store.read((r) => verificationRepository.listRunning(r)
					.filter((v) => !this.#inHand.has(v.verificationId) && issueRepository.get(r, v.issueId)?.dispatchPaused !== true));
				for (const v of waiting) {
					const work = this.#verify(v).catch((e: unknown) => { this.#d.log(`the checks of run ${v.runId} stopped: ${(e as Error).message}`); })
						.finally(() => { this.#inHand.delete(v.verificationId); });
					this.#inHand.set(v.verificationId, work);
				}
			}
		} finally {
			this.#loop = undefined;
		}
	}

	/** Runs the verification's remaining checks in order, stopping at the first that fails. */
	async #verify(v: Verification): Promise<void> {
		const where = v.directory === '' ? this.#d.workspace : resolve(this.#d.workspace, v.directory);
		const problem = await this.#placeProblem(v, where);
		if (problem !== null) {
			this.#d.log(`the checks of run ${v.runId} cannot run: ${problem}`);
			await this.#complete(v, 'failed', problem);
			return;
		}
		const done = this.#d.store.read((r) => verificationRepository.results(r, v.verificationId));
		if (done.some((r) => !checkPassed(r))) { await this.#complete(v, 'failed', ''); return; }
		for (let index = done.length; index < v.checks.length; index += 1) {
			// A pause gates every check's start as it gates every launch; the resume's commit brings the next pass.
			if (this.#disposed || this.#paused(v.issueId)) { return; }
			const result = await this.#runCheck(v, index, where);
			if (this.#disposed && result.exitCode === null && result.error === '' && !result.timedOut) { return; }
			const last = index === v.checks.length - 1;
			const passed = checkPassed(result);
			await this.#d.store.transaction((tx) => {
				verificationRepository.recordResult(tx, v.verificationId, result);
				if (!passed || last) { completeVerificationInTx({ observer: this.#d.observer }, tx, v.verificationId, passed ? 'passed' : 'failed', '', this.#d.clock.now()); }
			});
			this.#d.onTiming?.({ kind: 'answer_recorded', verificationId: v.verificationId, index, atMs: performance.now() });
			if (!passed) { return; }
		}
		if (v.checks.length === 0) { await this.#complete(v, 'passed', ''); }
	}

	#paused(issueId: string): boolean {
		return this.#d.store.read((r) => issueRepository.get(r, issueId)?.dispatchPaused === true);
	}

	/** Why the checks cannot run where they must (null: they can): the tree is gone, or not at the commit to verify. */
	async #placeProblem(v: Verification, where: string): Promise<string | null> {
		if (!existsSync(where)) { return `${where} does not exist any more`; }
		if (v.subject !== 'commit') { return null; }
		const head = await gitExit(where, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => null);
		const at = head?.exitCode === 0 ? head.stdout.trim() : '';
		return at === v.commit ? null : `its tree ${v.directory} is at ${at === '' ? 'no commit' : shortCommit(at)}, not at the result ${shortCommit(v.commit)} they verify`;
	}

	async #runCheck(v: Verification, index: number, cwd: string): Promise<CheckResult> {
		const check = v.checks[index]!;
		// Durable before the process exists: a Host that dies from here on counts this start as interrupted.
		await this.#d.store.transaction((tx) => { verificationRepository.markCurrent(tx, v.verificationId, index, 0, ''); });
		const logFile = join(this.#d.runDir(v.runId), 'stderr.log');
		const running = startCheck({
			check, index, cwd, tuttiDir: join(this.#d.workspace, '.tutti'), logFile,
			env: checkEnvironment(this.#d.env ?? process.env, join(this.#d.workspace, '.tutti'), {
				TUTTI_ISSUE_ID: v.issueId, TUTTI_TASK_ID: v.taskId, TUTTI_RUN_ID: v.runId, TUTTI_CHECK_NAME: check.name, TUTTI_CHECK_COMMIT: v.commit,
			}),
			now: () => this.#d.clock.now(),
			onSpawn: (pid, startTicks) => {
				this.#d.onTiming?.({ kind: 'check_started', verificationId: v.verificationId, index, atMs: performance.now() });
				// Kept so a later Host can end it; a failed write only loses that (the check still runs again after a restart).
				void this.#d.store.transaction((tx) => { verificationRepository.markCurrent(tx, v.verificationId, index, pid, startTicks); })
					.then(() => { appendLog(logFile, `[check ${check.name}] running as pid ${pid} (a Host restart ends it and runs the check again)\n`); })
					.catch((e: unknown) => { this.#d.log(`recording the process of check ${check.name} failed: ${(e as Error).message}`); });
			},
		});
		this.#live.set(v.verificationId, running);
		try {
			const ended = await running.done;
			return { ...ended, interrupted: v.interruptions[String(index)] ?? 0 };
		} finally {
			this.#live.delete(v.verificationId);
		}
	}

	async #complete(v: Verification, status: 'passed' | 'failed', problem: string): Promise<void> {
		await this.#d.store.transaction((tx) => { completeVerificationInTx({ observer: this.#d.observer }, tx, v.verificationId, status, problem, this.#d.clock.now()); });
	}
}
