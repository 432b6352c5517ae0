// In-process kit for wake delivery, the watchdog and source sessions: the real Host services and plan service over
// a real Store, a fake clock, a scripted RunProcessPort, and a wake loop without a timer (tests call tick()).
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Checkpoint, Execution, Issue, Wake } from '../../../../src/core/model.js';
import type { Event } from '../../../../src/core/events.js';
import type { HostConfig } from '../../../../src/host/config.js';
import { createHostServices, type HostServices } from '../../../../src/host/services/hostServices.js';
import { createPlan } from '../../../../src/host/services/plan/createPlan.js';
import { WakeService } from '../../../../src/host/wakes/wakeService.js';
import { type Caller, type Method, methods, type Params, type ParsedParams, type Result } from '../../../../src/protocol/controlPlane.js';
import { Store } from '../../../../src/store/database.js';
import { checkpointRepository } from '../../../../src/store/repositories/checkpointRepository.js';
import { executionRepository } from '../../../../src/store/repositories/executionRepository.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { type Turn, turnRepository } from '../../../../src/store/repositories/turnRepository.js';
import { wakeRepository } from '../../../../src/store/repositories/wakeRepository.js';
import type { SqlValue } from '../../../../src/store/tx.js';
import { FakeRunProcessPort } from '../services/fakeRunProcessPort.js';
import { commandTarget, FakeClock, sequentialIds, user, userCredential } from '../services/serviceHarness.js';

export const fiveMinutes = 5 * 60_000;
export const leaseMs = 60_000;

export function sourceCaller(sessionId: string): Caller {
	return { kind: 'session', sessionId, role: 'source' };
}

export interface WakeKitOptions {
	dir?: string;
	clock?: FakeClock;
	runs?: FakeRunProcessPort;
	/** Id scope (restart tests use a new one per Host). */
	scope?: string;
	config?: Partial<HostConfig>;
}

/**
 * The Host sees the store's commits through this gate. The Host reacts to every commit (its dispatcher and wake loop);
 * a quiet write is one the test sets up without that reaction, as if it had happened while the Host looked away.
 */
export class CommitGate {
	#quiet = 0;

