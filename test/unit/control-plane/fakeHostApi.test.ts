// The fake Host's canned answers are valid answers: the server checks every result against its method's schema and
// answers 500 otherwise, so a fake that drifted from the protocol fails the fuzz tests only for some random inputs.
import assert from 'node:assert/strict';
import { methods } from '../../../src/protocol/controlPlane.js';
import { createFakeHostApi } from './fakeHostApi.js';

describe('fake Host API', () => {
	it('answers agent/list with a result its schema accepts', async () => {
		const api = createFakeHostApi();
		const result = await (api.handlers['agent/list'] as (p: Record<string, unknown>, c: { kind: 'user' }) => unknown)({}, { kind: 'user' });
		const parsed = methods['agent/list'].result.safeParse(result);
		assert.ok(parsed.success, parsed.success ? '' : parsed.error.message);
	});
});
