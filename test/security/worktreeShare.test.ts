// Security: how trees are set up (`worktreeSetup`, `worktreeCopy`, `worktreeShare`, `maxParallelSetups`, the cache's
// size) is the developer's configuration: no control-plane method takes any of it — checked over the whole method
// table — and an agent's task write that tries to carry it is refused whole. Shared paths and keys stay inside the
// tree, and a shared install never hands a later tree a link into another tree or the cache.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'mocha';
import { z } from 'zod';
import { parseHostConfig } from '../../src/host/config.js';
import type { Method } from '../../src/protocol/controlPlane.js';
import { commandTarget, ServiceHarness } from '../unit/host/services/serviceHarness.js';
import { type HostHandle, manualIssue, methods, openSession, standardTargets, startHost } from '../integration/harness.js';
import { rawPost } from './securityKit.js';

const settingNames = ['worktreeSetup', 'worktreeCopy', 'worktreeShare', 'maxParallelSetups', 'worktreeShareCacheMaxMb', 'worktreeSetupTimeoutSeconds'];

/** The property names a JSON schema names anywhere inside it. */
function propertyNames(schema: unknown, into = new Set<string>()): Set<string> {
	if (Array.isArray(schema)) { schema.forEach((s) => propertyNames(s, into)); return into; }
	if (typeof schema !== 'object' || schema === null) { return into; }
	const node = schema as Record<string, unknown>;
	if (typeof node.properties === 'object' && node.properties !== null) { Object.keys(node.properties).forEach((k) => into.add(k)); }
	Object.values(node).forEach((v) => propertyNames(v, into));
	return into;
}

describe('security: tree set-up settings are the developer\'s', function () {
	this.timeout(60_000);
	let host: HostHandle;

	before(async () => { host = await startHost({ config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 2 }) }); });
	after(async () => { await host?.dispose(); });

	it('no method of the control plane takes a tree set-up setting', () => {
		const taking = (Object.keys(methods) as Method[]).flatMap((m) => {
			const names = propertyNames(z.toJSONSchema(methods[m].params, { io: 'input', unrepresentable: 'any' }));
			return settingNames.filter((n) => names.has(n)).map((n) => `${m}.${n}`);
		});
		assert.deepEqual(taking, []);
	});

	it("an agent's task write carrying one is refused whole", async () => {
		const worker = await openSession(host, 'worker');
		const issueId = await manualIssue(host, 'setup stays');
		for (const params of [
			{ issueId, taskId: 's1', title: 'T', agentTargetId: 'ok', worktreeSetup: ['sh', '-c', 'touch pwned'] },
			{ issueId, taskId: 's1', title: 'T', worktreeShare: [{ paths: ['/'], key: ['x'] }] },
			{ issueId, taskId: 's1', title: 'T', maxParallelSetups: 256 },
		]) {
			const reply = await rawPost(host.socket, 'task/add', worker.token, params);
			assert.equal(reply.status, 400, reply.body);
		}
	});
});

describe('security: shared installs stay inside their tree', function () {
	this.timeout(60_000);
	let h: ServiceHarness | undefined;
	afterEach(async () => { await h?.close(); h = undefined; });

	it('refuses shared paths and keys that are absolute, leave the tree or point into .git/.tutti, naming them', () => {
		for (const bad of ['/etc', '../up', 'a/../../b', '.git/config', '.tutti/setup-cache', '~/x', 'C:/x']) {
			for (const field of ['paths', 'key'] as const) {
				const rule = { paths: ['node_modules'], key: ['package-lock.json'], [field]: [bad] };
				assert.throws(() => parseHostConfig(JSON.stringify({ worktreeShare: [rule] }), '/x/config.json'),
					(e: Error) => e.message.includes('worktreeShare') && /worktree paths/.test(e.message), `${field}: ${bad}`);
				assert.throws(() => parseHostConfig(JSON.stringify({ agentTargets: [{ id: 't', adapter: 'command', argv: ['true'], worktreeShare: [rule] }] }), '/x/config.json'),
					/worktree paths/, `a target's ${field}: ${bad}`);
			}
		}
	});

	it('an install holding an absolute link into .tutti is not shared: the next tree installs its own', async () => {
		// The "install" links to a file of the tree it ran in by absolute path: a later tree given that link would read
		// (and write) the first tree's file.
		const setup = ['sh', '-c', 'mkdir -p node_modules && echo mine > own.txt && ln -s "$PWD/own.txt" node_modules/link && basename "$PWD" >> ../../../installs.txt'];
		h = await ServiceHarness.open({ config: {
			agentTargets: [commandTarget('iso', { isolation: 'worktree' })], worktreeSetup: setup,
			worktreeShare: [{ paths: ['node_modules'], key: ['package-lock.json'] }],
		} });
		const git = (...args: string[]): string => execFileSync('git', args, { cwd: h!.workspace, encoding: 'utf8' });
		git('init', '-q');
		writeFileSync(join(h.workspace, 'package-lock.json'), 'lock');
		writeFileSync(join(h.workspace, '.gitignore'), 'node_modules/\nown.txt\n');
		git('add', '-A');
		git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '-m', 'initial');
		const issueId = (await h.call('issue/create', { title: 'links' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'a', agentTargetId: 'iso' });
		await h.idle();
		await h.call('task/add', { issueId, taskId: 'b', title: 'b', agentTargetId: 'iso' });
		await h.idle();
		assert.equal(h.runs.launches.length, 2, h.logs.join(' | '));
		assert.deepEqual(readFileSync(join(h.workspace, '.tutti', 'installs.txt'), 'utf8').trim().split('\n'), ['a', 'b']);
		const log = readFileSync(join(h.runs.runDir(h.runs.launches[0]!.runId), 'stderr.log'), 'utf8');
		assert.match(log, /not shared: .*node_modules\/link is a link to .*own\.txt, inside \.tutti/);
		assert.equal(existsSync(join(h.workspace, '.tutti', 'setup-cache')) && execFileSync('ls', [join(h.workspace, '.tutti', 'setup-cache')], { encoding: 'utf8' }).trim() !== '', false, 'nothing cached');
	});
});
