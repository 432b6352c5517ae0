// Dependencies installed once (`worktreeShare`): the first tree whose key files hold given bytes runs the setup,
// and its shared paths are cloned into `.tutti/setup-cache/<key>`; every later tree with the same key gets its own
// copy of them from there instead of installing again. A copy, never a link: a copy-on-write clone where the
// filesystem has one (FICLONE on XFS/Btrfs, clonefile on APFS), else a plain copy, so no tree can change a file
// another tree or the cache reads. The cache has a size limit (least recently used entries go first) and entries
// no remaining tree uses are pruned with the trees.
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync, promises as fsp, readFileSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import type { WorktreeShareRule } from '../../core/runs/runProcessPort.js';

/** How a tree got its shared paths: it ran the setup, or they were cloned / copied from the cache. */
export type ShareMethod = 'installed' | 'clone' | 'copy';

/** The cache folder inside the workspace's `.tutti`. */
export const setupCacheFolder = join('.tutti', 'setup-cache');

interface CacheEntryInfo {
	key: string;
	paths: string[];
	bytes: number;
	createdAtUnixMs: number;
	lastUsedAtUnixMs: number;
}

const entryInfoFile = 'entry.json';

/**
 * The key of a tree's install: the setup's argv, the rules, and the bytes of every key file in the tree (a missing
 * file counts as missing). Null when there is nothing to share.
 */
export function shareKey(tree: string, setup: readonly string[], rules: readonly WorktreeShareRule[]): string | null {
	if (rules.length === 0 || setup.length === 0) { return null; }
	const hash = createHash('sha256');
	hash.update(JSON.stringify({ setup, rules }));
	for (const file of rules.flatMap((r) => r.key)) {
		hash.update(`\0${file}\0`);
		try {
			hash.update(readFileSync(join(tree, file)));
		} catch {
			hash.update('\0missing\0');
		}
	}
	return hash.digest('hex').slice(0, 32);
}

/** Every shared path of the rules, each once. */
export function sharedPaths(rules: readonly WorktreeShareRule[]): string[] {
	return [...new Set(rules.flatMap((r) => r.paths).map((p) => p.replace(/\\/g, '/').replace(/\/+$/, '')))];
}

async function exists(path: string): Promise<boolean> {
	return fsp.lstat(path).then(() => true, () => false);
}

/** The system's own `cp` by absolute path (never one found on PATH, which a workspace can lead elsewhere); '' when none. */
const systemCp = process.platform === 'win32' ? '' : ['/bin/cp', '/usr/bin/cp'].find((p) => existsSync(p)) ?? '';

/** A copy of a large install may take minutes on a slow disk; past this it is reported, not waited for. */
const copyTimeoutMs = 10 * 60_000;

