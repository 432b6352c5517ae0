// Who the Host's own commits (results, parent merges, integrations) are by: the workspace's git identity, or
// `Tutti <tutti@localhost>` when the repository has none configured (a fresh CI machine, a container).
import { type GitOptions, gitExit } from '../worktrees/git.js';

export interface GitIdentity {
	name: string;
	email: string;
}

export const fallbackIdentity: GitIdentity = { name: 'Tutti', email: 'tutti@localhost' };

/** The identity `git commit` would use in `repo`, or the fallback when user.name or user.email is unset. */
export async function workspaceIdentity(repo: string, options: GitOptions = {}): Promise<GitIdentity> {
	const [name, email] = await Promise.all([
		gitExit(repo, ['config', '--get', 'user.name'], options),
		gitExit(repo, ['config', '--get', 'user.email'], options),
	]);
	const n = name.exitCode === 0 ? name.stdout.trim() : '';
	const e = email.exitCode === 0 ? email.stdout.trim() : '';
	return n !== '' && e !== '' ? { name: n, email: e } : fallbackIdentity;
}

/** The environment that makes git author and commit as `identity`. */
export function identityEnv(identity: GitIdentity): Record<string, string> {
	return {
		GIT_AUTHOR_NAME: identity.name, GIT_AUTHOR_EMAIL: identity.email,
		GIT_COMMITTER_NAME: identity.name, GIT_COMMITTER_EMAIL: identity.email,
	};
}
