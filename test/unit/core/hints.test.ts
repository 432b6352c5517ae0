import { strict as assert } from 'node:assert';
import { DomainError, reasonCodes } from '../../../src/core/errors.js';
import { hintFor, rejection } from '../../../src/core/hints.js';
import type { ReasonCode } from '../../../src/core/errors.js';

describe('core/hints', () => {
	it('has exactly one non-empty, single-sentence-ish hint for every reason code', () => {
		for (const reason of reasonCodes) {
			const hint = hintFor(reason, { issueId: 'I1', taskId: 'T1' });
			assert.ok(hint.length > 20, `${reason} has a hint`);
			assert.ok(!hint.includes('\n'), `${reason} hint is one line`);
			assert.ok(!hint.includes('undefined'), `${reason} hint has no undefined`);
		}
	});

	it('every reason has its own hint, not the fallback for unknown reasons (internal is the fallback)', () => {
		const fallback = hintFor('no_such_reason' as ReasonCode, { issueId: 'I1' });
		for (const reason of reasonCodes.filter((r) => r !== 'internal')) {
			assert.notEqual(hintFor(reason, { issueId: 'I1' }), fallback, reason);
		}
		assert.equal(new Set(reasonCodes.map((r) => hintFor(r, { issueId: 'I1' }))).size, reasonCodes.length, 'no two reasons share a hint');
	});

	it('names an exact command (a backticked `tutti …` or a concrete step) for every reason', () => {
		for (const reason of reasonCodes) {
			const hint = hintFor(reason, { issueId: 'I1' });
			assert.ok(/`tutti [^`]+`/.test(hint) || /TUTTI_SESSION_TOKEN|report this exact error|VS Code|`--help`/i.test(hint), `${reason}: ${hint}`);
		}
	});

	it('stale_graph_revision: refresh once with the exact get command, never guess', () => {
		assert.equal(hintFor('stale_graph_revision', { issueId: 'I1' }),
			'Run `tutti plan issue get --issue-id I1 --json` once and use the returned graphRevision; never increment or guess it.');
	});

	it('tutti_issue_managed points at plan issue mutate', () => {
		assert.match(hintFor('tutti_issue_managed', { issueId: 'I1' }), /`tutti plan issue mutate`/);
	});

	it('dispatch_paused names both resume forms', () => {
		const hint = hintFor('dispatch_paused', { issueId: 'I1' });
		assert.ok(hint.includes('`tutti plan issue resume --issue-id I1 --json`'));
		assert.ok(hint.includes('`tutti issue update --issue-id I1 --dispatch-paused=false --json`'));
	});

	it('host_unavailable says how to get a Host', () => {
		assert.match(hintFor('host_unavailable'), /open the folder in VS Code with Tutti, or run `tutti host --workspace DIR`/i);
	});

	it('the default (internal, or an unknown reason from a newer peer) says to report the exact error and never touch the database', () => {
		for (const hint of [hintFor('internal', { issueId: 'I1' }), hintFor('brand_new_reason' as ReasonCode, { issueId: 'I1' })]) {
			assert.match(hint, /report this exact error; never query or modify the database/);
		}
	});

	it('never writes "undefined" when ids are missing: it writes a readable template', () => {
		const hint = hintFor('stale_graph_revision');
		assert.match(hint, /--issue-id <issue-id>/);
	});

	it('quotes ids that need shell quoting', () => {
		assert.match(hintFor('inactive_checkpoint', { issueId: "it's" }), /--issue-id 'it'\\''s'/);
	});

	it('names the task when one is known', () => {
		assert.match(hintFor('missing_agent_target', { issueId: 'I1', taskId: 'T7' }), /task T7/);
		assert.match(hintFor('missing_agent_target', {}), /the task/);
		assert.match(hintFor('missing_agent_target', {}), /`tutti agent list --json`/);
	});

	it('rejection() builds a DomainError with the reason, message, its hint and details; retryable only for transient reasons', () => {
		const e = rejection('stale_graph_revision', 'expected 2, is 3', { issueId: 'I1' }, { expected: 2 });
		assert.ok(e instanceof DomainError);
		assert.equal(e.reasonCode, 'stale_graph_revision');
		assert.equal(e.message, 'expected 2, is 3');
		assert.equal(e.hint, hintFor('stale_graph_revision', { issueId: 'I1' }));
		assert.deepEqual(e.details, { expected: 2 });
		assert.equal(e.retryable, false);
		assert.equal(rejection('host_unavailable', 'no host').retryable, true);
		assert.deepEqual(rejection('internal', 'x').details, {});
	});
});
