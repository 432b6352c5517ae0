// The disk a folder uses, the way `du` counts it: the blocks each file occupies (its size where the file system does
// not say), every hard-linked file once, symbolic links never followed. Walked without blocking the Host, a few
// directories at a time; a file that vanishes meanwhile counts as nothing.
import type { Dirent } from 'node:fs';
import { lstat, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Directories read at once. */
const parallelReads = 8;

async function entriesOf(dir: string): Promise<Dirent[]> {
	try {
		return await readdir(dir, { withFileTypes: true });
	} catch {
		return [];
	}
}

/** Bytes on disk under `root` (0 when it does not exist). */
export async function diskUsage(root: string): Promise<number> {
	const seen = new Set<string>();
	let total = 0;
	const count = async (path: string): Promise<boolean> => {
		try {
			const s = await lstat(path);
			if (s.nlink > 1) {
				const key = `${s.dev}:${s.ino}`;
				if (seen.has(key)) { return s.isDirectory(); }
				seen.add(key);
			}
			total += s.blocks !== undefined && s.blocks > 0 ? s.blocks * 512 : s.size;
			return s.isDirectory();
		} catch {
			return false;
		}
	};
	if (!(await count(root))) { return total; }
	let pending = [root];
	while (pending.length > 0) {
		const batch = pending.slice(0, parallelReads);
		pending = pending.slice(parallelReads);
		const listed = await Promise.all(batch.map(async (dir) => {
			const subdirs: string[] = [];
			for (const entry of await entriesOf(dir)) {
				const path = join(dir, entry.name);
				if (await count(path) && !entry.isSymbolicLink()) { subdirs.push(path); }
			}
			return subdirs;
		}));
		pending.push(...listed.flat());
	}
	return total;
}
