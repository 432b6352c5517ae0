// Security: how long a Run may be silent before it is marked stalled (`stallSeconds`, workspace-wide and per agent
// target) is the developer's configuration, and a stall mark is lifted by the Run's own activity only. No control-plane
// method takes `stallSeconds` or sets a mark — checked over the whole method table — and an agent's task write that
// tries to carry it is refused whole, through a real Host.
import { strict as assert } from 'node:assert';
import { z } from 'zod';
import type { Method } from '../../src/protocol/controlPlane.js';
import { expectOk, type HostHandle, manualIssue, methods, openSession, standardTargets, startHost } from '../integration/harness.js';
import { rawPost } from './securityKit.js';

/** Whether a JSON schema names a property `key`, anywhere inside it. */
function takesProperty(schema: unknown, key: string): boolean {
	if (Array.isArray(schema)) { return schema.some((s) => takesProperty(s, key)); }
	if (typeof schema !== 'object' || schema === null) { return false; }
	const node = schema as Record<string, unknown>;
	const properties = node.properties as Record<string, unknown> | undefined;
	if (properties !== undefined && Object.prototype.hasOwnProperty.call(properties, key)) { return true; }
	return Object.values(node).some((v) => takesProperty(v, key));
}

describe('security: the stall time is the developer\'s', function () {
	this.timeout(60_000);
	let host: HostHandle;

	before(async () => { host = await startHost({ config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 2 }) }); });
	after(async () => { await host?.dispose(); });

	it('no method of the control plane takes `stallSeconds`, nor a stall mark to set or lift', () => {
		const params = (m: Method): unknown => z.toJSONSchema(methods[m].params, { io: 'input', unrepresentable: 'any' });
		for (const key of ['stallSeconds', 'stalled', 'stall']) {
			assert.deepEqual((Object.keys(methods) as Method[]).filter((m) => takesProperty(params(m), key)), [], key);
		}
	});

	it("an agent's task write carrying `stallSeconds` is refused whole", async () => {
		const worker = await openSession(host, 'worker');
		const issueId = await manualIssue(host, 'stall time stays');
		for (const params of [
			{ issueId, taskId: 's1', title: 'T', agentTargetId: 'gate', stallSeconds: 0 },
			{ issueId, taskId: 's1', title: 'T', agentTargetId: 'gate', target: { stallSeconds: 0 } },
		]) {
			const reply = await rawPost(host.socket, 'task/add', worker.token, params);
			assert.equal(reply.status, 400, reply.body);
			assert.match(reply.body, /"code":"bad_request"|invalid/i);
		}
		assert.deepEqual((expectOk<{ tasks: unknown[] }>(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true }))).tasks, []);
	});
});
