// The disk a tree uses, as the board measures it in the background (src/host/worktrees/diskUsage.ts), against `du`,
// on generated trees of 1,000 and 10,000 files in nested folders. Medians of several walks (warm page cache). Figures
// only, never assertions on time. Runnable alone: `node --import tsx bench/delivery/treeDisk.ts`.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { diskUsage } from '../../src/host/worktrees/diskUsage.js';
import { fmtMs, median } from '../stats.js';

export interface TreeDiskRow { files: number; diskUsageMs: number; duMs: number; bytes: number }

/** `files` files of 1–8 KiB, 50 to a folder, folders 3 deep. */
function generateTree(root: string, files: number): void {
	for (let i = 0; i < files; i++) {
		const dir = join(root, `d${i % 7}`, `e${Math.floor(i / 50) % 11}`, `f${Math.floor(i / 50)}`);
		mkdirSync(dir, { recursive: true });
		writeFileSync(join(dir, `file${i}.txt`), 'x'.repeat(1024 * (1 + (i % 8))));
	}
}

export async function benchTreeDisk(options: { log?: (line: string) => void; sizes?: readonly number[]; rounds?: number } = {}): Promise<TreeDiskRow[]> {
	const rows: TreeDiskRow[] = [];
	for (const files of options.sizes ?? [1_000, 10_000]) {
		const root = mkdtempSync(join(tmpdir(), 'tutti-bench-disk-'));
		try {
			generateTree(root, files);
			options.log?.(`tree of ${files} files generated`);
			const ours: number[] = [];
			const theirs: number[] = [];
			let bytes = 0;
			for (let round = 0; round < (options.rounds ?? 7); round++) {
				let t = performance.now();
				bytes = await diskUsage(root);
				ours.push(performance.now() - t);
				t = performance.now();
				execFileSync('du', ['-s', '-B1', root]);
				theirs.push(performance.now() - t);
			}
			rows.push({ files, diskUsageMs: median(ours), duMs: median(theirs), bytes });
		} finally {
			rmSync(root, { recursive: true, force: true });
		}
	}
	return rows;
}

export function formatTreeDisk(rows: readonly TreeDiskRow[]): string {
	return ['| files | diskUsage (median) | du -s (median) | bytes |', '| ---: | ---: | ---: | ---: |',
		...rows.map((r) => `| ${r.files} | ${fmtMs(r.diskUsageMs)} | ${fmtMs(r.duMs)} | ${r.bytes} |`)].join('\n');
}

if (process.argv[1]?.endsWith('treeDisk.ts') === true) {
	void benchTreeDisk({ log: (l) => console.error(l) }).then((rows) => console.log(formatTreeDisk(rows)));
}
