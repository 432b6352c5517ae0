// The core rules of checks: which checks a task runs (the union of its layers) and the words every surface shows for
// a verification and an acceptance (the UIs render these, so they are fixed here by hand-written expectations).
import { strict as assert } from 'node:assert';
import { describe, it } from 'mocha';
import {
	acceptanceLabel, type CheckResult, checkStates, normalizeCheck, outputTail, unionChecks, type VerificationFacts, verificationLabel,
} from '../../../../src/core/checks/checks.js';

const commit = '0123456789abcdef0123456789abcdef01234567';

function result(index: number, name: string, over: Partial<CheckResult> = {}): CheckResult {
	return { index, name, exitCode: 0, signal: '', timedOut: false, error: '', durationMs: 1200, outputTail: '', startedAtUnixMs: 0, endedAtUnixMs: 1200, interrupted: 0, ...over };
}

function facts(over: Partial<VerificationFacts>): VerificationFacts {
	return {
		status: 'passed', subject: 'commit', commit, stale: false, problem: '',
		checks: [normalizeCheck({ name: 'test', argv: ['npm', 'test'] }), normalizeCheck({ name: 'lint', argv: ['npm', 'run', 'lint'], timeoutSeconds: 30 })],
		results: [], ...over,
	};
}

describe('checks: the union of layers', () => {
	it('keeps layer order, runs a command named twice once at its first place with the longest timeout', () => {
		const union = unionChecks([
			[normalizeCheck({ name: 'test', argv: ['npm', 'test'], timeoutSeconds: 60 })],
			[normalizeCheck({ name: 'lint', argv: ['npm', 'run', 'lint'] })],
			[normalizeCheck({ name: 'tests again', argv: ['npm', 'test'], timeoutSeconds: 900 }), normalizeCheck({ argv: ['npm test'], shell: true })],
		]);
		assert.deepEqual(union.map((c) => [c.name, c.timeoutSeconds, c.shell]), [['test', 900, false], ['lint', 600, false], ['npm test', 600, true]]);
	});
});

describe('checks: the words of a verification', () => {
	it('passed, at a short commit; stale says the tree moved on', () => {
		assert.equal(verificationLabel(facts({ results: [result(0, 'test'), result(1, 'lint')] })), 'Checks passed at 0123456');
		assert.equal(verificationLabel(facts({ stale: true })), 'Checks passed at 0123456 (stale: the tree moved on from 0123456)');
	});

	it('failed names the first failing check and how it ended; the rest did not run', () => {
		const failed = facts({ status: 'failed', results: [result(0, 'test', { exitCode: 1 })] });
		assert.equal(verificationLabel(failed), 'Checks failed: test (exit 1)');
		assert.deepEqual(checkStates(failed), ['failed', 'not_run']);
		const timedOut = facts({ status: 'failed', results: [result(0, 'test'), result(1, 'lint', { exitCode: null, timedOut: true, durationMs: 30_000 })] });
		assert.equal(verificationLabel(timedOut), 'Checks failed: lint (timed out after 30 s)');
		assert.equal(verificationLabel(facts({ status: 'failed', problem: 'its tree is gone' })), 'Checks failed at 0123456: its tree is gone');
	});

	it('running says which check of how many; the shared folder is not a commit; no checks is said', () => {
		const running = facts({ status: 'running', results: [result(0, 'test')] });
		assert.equal(verificationLabel(running), 'Checks running at 0123456: lint (2 of 2)');
		assert.deepEqual(checkStates(running), ['passed', 'running']);
		assert.equal(verificationLabel(facts({ subject: 'folder', commit: '' })), 'Checks passed on the shared folder as it was (not a commit)');
		assert.equal(verificationLabel(null), 'No checks: none are configured for this task');
	});

	it('an acceptance says who accepted, where, and what the checks said then', () => {
		assert.equal(acceptanceLabel('developer', commit, 'failed'), 'Accepted by you at 0123456 — its checks had failed');
		assert.equal(acceptanceLabel('auto', commit, 'passed'), 'Accepted automatically at 0123456 (checks passed)');
		assert.equal(acceptanceLabel('developer', '', 'none'), 'Accepted by you (shared folder: no commit) (no checks configured)');
	});

	it('the output tail keeps the last lines, bounded', () => {
		const text = Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\r\n');
		assert.equal(outputTail(text, 3), 'line 48\nline 49\nline 50');
		assert.equal(outputTail('x'.repeat(100), 30, 10), `…${'x'.repeat(9)}`);
	});
});
