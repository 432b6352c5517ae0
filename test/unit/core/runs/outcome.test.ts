import { strict as assert } from 'node:assert';
import { formatDuration, noResultMessage, outcomeLabel, runDurationMs } from '../../../../src/core/runs/outcome.js';
import { run } from '../builders.js';

const ended = (over: Parameters<typeof run>[1]): ReturnType<typeof run> => run('R1', { startedAtUnixMs: 10_000, completedAtUnixMs: 10_000 + 123_400, ...over });

describe('core/runs/outcome', () => {
	it('formatDuration: "0.4s", "45s", "2m 03s", "1h 02m"', () => {
		assert.equal(formatDuration(432), '0.4s');
		assert.equal(formatDuration(9_999), '9.9s');
		assert.equal(formatDuration(10_000), '10s');
		assert.equal(formatDuration(45_000), '45s');
		assert.equal(formatDuration(45_999), '45s');
		assert.equal(formatDuration(0), '0.0s');
		assert.equal(formatDuration(-5), '0.0s');
		assert.equal(formatDuration(Number.NaN), '0.0s');
		assert.equal(formatDuration(60_000), '1m 00s');
		assert.equal(formatDuration(123_000), '2m 03s');
		assert.equal(formatDuration(3_599_999), '59m 59s');
		assert.equal(formatDuration(3_600_000), '1h 00m');
		assert.equal(formatDuration(3_720_000 + 59_000), '1h 02m');
		assert.equal(formatDuration(27 * 3_600_000), '27h 00m');
	});

	it('runDurationMs: from start (or creation if it never started) to completion; 0 while running', () => {
		assert.equal(runDurationMs({ createdAtUnixMs: 1, startedAtUnixMs: 10, completedAtUnixMs: 30 }), 20);
		assert.equal(runDurationMs({ createdAtUnixMs: 5, startedAtUnixMs: 0, completedAtUnixMs: 30 }), 25);
		assert.equal(runDurationMs({ createdAtUnixMs: 5, startedAtUnixMs: 10, completedAtUnixMs: 0 }), 0);
	});

	it('success → "Completed in 2m 03s"', () => {
		assert.equal(outcomeLabel(ended({ status: 'completed', outcome: 'success' })), 'Completed in 2m 03s');
		assert.equal(outcomeLabel(ended({ status: 'pending_acceptance', outcome: 'success' })), 'Completed in 2m 03s');
	});

	it('cancellation → "Interrupted after 2m 03s — you stopped this"', () => {
		assert.equal(outcomeLabel(ended({ status: 'canceled', outcome: 'cancellation' })), 'Interrupted after 2m 03s — you stopped this');
	});

	it('failure → "Failed after 2m 03s — the agent stopped while this was in progress", or the error summary', () => {
		assert.equal(outcomeLabel(ended({ status: 'failed', outcome: 'failure' })), 'Failed after 2m 03s — the agent stopped while this was in progress');
		assert.equal(outcomeLabel(ended({ status: 'failed', outcome: 'failure', errorMessage: 'exited with code 2\nstack…' })), 'Failed after 2m 03s — exited with code 2');
		const long = outcomeLabel(ended({ status: 'failed', outcome: 'failure', errorMessage: 'x'.repeat(500) }))!;
		assert.ok(long.length < 200 && long.endsWith('…'));
	});

	it('a failure without a result line → "Ended without a result after 2m 03s"', () => {
		assert.equal(outcomeLabel(ended({ status: 'failed', outcome: 'failure', errorMessage: noResultMessage })), 'Ended without a result after 2m 03s');
	});

	it('a Run refused before its agent started reads "Could not start: …" (never "Failed after 0.0s")', () => {
		const refused = { status: 'failed' as const, outcome: 'failure' as const, startedAtUnixMs: 0 };
		assert.equal(outcomeLabel(ended({ ...refused, errorMessage: 'Could not start: merging a and b conflicts in README.md, src/x.ts' })),
			'Could not start: merging a and b conflicts in README.md, src/x.ts');
		assert.equal(outcomeLabel(ended({ ...refused, errorMessage: 'Could not start: worktree setup failed (exit 3):\nnpm ERR! boom' })),
			'Could not start: worktree setup failed (exit 3)');
		// A Run that started says how long it ran, whatever its message.
		assert.match(outcomeLabel(ended({ status: 'failed', outcome: 'failure', errorMessage: 'Could not start: x' }))!, /^Failed after 2m 03s — /);
	});

	it('null while the Run has not settled', () => {
		assert.equal(outcomeLabel(run('R1', { status: 'running' })), null);
		assert.equal(outcomeLabel(run('R1', { status: 'not_started' })), null);
	});

	it('rows settled without an outcome: derived from status, a canceled Run is yours only if a Stop took effect', () => {
		assert.equal(outcomeLabel(ended({ status: 'completed', outcome: null })), 'Completed in 2m 03s');
		assert.equal(outcomeLabel(ended({ status: 'canceled', outcome: null }), [{ answer: 'took' }]), 'Interrupted after 2m 03s — you stopped this');
		assert.equal(outcomeLabel(ended({ status: 'canceled', outcome: null }), [{ answer: 'declined' }]), 'Failed after 2m 03s — the agent stopped while this was in progress');
		assert.equal(outcomeLabel(ended({ status: 'failed', outcome: null }), [{ answer: 'took' }]), 'Failed after 2m 03s — the agent stopped while this was in progress');
	});
});
