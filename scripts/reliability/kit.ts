// Shared pieces of the fault campaign: a minimal control-plane client over the Host's Unix socket (the bulk of
// each workload), the real CLI (`node dist/cli.js`, for every read that checks the store), invariant checks on
// `plan issue get` snapshots, and a small result record each case fills in.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { interpretReply } from '../../src/cli/client.js';
import { postToHost } from '../../src/ipc/postToHost.js';
import { userTokenPathForSocket } from '../../src/ipc/endpointPaths.js';
import type { PlanSnapshotDto, RunDto } from '../../src/protocol/dto.js';
import { expectOk, methods, type HostHandle } from '../../test/integration/harness.js';

export { sleep } from '../../test/integration/harness.js';

/** One control-plane reply: the parsed result, or the wire error. */
export type Reply =
	| { ok: true; result: unknown }
	| { ok: false; reasonCode: string; message: string; hint: string; status?: number; transport?: string };

/** Who calls: the developer (user credential of the running Host) or an agent session token. */
export type Caller = 'user' | { token: string };

/** POST /v1/<method> over the socket; a connection failure or timeout becomes `{ok:false, transport}`. */
export async function call(host: HostHandle, method: string, params: unknown, caller: Caller, timeoutMs = 20_000): Promise<Reply> {
	let token: string | undefined;
	if (caller === 'user') {
		try {
			token = readFileSync(userTokenPathForSocket(host.socket), 'utf8').trim();
		} catch {
			return { ok: false, reasonCode: 'host_unavailable', message: 'no user token', hint: '', transport: 'ENOENT' };
		}
	} else {
		token = caller.token;
	}
	try {
		const reply = await postToHost({ socketPath: host.socket, method, body: JSON.stringify(params), token, timeoutMs });
		const outcome = interpretReply(reply);
		if (outcome.ok) {
			return { ok: true, result: JSON.parse(outcome.resultJson) as unknown };
		}
		return { ok: false, reasonCode: outcome.error.reasonCode, message: outcome.error.message, hint: outcome.error.hint, status: outcome.status };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? 'ERROR';
		return { ok: false, reasonCode: 'transport', message: (error as Error).message, hint: '', transport: code };
	}
}

/** `tutti plan issue get --full` through the real CLI, validated. */
export async function cliPlanGet(host: HostHandle, issueId: string): Promise<PlanSnapshotDto> {
	return methods['plan/get'].result.parse(expectOk(await host.cli(['plan', 'issue', 'get', '--issue-id', issueId, '--full', '--json'], { asUser: true })));
}

/** `tutti run list` through the real CLI, validated. */
export async function cliRunList(host: HostHandle, issueId: string): Promise<RunDto[]> {
	return methods['run/list'].result.parse(expectOk(await host.cli(['run', 'list', '--issue-id', issueId, '--json'], { asUser: true }))).runs;
}

/** `tutti issue list` through the real CLI: the issue ids. */
export async function cliIssueIds(host: HostHandle): Promise<Set<string>> {
	const list = methods['issue/list'].result.parse(expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true })));
	return new Set(list.issues.map((i) => i.issueId));
}

/** `tutti issue get` through the real CLI: the task ids. */
export async function cliIssueTaskIds(host: HostHandle, issueId: string): Promise<Set<string>> {
	const issue = methods['issue/get'].result.parse(expectOk(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true })));
	return new Set(issue.tasks.map((t) => t.taskId));
}

/**
 * Checkpoint and backlog invariants of one snapshot: at most one active checkpoint and it is
 * the execution's; sequences strictly increasing in backlog order with the active one oldest; no checkpoint bound
 * to a revision the graph has not reached; at most one settlement checkpoint per Run. Returns the violations.
 */
export function snapshotViolations(s: PlanSnapshotDto): string[] {
	const problems: string[] = [];
	const active = s.checkpoints.filter((c) => c.status === 'active');
	if (active.length > 1) {
		problems.push(`${active.length} active checkpoints`);
	}
	if ((s.activeCheckpoint?.checkpointId ?? '') !== s.execution.activeCheckpointId) {
		problems.push(`activeCheckpoint ${s.activeCheckpoint?.checkpointId} ≠ execution.activeCheckpointId ${s.execution.activeCheckpointId}`);
	}
	if (s.activeCheckpoint && active[0]?.checkpointId !== s.activeCheckpoint.checkpointId) {
		problems.push('the active checkpoint is missing from the checkpoint list');
	}
	for (let i = 1; i < s.checkpoints.length; i++) {
		if (s.checkpoints[i]!.sequence <= s.checkpoints[i - 1]!.sequence) {
			problems.push(`checkpoint sequences not strictly increasing: ${s.checkpoints.map((c) => c.sequence).join(',')}`);
			break;
		}
	}
	if (active.length === 1 && s.checkpoints.some((c) => c.status === 'pending' && c.sequence < active[0]!.sequence)) {
		problems.push('a pending checkpoint is older than the active one (promotion must be oldest first)');
	}
	for (const c of s.checkpoints) {
		if (c.graphRevision > s.execution.graphRevision || c.graphRevision < 1) {
			problems.push(`checkpoint ${c.checkpointId} bound to revision ${c.graphRevision} (graph at ${s.execution.graphRevision})`);
		}
		if (c.status !== 'active' && c.status !== 'pending') {
			problems.push(`checkpoint ${c.checkpointId} listed with status ${c.status}`);
		}
	}
	const runSubjects = s.checkpoints.filter((c) => c.subjectRunId !== '').map((c) => c.subjectRunId);
	if (new Set(runSubjects).size !== runSubjects.length) {
		problems.push(`a Run has two settlement checkpoints: ${runSubjects.join(',')}`);
	}
	return problems;
}

/** A case's outcome: counts and findings for RESULTS.md. */
export class CaseResult {
	readonly figures: [string, string][] = [];
	readonly failures: string[] = [];
	readonly notes: string[] = [];
	durationMs = 0;

	constructor(readonly name: string) {}

	figure(label: string, value: string | number): void {
		this.figures.push([label, String(value)]);
	}

	fail(message: string): void {
		if (this.failures.length < 50) {
			this.failures.push(message);
		}
		console.error(`  FAIL ${this.name}: ${message}`);
	}

	check(ok: boolean, message: string): void {
		if (!ok) {
			this.fail(message);
		}
	}

	get passed(): boolean {
		return this.failures.length === 0;
	}
}

/** A deterministic PRNG (mulberry32) so a failing campaign can be rerun with its seed. */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** The supervisor pid of a Run from its pid.json (a Run file, not the database), or undefined before it exists. */
export function supervisorPidOf(host: HostHandle, runId: string): number | undefined {
	try {
		const record = JSON.parse(readFileSync(join(host.workspace, '.tutti', 'runs', runId, 'pid.json'), 'utf8')) as { supervisorPid?: unknown };
		return typeof record.supervisorPid === 'number' ? record.supervisorPid : undefined;
	} catch {
		return undefined;
	}
}
