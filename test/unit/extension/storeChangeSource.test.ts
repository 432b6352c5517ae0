import assert from 'node:assert/strict';
import { Emitter } from '../../../src/core/events.js';
import { PollingChangeSource, commitReadDelayMs, defaultPollIntervalMs, followingPollIntervalMs, type PollTimer } from '../../../src/extension/changes/storeChangeSource.js';
import { fingerprint, readWorkspaceState, type WorkspaceReader, type WorkspaceState } from '../../../src/extension/changes/workspaceState.js';
import type { AgentTurnDto, IssueDto, RunDto } from '../../../src/protocol/dto.js';
import { issue, plan, run } from './dtoBuilders.js';

/** A Host stand-in: whatever issues/plans/runs the test sets, and a count of calls. */
class FakeReader implements WorkspaceReader {
	issues: IssueDto[] = [];
	runs = new Map<string, RunDto[]>();
	turns: AgentTurnDto[] = [];
	failing = false;
	calls: string[] = [];
	call(method: 'issue/list' | 'plan/get' | 'run/list' | 'turn/list', params: { issueId?: string }): Promise<never> {
		this.calls.push(method);
		if (this.failing) {
			return Promise.reject(new Error('host gone'));
		}
		const id = params.issueId ?? '';
		const value = method === 'issue/list' ? { issues: this.issues }
			: method === 'plan/get' ? plan(id)
				: method === 'turn/list' ? { turns: this.turns }
					: { runs: this.runs.get(id) ?? [] };
		return Promise.resolve(value as never);
	}
}

/** Timers the test fires by hand. */
class ManualTimer implements PollTimer {
	pending: (() => void) | undefined;
	/** The delay of the pending timer. */
	pendingMs: number | undefined;
	setTimeout(fn: () => void, ms: number): unknown {
		this.pending = fn;
		this.pendingMs = ms;
		return fn;
	}
	clearTimeout(): void {
		this.pending = undefined;
	}
	async tick(): Promise<void> {
		const fn = this.pending;
		this.pending = undefined;
		fn?.();
		await new Promise((r) => setImmediate(r));
	}
}

function setup(): { reader: FakeReader; timer: ManualTimer; source: PollingChangeSource; seen: WorkspaceState[]; errors: Error[] } {
	const reader = new FakeReader();
	const timer = new ManualTimer();
	const source = new PollingChangeSource({ reader: () => reader, timer });
	const seen: WorkspaceState[] = [];
	const errors: Error[] = [];
	source.onDidChange((s) => seen.push(s));
	source.onDidFail((e) => errors.push(e));
	return { reader, timer, source, seen, errors };
}

