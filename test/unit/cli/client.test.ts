// Reading the Host's reply: the success text passes through, errors keep their fields, anything else is internal.
import * as assert from 'node:assert/strict';
import { interpretReply } from '../../../src/cli/client.js';

describe('CLI reply interpretation', () => {
	it('passes the result text of {"ok":true,"result":…} through unchanged', () => {
		const result = { issueId: 'X', tasks: [{ taskId: 'a', title: 'say "hi" }' }] };
		assert.deepEqual(interpretReply({ status: 200, body: JSON.stringify({ ok: true, result }) }), { ok: true, resultJson: JSON.stringify(result) });
	});

	it('accepts an equivalent envelope written differently', () => {
		assert.deepEqual(interpretReply({ status: 200, body: '{ "result": [1, 2], "ok": true }' }), { ok: true, resultJson: '[1,2]' });
	});

	it('keeps reasonCode, message, hint, retryable and details of an error reply, with its status', () => {
		const error = { reasonCode: 'stale_graph_revision', message: 'm', hint: 'h', retryable: true, details: { current: 4 } };
		assert.deepEqual(interpretReply({ status: 409, body: JSON.stringify({ ok: false, error: { ...error, extra: 'dropped' } }) }), { ok: false, status: 409, error });
	});

	it('reads a reason code this version does not know (a newer Host) as version_mismatch, keeping everything the Host said', () => {
		const error = { reasonCode: 'brand_new_reason', message: 'm', hint: 'h', details: { a: 1 } };
		assert.deepEqual(interpretReply({ status: 409, body: JSON.stringify({ ok: false, error }) }), {
			ok: false, status: 409,
			error: {
				reasonCode: 'version_mismatch', hint: 'h', details: { a: 1, peerReasonCode: 'brand_new_reason' },
				message: 'm (the Host answered with the reason code "brand_new_reason", which this version of Tutti does not know: the Host runs another Tutti version)',
			},
		});
	});

	it('turns anything else into an internal error', () => {
		for (const body of ['', 'Bad Gateway', '{"ok":false}', '{"ok":false,"error":{"reasonCode":1}}', '[]', 'null', '{"ok":true}']) {
			const outcome = interpretReply({ status: 502, body });
			assert.equal(outcome.ok, false, body);
			assert.equal(!outcome.ok && outcome.error.reasonCode, 'internal', body);
		}
	});
});
