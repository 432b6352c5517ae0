// How many task ids one `plan issue schedule` may name: a 5,000-task plan is schedulable in one request (through
// --task-ids-file or --task-ids-json -), and the cap that remains fits the request cap and says so when it refuses.
import * as assert from 'node:assert/strict';
import { z } from 'zod';
import { maxBodyBytes, methods } from '../../../src/protocol/controlPlane.js';

const fence = { issueId: 'I', checkpointId: 'C', expectedGraphRevision: 1, requestId: 'R' };
const ids = (n: number, width = 6): string[] => Array.from({ length: n }, (_, i) => `t${String(i).padStart(width - 1, '0')}`);

describe('plan/schedule: the number of task ids in one request', () => {
	it('accepts the 5,000 task ids of a 5,000-task plan', () => {
		const parsed = methods['plan/schedule'].params.safeParse({ ...fence, taskIds: ids(5000) });
		assert.equal(parsed.success, true, parsed.success ? '' : z.prettifyError(parsed.error));
	});

	it('refuses 10,001 with a message that names the cap and the request cap, and 10,000 of the longest ids fit in a request', () => {
		const accepted = methods['plan/schedule'].params.safeParse({ ...fence, taskIds: ids(10_000, 200) });
		assert.equal(accepted.success, true);
		assert.ok(Buffer.byteLength(JSON.stringify({ ...fence, taskIds: ids(10_000, 200) })) < maxBodyBytes, '10,000 ids of 200 characters fit in 8 MiB');
		const refused = methods['plan/schedule'].params.safeParse({ ...fence, taskIds: ids(10_001) });
		assert.equal(refused.success, false);
		assert.match(z.prettifyError(refused.error!), /at most 10,000 task ids per schedule.*8 MiB request cap/);
	});
});
