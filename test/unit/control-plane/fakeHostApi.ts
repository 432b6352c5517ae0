// A scriptable HostApi for control-plane and CLI tests: known tokens, canned valid results, and issue ids that
// make a handler throw a DomainError, a plain Error, or return a reply that breaks the protocol.
import { DomainError } from '../../../src/core/errors.js';
import type { HostApi, MethodHandlers } from '../../../src/protocol/hostApi.js';
import { type Caller, type Method, methods } from '../../../src/protocol/controlPlane.js';
import type { IssueDto, IssueWithTasksDto, RunDto } from '../../../src/protocol/dto.js';
import { emptySpendDto } from '../../../src/host/usage/issueSpend.js';
import { StoreError } from '../../../src/store/storeErrors.js';

export const userToken = 'user-token-0123456789';
export const sourceToken = 'source-token-0123456789';

export interface FakeCall {
	method: Method;
	params: unknown;
	caller: Caller;
}

export interface FakeHostApi extends HostApi {
	readonly calls: FakeCall[];
	/** `run/log` serves this text in slices; `done` once `runEnded` is true and everything was read. */
	log: { text: string; runEnded: boolean; sliceBytes: number };
	/** Resolves a handler that waits on `slow`. */
	release(): void;
}

export function issueDtoFor(issueId: string, title = 'An issue'): IssueDto {
	return {
		issueId, title, content: '', status: 'open', planningSource: 'manual', sourceSessionId: '', dispatchPaused: false,
		autoAcceptDefault: false, taskCount: 0,
		counts: { notStarted: 0, running: 0, pendingAcceptance: 0, completed: 0, failed: 0, canceled: 0 },
		executionStatus: null, terminal: false,
		controls: { pause: true, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, reviewTask: false, integrate: false, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false },
		attention: { state: 'planned', label: 'Planned', reasons: [], activity: '', sinceUnixMs: 0, stalled: false, handBackCommand: '', sourceAgent: null, runs: [] },
		baseCommit: '', baseBranch: '', integratedCommit: '', integratedInto: '', changedAfterAcceptanceTaskIds: [], delivery: 'nothing_to_integrate', worktreeDisk: null, spend: emptySpendDto(),
		createdAtUnixMs: 1, updatedAtUnixMs: 1,
	};
}

export function runDtoFor(runId: string): RunDto {
	return {
		runId, issueId: 'ISSUE', taskId: 'T1', agentTargetId: 'sh', agentSessionId: 's', status: 'completed', outcome: 'success',
		outcomeLabel: 'Completed in 0m 01s', exitCode: 0, summary: '', errorMessage: '',
		usage: { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0,
		outputDir: '/tmp/x', executionDirectory: '/tmp', inWorktree: false, baseCommit: '', resultCommit: '', changedFiles: [], outsideChanges: [], stopNotes: [], stopping: false, controls: { stop: false }, stalled: null,
		createdAtUnixMs: 1, startedAtUnixMs: 1, completedAtUnixMs: 2, durationMs: 1,
	};
}

/** Issue ids with special behaviour in `issue/get` (and every method that takes issueId). */
export const special = {
	missing: 'missing',
	crash: 'crash',
	diskFull: 'disk-full',
	badReply: 'bad-reply',
	stale: 'stale',
	slow: 'slow',
} as const;

export function createFakeHostApi(workspace = '/fake/workspace'): FakeHostApi {
	const calls: FakeCall[] = [];
	let releaseSlow: (() => void) | undefined;
	const log = { text: '', runEnded: true, sliceBytes: 4 };
	const handle = async (method: Method, params: Record<string, unknown>, caller: Caller): Promise<unknown> => {
		calls.push({ method, params, caller });
		const issueId = typeof params['issueId'] === 'string' ? params['issueId'] : undefined;
		switch (issueId) {
			case special.missing:
				throw new DomainError('issue_not_found', `issue ${issueId} does not exist`, 'Run `tutti issue list --json` and use an issueId it lists.');
			case special.crash:
				throw new Error('kaput\nsecond line');
			case special.diskFull:
				throw new StoreError('store_io', 'the journal could not be written (ENOSPC); restart the Host once space is back');
			case special.badReply:
				return { nope: true };
			case special.stale:
				throw new DomainError('stale_graph_revision', 'graphRevision 3 is stale (current 4)', 'run `tutti plan issue get` once', { current: 4 }, true);
			case special.slow:
				await new Promise<void>((resolve) => { releaseSlow = resolve; });
				break;
		}
		switch (method) {
			case 'hello':
				return { protocol: 1, workspace, pid: process.pid, caller: caller.kind };
			case 'issue/list':
				return { issues: [issueDtoFor('I-1', 'First'), issueDtoFor('I-2', 'Second')] };
			case 'issue/create':
				return issueDtoFor('I-new', String(params['title']));
			case 'issue/get':
				return { ...issueDtoFor(issueId ?? 'x'), tasks: [] } satisfies IssueWithTasksDto;
			case 'issue/pause':
				if (caller.kind !== 'user') {
					throw new DomainError('forbidden', 'pausing is a developer action', 'pass --as-user');
				}
				return issueDtoFor(issueId ?? 'x');
			case 'run/get':
				return runDtoFor(String(params['runId']));
			case 'run/log': {
				const offset = Number(params['offset']);
				const data = log.text.slice(offset, offset + Math.min(log.sliceBytes, Number(params['maxBytes'])));
				const nextOffset = offset + data.length;
				return { runId: String(params['runId']), data, nextOffset, done: log.runEnded && nextOffset >= log.text.length };
			}
			case 'agent/list':
				return { agentTargets: [{ id: 'sh', adapter: 'command', found: true, path: '/bin/sh', detail: '', isolation: 'none', onMergeConflict: 'fail', messagesWhileRunning: 'not-accepted', canPlan: false }] };
			default:
				throw new DomainError('internal', `the fake Host does not implement ${method}`, 'extend fakeHostApi.ts');
		}
	};
	const handlers = Object.fromEntries(Object.keys(methods).map((m) => [m, (p: Record<string, unknown>, c: Caller) => handle(m as Method, p, c)])) as unknown as MethodHandlers;
	return {
		workspace,
		calls,
		log,
		handlers,
		authenticate: (token) => token === userToken ? { kind: 'user' } : token === sourceToken ? { kind: 'session', sessionId: 'S-1', role: 'source' } : null,
		release: () => releaseSlow?.(),
	};
}
