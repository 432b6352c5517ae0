// The stale-socket probe: a socket file nothing listens on is stale, even when the prober's own event loop was too busy
// to see the refusal before its timeout (a Host restarting on a loaded machine took a dead predecessor for a live one).
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { socketAnswers } from '../../../src/control-plane/socketProbe.js';

/** Keeps the event loop busy (no I/O callbacks run) for `ms`. */
function blockLoop(ms: number): void {
	const until = Date.now() + ms;
	while (Date.now() < until) { /* busy */ }
}

describe('control-plane/socketProbe', () => {
	let dir: string;
	beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'tutti-probe-')); });
	afterEach(() => { rmSync(dir, { recursive: true, force: true }); });

	it('a socket nobody listens on does not answer, even when the loop was blocked past the timeout', async () => {
		const path = join(dir, 'dead.sock');
		const probe = socketAnswers(path, 5);
		blockLoop(50);
		assert.equal(await probe, false);
	});

	it('a live server answers', async () => {
		const path = join(dir, 'live.sock');
		const server = net.createServer((s) => s.end());
		await new Promise<void>((resolve) => server.listen(path, resolve));
		try {
			assert.equal(await socketAnswers(path, 1000), true);
		} finally {
			await new Promise<void>((resolve) => server.close(() => resolve()));
		}
	});
});
