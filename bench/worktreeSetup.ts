// Trees ready together, each with `npm ci` as its setup, on a generated npm project with a real lockfile of a few
// hundred registry packages (the project and npm's cache live in ~/.cache/tutti-bench, outside the repository, so
// only the first run downloads): 1 vs 4 vs 8 trees through the real WorktreeManager, with and without
// `worktreeShare`, on the machine's filesystem and on a loop-mounted XFS image made with reflink (skipped, saying
// why, where it cannot be mounted). Figures only, never assertions on time.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { WorktreeManager } from '../src/host/worktrees/worktreeManager.js';

const cacheRoot = path.join(os.homedir(), '.cache', 'tutti-bench');
const projectDir = path.join(cacheRoot, 'setup-project');
const npmCache = path.join(cacheRoot, 'npm-cache');
const dependencies = { eslint: '8.57.0', mocha: '10.7.3', express: '4.21.2', webpack: '5.94.0' };

export interface SetupBenchRow {
	filesystem: string;
	sharing: boolean;
	trees: number;
	/** From all trees asked for at once until the last tree is ready (its agent would start). */
	lastReadyMs: number;
	/** Spread of the setups' own start times (0: none waited for another to begin). */
	startSpreadMs: number;
	/** Disk the trees and the cache take (XFS: blocks allocated, so clones count once; else du). */
	diskMb: number;
	methods: string;
}

