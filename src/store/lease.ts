// One Host per store: `.tutti/host.lease` names the owning process. Created atomically; a lease whose process is
// gone is taken over; released on close only while it is still ours.
import { randomBytes } from 'node:crypto';
import { linkSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync, closeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { systemClock } from '../core/ports.js';
import { StoreError } from './storeErrors.js';

export const leaseFileName = 'host.lease';

export interface LeaseOwner {
	readonly pid: number;
	readonly nonce: string;
	/** Unix ms when the lease was taken. */
	readonly startedAt: number;
	readonly hostname: string;
}

/** A lease file older than this that cannot be parsed is treated as abandoned mid-write. */
const unreadableLeaseGraceMs = 10_000;
const acquireAttempts = 8;

export function leasePath(dir: string): string {
	return join(dir, leaseFileName);
}

function parseOwner(text: string): LeaseOwner | undefined {
	try {
		const v = JSON.parse(text) as Partial<LeaseOwner>;
		if (typeof v.pid === 'number' && typeof v.nonce === 'string' && typeof v.startedAt === 'number' && typeof v.hostname === 'string') {
			return { pid: v.pid, nonce: v.nonce, startedAt: v.startedAt, hostname: v.hostname };
		}
	} catch {
		// fall through
	}
	return undefined;
}

type LeaseFile = { kind: 'missing' } | { kind: 'unreadable'; mtimeMs: number } | { kind: 'owner'; owner: LeaseOwner };

function readLeaseFile(path: string): LeaseFile {
	let text: string;
	let mtimeMs: number;
	try {
		text = readFileSync(path, 'utf8');
		mtimeMs = statSync(path).mtimeMs;
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
			return { kind: 'missing' };
		}
		throw e;
	}
	const owner = parseOwner(text);
	return owner ? { kind: 'owner', owner } : { kind: 'unreadable', mtimeMs };
}

/** Who holds the store in `dir` (for a viewer to show), or undefined when nobody does. */
export function readLeaseOwner(dir: string): LeaseOwner | undefined {
	const file = readLeaseFile(leasePath(dir));
	return file.kind === 'owner' ? file.owner : undefined;
}

/** Linux: when the process with this pid started (unix ms) and whether it is a zombie; undefined elsewhere. */
function linuxProcessInfo(pid: number): { startedAt: number; zombie: boolean } | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		const bootLine = readFileSync('/proc/stat', 'utf8').split('\n').find((l) => l.startsWith('btime '));
		const startTicks = Number(fields[19]);
		if (!bootLine || !Number.isFinite(startTicks)) {
			return undefined;
		}
		// Clock ticks are 100 per second on every mainstream Linux build.
		return { startedAt: Number(bootLine.slice(6)) * 1000 + startTicks * 10, zombie: fields[0] === 'Z' };
	} catch {
		return undefined;
	}
}

/**
 * Whether the lease's process still runs. A lease from another machine is assumed alive (we cannot tell);
 * a pid that now belongs to a process started after the lease was taken is a reused pid, so the owner is gone.
 */
export function isLeaseOwnerAlive(owner: LeaseOwner): boolean {
	if (owner.hostname !== hostname()) {
		return true;
	}
	try {
		process.kill(owner.pid, 0);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code !== 'EPERM') {
			return false;
		}
	}
	const info = linuxProcessInfo(owner.pid);
	if (info && (info.zombie || info.startedAt > owner.startedAt + 5_000)) {
		return false;
	}
	return true;
}

function lockedError(dir: string, owner: LeaseOwner): StoreError {
	const path = leasePath(dir);
	const where = owner.hostname === hostname() ? '' : ` on host ${owner.hostname}`;
	return new StoreError(
		'store_locked',
		`Another Tutti Host (pid ${owner.pid}${where}, since ${new Date(owner.startedAt).toISOString()}) owns the store in ${dir}. ` +
			`Stop that Host or use it; if pid ${owner.pid} is not a Tutti Host, delete ${path}.`,
		path,
		{ owner },
	);
}

