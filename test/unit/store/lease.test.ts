import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { Store } from '../../../src/store/database.js';
import { acquireLease, isLeaseOwnerAlive, leasePath, readLeaseOwner } from '../../../src/store/lease.js';
import type { LeaseOwner } from '../../../src/store/lease.js';
import { StoreError } from '../../../src/store/storeErrors.js';
import { tempStoreDir } from './storeTestKit.js';
import type { TempStoreDir } from './storeTestKit.js';

/** The pid of a process that has exited (and been reaped). */
async function deadPid(): Promise<number> {
	const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
	await new Promise((resolve) => child.once('exit', resolve));
	assert.ok(child.pid !== undefined);
	return child.pid;
}

function writeLease(dir: string, owner: LeaseOwner): void {
	mkdirSync(dir, { recursive: true });
	writeFileSync(leasePath(dir), JSON.stringify(owner));
}

function lockedBy(pid: number): (e: unknown) => boolean {
	return (e) => e instanceof StoreError && e.code === 'store_locked' && e.message.includes(`pid ${pid}`);
}

describe('store lease', () => {
	let tmp: TempStoreDir;
	beforeEach(() => {
		tmp = tempStoreDir();
		mkdirSync(tmp.dir, { recursive: true });
	});
	afterEach(() => { tmp.cleanup(); });

	it('writes {pid, nonce, startedAt, hostname} and readLeaseOwner shows it; release deletes it', () => {
		const before = Date.now();
		const lease = acquireLease(tmp.dir);
		const owner = readLeaseOwner(tmp.dir);
		assert.deepEqual(owner, { pid: process.pid, nonce: lease.owner.nonce, startedAt: lease.owner.startedAt, hostname: hostname() });
		assert.ok(lease.owner.startedAt >= before && lease.owner.startedAt <= Date.now());
		assert.deepEqual(JSON.parse(readFileSync(leasePath(tmp.dir), 'utf8')), owner);
		lease.release();
		assert.equal(existsSync(leasePath(tmp.dir)), false);
		assert.equal(readLeaseOwner(tmp.dir), undefined);
	});

	it('refuses a second Host while the owner lives, naming its pid', async () => {
		const first = await Store.open({ dir: tmp.dir });
		try {
			await assert.rejects(Store.open({ dir: tmp.dir }), lockedBy(process.pid));
			assert.throws(() => acquireLease(tmp.dir), lockedBy(process.pid));
		} finally {
			await first.close();
		}
		const second = await Store.open({ dir: tmp.dir });
		await second.close();
	});

	it('refuses when the owner is a live process on this host (another pid)', async () => {
		const child = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 20000)'], { stdio: 'ignore' });
		try {
			assert.ok(child.pid !== undefined);
			writeLease(tmp.dir, { pid: child.pid, nonce: 'n', startedAt: Date.now(), hostname: hostname() });
			assert.throws(() => acquireLease(tmp.dir), lockedBy(child.pid));
		} finally {
			child.kill('SIGKILL');
			await new Promise((resolve) => child.once('exit', resolve));
		}
	});

	it('takes over the lease of a dead pid', async () => {
		const pid = await deadPid();
		writeLease(tmp.dir, { pid, nonce: 'dead', startedAt: Date.now() - 1000, hostname: hostname() });
		const lease = acquireLease(tmp.dir);
		assert.equal(readLeaseOwner(tmp.dir)?.nonce, lease.owner.nonce);
		assert.equal(readLeaseOwner(tmp.dir)?.pid, process.pid);
		lease.release();
	});

	it('treats a reused pid (process started after the lease) as dead on Linux', function () {
		if (process.platform !== 'linux') {
			this.skip();
		}
		const owner: LeaseOwner = { pid: process.pid, nonce: 'old', startedAt: Date.now() - 86_400_000 * 30, hostname: hostname() };
		assert.equal(isLeaseOwnerAlive(owner), false);
		assert.equal(isLeaseOwnerAlive({ ...owner, startedAt: Date.now() }), true);
	});

	it('assumes a lease from another machine is alive', () => {
		writeLease(tmp.dir, { pid: 1, nonce: 'remote', startedAt: Date.now(), hostname: `${hostname()}-elsewhere` });
		assert.throws(() => acquireLease(tmp.dir), (e) => lockedBy(1)(e) && /on host/.test((e as Error).message));
	});

	it('releases only a lease that is still ours', () => {
		const lease = acquireLease(tmp.dir);
		const intruder: LeaseOwner = { pid: process.pid, nonce: 'someone-else', startedAt: Date.now(), hostname: hostname() };
		writeFileSync(leasePath(tmp.dir), JSON.stringify(intruder));
		lease.release();
		assert.deepEqual(readLeaseOwner(tmp.dir), intruder);
	});

	it('waits out a lease being written, but takes over one left unreadable long ago', () => {
		writeFileSync(leasePath(tmp.dir), '{"pid": 12');
		assert.throws(() => acquireLease(tmp.dir), (e) => e instanceof StoreError && e.code === 'store_locked');
		const old = new Date(Date.now() - 60_000);
		utimesSync(leasePath(tmp.dir), old, old);
		const lease = acquireLease(tmp.dir);
		assert.equal(readLeaseOwner(tmp.dir)?.nonce, lease.owner.nonce);
		lease.release();
	});
});
