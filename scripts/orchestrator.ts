// The demo's scripted source agent: a real process that drives one managed issue through the `tutti` CLI only.
// `node dist/orchestrator.js --issue-id X [--cli PATH] [--timeout-ms N]` with TUTTI_IPC_HOOK and TUTTI_SESSION_TOKEN
// of the issue's source session in its environment. Progress lines go to stderr, one JSON summary to stdout.
import { join } from 'node:path';
import type { PlanSnapshotDto, PlanTaskDto, RunDto } from '../src/protocol/dto.js';
import { demoPlan, plannedRework } from './workers/demoPlan.js';
import { describeFailure, runTuttiCli, type CliError } from './workers/tuttiCli.js';

interface Options {
	issueId: string;
	cliJs: string;
	pollMs: number;
	timeoutMs: number;
}

/** A CLI command that failed with the Host's error envelope (or without one). */
class CommandFailed extends Error {
	constructor(message: string, readonly error: CliError | undefined) {
		super(message);
	}
}

const fenceReasons = new Set(['inactive_checkpoint', 'stale_graph_revision']);
const waitReasons = new Set(['capacity_exhausted', 'budget_unavailable']);

function parseOptions(argv: readonly string[]): Options {
	const value = (flag: string): string | undefined => {
		const at = argv.indexOf(flag);
		return at >= 0 ? argv[at + 1] : undefined;
	};
	const issueId = value('--issue-id');
	if (!issueId) {
		throw new Error('usage: orchestrator --issue-id X [--cli PATH] [--timeout-ms N] (with TUTTI_IPC_HOOK and TUTTI_SESSION_TOKEN set)');
	}
	return {
		issueId,
		cliJs: value('--cli') ?? join(__dirname, 'cli.js'),
		pollMs: Number(value('--poll-ms') ?? 120),
		timeoutMs: Number(value('--timeout-ms') ?? 120_000),
	};
}

function say(line: string): void {
	process.stderr.write(`${line}\n`);
}

function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

function isSuperseded(task: PlanTaskDto): boolean {
	return task.supersededAtUnixMs > 0;
}

class Orchestrator {
	readonly #options: Options;
	#requestSeq = 0;
	readonly #reworked = new Set<string>();
	readonly #seenStatus = new Map<string, string>();
	#seenCheckpoint = '';
	#fenceFailures = 0;

	constructor(options: Options) {
		this.#options = options;
	}

	async #cli(args: string[]): Promise<unknown> {
		const outcome = await runTuttiCli(this.#options.cliJs, [...args, '--json'], process.env);
		if (outcome.code !== 0 || outcome.error) {
			throw new CommandFailed(describeFailure(args, outcome), outcome.error);
		}
		return outcome.json;
	}

