// The developer's checkout and the local branches as git sees them now (src/core/runs/outsideChanges.ts compares
// two): two git processes, run side by side — `git status --porcelain=v2 --branch` for HEAD, the branch and every
// tracked change with its index entry (untracked files are not read), and `git for-each-ref refs/heads/` — plus an
// lstat of each changed path (a file changed again keeps its status line; its size or mtime moves), and of the
// repository's own `.git/config` and `.git/hooks/*` (what would run code in the developer's next git command: a hook,
// an alias, core.fsmonitor), listed under those names.
// GIT_OPTIONAL_LOCKS=0: reading never takes the index lock, so the developer's own git never meets one of ours.
import { lstat, readdir, readFile } from 'node:fs/promises';
import { isAbsolute, join, resolve } from 'node:path';
import type { CheckoutSnapshot } from '../../core/runs/outsideChanges.js';
import { git } from '../worktrees/git.js';

const readOnly = { env: { GIT_OPTIONAL_LOCKS: '0' } };

/** Fields before the path in each porcelain v2 entry kind (`2` has an original path in the next field). */
const fieldsBeforePath: Readonly<Record<string, number>> = { '1': 8, '2': 9, 'u': 10 };

interface StatusRead { head: string; branch: string; entries: Map<string, string> }

/** Parses `git status --porcelain=v2 -z --branch`. */
export function parseStatusV2(out: string): StatusRead {
	let head = '';
	let branch = '';
	const entries = new Map<string, string>();
	const fields = out.split('\0');
	for (let i = 0; i < fields.length; i += 1) {
		const field = fields[i]!;
		if (field.startsWith('# branch.oid ')) {
			const oid = field.slice('# branch.oid '.length);
			head = oid === '(initial)' ? '' : oid;
			continue;
		}
		if (field.startsWith('# branch.head ')) {
			const name = field.slice('# branch.head '.length);
			branch = name === '(detached)' ? '' : name;
			continue;
		}
		const count = fieldsBeforePath[field[0] ?? ''];
		if (count === undefined) { continue; }
		let at = -1;
		for (let n = 0; n < count; n += 1) { at = field.indexOf(' ', at + 1); if (at < 0) { break; } }
		if (at < 0) { continue; }
		entries.set(field.slice(at + 1), field.slice(0, at));
		if (field[0] === '2') { i += 1; } // the rename's original path
	}
	return { head, branch, entries };
}

async function statOf(workspace: string, path: string): Promise<string> {
	try {
		const s = await lstat(join(workspace, path));
		return `${s.size}:${s.mtimeMs}:${s.mode}`;
	} catch {
		return 'missing';
	}
}

/** The repository's common git folder: `<workspace>/.git`, or where a `.git` file (a linked worktree) leads. */
async function commonGitDir(workspace: string): Promise<string | null> {
	const dotGit = join(workspace, '.git');
	try {
		if ((await lstat(dotGit)).isDirectory()) { return dotGit; }
		const line = (await readFile(dotGit, 'utf8')).split('\n')[0] ?? '';
		if (!line.startsWith('gitdir: ')) { return null; }
		const gitDir = resolve(workspace, line.slice('gitdir: '.length).trim());
		const common = (await readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
		return common === '' ? gitDir : isAbsolute(common) ? common : resolve(gitDir, common);
	} catch {
		return null;
	}
}

/** `.git/config` and each `.git/hooks/<name>` → size, mtime and mode (absent names are not listed). */
async function repositoryFiles(workspace: string): Promise<Record<string, string>> {
	const dir = await commonGitDir(workspace);
	if (dir === null) { return {}; }
	const hooks = await readdir(join(dir, 'hooks')).catch(() => [] as string[]);
	const names = ['config', ...hooks.map((h) => join('hooks', h))];
	const out: Record<string, string> = {};
	await Promise.all(names.map(async (name) => {
		const stat = await statOf(dir, name);
		if (stat !== 'missing') { out[join('.git', name)] = stat; }
	}));
	return out;
}

/** The checkout of `workspace` and its local branches now. */
export async function captureCheckout(workspace: string, atUnixMs: number): Promise<CheckoutSnapshot> {
	const [status, refsOut, gitFiles] = await Promise.all([
		git(workspace, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=no', '--ignore-submodules=all'], readOnly),
		git(workspace, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/'], readOnly),
		repositoryFiles(workspace),
	]);
	const read = parseStatusV2(status.stdout);
	const tracked: Record<string, string> = { ...gitFiles };
	await Promise.all([...read.entries].map(async ([path, entry]) => { tracked[path] = `${entry} ${await statOf(workspace, path)}`; }));
	const refs: Record<string, string> = {};
	for (const line of refsOut.stdout.split('\n')) {
		const at = line.lastIndexOf(' ');
		if (at > 0) { refs[line.slice(0, at)] = line.slice(at + 1); }
	}
	return { atUnixMs, head: read.head, branch: read.branch, tracked, refs };
}
