import { strict as assert } from 'node:assert';
import {
	checkpointRequestId, executionIdFor, expectedCheckpointId, initialCheckpointId, launchIntentId, mainWakeId, runCheckpointId,
	runSubmitId, terminalCheckpointId, verifyCheckpointIdentity, verifyExecutionIdentity, verifyRunIdentity, verifyWakeIdentity, wakeSubmitId, watchdogCheckpointId,
} from '../../../src/core/ids.js';
import { checkpoint, wake } from './builders.js';

describe('core/ids', () => {
	it('derives the deterministic identities exactly', () => {
		const ex = executionIdFor('I1');
		assert.equal(ex, 'tutti-execution:I1');
		assert.equal(initialCheckpointId(ex), 'tutti-execution:I1:checkpoint:initial-schedule');
		assert.equal(runCheckpointId(ex, 'R9'), 'tutti-execution:I1:checkpoint:run:R9');
		assert.equal(terminalCheckpointId(ex), 'tutti-execution:I1:checkpoint:all-tasks-terminal');
		assert.equal(watchdogCheckpointId(ex, 4), 'tutti-execution:I1:checkpoint:watchdog:4');
		const w = mainWakeId(initialCheckpointId(ex), 2);
		assert.equal(w, 'tutti-execution:I1:checkpoint:initial-schedule:wake:main:2');
		assert.equal(wakeSubmitId(w), 'tutti-execution-wake:tutti-execution:I1:checkpoint:initial-schedule:wake:main:2');
		assert.equal(runSubmitId('R9'), 'issue-run:R9');
		assert.equal(launchIntentId('R9'), 'launch-intent:R9');
		assert.equal(checkpointRequestId(4, 3, 'schedule'), 'cp4-r3-schedule');
	});

	it('expects the id of each checkpoint kind from its own fields', () => {
		const ex = 'tutti-execution:I1';
		assert.equal(expectedCheckpointId({ executionId: ex, kind: 'initial_schedule', sequence: 1, subjectRunId: '' }), initialCheckpointId(ex));
		for (const kind of ['task_settled', 'task_failed', 'task_canceled'] as const) {
			assert.equal(expectedCheckpointId({ executionId: ex, kind, sequence: 5, subjectRunId: 'R2' }), runCheckpointId(ex, 'R2'));
			assert.equal(expectedCheckpointId({ executionId: ex, kind, sequence: 5, subjectRunId: '' }), null);
		}
		assert.equal(expectedCheckpointId({ executionId: ex, kind: 'all_tasks_terminal', sequence: 9, subjectRunId: '' }), terminalCheckpointId(ex));
		assert.equal(expectedCheckpointId({ executionId: ex, kind: 'watchdog', sequence: 7, subjectRunId: '' }), watchdogCheckpointId(ex, 7));
	});

	describe('verifyCheckpointIdentity', () => {
		it('accepts a row whose id matches its kind and fields', () => {
			assert.equal(verifyCheckpointIdentity(checkpoint()), null);
			assert.equal(verifyCheckpointIdentity(checkpoint(), { issueId: 'I1' }), null);
			assert.equal(verifyCheckpointIdentity(checkpoint({ kind: 'watchdog', sequence: 3, checkpointId: 'tutti-execution:I1:checkpoint:watchdog:3' })), null);
		});

		it('fails closed on a corrupted id, naming the expected one', () => {
			const problem = verifyCheckpointIdentity(checkpoint({ subjectRunId: 'R2' }));
			assert.match(problem ?? '', /checkpointId is "tutti-execution:I1:checkpoint:run:R1" but must be "tutti-execution:I1:checkpoint:run:R2"/);
		});

		it('accepts a re-acceptance id only with its own sequence and Run', () => {
			const again = { kind: 'task_accepted' as const, subjectRunId: 'R1', sequence: 7 };
			assert.equal(verifyCheckpointIdentity(checkpoint({ ...again, checkpointId: 'tutti-execution:I1:checkpoint:accepted:R1' })), null);
			assert.equal(verifyCheckpointIdentity(checkpoint({ ...again, checkpointId: 'tutti-execution:I1:checkpoint:accepted:R1:again:7' })), null);
			assert.notEqual(verifyCheckpointIdentity(checkpoint({ ...again, checkpointId: 'tutti-execution:I1:checkpoint:accepted:R1:again:6' })), null);
			assert.notEqual(verifyCheckpointIdentity(checkpoint({ ...again, checkpointId: 'tutti-execution:I1:checkpoint:accepted:R2:again:7' })), null);
			assert.notEqual(verifyCheckpointIdentity(checkpoint({ ...again, kind: 'task_settled', checkpointId: 'tutti-execution:I1:checkpoint:accepted:R1:again:7' })), null);
		});

		it('fails closed when the watchdog id does not carry its sequence, or the execution is not the issue\'s', () => {
			assert.notEqual(verifyCheckpointIdentity(checkpoint({ kind: 'watchdog', sequence: 4, checkpointId: 'tutti-execution:I1:checkpoint:watchdog:3' })), null);
			assert.match(verifyCheckpointIdentity(checkpoint(), { issueId: 'I2' }) ?? '', /executionId is "tutti-execution:I1" but must be "tutti-execution:I2"/);
		});

		it('fails closed when the id cannot be derived (settlement row without a run) or the sequence is not positive', () => {
			assert.match(verifyCheckpointIdentity(checkpoint({ subjectRunId: '' })) ?? '', /cannot be derived/);
			assert.match(verifyCheckpointIdentity(checkpoint({ sequence: 0 })) ?? '', /sequence/);
		});
	});

	describe('verifyWakeIdentity', () => {
		it('accepts a consistent main wake', () => {
			assert.equal(verifyWakeIdentity(wake()), null);
			assert.equal(verifyWakeIdentity(wake(), { executionId: 'tutti-execution:I1', checkpointId: 'tutti-execution:I1:checkpoint:run:R1', targetSessionId: 'S1' }), null);
		});

		it('fails closed per field: wake id, submit id, target kind, sequence, execution, checkpoint, target session', () => {
			const cases: [Parameters<typeof wake>[0], RegExp][] = [
				[{ wakeId: 'tutti-execution:I1:checkpoint:run:R1:wake:main:2' }, /wakeId is .* but must be .*wake:main:1"/],
				[{ wakeSequence: 2 }, /wakeId .* must be .*wake:main:2"; clientSubmitId/],
				[{ clientSubmitId: 'tutti-execution-wake:other' }, /clientSubmitId is "tutti-execution-wake:other"/],
				[{ targetKind: 'reviewer' }, /targetKind is "reviewer" but must be "main"/],
				[{ wakeSequence: 0 }, /wakeSequence is 0/],
				[{ executionId: 'tutti-execution:I2' }, /does not belong to execution "tutti-execution:I2"/],
			];
			for (const [over, pattern] of cases) {
				assert.match(verifyWakeIdentity(wake(over)) ?? '', pattern, JSON.stringify(over));
			}
			assert.match(verifyWakeIdentity(wake(), { targetSessionId: 'S2' }) ?? '', /targetSessionId is "S1" but must be "S2"/);
			assert.match(verifyWakeIdentity(wake(), { checkpointId: 'tutti-execution:I1:checkpoint:run:R2' }) ?? '', /checkpointId is/);
			assert.match(verifyWakeIdentity(wake(), { executionId: 'tutti-execution:I9' }) ?? '', /executionId is "tutti-execution:I1"/);
		});

		it('names every mismatching field at once', () => {
			const problem = verifyWakeIdentity(wake({ clientSubmitId: 'x', targetSessionId: 'S9' }), { targetSessionId: 'S1' }) ?? '';
			assert.match(problem, /clientSubmitId/);
			assert.match(problem, /targetSessionId/);
		});
	});

	describe('verifyExecutionIdentity', () => {
		it('accepts the execution derived from its issue and names each mismatching field', () => {
			assert.equal(verifyExecutionIdentity({ executionId: 'tutti-execution:I1', issueId: 'I1' }), null);
			assert.equal(verifyExecutionIdentity({ executionId: 'tutti-execution:I1', issueId: 'I1' }, { issueId: 'I1' }), null);
			assert.match(verifyExecutionIdentity({ executionId: 'tutti-execution:I2', issueId: 'I1' }) ?? '', /executionId is "tutti-execution:I2" but must be "tutti-execution:I1"/);
			const read = verifyExecutionIdentity({ executionId: 'tutti-execution:I2', issueId: 'I2' }, { issueId: 'I1' }) ?? '';
			assert.match(read, /issueId is "I2" but must be "I1"/);
			assert.match(read, /executionId is "tutti-execution:I2" but must be "tutti-execution:I1"/);
		});
	});

	describe('verifyRunIdentity', () => {
		const run = { runId: 'R1', issueId: 'I1', taskId: 'T1', agentSessionId: 'S1' };
		const session = { sessionId: 'S1', runId: 'R1', issueId: 'I1', taskId: 'T1' };
		it('accepts a Run that agrees with its task and its worker session', () => {
			assert.equal(verifyRunIdentity(run), null);
			assert.equal(verifyRunIdentity(run, { issueId: 'I1', taskId: 'T1', session }), null);
		});
		it('names the task, issue and session mismatches', () => {
			assert.match(verifyRunIdentity(run, { taskId: 'T2' }) ?? '', /taskId is "T1" but must be "T2"/);
			assert.match(verifyRunIdentity(run, { issueId: 'I2' }) ?? '', /issueId is "I1" but must be "I2"/);
			assert.match(verifyRunIdentity(run, { session: { ...session, runId: 'R9' } }) ?? '', /session "S1" belongs to run "R9"/);
			assert.match(verifyRunIdentity(run, { session: { ...session, taskId: 'T3' } }) ?? '', /taskId is "T1" but must be "T3"/);
		});
	});
});