	async quietly<T>(write: () => Promise<T>): Promise<T> {
		this.#quiet += 1;
		try { return await write(); } finally { this.#quiet -= 1; }
	}

	/** The store as the Host sees it: the same store, with commits during a quiet write not announced. */
	view(store: Store): Store {
		const onDidCommit: Event<{ version: number }> = (listener) => store.onDidCommit((e) => { if (this.#quiet === 0) { listener(e); } });
		return new Proxy(store, {
			get: (target, key) => {
				if (key === 'onDidCommit') { return onDidCommit; }
				const value: unknown = Reflect.get(target, key, target);
				return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
			},
		});
	}
}

export class WakeKit {
	private constructor(
		readonly dir: string,
		readonly workspace: string,
		readonly tuttiDir: string,
		readonly store: Store,
		readonly clock: FakeClock,
		readonly runs: FakeRunProcessPort,
		readonly services: HostServices,
		readonly config: HostConfig,
		readonly logs: string[],
		readonly gate: CommitGate,
	) {}

	static async open(options: WakeKitOptions = {}): Promise<WakeKit> {
		const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tutti-wakes-'));
		const workspace = join(dir, 'ws');
		const tuttiDir = join(workspace, '.tutti');
		mkdirSync(tuttiDir, { recursive: true });
		const reopened = readdirSync(tuttiDir).length > 0;
		const clock = options.clock ?? new FakeClock();
		const store = await Store.open({ dir: tuttiDir, lease: false });
		const runs = options.runs ?? new FakeRunProcessPort(tuttiDir, () => clock.now());
		const config: HostConfig = { agentTargets: [commandTarget('src'), commandTarget('w')], maxParallelRuns: 4, autoAcceptDefault: false, ...options.config };
		const logs: string[] = [];
		const gate = new CommitGate();
		const services = createHostServices({
			workspace, tuttiDir, store: gate.view(store), clock, ids: sequentialIds(options.scope ?? ''), runs, config,
			endpoint: join(dir, 'cp.sock'), userCredential, cliShim: join(dir, 'bin', 'tutti'),
			log: (line) => { logs.push(line); }, wakeTickMs: 0, wakeLeaseMs: leaseMs, stallProbeMs: 0,
		});
		// A fresh store is a started Host (every commit wakes the wake loop); a reopened one is started by the test.
		if (!reopened) { await services.start(); }
		return new WakeKit(dir, workspace, tuttiDir, store, clock, runs, services, config, logs, gate);
	}

	get wakes(): WakeService { return this.services.wakes; }

	/** A second wake loop over the same store and processes (another Host replica) with its own lease owner. */
	replica(owner: string): WakeService {
		return new WakeService({
			workspace: this.workspace, endpoint: join(this.dir, 'cp.sock'), store: this.store, clock: this.clock, ids: sequentialIds(owner),
			runs: this.runs, config: this.config, log: (line) => { this.logs.push(line); }, tickMs: 0, leaseMs, owner,
		});
	}

	call<M extends Method>(method: M, params: Params<M>, caller: Caller = user): Promise<Result<M>> {
		const parsed = methods[method].params.parse(params) as ParsedParams<M>;
		const handler = this.services.api.handlers[method] as (p: ParsedParams<M>, c: Caller) => Promise<Result<M>>;
		return handler(parsed, caller);
	}

	/** `plan issue create --source-target src --as-user`: a managed issue whose source session Tutti starts. */
	async managed(title = 'Goal', requestId = `create-${title}`): Promise<Result<'plan/create'>> {
		const created = await this.call('plan/create', { title, content: `Reach ${title}.`, requestId, sourceTargetId: 'src' });
		await this.idle();
		return created;
	}

	/**
	 * The same `plan/create --source-target src` through the plan function itself, without the wake pass the Host
	 * runs after a plan command: the initial wake stays prepared until the test ticks.
	 */
	async managedQuiet(title = 'Goal'): Promise<Result<'plan/create'>> {
		const params = methods['plan/create'].params.parse({ title, content: `Reach ${title}.`, requestId: `quiet-${title}`, sourceTargetId: 'src' });
		const unused = async (): Promise<never> => { throw new Error('not used by create'); };
		return this.gate.quietly(() => createPlan({
			store: this.store, clock: this.clock, ids: this.quietIds, config: this.config,
			admission: { admit: () => { throw new Error('not used by create'); }, launch: unused, stopRunsOfIssue: unused, reopenChangedParents: unused, countEndedTurns: unused },
			processes: { interrupt: unused },
			log: (line) => { this.logs.push(line); },
		}, params, user));
	}

	readonly quietIds = sequentialIds('q');

	/** A source session bound to the `src` target, opened by the developer (several issues may share it). */
	async sourceSession(): Promise<string> {
		return (await this.call('session/open', { role: 'source', agentTargetId: 'src' })).sessionId;
	}

	async idle(): Promise<void> {
		await this.services.whenIdle();
	}

	/** One wake pass, then everything it started. */
	async tick(): Promise<void> {
		await this.wakes.tick();
		await this.idle();
	}

	wakesOf(executionId: string): Wake[] {
		return this.store.read((r) => wakeRepository.listByExecution(r, executionId));
	}

	wake(wakeId: string): Wake {
		const w = this.store.read((r) => wakeRepository.get(r, wakeId));
		if (!w) { throw new Error(`no wake ${wakeId}`); }
		return w;
	}

	execution(executionId: string): Execution {
		const e = this.store.read((r) => executionRepository.get(r, executionId));
		if (!e) { throw new Error(`no execution ${executionId}`); }
		return e;
	}

	checkpoint(checkpointId: string): Checkpoint {
		const c = this.store.read((r) => checkpointRepository.get(r, checkpointId));
		if (!c) { throw new Error(`no checkpoint ${checkpointId}`); }
		return c;
	}

	checkpointsOf(executionId: string): Checkpoint[] {
		return this.store.read((r) => checkpointRepository.listByExecution(r, executionId));
	}

	issue(issueId: string): Issue {
		const i = this.store.read((r) => issueRepository.get(r, issueId));
		if (!i) { throw new Error(`no issue ${issueId}`); }
		return i;
	}

	turn(submitId: string): Turn | undefined {
		return this.store.read((r) => turnRepository.bySubmitId(r, submitId));
	}

	/** Launches of source-session Turns (runner ids `turn-…`). */
	turnLaunches(): string[] {
		return this.runs.launches.filter((l) => l.runId.startsWith('turn-')).map((l) => l.runId);
	}

	/** The runner id of the last launched Turn. */
	lastTurnProcess(): string {
		const all = this.turnLaunches();
		const last = all[all.length - 1];
		if (!last) { throw new Error('no Turn was launched'); }
		return last;
	}

	/** Writes rows directly (corruption and crash simulations only), unseen by the Host until the test ticks. */
	async sql(sql: string, params: SqlValue[] = []): Promise<void> {
		await this.gate.quietly(() => this.store.transaction((tx) => { tx.run(sql, params); }));
	}

	async close(keepDir = false): Promise<void> {
		await this.idle();
		this.services.dispose();
		await this.store.close();
		if (!keepDir) { rmSync(this.dir, { recursive: true, force: true }); }
	}
}