	#requestId(action: string): string {
		this.#requestSeq += 1;
		return `orchestrator-${process.pid}-${this.#requestSeq}-${action}`;
	}

	async #get(): Promise<PlanSnapshotDto> {
		return await this.#cli(['plan', 'issue', 'get', '--issue-id', this.#options.issueId, '--full']) as PlanSnapshotDto;
	}

	#fence(snapshot: PlanSnapshotDto, revision = snapshot.execution.graphRevision): string[] {
		return [
			'--issue-id', this.#options.issueId,
			'--checkpoint-id', snapshot.activeCheckpoint!.checkpointId,
			'--expected-graph-revision', String(revision),
		];
	}

	async #schedule(snapshot: PlanSnapshotDto, taskIds: string[], revision?: number): Promise<void> {
		say(`→ schedule ${taskIds.join(', ')} (rev ${revision ?? snapshot.execution.graphRevision})`);
		await this.#cli(['plan', 'issue', 'schedule', ...this.#fence(snapshot, revision),
			'--task-ids-json', JSON.stringify(taskIds), '--request-id', this.#requestId('schedule')]);
	}

	async #acknowledge(snapshot: PlanSnapshotDto): Promise<void> {
		say(`→ acknowledge ${snapshot.activeCheckpoint!.kind} ${snapshot.activeCheckpoint!.subjectTaskId}`.trimEnd());
		await this.#cli(['plan', 'issue', 'acknowledge', ...this.#fence(snapshot), '--request-id', this.#requestId('acknowledge')]);
	}

	async #mutate(snapshot: PlanSnapshotDto, operations: unknown[]): Promise<{ graphRevision: number }> {
		return await this.#cli(['plan', 'issue', 'mutate', ...this.#fence(snapshot),
			'--operations-json', JSON.stringify(operations), '--request-id', this.#requestId('mutate')]) as { graphRevision: number };
	}

	async #planGraph(snapshot: PlanSnapshotDto): Promise<void> {
		say(`→ mutate: add ${demoPlan.length} tasks`);
		const result = await this.#mutate(snapshot, demoPlan.map((task) => ({ kind: 'add', task })));
		say(`  graph revision ${result.graphRevision}`);
	}

	async #rework(snapshot: PlanSnapshotDto, failedTaskId: string): Promise<void> {
		const { replacement } = plannedRework;
		say(`↻ rework ${failedTaskId} → ${replacement.taskId} (sparse: new id and corrected content; target and dependencies inherited)`);
		const result = await this.#mutate(snapshot, [{ kind: 'rework', taskId: failedTaskId, task: replacement }]);
		this.#reworked.add(failedTaskId);
		// Schedule the replacement (and anything else ready) with the revision the mutation returned.
		const refreshed = await this.#get();
		const ready = refreshed.readyTaskIds;
		if (!ready.includes(replacement.taskId)) {
			const blocker = refreshed.tasks.find((t) => t.taskId === replacement.taskId)?.blockerReason ?? 'missing';
			throw new Error(`replacement ${replacement.taskId} is not ready after rework (blocker: ${blocker})`);
		}
		await this.#schedule(refreshed, ready, result.graphRevision);
	}

	async #complete(snapshot: PlanSnapshotDto): Promise<void> {
		say('→ complete --decision goal_satisfied');
		await this.#cli(['plan', 'issue', 'complete', ...this.#fence(snapshot), '--decision', 'goal_satisfied',
			'--request-id', this.#requestId('complete')]);
	}

	async #stopPlan(snapshot: PlanSnapshotDto, reason: string): Promise<void> {
		if (!snapshot.activeCheckpoint) {
			return;
		}
		say(`→ stop: ${reason}`);
		try {
			await this.#cli(['plan', 'issue', 'stop', ...this.#fence(snapshot), '--reason', reason, '--request-id', this.#requestId('stop')]);
		} catch (error) {
			say(`  stop failed: ${(error as Error).message}`);
		}
	}

	/** Prints one compact line per task start/finish and per newly active checkpoint. */
	async #report(snapshot: PlanSnapshotDto): Promise<void> {
		for (const task of snapshot.tasks) {
			const before = this.#seenStatus.get(task.taskId) ?? 'not_started';
			const now = task.status;
			if (before === now) {
				continue;
			}
			this.#seenStatus.set(task.taskId, now);
			if (before === 'not_started') {
				say(`▶ started   ${task.taskId} (target ${task.agentTargetId})`);
			}
			if (now === 'running' || now === 'not_started') {
				continue;
			}
			if (before === 'pending_acceptance' && now === 'completed') {
				say(`✔ accepted  ${task.taskId}`);
				continue;
			}
			const run = task.latestRunId ? await this.#cli(['run', 'get', '--run-id', task.latestRunId]) as RunDto : undefined;
			const mark = now === 'failed' ? '✗ failed    ' : now === 'canceled' ? '■ canceled  ' : '✓ finished  ';
			const took = run && run.outcome !== null ? ` (${(run.durationMs / 1000).toFixed(2)}s)` : '';
			say(`${mark}${task.taskId} — ${run?.outcomeLabel ?? now}${took}`);
		}
		const active = snapshot.activeCheckpoint;
		const key = active ? `${active.checkpointId}@${active.graphRevision}` : '';
		if (active && key !== this.#seenCheckpoint) {
			const subject = active.subjectTaskId ? ` · ${active.subjectTaskId}` : '';
			const backlog = snapshot.checkpoints.filter((c) => c.status === 'pending').length;
			say(`◆ checkpoint ${active.kind}${subject} · rev ${active.graphRevision}${backlog ? ` · ${backlog} queued` : ''}`);
		}
		this.#seenCheckpoint = key;
	}

	/** One decision at the active checkpoint. Returns true when there is nothing to do but wait. */
	async #decide(snapshot: PlanSnapshotDto): Promise<boolean> {
		const active = snapshot.activeCheckpoint;
		if (!active || snapshot.dispatchPaused) {
			return true;
		}
		const can = (action: string): boolean => snapshot.allowedActions.includes(action as PlanSnapshotDto['allowedActions'][number]);
		const ready = snapshot.readyTaskIds;
		switch (active.kind) {
			case 'initial_schedule':
				if (snapshot.tasks.filter((t) => !isSuperseded(t)).length === 0) {
					await this.#planGraph(snapshot);
				} else if (ready.length > 0 && can('schedule')) {
					await this.#schedule(snapshot, ready);
				} else {
					throw new Error(`nothing to schedule at the initial checkpoint: ${snapshot.recoveryHint}`);
				}
				return false;
			case 'all_tasks_terminal':
				await this.#complete(snapshot);
				return false;
			case 'task_failed':
			case 'task_canceled': {
				const subject = snapshot.tasks.find((t) => t.taskId === active.subjectTaskId);
				if (subject && !isSuperseded(subject)) {
					if (subject.taskId !== plannedRework.failingTaskId || this.#reworked.has(subject.taskId)) {
						await this.#stopPlan(snapshot, `unplanned ${active.kind} of ${subject.taskId}`);
						throw new Error(`task ${subject.taskId} ended ${subject.status}; the demo plans exactly one rework (of ${plannedRework.failingTaskId})`);
					}
					await this.#rework(snapshot, subject.taskId);
					return false;
				}
				break;
			}
			default:
				break;
		}
		if (ready.length > 0 && can('schedule')) {
			await this.#schedule(snapshot, ready);
		} else if (can('acknowledge')) {
			await this.#acknowledge(snapshot);
		} else {
			throw new Error(`no legal next step at ${active.kind} (allowed: ${snapshot.allowedActions.join(', ')}): ${snapshot.recoveryHint}`);
		}
		return false;
	}

	async run(): Promise<PlanSnapshotDto> {
		const deadline = Date.now() + this.#options.timeoutMs;
		for (;;) {
			if (Date.now() > deadline) {
				throw new Error(`the issue did not complete within ${this.#options.timeoutMs} ms`);
			}
			const snapshot = await this.#get();
			await this.#report(snapshot);
			const status = snapshot.execution.status;
			if (status === 'completed') {
				return snapshot;
			}
			if (status === 'archiving' || status === 'archived' || status === 'orphaned_source') {
				throw new Error(`the execution ended ${status} without completing`);
			}
			let idle: boolean;
			try {
				idle = await this.#decide(snapshot);
				this.#fenceFailures = 0;
			} catch (error) {
				const reason = error instanceof CommandFailed ? error.error?.reasonCode ?? '' : '';
				if (fenceReasons.has(reason) && this.#fenceFailures === 0) {
					// Bounded recovery: refresh once (the next loop's get) and retry once.
					this.#fenceFailures = 1;
					say(`  ${reason}: refreshing once and retrying once`);
					continue;
				}
				if (waitReasons.has(reason)) {
					say(`  ${reason}: waiting for running work`);
					idle = true;
				} else {
					throw error;
				}
			}
			if (idle) {
				await sleep(this.#options.pollMs);
			}
		}
	}
}

async function main(): Promise<number> {
	const options = parseOptions(process.argv.slice(2));
	for (const name of ['TUTTI_IPC_HOOK', 'TUTTI_SESSION_TOKEN']) {
		if (!process.env[name]) {
			say(`orchestrator: ${name} is not set; the demo passes the Host socket and the source session token`);
			return 2;
		}
	}
	const startedAt = Date.now();
	try {
		const final = await new Orchestrator(options).run();
		say(`■ execution completed at revision ${final.execution.graphRevision}`);
		process.stdout.write(`${JSON.stringify({ issueId: options.issueId, status: final.execution.status, graphRevision: final.execution.graphRevision, elapsedMs: Date.now() - startedAt })}\n`);
		return 0;
	} catch (error) {
		say(`orchestrator failed: ${error instanceof Error ? error.message : String(error)}`);
		process.stdout.write(`${JSON.stringify({ issueId: options.issueId, status: 'failed', error: String(error instanceof Error ? error.message : error) })}\n`);
		return 1;
	}
}

main().then((code) => { process.exitCode = code; }, (error: unknown) => {
	say(`orchestrator crashed: ${String(error)}`);
	process.exitCode = 1;
});
