import { strict as assert } from 'node:assert';
import {
	parsePersistedState, parseToHost, parseToWebview, type ToHost, type ToWebview,
} from '../../../src/protocol/webview.js';
import { aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, anIssue } from './builders.js';

const roundTrip = (m: unknown): unknown => JSON.parse(JSON.stringify(m));

describe('webview protocol', () => {
	describe('toHost', () => {
		const valid: ToHost[] = [
			{ type: 'ready', protocol: 1 },
			{ type: 'issue/pause' },
			{ type: 'issue/resume' },
			{ type: 'issue/stop' },
			{ type: 'issue/integrate' },
			{ type: 'run/stop', runId: 'r1' },
			{ type: 'task/accept', taskId: 't1' },
			{ type: 'task/requestChanges', taskId: 't1', note: '  Use the new API.\nAnd add a test. ' },
			{ type: 'goal/confirm' },
			{ type: 'goal/requestChanges', note: 'The docs are missing.' },
			{ type: 'task/select', taskId: 't1' },
			{ type: 'task/select', taskId: null },
			{ type: 'history/toggle', show: true },
			{ type: 'command/copy', text: 'tutti plan issue get --issue-id i1 --json' },
			{ type: 'run/openOutput', runId: 'r1' },
			{ type: 'task/openChanges', taskId: 't1' },
			{ type: 'issue/start' },
			{ type: 'issue/finish' },
			{ type: 'issue/followUp' },
			{ type: 'source/stop' },
			{ type: 'goalReview/switchToSelf' },
			{ type: 'taskForm/set', form: { mode: 'add' } },
			{ type: 'taskForm/set', form: { mode: 'edit', taskId: 't1' } },
			{ type: 'taskForm/set', form: null },
			{ type: 'task/create', title: 'Write the tests', content: 'Line 1\nLine 2', dependencyTaskIds: ['t1'], agentTargetId: 'sh' },
			{ type: 'task/update', taskId: 't2', title: 'Write more tests', content: '', dependencyTaskIds: [], agentTargetId: 'sh' },
			{ type: 'task/delete', taskId: 't2' },
			{ type: 'taskForm/set', form: { mode: 'retry', taskId: 't1' } },
			{ type: 'task/retry', taskId: 't1' },
			{ type: 'task/retry', taskId: 't1', fields: { title: 'Again', content: '', dependencyTaskIds: [], agentTargetId: 'sh' } },
			{ type: 'task/updateFromBase', taskId: 't1' },
			{ type: 'tasks/accept', taskIds: ['t1', 't2'] },
			{ type: 'approval/answer', approvalId: 'a1', choice: 'allow', updatedInput: { command: 'npm test -- --runInBand' } },
			{ type: 'agent/add' },
		];
		for (const m of valid) {
			it(`round-trips ${m.type}${m.type === 'task/select' && m.taskId === null ? ' (clear)' : ''}`, () => {
				const r = parseToHost(roundTrip(m));
				assert.ok(r.ok, r.ok ? '' : r.error);
				assert.deepEqual(r.value, m);
			});
		}

		const invalid: [string, unknown][] = [
			['null', null],
			['a string', 'issue/pause'],
			['an unknown type', { type: 'issue/delete' }],
			['no type', { runId: 'r1' }],
			['a newer protocol', { type: 'ready', protocol: 2 }],
			['an unknown key (strict)', { type: 'issue/pause', issueId: 'other-issue' }],
			['a missing runId', { type: 'run/stop' }],
			['an empty runId', { type: 'run/stop', runId: '' }],
			['a numeric taskId', { type: 'task/accept', taskId: 7 }],
			['an over-long id', { type: 'task/accept', taskId: 'x'.repeat(201) }],
			['a blank note', { type: 'task/requestChanges', taskId: 't1', note: ' \n\t ' }],
			['an empty goal note', { type: 'goal/requestChanges', note: '' }],
			['a note over 10,000 characters', { type: 'goal/requestChanges', note: 'x'.repeat(10_001) }],
			['a missing note', { type: 'task/requestChanges', taskId: 't1' }],
			['a non-boolean show', { type: 'history/toggle', show: 'yes' }],
			['an empty copy', { type: 'command/copy', text: '' }],
			['a task form without a title', { type: 'task/create', title: '  ', content: '', dependencyTaskIds: [], agentTargetId: 'sh' }],
			['a task form without its agent', { type: 'task/create', title: 'T', content: '', dependencyTaskIds: [] }],
			['a title over 500 characters', { type: 'task/create', title: 'x'.repeat(501), content: '', dependencyTaskIds: [], agentTargetId: 'sh' }],
			['an edit without its task', { type: 'task/update', title: 'T', content: '', dependencyTaskIds: [], agentTargetId: 'sh' }],
			['an unknown form mode', { type: 'taskForm/set', form: { mode: 'clone' } }],
			['a retry whose edit has an empty title', { type: 'task/retry', taskId: 't1', fields: { title: ' ', content: '', dependencyTaskIds: [], agentTargetId: 'sh' } }],
			['a retry with an unknown field (strict)', { type: 'task/retry', taskId: 't1', note: 'x' }],
			['an update from base without its task', { type: 'task/updateFromBase' }],
			['Accept selected with none', { type: 'tasks/accept', taskIds: [] }],
			['an edited input with Deny', { type: 'approval/answer', approvalId: 'a1', choice: 'deny', updatedInput: { command: 'ls' } }],
			['an edited input with Allow for task', { type: 'approval/answer', approvalId: 'a1', choice: 'allowForTask', updatedInput: { command: 'ls' } }],
			['an edited input that is not an object', { type: 'approval/answer', approvalId: 'a1', choice: 'allow', updatedInput: ['ls'] }],
		];
		for (const [what, raw] of invalid) {
			it(`rejects ${what}`, () => {
				const r = parseToHost(raw);
				assert.equal(r.ok, false);
				if (!r.ok) { assert.ok(r.error.length > 0); }
			});
		}

		it('accepts a note of exactly 10,000 characters', () => {
			assert.ok(parseToHost({ type: 'goal/requestChanges', note: 'x'.repeat(10_000) }).ok);
		});
	});

	describe('toWebview', () => {
		it('round-trips a manual snapshot with runs', () => {
			const s = aSnapshot(anIssue([aTask('t1'), aTask('t2', { dependencyTaskIds: ['t1'] })]), {
				seq: 4, runs: [aRun('r1', 't1', { stopNotes: [{ eventId: 'e1', reason: 'person', answer: 'took', requestedAtUnixMs: 1, answeredAtUnixMs: 2 }] })],
			});
			const r = parseToWebview(roundTrip(s));
			assert.ok(r.ok, r.ok ? '' : r.error);
			assert.deepEqual(r.value, s);
		});

		it('round-trips a managed snapshot and an error', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { ready: true })]);
			const err: ToWebview = { type: 'error', message: 'Could not read issue i1' };
			for (const m of [s, err]) {
				const r = parseToWebview(roundTrip(m));
				assert.ok(r.ok, r.ok ? '' : r.error);
				assert.deepEqual(r.value, m);
			}
		});

		it('rejects a snapshot with seq 0, a missing view, or a malformed plan', () => {
			const s = aManagedSnapshot([aPlanTask('t1')]);
			assert.equal(parseToWebview({ ...s, seq: 0 }).ok, false);
			const { view: _v, ...noView } = s;
			assert.equal(parseToWebview(noView).ok, false);
			assert.equal(parseToWebview({ ...s, plan: { ...s.plan, execution: { status: 'sleeping' } } }).ok, false);
			assert.equal(parseToWebview({ type: 'delta', seq: 2 }).ok, false);
		});

		it('rejects a snapshot whose tasks or Runs lack the Host\'s controls (an older Host), naming the field', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'pending_acceptance' })], {}, { runs: [aRun('r1', 't1')] });
			const plan = s.plan!;
			const cases: [string, unknown][] = [
				['plan.tasks.0.controls', { ...s, plan: { ...plan, tasks: plan.tasks.map(({ controls: _c, ...t }) => t) } }],
				['plan.tasks.0.superseded', { ...s, plan: { ...plan, tasks: plan.tasks.map(({ superseded: _s, ...t }) => t) } }],
				['issue.tasks.0.controls', { ...s, issue: { ...s.issue, tasks: s.issue.tasks.map((t) => ({ ...t, controls: { accept: 'yes' } })) } }],
				['runs.0.controls', { ...s, runs: s.runs.map(({ controls: _c, ...r }) => r) }],
				['runs.0.stopping', { ...s, runs: s.runs.map(({ stopping: _s, ...r }) => r) }],
				['issue.controls.reviewTask', { ...s, issue: { ...s.issue, controls: { ...s.issue.controls, reviewTask: undefined } } }],
			];
			for (const [field, raw] of cases) {
				const r = parseToWebview(roundTrip(raw));
				assert.equal(r.ok, false, field);
				if (!r.ok) { assert.ok(r.error.includes(field.split('.').at(-1)!), `${field}: ${r.error}`); }
			}
		});
	});

	describe('persisted state', () => {
		const state = { issueId: 'i1', selectedTaskId: 't1', showHistory: true, scroll: { left: 10, top: 20 }, zoom: 0.5 };
		it('round-trips, with or without drafts', () => {
			for (const s of [state, { ...state, drafts: { 'task:t1': 'more tests' } }]) {
				const r = parsePersistedState(roundTrip(s));
				assert.ok(r.ok);
				assert.deepEqual(r.value, s);
			}
		});
		it('rejects a state with no issue, a wild zoom or a negative scroll', () => {
			const { issueId: _i, ...noIssue } = state;
			assert.equal(parsePersistedState(noIssue).ok, false);
			assert.equal(parsePersistedState({ ...state, zoom: 100 }).ok, false);
			assert.equal(parsePersistedState({ ...state, scroll: { left: -1, top: 0 } }).ok, false);
			assert.equal(parsePersistedState(undefined).ok, false);
		});
	});
});