function run(command: string, args: string[], cwd: string): string {
	return execFileSync(command, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
}

/** The generated project with its lockfile, and npm's cache filled (network only the first time). */
function ensureProject(log: (line: string) => void): number {
	mkdirSync(projectDir, { recursive: true });
	const lock = path.join(projectDir, 'package-lock.json');
	if (!existsSync(lock)) {
		log('generating the npm project and filling npm\'s cache (first run only) …');
		writeFileSync(path.join(projectDir, 'package.json'), `${JSON.stringify({ name: 'tutti-setup-bench', version: '1.0.0', private: true, dependencies }, null, 2)}\n`);
		run('npm', ['install', '--no-audit', '--no-fund', '--cache', npmCache], projectDir);
		rmSync(path.join(projectDir, 'node_modules'), { recursive: true, force: true });
	}
	const packages = Object.keys((JSON.parse(readFileSync(lock, 'utf8')) as { packages: Record<string, unknown> }).packages).filter((p) => p !== '');
	return packages.length;
}

function diskKb(dir: string): number {
	return Number(run('du', ['-sk', dir], '/').split(/\s+/)[0]);
}

function usedKb(mount: string): number {
	return Number(run('df', ['-k', '--output=used', mount], '/').trim().split('\n')[1]);
}

async function oneRun(root: string, filesystem: string, sharing: boolean, trees: number, loopMount: string | null): Promise<SetupBenchRow> {
	const repo = mkdtempSync(path.join(root, 'setup-bench-'));
	try {
		for (const file of ['package.json', 'package-lock.json']) { writeFileSync(path.join(repo, file), readFileSync(path.join(projectDir, file))); }
		writeFileSync(path.join(repo, '.gitignore'), 'node_modules/\n.tutti/\n');
		run('git', ['init', '-q'], repo);
		run('git', ['add', '-A'], repo);
		run('git', ['-c', 'user.email=b@example.com', '-c', 'user.name=B', 'commit', '-q', '-m', 'project'], repo);
		const usedBefore = loopMount !== null ? usedKb(loopMount) : 0;
		const manager = new WorktreeManager(repo, {
			copy: [], setupTimeoutMs: 900_000,
			setup: ['npm', 'ci', '--prefer-offline', '--no-audit', '--no-fund', '--cache', npmCache],
			share: sharing ? [{ paths: ['node_modules'], key: ['package-lock.json'] }] : [],
		}, undefined, { maxParallelSetups: trees });
		const ids = Array.from({ length: trees }, (_, i) => `t${i}`);
		const started = Date.now();
		const ready = await Promise.all(ids.map((id) => manager.ensure('bench', [id], 'bench').then(() => Date.now() - started)));
		const records = ids.map((id) => manager.setupRecord('bench', id)!);
		const starts = records.map((r) => r.startedAtUnixMs);
		const disk = loopMount !== null ? usedKb(loopMount) - usedBefore : diskKb(path.join(repo, '.tutti'));
		const methods = [...new Set(records.map((r) => r.method ?? 'none'))].map((m) => `${m} ×${records.filter((r) => (r.method ?? 'none') === m).length}`).join(', ');
		return { filesystem, sharing, trees, lastReadyMs: Math.max(...ready), startSpreadMs: Math.max(...starts) - Math.min(...starts), diskMb: disk / 1024, methods };
	} finally {
		rmSync(repo, { recursive: true, force: true });
	}
}

/** A loop-mounted XFS image with reflink, or why not. */
function mountXfs(log: (line: string) => void): { mount: string; image: string } | { skipped: string } {
	const image = path.join(os.tmpdir(), `tutti-bench-xfs-${process.pid}.img`);
	const mount = path.join(os.tmpdir(), `tutti-bench-xfs-${process.pid}`);
	try {
		writeFileSync(image, '');
		run('truncate', ['-s', '3G', image], '/');
		run('mkfs.xfs', ['-q', '-m', 'reflink=1', image], '/');
		mkdirSync(mount, { recursive: true });
		run('mount', ['-o', 'loop', image, mount], '/');
		log(`XFS image with reflink mounted at ${mount}`);
		return { mount, image };
	} catch (e) {
		rmSync(image, { force: true });
		rmSync(mount, { recursive: true, force: true });
		return { skipped: `XFS part skipped: could not make and mount a reflink XFS image (${((e as { stderr?: string }).stderr ?? (e as Error).message).trim().split('\n')[0]}); it needs root and xfsprogs (\`apt-get install -y xfsprogs\`)` };
	}
}

export async function benchWorktreeSetup(log: (line: string) => void): Promise<{ packages: number; rows: SetupBenchRow[]; notes: string[] }> {
	const packages = ensureProject(log);
	const rows: SetupBenchRow[] = [];
	const notes: string[] = [];
	const own = os.tmpdir();
	const ownType = (() => { try { return run('df', ['--output=fstype', own], '/').trim().split('\n')[1] ?? '?'; } catch { return '?'; } })();
	for (const sharing of [false, true]) {
		for (const trees of [1, 4, 8]) {
			log(`${ownType}: ${trees} tree(s), ${sharing ? 'shared' : 'not shared'} …`);
			rows.push(await oneRun(own, `${ownType} (the machine's)`, sharing, trees, null));
		}
	}
	const xfs = mountXfs(log);
	if ('skipped' in xfs) {
		notes.push(xfs.skipped);
	} else {
		try {
			for (const trees of [1, 4, 8]) {
				log(`xfs: ${trees} tree(s), shared …`);
				rows.push(await oneRun(xfs.mount, 'xfs (loop, reflink)', true, trees, xfs.mount));
			}
		} finally {
			try { run('umount', [xfs.mount], '/'); } catch (e) { notes.push(`could not unmount ${xfs.mount}: ${(e as Error).message}`); }
			rmSync(xfs.image, { force: true });
			rmSync(xfs.mount, { recursive: true, force: true });
		}
	}
	return { packages, rows, notes };
}

export function formatWorktreeSetup(result: { packages: number; rows: SetupBenchRow[]; notes: string[] }): string {
	const lines = [
		`A generated npm project, ${result.packages} packages in its lockfile; each tree's setup is \`npm ci --prefer-offline\` (npm's cache warm, outside the repository); maxParallelSetups = the trees.`,
		'',
		'| filesystem | worktreeShare | trees | last tree ready | ÷ one tree (same row group) | setups\' start spread | disk (trees + cache) | ÷ one tree | how trees got node_modules |',
		'| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
	];
	for (const row of result.rows) {
		const one = result.rows.find((r) => r.filesystem === row.filesystem && r.sharing === row.sharing && r.trees === 1);
		lines.push(`| ${row.filesystem} | ${row.sharing ? 'yes' : 'no'} | ${row.trees} | ${(row.lastReadyMs / 1000).toFixed(1)} s | ${one ? (row.lastReadyMs / one.lastReadyMs).toFixed(2) : '—'}× | ${row.startSpreadMs} ms | ${row.diskMb.toFixed(0)} MB | ${one ? (row.diskMb / one.diskMb).toFixed(2) : '—'}× | ${row.methods} |`);
	}
	const last = (fs: string, sharing: boolean): SetupBenchRow | undefined => result.rows.find((r) => r.filesystem.startsWith(fs) && r.sharing === sharing && r.trees === 8);
	const ownShared = result.rows.find((r) => !r.filesystem.startsWith('xfs') && r.sharing && r.trees === 8);
	const ownOne = result.rows.find((r) => !r.filesystem.startsWith('xfs') && !r.sharing && r.trees === 1);
	const xfsShared = last('xfs', true);
	const xfsOne = result.rows.find((r) => r.filesystem.startsWith('xfs') && r.trees === 1);
	const unshared8 = result.rows.find((r) => !r.filesystem.startsWith('xfs') && !r.sharing && r.trees === 8);
	lines.push('');
	if (ownShared && ownOne) { lines.push(`- Goal: the last of 8 agents starts ≤ 1.5× one tree's setup. Shared, machine's filesystem: ${(ownShared.lastReadyMs / ownOne.lastReadyMs).toFixed(2)}×${xfsShared && xfsOne ? `; shared, XFS: ${(xfsShared.lastReadyMs / xfsOne.lastReadyMs).toFixed(2)}×` : ''}.`); }
	if (xfsShared && xfsOne) { lines.push(`- Goal: on a copy-on-write filesystem the disk of 8 trees ≤ 1.5× one tree's. XFS with reflink: ${(xfsShared.diskMb / xfsOne.diskMb).toFixed(2)}× (blocks allocated, from df).`); }
	if (unshared8) { lines.push(`- Goal: without sharing but in parallel, no tree waits for another's setup to begin: the 8 setups began within ${unshared8.startSpreadMs} ms of each other.`); }
	for (const note of result.notes) { lines.push(`- ${note}`); }
	return lines.join('\n');
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === path.resolve(__filename)) {
	void benchWorktreeSetup((l) => console.error(`  ${l}`)).then((r) => { console.log(formatWorktreeSetup(r)); });
}