/** `cp -a` with `clone` asking for copy-on-write clones only (GNU `--reflink=always`, macOS `-c`); rejects when it fails. */
function systemCopy(from: string, to: string, clone: boolean): Promise<void> {
	const cloneFlag = process.platform === 'darwin' ? ['-c'] : ['--reflink=always'];
	const args = ['-a', ...(clone ? cloneFlag : []), '--', from, to];
	return new Promise((done, fail) => {
		execFile(systemCp, args, { timeout: copyTimeoutMs, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (error, _stdout, stderr) => {
			if (error === null) { done(); return; }
			const why = error.killed ? `took longer than ${copyTimeoutMs / 60_000} min` : String(stderr).trim().split('\n')[0] || error.message;
			fail(new Error(`copying ${from} to ${to} failed: ${why}`));
		});
	});
}

/** The first regular file in `path` (itself when it is one), depth first; undefined when there is none. */
async function firstFile(path: string): Promise<string | undefined> {
	const stat = await fsp.lstat(path).catch(() => undefined);
	if (stat?.isFile() === true) { return path; }
	if (stat?.isDirectory() !== true) { return undefined; }
	for (const entry of await fsp.readdir(path, { withFileTypes: true })) {
		const found = entry.isFile() ? join(path, entry.name) : entry.isDirectory() ? await firstFile(join(path, entry.name)) : undefined;
		if (found !== undefined) { return found; }
	}
	return undefined;
}

/** Whether a file of `from` can be cloned into `toDir` (a probe file made there and removed). */
async function canClone(from: string, toDir: string): Promise<boolean> {
	const sample = await firstFile(from);
	if (sample === undefined) { return false; }
	const probe = join(toDir, `.tutti-clone-probe-${randomBytes(6).toString('hex')}`);
	try {
		await systemCopy(sample, probe, true);
		return true;
	} catch {
		return false;
	} finally {
		await fsp.rm(probe, { force: true });
	}
}

/**
 * Copies `from` to `to` (a file or a folder, symbolic links kept as links, times and modes kept; `to` must not
 * exist): a copy-on-write clone when the filesystem has it, else a plain copy. Returns the method used. The system's
 * `cp` copies a folder of thousands of files about twice as fast as Node's own `fs.cp` (1.3–2.4 s against 3.0–3.8 s
 * for 2,750 files on ext4), so it is used where there is one.
 */
export async function cloneOrCopy(from: string, to: string): Promise<Exclude<ShareMethod, 'installed'>> {
	if (await exists(to)) { throw new Error(`copying ${from} to ${to} refused: ${to} already exists`); }
	if (systemCp !== '') {
		await fsp.mkdir(dirname(to), { recursive: true });
		// One file first: where the filesystem cannot clone (ext4, tmpfs, across devices) `cp` would go on failing
		// file by file through the whole install before the plain copy could start.
		if (await canClone(from, dirname(to))) {
			try {
				await systemCopy(from, to, true);
				return 'clone';
			} catch {
				await fsp.rm(to, { recursive: true, force: true });
			}
		}
		await systemCopy(from, to, false);
		return 'copy';
	}
	const options = { recursive: true, verbatimSymlinks: true, preserveTimestamps: true, errorOnExist: true, force: false };
	try {
		await fsp.cp(from, to, { ...options, mode: constants.COPYFILE_FICLONE_FORCE });
		return 'clone';
	} catch {
		await fsp.rm(to, { recursive: true, force: true });
		await fsp.cp(from, to, { ...options, mode: 0 });
		return 'copy';
	}
}

/**
 * Why a path cannot be cached, or null: a symbolic link whose absolute target lies in `.tutti` (the tree it was made
 * in, another tree, the cache) would lead every later tree back to files another tree writes. Returns the bytes too.
 */
async function inspect(root: string, tuttiDir: string): Promise<{ bytes: number; problem: string | null }> {
	let bytes = 0;
	const stack = [root];
	while (stack.length > 0) {
		const path = stack.pop()!;
		const stat = await fsp.lstat(path);
		if (stat.isSymbolicLink()) {
			const target = await fsp.readlink(path);
			const absolute = resolve(path, '..', target);
			if ((target.startsWith('/') || /^[A-Za-z]:/.test(target)) && (absolute === tuttiDir || absolute.startsWith(`${tuttiDir}${sep}`))) {
				return { bytes, problem: `${path} is a link to ${target}, inside .tutti` };
			}
		} else if (stat.isDirectory()) {
			for (const name of await fsp.readdir(path)) { stack.push(join(path, name)); }
		} else {
			bytes += stat.size;
		}
	}
	return { bytes, problem: null };
}

export class SetupCache {
	readonly #dir: string;
	readonly #tuttiDir: string;
	readonly #maxBytes: number;

	constructor(workspace: string, maxMb: number) {
		this.#dir = join(resolve(workspace), setupCacheFolder);
		this.#tuttiDir = join(resolve(workspace), '.tutti');
		this.#maxBytes = maxMb * 1024 * 1024;
	}

	get dir(): string { return this.#dir; }

	#entry(key: string): string { return join(this.#dir, key); }

	/** A complete entry of `key` exists. */
	async has(key: string): Promise<boolean> {
		return exists(join(this.#entry(key), entryInfoFile));
	}

	/** The same, answered without a wait (so a caller can check and claim a key in one step). */
	hasNow(key: string): boolean {
		return existsSync(join(this.#entry(key), entryInfoFile));
	}

	/**
	 * Gives `tree` its own copy of the entry's paths; null when a path already exists in the tree (it is never
	 * overwritten) or the entry is gone. The method is the weakest one any path needed.
	 */
	async restore(key: string, tree: string, paths: readonly string[], now: number): Promise<Exclude<ShareMethod, 'installed'> | null> {
		const entry = this.#entry(key);
		for (const path of paths) {
			if (await exists(join(tree, path))) { return null; }
		}
		let method: Exclude<ShareMethod, 'installed'> = 'clone';
		for (const path of paths) {
			const from = join(entry, 'paths', path);
			if (!(await exists(from))) { continue; } // the setup did not make it: neither does the copy
			if ((await cloneOrCopy(from, join(tree, path))) === 'copy') { method = 'copy'; }
		}
		await this.#touch(key, now);
		return method;
	}

	/**
	 * Caches `tree`'s shared paths under `key` (made aside, then renamed in whole). Returns why it was not kept, or null.
	 */
	async store(key: string, tree: string, paths: readonly string[], now: number, keep: ReadonlySet<string>): Promise<string | null> {
		if (await this.has(key)) { return null; }
		await fsp.mkdir(this.#dir, { recursive: true, mode: 0o700 });
		const aside = join(this.#dir, `${key}.tmp-${process.pid}-${now}`);
		try {
			let bytes = 0;
			for (const path of paths) {
				const from = join(tree, path);
				if (!(await exists(from))) { continue; }
				const { bytes: size, problem } = await inspect(from, this.#tuttiDir);
				if (problem !== null) { return `not shared: ${problem}`; }
				bytes += size;
				if (bytes > this.#maxBytes) { return `not shared: larger than the cache limit (worktreeShareCacheMaxMb)`; }
				await fsp.mkdir(join(aside, 'paths', path, '..'), { recursive: true });
				await cloneOrCopy(from, join(aside, 'paths', path));
			}
			const info: CacheEntryInfo = { key, paths: [...paths], bytes, createdAtUnixMs: now, lastUsedAtUnixMs: now };
			await fsp.mkdir(aside, { recursive: true });
			await fsp.writeFile(join(aside, entryInfoFile), `${JSON.stringify(info)}\n`, { mode: 0o600 });
			await fsp.rename(aside, this.#entry(key));
			await this.#limit(new Set([...keep, key]));
			return null;
		} finally {
			await fsp.rm(aside, { recursive: true, force: true });
		}
	}

	async #touch(key: string, now: number): Promise<void> {
		const file = join(this.#entry(key), entryInfoFile);
		try {
			const info = JSON.parse(await fsp.readFile(file, 'utf8')) as CacheEntryInfo;
			await fsp.writeFile(file, `${JSON.stringify({ ...info, lastUsedAtUnixMs: now })}\n`, { mode: 0o600 });
		} catch { /* the recency is a hint for pruning only */ }
	}

	async #entries(): Promise<CacheEntryInfo[]> {
		const names = await fsp.readdir(this.#dir).catch(() => [] as string[]);
		const entries: CacheEntryInfo[] = [];
		for (const name of names) {
			try {
				entries.push(JSON.parse(await fsp.readFile(join(this.#dir, name, entryInfoFile), 'utf8')) as CacheEntryInfo);
			} catch { /* an unfinished entry of a Host that died: pruned below */ }
		}
		return entries;
	}

	/** Drops the least recently used entries beyond the size limit (never one of `keep`). */
	async #limit(keep: ReadonlySet<string>): Promise<void> {
		const entries = (await this.#entries()).sort((a, b) => a.lastUsedAtUnixMs - b.lastUsedAtUnixMs);
		let total = entries.reduce((sum, e) => sum + e.bytes, 0);
		for (const entry of entries) {
			if (total <= this.#maxBytes) { break; }
			if (keep.has(entry.key)) { continue; }
			await fsp.rm(this.#entry(entry.key), { recursive: true, force: true });
			total -= entry.bytes;
		}
	}

	/**
	 * Pruned with the trees: removes every entry no remaining tree uses, and what a Host that died left half made
	 * (never what is being made now: `busy`).
	 */
	async prune(used: ReadonlySet<string>, busy: ReadonlySet<string>): Promise<string[]> {
		const names = await fsp.readdir(this.#dir).catch(() => [] as string[]);
		const removed: string[] = [];
		for (const name of names) {
			const key = name.split('.tmp-')[0] ?? name;
			if (used.has(key) || busy.has(key)) { continue; }
			await fsp.rm(join(this.#dir, name), { recursive: true, force: true });
			removed.push(name);
		}
		return removed;
	}
}