/** Creates the lease file only if none exists; the content is complete the instant the name appears. */
function tryCreate(path: string, me: LeaseOwner): boolean {
	const text = JSON.stringify(me);
	const tmp = `${path}.${me.nonce}.tmp`;
	const fd = openSync(tmp, 'wx', 0o600);
	try {
		writeSync(fd, text);
	} finally {
		closeSync(fd);
	}
	try {
		linkSync(tmp, path);
		return true;
	} catch (e) {
		const code = (e as NodeJS.ErrnoException).code;
		if (code === 'EEXIST') {
			return false;
		}
		if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EOPNOTSUPP') {
			return createExclusive(path, text);
		}
		throw e;
	} finally {
		unlinkSync(tmp);
	}
}

/** Fallback where hard links are unavailable: O_EXCL create, then write. */
function createExclusive(path: string, text: string): boolean {
	let fd: number;
	try {
		fd = openSync(path, 'wx', 0o600);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'EEXIST') {
			return false;
		}
		throw e;
	}
	try {
		writeSync(fd, text);
	} finally {
		closeSync(fd);
	}
	return true;
}

/**
 * Moves a stale lease out of the way. Only one contender's rename succeeds; if what we moved turns out not to be
 * the stale lease we judged (someone replaced it meanwhile), it is put back.
 */
function removeStale(path: string, stale: LeaseFile, me: LeaseOwner): void {
	const aside = `${path}.stale-${me.nonce}`;
	try {
		renameSync(path, aside);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
			return;
		}
		throw e;
	}
	const moved = readLeaseFile(aside);
	const same = stale.kind === 'owner' ? moved.kind === 'owner' && moved.owner.nonce === stale.owner.nonce : moved.kind === 'unreadable';
	if (!same) {
		try {
			linkSync(aside, path);
		} catch {
			// someone holds a newer lease already; theirs stands
		}
	}
	unlinkSync(aside);
}

export class Lease {
	#released = false;

	constructor(
		readonly path: string,
		readonly owner: LeaseOwner,
	) {}

	/** Deletes the lease file if it is still ours. Idempotent. */
	release(): void {
		if (this.#released) {
			return;
		}
		this.#released = true;
		const file = readLeaseFile(this.path);
		if (file.kind === 'owner' && file.owner.nonce === this.owner.nonce) {
			unlinkSync(this.path);
		}
	}
}

/**
 * Takes the store lease in `dir`, or throws store_locked naming the live owner's pid. Always wall-clock time (never
 * an injected test clock): other Hosts compare `startedAt` with real process start times.
 */
export function acquireLease(dir: string): Lease {
	const path = leasePath(dir);
	const me: LeaseOwner = { pid: process.pid, nonce: randomBytes(16).toString('hex'), startedAt: systemClock.now(), hostname: hostname() };
	let last: LeaseFile = { kind: 'missing' };
	for (let attempt = 0; attempt < acquireAttempts; attempt++) {
		if (tryCreate(path, me)) {
			return new Lease(path, me);
		}
		last = readLeaseFile(path);
		if (last.kind === 'missing') {
			continue;
		}
		if (last.kind === 'owner' && isLeaseOwnerAlive(last.owner)) {
			throw lockedError(dir, last.owner);
		}
		if (last.kind === 'unreadable' && systemClock.now() - last.mtimeMs < unreadableLeaseGraceMs) {
			throw new StoreError('store_locked', `Another Tutti Host is taking the store in ${dir} right now (${path} is being written).`, path);
		}
		removeStale(path, last, me);
	}
	if (last.kind === 'owner') {
		throw lockedError(dir, last.owner);
	}
	throw new StoreError('store_locked', `Could not take the store lease ${path}: other Hosts keep contending for it.`, path);
}
