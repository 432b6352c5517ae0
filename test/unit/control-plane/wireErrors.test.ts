// DomainError → HTTP status and wire error; every method has a `tutti` command that calls it.
import * as assert from 'node:assert/strict';
import { commandTable } from '../../../src/cli/commandTable.js';
import { methodCommands } from '../../../src/control-plane/methodCommands.js';
import { statusForReason, toWireError, wireReplyFor } from '../../../src/control-plane/wireErrors.js';
import { DomainError, reasonCodes } from '../../../src/core/errors.js';
import { hintFor } from '../../../src/core/hints.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import { type Method, methods } from '../../../src/protocol/controlPlane.js';

describe('wire errors', () => {
	it('maps every reason code to its status', () => {
		const expected: Record<string, number> = {
			invalid_input: 400, invalid_mutation_operation: 400, unauthenticated: 401, forbidden: 403, internal: 500,
			execution_not_found: 404, task_not_found: 404, issue_not_found: 404, run_not_found: 404, session_not_found: 404, agent_target_not_found: 404,
			approval_not_found: 404, store_unavailable: 503, store_corrupt: 503, store_locked: 503,
		};
		for (const reasonCode of reasonCodes) {
			assert.equal(statusForReason(reasonCode), expected[reasonCode] ?? 409, reasonCode);
		}
	});

	it('recognises domain and store errors by their one base class, never by the fields an object happens to have', () => {
		assert.deepEqual(wireReplyFor('issue/get', new DomainError('issue_not_found', 'no issue X', 'list them')), {
			status: 404, error: { reasonCode: 'issue_not_found', message: 'no issue X', hint: 'list them' },
		});
		assert.deepEqual(wireReplyFor('plan/mutate', new StoreError('store_io', 'the journal could not be written (ENOSPC)\nat line 2')), {
			status: 503,
			error: { reasonCode: 'store_unavailable', message: 'the Host could not save plan/mutate: the journal could not be written (ENOSPC)', hint: hintFor('store_unavailable'), retryable: true },
		});
		assert.equal(wireReplyFor('issue/get', new StoreError('store_locked', 'taken'))?.error.retryable, undefined, 'a store another Host holds is not retried as is');
		const lookalike = Object.assign(new Error('m'), { name: 'DomainError', reasonCode: 'issue_not_found', hint: 'h', details: {} });
		assert.equal(wireReplyFor('issue/get', lookalike), null, 'an error that only looks like one is internal');
		assert.equal(wireReplyFor('issue/get', new Error('kaput')), null);
	});

	it('sends retryable only when true and details only when present', () => {
		assert.deepEqual(toWireError(new DomainError('stale_graph_revision', 'm', 'h')), { reasonCode: 'stale_graph_revision', message: 'm', hint: 'h' });
		assert.deepEqual(toWireError(new DomainError('store_unavailable', 'm', 'h', { a: 1 }, true)), { reasonCode: 'store_unavailable', message: 'm', hint: 'h', retryable: true, details: { a: 1 } });
	});
});

describe('method ↔ command', () => {
	it('names, for every method, the CLI command that calls it', () => {
		const byMethod = new Map(commandTable.flatMap((spec) => [spec.method, ...(spec.alternatives ?? []).map((a) => a.method)]
			.map((method) => [method, `tutti ${spec.path.join(' ')}`] as const)));
		for (const method of Object.keys(methods) as Method[]) {
			if (method === 'hello') {
				continue; // no command of its own
			}
			assert.equal(methodCommands[method], byMethod.get(method), method);
		}
		assert.equal(new Set(commandTable.map((s) => s.method)).size, commandTable.length, 'one command per method');
	});
});
