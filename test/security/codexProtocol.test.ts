// Security: a codex target's `protocol` (`app-server` or `exec`) is the developer's configuration. No control-plane
// method takes it — checked over the whole method table — and an agent's write that tries to carry it is refused
// whole, through a real Host, with the developer's protocol unchanged in `tutti agent list`.
import { strict as assert } from 'node:assert';
import { z } from 'zod';
import type { Method } from '../../src/protocol/controlPlane.js';
import { expectOk, type HostConfig, type HostHandle, manualIssue, methods, openSession, standardTargets, startHost } from '../integration/harness.js';
import { rawPost } from './securityKit.js';

/** Whether a JSON schema names a property `key` whose value may be a string, anywhere inside it. */
function takesStringProperty(schema: unknown, key: string): boolean {
	if (Array.isArray(schema)) { return schema.some((s) => takesStringProperty(s, key)); }
	if (typeof schema !== 'object' || schema === null) { return false; }
	const node = schema as Record<string, unknown>;
	const properties = node.properties as Record<string, Record<string, unknown>> | undefined;
	const property = properties?.[key];
	if (property !== undefined && JSON.stringify(property).match(/"type":"string"|"enum"|"const"|^\{\}$/)) { return true; }
	return Object.values(node).some((v) => takesStringProperty(v, key));
}

describe("security: a codex target's protocol is the developer's", function () {
	this.timeout(60_000);
	let host: HostHandle;

	before(async () => {
		host = await startHost({
			config: (gates) => ({
				agentTargets: [...standardTargets(gates), { id: 'codex', adapter: 'codex', path: '/nonexistent/codex', protocol: 'exec' }],
				maxParallelRuns: 2,
			} as unknown as HostConfig),
		});
	});
	after(async () => { await host?.dispose(); });

	it('no method of the control plane takes a `protocol` that could be a Codex protocol', () => {
		const taking = (Object.keys(methods) as Method[]).filter((m) => takesStringProperty(z.toJSONSchema(methods[m].params, { io: 'input', unrepresentable: 'any' }), 'protocol'));
		assert.deepEqual(taking, []);
	});

	it("an agent's task write carrying `protocol` is refused whole, and the target keeps the developer's protocol", async () => {
		const worker = await openSession(host, 'worker');
		const issueId = await manualIssue(host, 'protocol stays');
		for (const params of [
			{ issueId, taskId: 'p1', title: 'T', agentTargetId: 'codex', protocol: 'app-server' },
			{ issueId, taskId: 'p1', title: 'T', agentTargetId: 'codex', target: { protocol: 'app-server' } },
		]) {
			const reply = await rawPost(host.socket, 'task/add', worker.token, params);
			assert.equal(reply.status, 400, reply.body);
			assert.match(reply.body, /"code":"bad_request"|invalid/i);
		}
		const listed = expectOk<{ agentTargets: { id: string; protocol?: string }[] }>(await host.cli(['agent', 'list', '--json'], { token: worker.token }));
		assert.equal(listed.agentTargets.find((t) => t.id === 'codex')?.protocol, 'exec');
		assert.deepEqual((expectOk<{ tasks: unknown[] }>(await host.cli(['issue', 'get', '--issue-id', issueId, '--json'], { asUser: true }))).tasks, []);
	});
});
