// In-process kit for the plan service: a real Store on a temp dir, an injectable clock, sequential ids, a fake
// RunAdmission that creates Runs through the real runRepository, and helpers that drive one managed issue.
import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, type ReasonCode } from '../../../../src/core/errors.js';
import type { Checkpoint, Issue, Run, RunOutcome, Task, Wake } from '../../../../src/core/model.js';
import type { HostConfig } from '../../../../src/host/config.js';
import type { AdmittedRun, RunAdmission } from '../../../../src/host/runs/runAdmission.js';
import type { PlanService } from '../../../../src/host/services/contracts.js';
import { createPlanService } from '../../../../src/host/services/planService.js';
import { createReviewService, type ReviewService } from '../../../../src/host/services/reviews/reviewService.js';
import { paramsRejection } from '../../../../src/control-plane/wireErrors.js';
import { type Caller, methods, type Result } from '../../../../src/protocol/controlPlane.js';
import type { PlanSnapshotDto } from '../../../../src/protocol/dto.js';
import { Store } from '../../../../src/store/database.js';
import { checkpointRepository } from '../../../../src/store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { runRepository } from '../../../../src/store/repositories/runRepository.js';
import { sessionRepository } from '../../../../src/store/repositories/sessionRepository.js';
import { taskRepository } from '../../../../src/store/repositories/taskRepository.js';
import { wakeRepository } from '../../../../src/store/repositories/wakeRepository.js';
import type { Tx } from '../../../../src/store/tx.js';

export const user: Caller = { kind: 'user' };

export class FakeClock {
	constructor(public t = 1_700_000_000_000) {}
	now(): number { return this.t; }
	advance(ms: number): void { this.t += ms; }
}

/** Records admissions, launches and stops; Runs are real rows. `onStop` may settle Runs synchronously. */
export class FakeAdmission implements RunAdmission {
	readonly launched: string[][] = [];
	readonly stops: { issueId: string; reason: 'person' | 'host' }[] = [];
	onStop: ((issueId: string) => Promise<void>) | undefined;
	failNextStop: Error | undefined;
	#n = 0;

	constructor(private readonly clock: FakeClock) {}

	/** No Turn processes in these tests: nothing ended to count. */
	countEndedTurns(_issueId?: string): Promise<void> {
		return Promise.resolve();
	}

	/** No git in these tests: no parent's branch ever moves (a test may replace this). */
	reopenChangedParents(_issueId: string, _taskIds: readonly string[]): Promise<string[]> {
		return Promise.resolve([]);
	}

	admit(tx: Tx, issue: Issue, tasks: readonly Task[]): AdmittedRun[] {
		const now = this.clock.now();
		return tasks.map((task) => {
			const runId = `run-${++this.#n}`;
			runRepository.insert(tx, {
				runId, issueId: issue.issueId, taskId: task.taskId, agentTargetId: task.agentTargetId, agentSessionId: `worker-${runId}`,
				status: 'running', outcome: null, usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 },
				summary: '', errorMessage: '', exitCode: null, outputDir: '', executionDirectory: task.executionDirectory,
				createdAtUnixMs: now, startedAtUnixMs: now, completedAtUnixMs: 0, updatedAtUnixMs: now,
			});
			const current = taskRepository.get(tx, issue.issueId, task.taskId)!;
			taskRepository.update(tx, { ...current, status: 'running', latestRunId: runId, updatedAtUnixMs: now });
			return { runId, taskId: task.taskId };
		});
	}

	async launch(runIds: readonly string[]): Promise<void> {
		this.launched.push([...runIds]);
	}

	async stopRunsOfIssue(issueId: string, reason: 'person' | 'host'): Promise<void> {
		this.stops.push({ issueId, reason });
		if (this.failNextStop) {
			const e = this.failNextStop;
			this.failNextStop = undefined;
			throw e;
		}
		await this.onStop?.(issueId);
	}
}

/** Developer confirmation at Goal Review is off unless a test turns it on (its own tests are in test/unit/host/reviews). */
export function testConfig(extra: Partial<HostConfig> = {}): HostConfig {
	const target = (id: string): HostConfig['agentTargets'][number] => ({ id, adapter: 'command', argv: ['true'] });
	return { agentTargets: [target('ok'), target('other')], maxParallelRuns: 4, autoAcceptDefault: false, developerConfirmation: false, ...extra };
}

/** A task entry for `add` operations. */
export function taskSpec(taskId: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
	return { taskId, title: `Task ${taskId}`, content: `Do ${taskId}`, agentTargetId: 'ok', ...extra };
}

export interface Fence {
	checkpointId: string;
	expectedGraphRevision: number;
}

let requestCounter = 0;
export function requestId(what: string): string {
	return `${what}-${++requestCounter}`;
}

export class PlanKit {
	readonly admission: FakeAdmission;
	readonly plan: PlanService;
	/** The developer's decisions (accept / request changes, Goal Review). */
	readonly reviews: ReviewService;
	/** When a developer's decision committed (what wakes the dispatcher). */
	readonly workChanges: number[] = [];
	readonly logs: string[] = [];
	#sessions = 0;

