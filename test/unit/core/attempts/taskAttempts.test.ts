import { strict as assert } from 'node:assert';
import { describe, it } from 'mocha';
import { type AttemptTask, taskAttempts } from '../../../../src/core/attempts/taskAttempts.js';

function task(taskId: string, facts: Partial<AttemptTask> = {}): AttemptTask {
	return { taskId, status: 'pending_acceptance', supersededByTaskId: '', superseded: false, runCount: 1, reworks: [], changesRequested: null, ...facts };
}

describe('core/attempts/taskAttempts', () => {
	it('says nothing of attempts while a task had only one', () => {
		const a = taskAttempts([task('greet'), task('plan', { status: 'not_started', runCount: 0 })]);
		assert.deepEqual(a.get('greet'), { number: 1, of: 1, label: '', earlier: [], stateLabel: '', line: '' });
		assert.deepEqual(a.get('plan'), { number: 1, of: 1, label: '', earlier: [], stateLabel: '', line: '' });
	});

	it('counts a manual rework as the same task\'s next attempt: "Changes requested" until its Run starts, then attempt 2 of 2', () => {
		const note = 'Greet in French too.\nAnd in German.';
		const waiting = taskAttempts([task('greet', { status: 'not_started', runCount: 1, reworks: [{ kind: 'changes_requested', note, attempt: 2, runId: '' }] })]);
		assert.deepEqual(waiting.get('greet'), {
			number: 2, of: 2, label: 'Attempt 2 of 2', earlier: ['Attempt 1 — changes requested: Greet in French too.'], stateLabel: 'Changes requested', line: '',
		});
		const running = taskAttempts([task('greet', { status: 'running', runCount: 2, reworks: [{ kind: 'changes_requested', note, attempt: 2, runId: 'run-2' }] })]);
		assert.equal(running.get('greet')?.label, 'Attempt 2 of 2');
		assert.equal(running.get('greet')?.stateLabel, '');
	});

	it('names each earlier attempt by what ended it: a retry, an update from base, a Run that simply ran again', () => {
		const a = taskAttempts([task('build', {
			status: 'running', runCount: 4,
			reworks: [{ kind: 'retry', note: '', attempt: 2, runId: 'r2' }, { kind: 'update_from_base', note: '', attempt: 4, runId: 'r4' }],
		})]);
		assert.deepEqual(a.get('build')?.earlier, ['Attempt 1 — retried', 'Attempt 2 — ran again', 'Attempt 3 — updated from its base']);
		assert.equal(a.get('build')?.label, 'Attempt 4 of 4');
	});

	it('continues the count across a managed rework: the replaced task is one line, its replacement attempt 2 of 2', () => {
		const a = taskAttempts([
			task('notes', { status: 'failed', superseded: true, supersededByTaskId: 'notes-fixed', changesRequested: 'Close, but not yet.' }),
			task('notes-fixed', { status: 'running' }),
		]);
		assert.deepEqual(a.get('notes'), { number: 1, of: 2, label: 'Attempt 1 of 2', earlier: [], stateLabel: '', line: 'Attempt 1 — changes requested: Close, but not yet.' });
		assert.deepEqual(a.get('notes-fixed'), {
			number: 2, of: 2, label: 'Attempt 2 of 2', earlier: ['Attempt 1 — changes requested: Close, but not yet.'], stateLabel: '', line: '',
		});
	});

	it('reads "Changes requested" (never a failure) on a managed task failed by a change request until its source agent reworks it', () => {
		const a = taskAttempts([task('notes', { status: 'failed', changesRequested: 'Close, but not yet.' }), task('lint', { status: 'failed' })]);
		assert.equal(a.get('notes')?.stateLabel, 'Changes requested');
		assert.equal(a.get('lint')?.stateLabel, '');
	});

	it('names a replaced attempt that failed or was canceled as such, over a chain of three, and cuts a long note', () => {
		const long = 'x'.repeat(150);
		const a = taskAttempts([
			task('a', { status: 'failed', superseded: true, supersededByTaskId: 'b' }),
			task('b', { status: 'failed', superseded: true, supersededByTaskId: 'c', changesRequested: long }),
			task('c', { status: 'canceled', superseded: true, supersededByTaskId: 'd' }),
			task('d', { status: 'not_started', runCount: 0 }),
		]);
		assert.deepEqual(a.get('d')?.earlier, ['Attempt 1 — failed', `Attempt 2 — changes requested: ${'x'.repeat(99)}…`, 'Attempt 3 — canceled']);
		assert.equal(a.get('d')?.label, 'Attempt 4 of 4');
		assert.equal(a.get('b')?.label, 'Attempt 2 of 4');
	});

	it('stops at a cycle in bad history instead of looping', () => {
		const a = taskAttempts([
			task('a', { superseded: true, supersededByTaskId: 'b' }),
			task('b', { superseded: true, supersededByTaskId: 'a' }),
		]);
		assert.equal(a.size, 2);
		assert.ok((a.get('a')?.number ?? 0) >= 1);
	});
});
