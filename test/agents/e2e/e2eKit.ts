// Shared pieces of the end-to-end agent tier: a real Host (dist/cli.js host) whose config names claude/codex
// targets pointing at scripted model servers on 127.0.0.1, each with its own CLAUDE_CONFIG_DIR / CODEX_HOME and
// HOME, retries off (agentKit.claudeEnv, codexKit.codexTestArgs); and the Run/issue helpers the tests share.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTargetConfig } from '../../../src/core/runs/runProcessPort.js';
import type { ApprovalDto } from '../../../src/protocol/approvals.js';
import type { RunDto } from '../../../src/protocol/dto.js';
import {
	expectOk, type HostConfig, type HostHandle, issueGet, manualIssue, methods, runGet, startHost, waitFor,
} from '../../integration/harness.js';
import { killAllRuns } from '../../integration/runs/runTestKit.js';
import { claudeBin, claudeEnv, codexBin, type TempDir } from '../agentKit.js';
import { codexTestArgs, pidsWithArg } from '../codexKit.js';

/** A scratch home for one agent target: HOME, CLAUDE_CONFIG_DIR and CODEX_HOME live under it. */
export function targetHome(dir: TempDir, targetId: string): string {
	const home = join(dir.path, targetId);
	mkdirSync(join(home, 'claude-config'), { recursive: true });
	mkdirSync(join(home, 'codex-home'), { recursive: true });
	return home;
}

/** A claude target running the pinned CLI against `serverUrl`, isolated under `home`. */
export function claudeTarget(id: string, serverUrl: string, home: string, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	return { id, adapter: 'claude', path: claudeBin, ...extra, env: { ...claudeEnv(serverUrl, join(home, 'claude-config')), HOME: home, ...extra.env } };
}

/** A codex target running the pinned CLI against `serverUrl` (Responses API), isolated under `home`. */
export function codexTarget(id: string, serverUrl: string, home: string, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	return {
		id, adapter: 'codex', path: codexBin, model: 'gpt-5.5', args: [...codexTestArgs],
		env: { OPENAI_BASE_URL: `${serverUrl}/v1`, CODEX_HOME: join(home, 'codex-home'), HOME: home },
		...extra,
	};
}

/** Starts a real Host whose `.tutti/config.json` has these targets (claude/codex included), on `workspace` when given. */
export function startAgentHost(
	agentTargets: AgentTargetConfig[],
	extra: { maxParallelRuns?: number; developerConfirmation?: boolean; workspace?: string; modelPrices?: Record<string, { inputPerMTok: number; outputPerMTok: number; cacheReadPerMTok?: number; cacheWritePerMTok?: number }> } = {},
): Promise<HostHandle> {
	// The harness types its config for command targets; the Host itself validates every adapter.
	const config = {
		agentTargets, maxParallelRuns: extra.maxParallelRuns ?? 4,
		...(extra.developerConfirmation !== undefined ? { developerConfirmation: extra.developerConfirmation } : {}),
		...(extra.modelPrices !== undefined ? { modelPrices: extra.modelPrices } : {}),
	};
	return startHost({ config: () => config as unknown as HostConfig, ...(extra.workspace !== undefined ? { workspace: extra.workspace } : {}) });
}

/** Kills every Run process of the Host's workspace and any tool process carrying `markers` (Claude's Bash runs under setsid). */
export function killLeftovers(host: HostHandle | undefined, markers: string[] = []): void {
	if (host !== undefined) { killAllRuns(join(host.workspace, '.tutti')); }
	for (const marker of markers) {
		for (const pid of pidsWithArg(marker)) {
			try { process.kill(pid, 'SIGKILL'); } catch { /* gone */ }
		}
	}
}

/** A manual issue with one task on `agentTargetId` (dispatched at once); returns the ids. */
export async function manualTask(host: HostHandle, taskId: string, agentTargetId: string, content: string, issueId?: string): Promise<{ issueId: string; taskId: string }> {
	const issue = issueId ?? await manualIssue(host, `E2E ${taskId}`, true);
	methods['task/add'].result.parse(expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', issue, '--task-id', taskId, '--title', `Task ${taskId}`,
		'--content', content, '--agent-target-id', agentTargetId, '--json'], { asUser: true })));
	return { issueId: issue, taskId };
}

/** The task's latest Run id once it has one. */
export function latestRunId(host: HostHandle, issueId: string, taskId: string, timeoutMs = 30_000): Promise<string> {
	return waitFor(async () => {
		const task = (await issueGet(host, issueId)).tasks.find((t) => t.taskId === taskId);
		return task && task.latestRunId !== '' ? task.latestRunId : undefined;
	}, { what: `a Run of ${taskId}`, timeoutMs, intervalMs: 100 });
}

/** Waits until the Run has settled (status no longer running) and returns it. */
export function settledRun(host: HostHandle, runId: string, timeoutMs = 60_000): Promise<RunDto> {
	return waitFor(async () => {
		const run = await runGet(host, runId);
		return run.status !== 'running' && run.status !== 'not_started' ? run : undefined;
	}, { what: `run ${runId} to settle`, timeoutMs, intervalMs: 100 });
}

/** The Run's captured stdout through `tutti run log`. */
export async function runLog(host: HostHandle, runId: string, stream: 'stdout' | 'stderr' = 'stdout'): Promise<string> {
	const out = methods['run/log'].result.parse(expectOk(await host.cli(['run', 'log', '--run-id', runId, '--stream', stream, '--json'], { asUser: true })));
	return out.data;
}

/** The issue's approvals, as `tutti approval list` gives them to the developer. */
export async function approvalsOf(host: HostHandle, issueId: string): Promise<ApprovalDto[]> {
	return methods['approval/list'].result.parse(expectOk(await host.cli(['approval', 'list', '--issue-id', issueId, '--json'], { asUser: true }))).approvals;
}

/** Waits until the issue has `n` approvals and the last one is pending; returns it. */
export function pendingApproval(host: HostHandle, issueId: string, n = 1): Promise<ApprovalDto> {
	return waitFor(async () => {
		const list = await approvalsOf(host, issueId);
		return list.length === n && list[n - 1]!.status === 'pending' ? list[n - 1] : undefined;
	}, { what: `approval ${n} to be pending`, timeoutMs: 60_000, intervalMs: 200 });
}

/** The developer's `tutti approval answer` with `flags` (--allow, --deny, --for-task, --message, --input-json). */
export async function answerApproval(host: HostHandle, approvalId: string, ...flags: string[]): Promise<ApprovalDto> {
	return methods['approval/answer'].result.parse(expectOk(await host.cli(['approval', 'answer', '--approval-id', approvalId, ...flags, '--json'], { asUser: true }))).approval;
}