	private constructor(readonly root: string, readonly store: Store, readonly clock: FakeClock, readonly config: HostConfig) {
		this.admission = new FakeAdmission(clock);
		let n = 0;
		this.plan = createPlanService({
			workspace: root, tuttiDir: join(root, '.tutti'), store, clock, ids: { next: (prefix) => `${prefix}-${++n}` },
			runs: undefined as never, config, endpoint: '', userCredential: '', cliShim: '',
			admission: this.admission, log: (line) => { this.logs.push(line); },
		});
		// The dispatcher reacts to store commits: a decision that committed is one that wakes it (a replay commits nothing).
		const reviews = createReviewService({ store, clock, config });
		const counted = <P, R>(decide: (params: P, caller: Caller) => Promise<R>) => async (params: P, caller: Caller): Promise<R> => {
			const before = store.version;
			try { return await decide(params, caller); } finally { if (store.version !== before) { this.workChanges.push(clock.now()); } }
		};
		this.reviews = { ...reviews, accept: counted(reviews.accept), requestChanges: counted(reviews.requestChanges) };
	}

	static async open(config: HostConfig = testConfig()): Promise<PlanKit> {
		const root = mkdtempSync(join(tmpdir(), 'tutti-plan-'));
		const store = await Store.open({ dir: join(root, '.tutti'), lease: false });
		return new PlanKit(root, store, new FakeClock(), config);
	}

	async close(): Promise<void> {
		await this.store.close();
		rmSync(this.root, { recursive: true, force: true });
	}

	/** A new session row of `role`; returns its caller. */
	async session(role: 'source' | 'worker' | 'reviewer' = 'source'): Promise<Caller & { kind: 'session' }> {
		const sessionId = `${role}-session-${++this.#sessions}`;
		await this.store.transaction((tx) => {
			sessionRepository.insert(tx, {
				sessionId, role, issueId: '', taskId: '', runId: '', agentTargetId: '', providerSessionId: '', createdAtUnixMs: this.clock.now(),
			}, createHash('sha256').update(sessionId).digest('hex'));
		});
		return { kind: 'session', sessionId, role };
	}

	/** A managed issue created by a fresh source session, optionally with tasks added by one mutation. */
	async managedIssue(tasks: Record<string, unknown>[] = []): Promise<ManagedIssueDriver> {
		const source = await this.session('source');
		const created = await this.plan.create({ title: 'Goal', content: 'Reach the goal', requestId: requestId('create') }, source);
		const driver = new ManagedIssueDriver(this, created.issueId, source);
		if (tasks.length > 0) { await driver.mutate(tasks.map((task) => ({ kind: 'add', task }))); }
		return driver;
	}

	/** Settles a running Run the way Run settlement does (run + task rows), then calls onRunSettled in the same transaction. */
	async settle(runId: string, outcome: RunOutcome, options: { observe?: boolean } = {}): Promise<void> {
		await this.store.transaction((tx) => {
			const now = this.clock.now();
			const run = runRepository.get(tx, runId)!;
			assert.equal(run.status, 'running', `run ${runId} is running`);
			const status = outcome === 'success' ? 'completed' : outcome === 'failure' ? 'failed' : 'canceled';
			const settledRun: Run = { ...run, status, outcome, completedAtUnixMs: now, updatedAtUnixMs: now };
			runRepository.update(tx, settledRun);
			const task = taskRepository.get(tx, run.issueId, run.taskId)!;
			const settledTask: Task = outcome !== 'success'
				? { ...task, status, updatedAtUnixMs: now }
				: task.autoAccept
					? { ...task, status: 'completed', acceptanceState: 'auto_checked', updatedAtUnixMs: now }
					: { ...task, status: 'pending_acceptance', acceptanceState: 'agent_claimed', updatedAtUnixMs: now };
			taskRepository.update(tx, settledTask);
			if (options.observe !== false) {
				this.plan.onRunSettled(tx, { issue: issueRepository.get(tx, run.issueId)!, task: settledTask, run: settledRun });
			}
		});
	}
}

export class ManagedIssueDriver {
	constructor(readonly kit: PlanKit, readonly issueId: string, readonly source: Caller & { kind: 'session' }) {}

	get executionId(): string { return `tutti-execution:${this.issueId}`; }

	async get(caller: Caller = this.source): Promise<PlanSnapshotDto> {
		return this.kit.plan.get({ issueId: this.issueId }, caller);
	}

	/** The fence of the active checkpoint (its id and the execution's revision). */
	async fence(): Promise<Fence> {
		const s = await this.get();
		assert.ok(s.activeCheckpoint, 'an active checkpoint');
		return { checkpointId: s.activeCheckpoint.checkpointId, expectedGraphRevision: s.execution.graphRevision };
	}

