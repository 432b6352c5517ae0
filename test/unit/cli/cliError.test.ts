// The CLI's error envelope and exit codes, and the constants the CLI mirrors so it never loads zod.
import * as assert from 'node:assert/strict';
import { cliError, errorEnvelope, exitCodeFor, humanError, invalidInputReasonCodes } from '../../../src/cli/cliError.js';
import { requestBodyCapBytes } from '../../../src/cli/client.js';
import { invalidInputReasons, reasonCodes } from '../../../src/core/errors.js';
import { maxBodyBytes } from '../../../src/protocol/controlPlane.js';

describe('CLI errors', () => {
	it('prints exactly {"error":{reasonCode,message,hint,retryable?}} as one line', () => {
		assert.equal(errorEnvelope(cliError('issue_not_found', 'no such issue', 'run `tutti issue list --json`')),
			'{"error":{"reasonCode":"issue_not_found","message":"no such issue","hint":"run `tutti issue list --json`"}}\n');
		assert.equal(errorEnvelope(cliError('host_unavailable', 'gone', 'again', true)),
			'{"error":{"reasonCode":"host_unavailable","message":"gone","hint":"again","retryable":true}}\n');
		const withDetails = JSON.parse(errorEnvelope({ reasonCode: 'tutti_issue_managed', message: 'm', hint: 'h', details: { issueId: 'X' } })) as unknown;
		assert.deepEqual(withDetails, { error: { reasonCode: 'tutti_issue_managed', message: 'm', hint: 'h', details: { issueId: 'X' } } });
	});

	it('exit 2 for invalid input (reason or HTTP 400), 1 for everything else', () => {
		for (const reasonCode of reasonCodes) {
			const expected = invalidInputReasons.has(reasonCode) ? 2 : 1;
			assert.equal(exitCodeFor(cliError(reasonCode, 'm', 'h')), expected, reasonCode);
		}
		assert.equal(exitCodeFor(cliError('version_mismatch', 'm', 'h'), 400), 2);
		assert.equal(exitCodeFor(cliError('version_mismatch', 'm', 'h'), 409), 1);
	});

	it('mirrors the invalid-input reasons of src/core/errors.ts', () => {
		assert.deepEqual([...invalidInputReasonCodes].sort(), [...invalidInputReasons].sort());
	});

	it('mirrors the body cap of src/protocol/controlPlane.ts', () => {
		assert.equal(requestBodyCapBytes, maxBodyBytes);
	});

	it('shows a person "error: …" and "hint: …"', () => {
		assert.equal(humanError(cliError('host_unavailable', 'gone', 'run it again', true)), 'error: gone (retryable)\nhint: run it again\n');
	});
});
