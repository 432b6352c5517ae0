// `tutti issue integrate --push [REMOTE]`: after the branch moved, it is pushed to a remote — the one named, else the
// branch's upstream (`branch.<name>.remote`, to `branch.<name>.merge`). The remote is checked before anything
// moves, so a wrong name changes nothing; a push that fails (rejected, unreachable, no access) leaves the local
// integration in place and answers git's own words. Never forced. Bounded: a push that hangs is stopped.
import { gitExit } from '../worktrees/git.js';

/** A push that has not finished after this long is stopped (a remote that does not answer, a prompt nobody sees). */
export const pushTimeoutMs = 120_000;

export interface PushTarget {
	remote: string;
	/** The ref it updates on the remote: `refs/heads/<name>`. */
	remoteRef: string;
}

export type PushTargetLookup = { kind: 'target'; target: PushTarget } | { kind: 'refused'; message: string; hint: string };

async function config(repo: string, key: string): Promise<string> {
	const result = await gitExit(repo, ['config', '--get', key]);
	return result.exitCode === 0 ? result.stdout.trim() : '';
}

/** Where `branch` would be pushed: to `remote` when given (one of the repository's remotes), else to its upstream. */
export async function pushTargetOf(repo: string, branch: string, remote: string | true): Promise<PushTargetLookup> {
	const remotes = (await gitExit(repo, ['remote'])).stdout.split('\n').map((l) => l.trim()).filter((l) => l !== '');
	const upstreamRemote = await config(repo, `branch.${branch}.remote`);
	const upstreamRef = await config(repo, `branch.${branch}.merge`);
	if (remote === true) {
		if (upstreamRemote === '' || upstreamRemote === '.' || !upstreamRef.startsWith('refs/heads/')) {
			return {
				kind: 'refused', message: `The branch ${branch} has no upstream on a remote, so --push does not know where to push it.`,
				hint: remotes.length > 0
					? `Name the remote: \`--push ${remotes[0]!}\` (this repository's remotes: ${remotes.join(', ')}), or set the upstream with \`git branch --set-upstream-to=${remotes[0]!}/${branch} ${branch}\`.`
					: 'This repository has no remote: add one (`git remote add origin <url>`), then name it with `--push origin`.',
			};
		}
		return { kind: 'target', target: { remote: upstreamRemote, remoteRef: upstreamRef } };
	}
	if (!remotes.includes(remote)) {
		return {
			kind: 'refused', message: `This repository has no remote named '${remote}'.`,
			hint: remotes.length > 0 ? `Use one of its remotes (${remotes.join(', ')}), or add it with \`git remote add ${remote} <url>\`.` : `Add it with \`git remote add ${remote} <url>\`.`,
		};
	}
	// The upstream's own branch name when the upstream is on that remote; the same name otherwise.
	const remoteRef = upstreamRemote === remote && upstreamRef.startsWith('refs/heads/') ? upstreamRef : `refs/heads/${branch}`;
	return { kind: 'target', target: { remote, remoteRef } };
}

/** Pushes `refs/heads/<branch>` (never forced): '' on success, git's words otherwise. */
export async function pushBranch(repo: string, branch: string, target: PushTarget, runHooks: boolean, timeoutMs = pushTimeoutMs): Promise<string> {
	try {
		const result = await gitExit(repo, ['push', target.remote, `refs/heads/${branch}:${target.remoteRef}`], { runHooks, timeoutMs });
		return result.exitCode === 0 ? '' : (result.stderr.trim() || result.stdout.trim() || `git push exited with ${result.exitCode}`).split('\n').slice(0, 12).join('\n');
	} catch (e) {
		return (e as Error).message;
	}
}