	/** Through the method table, as the control plane calls it: a malformed operation is refused before the service runs. */
	async mutate(ops: unknown, opts: Partial<Fence> & { caller?: Caller; requestId?: string } = {}): Promise<Result<'plan/mutate'>> {
		const params = methods['plan/mutate'].params.safeParse({ ...await this.fenceWith(opts), operations: ops, requestId: opts.requestId ?? requestId('mutate') });
		if (!params.success) { throw paramsRejection('plan/mutate', params.error); }
		return this.kit.plan.mutate(params.data, opts.caller ?? this.source);
	}

	async schedule(taskIds: string[], opts: Partial<Fence> & { caller?: Caller; requestId?: string } = {}): Promise<Result<'plan/schedule'>> {
		return this.kit.plan.schedule({ ...await this.fenceWith(opts), taskIds, requestId: opts.requestId ?? requestId('schedule') }, opts.caller ?? this.source);
	}

	async acknowledge(opts: Partial<Fence> & { caller?: Caller; requestId?: string } = {}): Promise<Result<'plan/acknowledge'>> {
		return this.kit.plan.acknowledge({ ...await this.fenceWith(opts), requestId: opts.requestId ?? requestId('ack') }, opts.caller ?? this.source);
	}

	async complete(opts: Partial<Fence> & { caller?: Caller; requestId?: string; disagreementReason?: string } = {}): Promise<Result<'plan/complete'>> {
		return this.kit.plan.complete({
			...await this.fenceWith(opts), decision: 'goal_satisfied', disagreementReason: opts.disagreementReason, requestId: opts.requestId ?? requestId('complete'),
		}, opts.caller ?? this.source);
	}

	/** The developer accepts a task's result (only the developer can). */
	async accept(taskId: string, caller: Caller = user): Promise<Result<'review/accept'>> {
		return this.kit.reviews.accept({ issueId: this.issueId, taskId }, caller);
	}

	async requestChanges(taskId: string, note: string, caller: Caller = user): Promise<Result<'review/requestChanges'>> {
		return this.kit.reviews.requestChanges({ issueId: this.issueId, taskId, note }, caller);
	}

	async stop(reason: string, opts: Partial<Fence> & { caller?: Caller; requestId?: string } = {}): Promise<Result<'plan/stop'>> {
		return this.kit.plan.stop({ ...await this.fenceWith(opts), reason, requestId: opts.requestId ?? requestId('stop') }, opts.caller ?? this.source);
	}

	async fenceWith(opts: Partial<Fence>): Promise<Fence & { issueId: string }> {
		if (opts.checkpointId !== undefined && opts.expectedGraphRevision !== undefined) {
			return { issueId: this.issueId, checkpointId: opts.checkpointId, expectedGraphRevision: opts.expectedGraphRevision };
		}
		const current = await this.fence();
		return { issueId: this.issueId, checkpointId: opts.checkpointId ?? current.checkpointId, expectedGraphRevision: opts.expectedGraphRevision ?? current.expectedGraphRevision };
	}

	task(s: PlanSnapshotDto, taskId: string): PlanSnapshotDto['tasks'][number] {
		const t = s.tasks.find((x) => x.taskId === taskId);
		assert.ok(t, `task ${taskId} in the snapshot`);
		return t;
	}

	/** The latest Run id of a task. */
	async runOf(taskId: string): Promise<string> {
		const run = this.task(await this.get(), taskId).latestRunId;
		assert.ok(run, `task ${taskId} has a run`);
		return run;
	}

	checkpoints(): Checkpoint[] {
		return this.kit.store.read((r) => checkpointRepository.listByExecution(r, this.executionId));
	}

	checkpoint(id: string): Checkpoint {
		const c = this.kit.store.read((r) => checkpointRepository.get(r, id));
		assert.ok(c, `checkpoint ${id}`);
		return c;
	}

	wakes(): Wake[] {
		return this.kit.store.read((r) => wakeRepository.listByExecution(r, this.executionId));
	}

	execution(): NonNullable<ReturnType<typeof executionRepository.get>> {
		return this.kit.store.read((r) => executionRepository.get(r, this.executionId))!;
	}

	runCheckpointId(runId: string): string { return `${this.executionId}:checkpoint:run:${runId}`; }
	get terminalId(): string { return `${this.executionId}:checkpoint:all-tasks-terminal`; }
}

/** Awaits `p` and asserts it rejects with a DomainError of `reason` (or one of `reasons`). */
export async function rejects(p: Promise<unknown>, reason: ReasonCode | readonly ReasonCode[], message?: RegExp): Promise<DomainError> {
	try {
		await p;
	} catch (e) {
		assert.ok(e instanceof DomainError, `a DomainError, got ${String(e)}`);
		const allowed = typeof reason === 'string' ? [reason] : reason;
		assert.ok(allowed.includes(e.reasonCode), `expected ${allowed.join('|')}, got ${e.reasonCode}: ${e.message}`);
		assert.ok(e.hint.length > 0, 'every rejection carries a hint');
		if (message) { assert.match(e.message, message); }
		return e;
	}
	assert.fail(`expected a rejection with ${String(reason)}`);
}
