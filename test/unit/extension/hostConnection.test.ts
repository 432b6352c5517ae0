// A real Host in this process: the owner/viewer/no-store states and the hand-over when the owner closes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { defaultHostConfig } from '../../../src/host/config.js';
import { HostConnection, type ConnectionKind, autoStartDecision } from '../../../src/extension/connection/hostConnection.js';
import { storeLocation } from '../../../src/extension/settings/tuttiSettings.js';

describe('extension/hostConnection (real Host)', function () {
	this.timeout(30_000);
	let workspace: string;
	let stateHome: string;
	let previousStateHome: string | undefined;
	const open: HostConnection[] = [];

	// The machine-local record of known stores (src/host/knownStores.ts) of this process's in-process Hosts.
	before(() => {
		previousStateHome = process.env.XDG_STATE_HOME;
		stateHome = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-ext-state-'));
		process.env.XDG_STATE_HOME = stateHome;
	});
	after(() => {
		if (previousStateHome === undefined) { delete process.env.XDG_STATE_HOME; } else { process.env.XDG_STATE_HOME = previousStateHome; }
		fs.rmSync(stateHome, { recursive: true, force: true });
	});

	function connection(folder = workspace): HostConnection {
		const c = new HostConnection({
			workspace: folder,
			hostSettings: () => ({ config: { ...defaultHostConfig(), maxParallelRuns: 2 }, store: storeLocation(folder, undefined) }),
			log: () => undefined,
		});
		open.push(c);
		return c;
	}

	beforeEach(() => {
		workspace = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-ext-conn-')));
	});
	afterEach(async () => {
		for (const c of open.splice(0).reverse()) {
			await c.close();
		}
		fs.rmSync(workspace, { recursive: true, force: true });
	});

	it('without a store stays "noStore" and creates nothing; Start in Folder makes it the owner', async () => {
		const c = connection();
		const kinds: ConnectionKind[] = [];
		c.onDidChange((s) => kinds.push(s.kind));
		assert.equal((await c.start()).kind, 'noStore');
		assert.equal(fs.existsSync(path.join(workspace, '.tutti')), false);
		const state = await c.startInFolder();
		assert.equal(state.kind, 'owner');
		assert.deepEqual(kinds, ['noStore', 'starting', 'owner']);
		const created = await c.client!.call('issue/create', { title: 'From the extension' });
		assert.equal(created.title, 'From the extension');
		assert.equal(state.kind === 'owner' && state.host.config.maxParallelRuns, 2, 'the settings reach the Host');
	});

	it('starts by itself only where this machine created or opened a store (the pure decision)', () => {
		assert.equal(autoStartDecision(false, false), 'noStore');
		assert.equal(autoStartDecision(false, true), 'noStore');
		assert.equal(autoStartDecision(true, true), 'connect');
		assert.equal(autoStartDecision(true, false), 'unknownStore');
	});

	it('a store that came with the folder starts no Host by itself; Start in Folder opens it with every issue paused', async () => {
		const origin = connection();
		await origin.startInFolder();
		const { issueId } = await origin.client!.call('issue/create', { title: 'Shipped' });
		await origin.close();
		const clone = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-ext-clone-')));
		try {
			fs.mkdirSync(path.join(clone, '.tutti'));
			for (const name of ['tutti.sqlite', 'tutti.journal']) {
				fs.copyFileSync(path.join(workspace, '.tutti', name), path.join(clone, '.tutti', name));
			}
			const window = connection(clone);
			assert.equal((await window.start()).kind, 'unknownStore');
			assert.equal(fs.existsSync(path.join(clone, '.tutti', 'host.lease')), false, 'no Host took the store');
			const state = await window.startInFolder();
			assert.equal(state.kind, 'owner');
			assert.match(state.kind === 'owner' ? state.host.startPause?.message ?? '' : '', /This store came with the folder: nothing runs until you resume\./);
			assert.equal((await window.client!.call('issue/get', { issueId })).dispatchPaused, true);
			await window.close();
			const later = connection(clone);
			assert.equal((await later.start()).kind, 'owner', 'once started here, the folder starts by itself as before');
			await later.close();
		} finally {
			fs.rmSync(clone, { recursive: true, force: true });
		}
	});

	it('a second window on the same folder is a viewer whose reads and actions go to the owner', async () => {
		const owner = connection();
		await owner.startInFolder();
		const viewer = connection();
		const state = await viewer.start();
		assert.equal(state.kind, 'viewer');
		assert.equal(state.kind === 'viewer' && state.ownerPid, process.pid);
		const issue = await viewer.client!.call('issue/create', { title: 'Made in the viewer' });
		const seen = await owner.client!.call('issue/list', {});
		assert.deepEqual(seen.issues.map((i) => i.issueId), [issue.issueId]);
		await viewer.client!.call('issue/pause', { issueId: issue.issueId });
		assert.equal((await owner.client!.call('issue/get', { issueId: issue.issueId })).dispatchPaused, true);
	});

	it('the viewer reports errors with the Host\'s reason code and takes over when the owner closes', async () => {
		const owner = connection();
		await owner.startInFolder();
		const viewer = connection();
		await viewer.start();
		await assert.rejects(viewer.client!.call('issue/get', { issueId: 'nope' }), { reasonCode: 'issue_not_found' });
		await owner.close();
		await assert.rejects(viewer.client!.call('issue/list', {}), { reasonCode: 'host_unavailable' });
		assert.equal((await viewer.ownerLost()).kind, 'owner');
		assert.deepEqual((await viewer.client!.call('issue/list', {})).issues, []);
	});

	it('a viewer whose owner still holds the store stays the same viewer (no change event, no loop)', async () => {
		const owner = connection();
		await owner.startInFolder();
		const viewer = connection();
		const first = await viewer.start();
		const events: string[] = [];
		viewer.onDidChange((s) => events.push(s.kind));
		assert.equal(await viewer.ownerLost(), first);
		assert.deepEqual(events, []);
	});

	it('the in-process client validates parameters and names unknown methods as not available', async () => {
		const c = connection();
		await c.startInFolder();
		await assert.rejects(c.client!.call('issue/create', { title: '' }), { reasonCode: 'invalid_input' });
		await assert.rejects(c.client!.callByName('review/nonexistent', {}), { reasonCode: 'version_mismatch', message: /not available in this version/ });
		const session = await c.client!.call('session/open', { role: 'source' });
		const plan = await c.client!.call('plan/create', { title: 'Managed', content: 'Goal', requestId: 'r1' }, { sessionToken: session.token });
		assert.equal(plan.sourceSessionId, session.sessionId);
	});
});
