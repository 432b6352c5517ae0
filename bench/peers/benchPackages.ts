// Packages the benchmarks compare against (task-master-ai, better-sqlite3) live in a cache directory outside the
// repository and are never project dependencies: installed with `npm install --prefix` on first use.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Pinned so that one run compares against the same peer as the measured costs our speed goals rest on. */
export const benchPackageSpecs = ['task-master-ai@0.43.1', 'better-sqlite3@12'] as const;

export function benchCacheDir(): string {
	return process.env['TUTTI_BENCH_DIR'] ?? join(homedir(), '.cache', 'tutti-bench');
}

export interface BenchPackages {
	readonly dir: string;
	/** `task-master` executable, or the reason it is missing. */
	readonly taskMaster: { readonly bin: string } | { readonly error: string };
	/** better-sqlite3 module directory (require it), or the reason it is missing. */
	readonly betterSqlite3: { readonly path: string } | { readonly error: string };
}

function installed(dir: string): { taskMaster: boolean; betterSqlite3: boolean } {
	return {
		taskMaster: existsSync(join(dir, 'node_modules', '.bin', 'task-master')),
		betterSqlite3: existsSync(join(dir, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')),
	};
}

/** Installs the peer packages into the cache directory if they are missing (takes minutes the first time). */
export function ensureBenchPackages(log: (line: string) => void = () => undefined): BenchPackages {
	const dir = benchCacheDir();
	let have = installed(dir);
	let installError = '';
	if (!have.taskMaster || !have.betterSqlite3) {
		mkdirSync(dir, { recursive: true });
		log(`installing ${benchPackageSpecs.join(' ')} into ${dir} (first use; outside the repository) …`);
		try {
			execFileSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--no-save', ...benchPackageSpecs], { stdio: ['ignore', 'ignore', 'pipe'], timeout: 600_000 });
		} catch (error) {
			const stderr = (error as { stderr?: Buffer }).stderr?.toString('utf8') ?? '';
			installError = `npm install --prefix ${dir} ${benchPackageSpecs.join(' ')} failed: ${(stderr.trim().split('\n').slice(-3).join(' / ') || (error as Error).message).slice(0, 400)}`;
		}
		have = installed(dir);
	}
	return {
		dir,
		taskMaster: have.taskMaster ? { bin: join(dir, 'node_modules', '.bin', 'task-master') } : { error: installError || `task-master is missing from ${dir}/node_modules/.bin after npm install` },
		betterSqlite3: have.betterSqlite3 ? { path: join(dir, 'node_modules', 'better-sqlite3') } : { error: installError || `better-sqlite3's native module was not built in ${dir} (its install script needs a prebuilt binary or a compiler)` },
	};
}