describe('extension/storeChangeSource', () => {
	it('fires the first state, then only when something shown changes', async () => {
		const { reader, timer, source, seen } = setup();
		reader.issues = [issue('A')];
		await timer.tick();
		assert.equal(seen.length, 1);
		assert.equal(seen[0]!.version, 1);
		await timer.tick();
		await timer.tick();
		assert.equal(seen.length, 1, 'an unchanged store fires nothing');
		reader.issues = [issue('A', { counts: { running: 1 } })];
		reader.runs.set('A', [run('R1', { issueId: 'A' })]);
		await timer.tick();
		assert.equal(seen.length, 2);
		assert.equal(seen[1]!.version, 2);
		assert.deepEqual(seen[1]!.runningRuns.map((r) => r.runId), ['R1']);
		assert.equal(source.current, seen[1]);
		source.dispose();
	});

	it('ignores what changes with the clock alone (a running Run\'s duration)', () => {
		const data = { issues: [issue('A', { counts: { running: 1 } })], executions: new Map(), runningRuns: [run('R1', { durationMs: 1 })], agentTurns: [] };
		assert.equal(fingerprint(data), fingerprint({ ...data, runningRuns: [run('R1', { durationMs: 999 })] }));
		assert.notEqual(fingerprint(data), fingerprint({ ...data, runningRuns: [run('R1', { stopNotes: [{ eventId: 'e', reason: 'person', answer: null, requestedAtUnixMs: 1, answeredAtUnixMs: 0 }] })] }));
	});

	it('reads the plan of active managed issues only, and Runs only of issues with running tasks', async () => {
		const reader = new FakeReader();
		reader.issues = [
			issue('M', { planningSource: 'tutti', counts: { running: 1 } }),
			issue('D', { planningSource: 'tutti', status: 'completed' }),
			issue('X'),
		];
		reader.runs.set('M', [run('R1', { issueId: 'M' }), run('R0', { issueId: 'M', status: 'completed' })]);
		const state = await readWorkspaceState(reader);
		assert.deepEqual([...state.executions.keys()], ['M']);
		assert.deepEqual(state.runningRuns.map((r) => r.runId), ['R1']);
		assert.deepEqual(reader.calls.sort(), ['issue/list', 'plan/get', 'run/list', 'turn/list']);
	});

	it('reads every agent at work once per pass, and an agent\'s new state or activity is a change (its elapsed time is not)', async () => {
		const reader = new FakeReader();
		const turn = (over: Partial<AgentTurnDto> = {}): AgentTurnDto => ({
			key: 'run:R1', role: 'worker', issueId: 'A', issueTitle: 'A', taskId: 't', taskTitle: 'T', agentTargetId: 'sh', state: 'working', label: 'Working',
			sinceUnixMs: 5, tokens: 0, costUsd: 0, activity: '', runId: 'R1', controls: { stopRun: true, stopSource: false, transcript: true }, ...over,
		});
		reader.turns = [turn()];
		const state = await readWorkspaceState(reader);
		assert.deepEqual(state.agentTurns, [turn()]);
		assert.notEqual(fingerprint(state), fingerprint({ ...state, agentTurns: [turn({ activity: '$ npm test' })] }));
		assert.notEqual(fingerprint(state), fingerprint({ ...state, agentTurns: [turn({ state: 'waiting_on_approval' })] }));
		const older: WorkspaceReader = { call: (method: string, params: never) => (method === 'turn/list' ? Promise.reject(new Error('version_mismatch')) : reader.call(method as 'issue/list', params)) } as WorkspaceReader;
		assert.deepEqual((await readWorkspaceState(older)).agentTurns, [], 'a Host without turn/list: no agents, the rest still reads');
	});

	it('reports a failed read and keeps polling; refresh() reads at once', async () => {
		const { reader, timer, source, seen, errors } = setup();
		reader.failing = true;
		await timer.tick();
		assert.equal(errors.length, 1);
		assert.ok(timer.pending, 'still scheduled after a failure');
		reader.failing = false;
		reader.issues = [issue('B')];
		await source.refresh();
		assert.equal(seen.length, 1);
		source.dispose();
		assert.equal(timer.pending, undefined, 'dispose stops the timer');
	});

	it('reads nothing while there is no Host', async () => {
		const timer = new ManualTimer();
		const source = new PollingChangeSource({ reader: () => undefined, timer });
		await timer.tick();
		assert.equal(source.current, undefined);
		source.dispose();
	});

	it('after reset() the same state fires again with a higher version', async () => {
		const { reader, source, seen } = setup();
		reader.issues = [issue('A')];
		await source.refresh();
		source.reset();
		await source.refresh();
		assert.deepEqual(seen.map((s) => s.version), [1, 2]);
		source.dispose();
	});

	it('following the owner\'s commits: a commit is read within 100 ms, polling slows to a safety net, and comes back when unfollowed', async () => {
		const { reader, timer, source, seen } = setup();
		reader.issues = [issue('A')];
		await timer.tick();
		assert.equal(timer.pendingMs, defaultPollIntervalMs, 'a viewer polls');
		const commits = new Emitter<{ version: number }>();
		const following = source.watchCommits(commits.event);
		await timer.tick();
		assert.equal(timer.pendingMs, followingPollIntervalMs, 'while commits are followed the poll is only a safety net');
		reader.issues = [issue('A', { counts: { running: 1 } })];
		commits.fire({ version: 1 });
		assert.equal(timer.pendingMs, commitReadDelayMs, 'a commit pulls the next read forward');
		await timer.tick();
		assert.equal(seen.length, 2, 'the committed change is shown');
		assert.equal(timer.pendingMs, followingPollIntervalMs);
		following.dispose();
		assert.equal(timer.pendingMs, commitReadDelayMs, 'unfollowing reads soon');
		await timer.tick();
		assert.equal(timer.pendingMs, defaultPollIntervalMs, 'and polls fast again');
		commits.fire({ version: 2 });
		assert.equal(timer.pendingMs, defaultPollIntervalMs, 'an unfollowed stream changes nothing');
		source.dispose();
	});

	it('a commit during a read in flight reads once more after it', async () => {
		const { reader, source, seen } = setup();
		const commits = new Emitter<{ version: number }>();
		source.watchCommits(commits.event);
		reader.issues = [issue('A')];
		const reading = source.refresh();
		reader.issues = [issue('A', { counts: { running: 1 } })];
		commits.fire({ version: 1 }); // committed after the read started: that read may not show it
		await reading;
		await new Promise((r) => setImmediate(r));
		assert.equal(seen.length, 2, 'the read after the commit shows it');
		source.dispose();
	});
});
