// The agent-facing response validator, each rule with a response that breaks it.
import { strict as assert } from 'node:assert';
import { type AgentResponse, assertValidResponse, responseProblems } from '../../../../src/protocol/agentResponse.js';

const waiting: AgentResponse = {
	ok: true, state: 'waiting', advance_allowed: false, waited_seconds: 3, wait_timeout_seconds: 45,
	message: 'Task a waits for the developer. Run the command in "next" again now.', next: 'tutti await-review --issue-id i',
};

function rejects(response: AgentResponse, pattern: RegExp): void {
	const problems = responseProblems(response);
	assert.ok(problems.some((p) => pattern.test(p)), `expected ${pattern} in ${JSON.stringify(problems)}`);
	assert.throws(() => assertValidResponse(response), /invalid agent response/);
}

describe('agent response validator', () => {
	it('accepts a well-formed waiting response, a decision, an answer without next and a failure', () => {
		assert.deepEqual(responseProblems(waiting), []);
		assert.deepEqual(responseProblems({ ok: true, state: 'accepted', advance_allowed: true, message: 'ok', next: 'tutti plan issue get --issue-id i --json' }), []);
		assert.deepEqual(responseProblems({ ok: true, state: 'finished', message: 'Nothing more to run.' }), []);
		assert.deepEqual(responseProblems({ ok: false, error: { reasonCode: 'issue_aborted', message: 'archived', hint: 'read it' }, recovery: { hint: 'read it', next: 'tutti plan issue get --issue-id i --json' } }), []);
		assert.deepEqual(responseProblems({ ok: true, state: 'checkpoint', next_template: 'tutti await-review --issue-id <issue-id>', required_inputs: [{ name: 'issue-id', flag: '--issue-id', description: 'the issue' }], message: 'm' }), []);
	});

	it('rejects placeholders in next', () => {
		rejects({ ...waiting, next: 'tutti await-review --issue-id <issue-id>' }, /placeholder/);
		rejects({ ok: false, error: { reasonCode: 'internal', message: 'm', hint: 'h' }, recovery: { hint: 'h', next: 'tutti plan issue get --issue-id <id>' } }, /recovery\.next contains a placeholder/);
	});

	it('rejects failure words in a waiting message', () => {
		for (const message of ['The review timed out.', 'No error: keep waiting.', 'Waiting failed', 'Nothing is wrong.', 'The call hit its timeout; run again.']) {
			rejects({ ...waiting, message }, /failure word/);
		}
		// Words that merely contain a failure word are fine.
		assert.deepEqual(responseProblems({ ...waiting, message: 'The terrorless failsafe waits.' }), []);
	});

	it('rejects both next and next_template, a template without placeholder or inputs, next with inputs', () => {
		rejects({ ...waiting, next_template: 'tutti x <a>' }, /both next and next_template/);
		rejects({ ok: true, state: 'checkpoint', message: 'm', next_template: 'tutti x', required_inputs: [{ name: 'a', flag: '--a', description: 'd' }] }, /no placeholder/);
		rejects({ ok: true, state: 'checkpoint', message: 'm', next_template: 'tutti x <a>' }, /needs required_inputs/);
		rejects({ ok: true, state: 'checkpoint', message: 'm', next: 'tutti x', required_inputs: [{ name: 'a', flag: '--a', description: 'd' }] }, /must not come with required_inputs/);
	});

	it('rejects a success with error/recovery and a failure without them or with a top-level next', () => {
		rejects({ ...waiting, recovery: { hint: 'h', next: 'tutti x' } }, /must not carry error or recovery/);
		rejects({ ok: false, error: { reasonCode: 'internal', message: 'm', hint: 'h' } }, /must carry recovery/);
		rejects({ ok: false, recovery: { hint: 'h', next: 'tutti x' } }, /must carry error/);
		rejects({ ok: false, error: { reasonCode: 'internal', message: 'm', hint: 'h' }, recovery: { hint: 'h' } }, /recovery needs next/);
		rejects({ ok: false, error: { reasonCode: 'internal', message: 'm', hint: 'h' }, recovery: { hint: 'h', next: 'tutti x' }, next: 'tutti x' }, /top level/);
		rejects({ ok: false, error: { reasonCode: 'internal', message: 'm', hint: 'h' }, recovery: { hint: 'h', next: 'tutti x' }, wait_timeout_seconds: 45 }, /top level/);
	});

	it('rejects waiting responses that do not block advance, repeat the command or carry the wait', () => {
		rejects({ ...waiting, advance_allowed: true }, /advance_allowed:false/);
		const { next: _next, ...noNext } = waiting;
		rejects(noNext, /repeat the exact command|requires next/);
		const { waited_seconds: _w, ...noWaited } = waiting;
		rejects(noWaited, /waited_seconds and wait_timeout_seconds/);
		rejects({ ok: true, state: 'accepted', advance_allowed: false, message: 'm', next: 'tutti x' }, /only for state "waiting"/);
		rejects({ ok: true, state: 'accepted', advance_allowed: true, message: 'm' }, /promises a command/);
		rejects({ ok: true, state: 'checkpoint', message: 'm', wait_timeout_seconds: 45 }, /requires next/);
	});
});
