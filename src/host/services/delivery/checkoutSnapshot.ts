// The developer's checkout and the local branches as git sees them now (src/core/runs/outsideChanges.ts compares
// two): two git processes, run side by side — `git status --porcelain=v2 --branch` for HEAD, the branch and every
// tracked change with its index entry (untracked files are not read), and `git for-each-ref refs/heads/` — plus an
// lstat of each changed path (a file changed again keeps its status line; its size or mtime moves).
// GIT_OPTIONAL_LOCKS=0: reading never takes the index lock, so the developer's own git never meets one of ours.
import { lstat } from 'node:fs/promises';
import { join } from 'node:path';
import type { CheckoutSnapshot } from '../../../core/runs/outsideChanges.js';
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

/** The checkout of `workspace` and its local branches now. */
export async function captureCheckout(workspace: string, atUnixMs: number): Promise<CheckoutSnapshot> {
	const [status, refsOut] = await Promise.all([
		git(workspace, ['status', '--porcelain=v2', '-z', '--branch', '--untracked-files=no', '--ignore-submodules=all'], readOnly),
		git(workspace, ['for-each-ref', '--format=%(refname) %(objectname)', 'refs/heads/'], readOnly),
	]);
	const read = parseStatusV2(status.stdout);
	const tracked: Record<string, string> = {};
	await Promise.all([...read.entries].map(async ([path, entry]) => { tracked[path] = `${entry} ${await statOf(workspace, path)}`; }));
	const refs: Record<string, string> = {};
	for (const line of refsOut.stdout.split('\n')) {
		const at = line.lastIndexOf(' ');
		if (at > 0) { refs[line.slice(0, at)] = line.slice(at + 1); }
	}
	return { atUnixMs, head: read.head, branch: read.branch, tracked, refs };
}
