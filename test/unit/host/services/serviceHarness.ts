// In-process harness for the Host services: a real Store in a temp dir, a fake clock and ids, a scripted
// RunProcessPort and (by default) a recording stand-in for the plan service.
import { strict as assert } from 'node:assert';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DomainError, type ReasonCode } from '../../../../src/core/errors.js';
import type { Issue } from '../../../../src/core/model.js';
import type { HostConfig } from '../../../../src/host/config.js';
import type { AgentTargetConfig } from '../../../../src/core/runs/runProcessPort.js';
import type { WaitTimer } from '../../../../src/host/services/await/awaitService.js';
import type { RunAdmission } from '../../../../src/host/runs/runAdmission.js';
import type { PlanService, ServiceDeps } from '../../../../src/host/services/contracts.js';
import { createHostServices, type HostServices } from '../../../../src/host/services/hostServices.js';
import { type Caller, type Method, methods, type Params, type ParsedParams, type Result } from '../../../../src/protocol/controlPlane.js';
import { Store } from '../../../../src/store/database.js';
import { issueRepository } from '../../../../src/store/repositories/issueRepository.js';
import { FakeRunProcessPort } from './fakeRunProcessPort.js';

export const userCredential = 'the-developers-credential';
export const user: Caller = { kind: 'user' };

export class FakeClock {
	constructor(public t = 1_700_000_000_000) {}
	now(): number { return this.t; }
	advance(ms: number): void { this.t += ms; }
}

/** `run-1`, `session-2`, …; a scope (e.g. one per Host of a restart test) keeps ids unique across instances. */
export function sequentialIds(scope = ''): { next(prefix: string): string } {
	let n = 0;
	return { next: (prefix) => `${prefix}-${scope ? `${scope}-` : ''}${++n}` };
}

export interface PlanCall { method: string; args: unknown[] }

/** Records what the generic surface asks of the plan service. */
export function recordingPlanService(calls: PlanCall[]): (deps: ServiceDeps & { admission: RunAdmission }) => PlanService {
	return () => {
		const unsupported = async (): Promise<never> => { throw new Error('not part of this test'); };
		return {
			create: unsupported, get: unsupported, schedule: unsupported, mutate: unsupported,
			acknowledge: unsupported, complete: unsupported, stop: unsupported,
			resume: async (params, caller) => { calls.push({ method: 'resume', args: [params, caller] }); return undefined as never; },
			pause: unsupported,
			setPausedByUser: async (issueId, paused) => { calls.push({ method: 'setPausedByUser', args: [issueId, paused] }); },
			repairOnStart: async () => { calls.push({ method: 'repairOnStart', args: [] }); },
			onRunSettled: (_tx, settled) => { calls.push({ method: 'onRunSettled', args: [settled.run.runId, settled.run.outcome] }); },
		};
	};
}

export function commandTarget(id: string, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	return { id, adapter: 'command', argv: [process.execPath, '-e', 'process.exit(0)'], ...extra };
}

export interface HarnessOptions {
	config?: Partial<HostConfig>;
	/** Reuse the store directory of an earlier harness (restart: the test starts the services itself), or place a new one. */
	dir?: string;
	runs?: FakeRunProcessPort;
	clock?: FakeClock;
	/** Use the real plan service instead of the recording stand-in. */
	realPlan?: boolean;
	/** Real time of the bounded waits (default: the wall clock, woken by store commits). */
	awaitTimer?: WaitTimer;
}

export class ServiceHarness {
	private constructor(
		readonly planCalls: PlanCall[],
		readonly logs: string[],
		readonly dir: string,
		readonly workspace: string,
		readonly store: Store,
		readonly clock: FakeClock,
		readonly runs: FakeRunProcessPort,
		readonly services: HostServices,
	) {}

	static async open(options: HarnessOptions = {}): Promise<ServiceHarness> {
		const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'tutti-services-'));
		const workspace = join(dir, 'ws');
		const tuttiDir = join(workspace, '.tutti');
		mkdirSync(tuttiDir, { recursive: true });
		const reopened = readdirSync(tuttiDir).length > 0;
		const clock = options.clock ?? new FakeClock();
		const store = await Store.open({ dir: tuttiDir, lease: false });
		const runs = options.runs ?? new FakeRunProcessPort(tuttiDir, () => clock.now());
		const config: HostConfig = { agentTargets: [commandTarget('ok'), commandTarget('other')], maxParallelRuns: 4, autoAcceptDefault: false, ...options.config };
		const planCalls: PlanCall[] = [];
		const logs: string[] = [];
		const services = createHostServices({
			workspace, tuttiDir, store, clock, ids: sequentialIds(), runs, config,
			endpoint: join(dir, 'cp.sock'), userCredential, cliShim: join(dir, 'bin', 'tutti'),
			log: (line) => { logs.push(line); },
			...(options.realPlan ? {} : { planServiceFactory: recordingPlanService(planCalls) }),
			...(options.awaitTimer ? { awaitTimer: options.awaitTimer } : {}),
			// No wake timer and no stall timer: the tests drive every pass (commits, tick() and checkStalls() where a test asks).
			wakeTickMs: 0,
			stallProbeMs: 0,
		});
		if (!reopened) {
			// A fresh store is a started Host: from here on every commit wakes the dispatcher and the wake loop.
			await services.start();
			planCalls.length = 0;
		}
		return new ServiceHarness(planCalls, logs, dir, workspace, store, clock, runs, services);
	}

	call<M extends Method>(method: M, params: Params<M>, caller: Caller = user): Promise<Result<M>> {
		const parsed = methods[method].params.parse(params) as ParsedParams<M>;
		const handler = this.services.api.handlers[method] as (p: ParsedParams<M>, c: Caller) => Promise<Result<M>>;
		return handler(parsed, caller);
	}

	/** Opens an agent session and returns its caller identity and token. */
	async session(role: 'source' | 'worker' | 'reviewer' = 'worker'): Promise<{ caller: Caller; token: string }> {
		const opened = await this.call('session/open', { role });
		const caller = this.services.api.authenticate(opened.token);
		assert.ok(caller);
		return { caller, token: opened.token };
	}

	/** A managed issue row, written directly (the plan service that creates them is not under test here). */
	async managedIssue(issueId = 'managed-1', sourceSessionId = 'source-session-1'): Promise<Issue> {
		const now = this.clock.now();
		const issue: Issue = {
			issueId, title: 'Managed', content: 'goal', status: 'open', planningSource: 'tutti', sourceSessionId,
			dispatchPaused: false, autoAcceptDefault: false, createdAtUnixMs: now, updatedAtUnixMs: now,
		};
		await this.store.transaction((tx) => issueRepository.insert(tx, issue));
		return issue;
	}

	async idle(): Promise<void> {
		await this.services.whenIdle();
	}

	/** Closes services and store; keeps the directory when `keepDir` (restart tests). */
	async close(keepDir = false): Promise<void> {
		await this.idle();
		this.services.dispose();
		await this.store.close();
		if (!keepDir) { rmSync(this.dir, { recursive: true, force: true }); }
	}
}

export async function rejects(promise: Promise<unknown>, reason: ReasonCode): Promise<DomainError> {
	try {
		await promise;
	} catch (e) {
		assert.ok(e instanceof DomainError, `expected a DomainError(${reason}), got ${String(e)}`);
		assert.equal(e.reasonCode, reason, e.message);
		assert.ok(e.hint.length > 0, 'every rejection carries a hint');
		return e;
	}
	assert.fail(`expected ${reason}, but it succeeded`);
}
