// A real git repository for the delivery benches: `main` with one commit of a small project (folders of source-like
// files; `.tutti/` ignored, as in a workspace), and a counter of the git processes the Host's code starts (every
// git call of the Host goes through node:child_process execFile, src/host/worktrees/git.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

// The module object itself (an ES namespace import is a frozen copy): its execFile is what git.ts calls.
const childProcess = createRequire(__filename)('node:child_process') as typeof import('node:child_process');

export function gitSync(cwd: string, ...args: string[]): string {
	return childProcess.execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 }).trim();
}

/** `files` source-like files of about 1 KB in folders of 50, committed on `main` by "Dev One". */
export function commitProject(workspace: string, files: number): void {
	mkdirSync(workspace, { recursive: true });
	gitSync(workspace, 'init', '-q', '-b', 'main');
	gitSync(workspace, 'config', 'user.name', 'Dev One');
	gitSync(workspace, 'config', 'user.email', 'dev@example.test');
	for (let i = 0; i < files; i++) {
		const dir = join(workspace, 'src', `module${Math.floor(i / 50)}`);
		mkdirSync(dir, { recursive: true });
		const lines = Array.from({ length: 24 }, (_, l) => `export const value${i}_${l} = ${i * 31 + l}; // line ${l} of file ${i}`);
		writeFileSync(join(dir, `file${i}.ts`), `${lines.join('\n')}\n`);
	}
	writeFileSync(join(workspace, '.gitignore'), '.tutti/\n');
	gitSync(workspace, 'add', '-A');
	gitSync(workspace, 'commit', '-q', '-m', 'initial');
}

/** Counts the git processes started through execFile (in this process) while installed. */
export class GitProcessCounter {
	count = 0;
	readonly #original = childProcess.execFile;

	install(): void {
		const original = this.#original as (...a: unknown[]) => unknown;
		(childProcess as { execFile: unknown }).execFile = (file: string, ...rest: unknown[]): unknown => {
			if (file === 'git') { this.count += 1; }
			return original(file, ...rest);
		};
	}

	uninstall(): void {
		(childProcess as { execFile: unknown }).execFile = this.#original;
	}
}

/**
 * CPU time (user + system, ms) of this process's children that have ended and been waited for (every git process
 * execFile started), from /proc/self/stat; NaN where there is none. Unlike wall time it does not grow with the
 * machine's load, only with the work.
 */
export function childrenCpuMs(): number {
	return processCpuMs('self').children;
}

/** CPU time (user + system, ms; 10 ms ticks) of a process and of its ended, waited-for children; NaN without /proc. */
export function processCpuMs(pid: number | 'self'): { own: number; children: number } {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		// After the command: state is field 3, so utime, stime, cutime, cstime (14–17) are at 11–14 here.
		return { own: (Number(fields[11]) + Number(fields[12])) * 10, children: (Number(fields[13]) + Number(fields[14])) * 10 };
	} catch {
		return { own: NaN, children: NaN };
	}
}

/** CPU time (user + system, ms) of this process so far. */
export function ownCpuMs(): number {
	const used = process.cpuUsage();
	return (used.user + used.system) / 1000;
}
