// A Run's result is a commit: when a Run in a worktree ends, whatever the agent left uncommitted (tracked and
// untracked files, honouring .gitignore) becomes one commit on the task branch, titled with the task's title
// and carrying the trailers Tutti-Issue / Tutti-Task / Tutti-Run. Commits the agent made itself stay as they
// are; a Run that changed nothing has resultCommit = its base. Idempotent: after a Host kill -9 between the
// commit and its record, running it again finds a clean tree and answers the same HEAD (one result commit).
import { git, gitExit } from '../worktrees/git.js';
import { type GitIdentity, identityEnv } from './gitIdentity.js';

export interface ResultCommitInput {
	/** The task's worktree (absolute). */
	treePath: string;
	title: string;
	issueId: string;
	taskId: string;
	runId: string;
	identity: GitIdentity;
}

export type ResultCommit =
	| { kind: 'committed'; commit: string; createdCommit: boolean }
	/** The tree is in a merge with unresolved paths (an agent told to resolve a conflict did not): nothing committed. */
	| { kind: 'unresolved_merge'; commit: string; paths: string[] };

/** The commit message of a result commit (first line: the task's title on one line). */
export function resultCommitMessage(input: Pick<ResultCommitInput, 'title' | 'issueId' | 'taskId' | 'runId'>): string {
	const title = input.title.replace(/\s+/g, ' ').trim() || input.taskId;
	return `${title}\n\nTutti-Issue: ${input.issueId}\nTutti-Task: ${input.taskId}\nTutti-Run: ${input.runId}\n`;
}

/** The paths git reports as unmerged in `treePath` (a merge stopped on conflicts). */
export async function unmergedPaths(treePath: string): Promise<string[]> {
	const out = (await git(treePath, ['diff', '--name-only', '--diff-filter=U', '-z'])).stdout;
	return [...new Set(out.split('\0').filter((p) => p !== ''))];
}

export async function commitResult(input: ResultCommitInput): Promise<ResultCommit> {
	const { treePath } = input;
	const head = async (): Promise<string> => (await git(treePath, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
	const unresolved = await unmergedPaths(treePath);
	if (unresolved.length > 0) { return { kind: 'unresolved_merge', commit: await head(), paths: unresolved }; }
	const status = (await git(treePath, ['status', '--porcelain', '--untracked-files=all', '-z'])).stdout;
	const mergeInProgress = (await gitExit(treePath, ['rev-parse', '--verify', '--quiet', 'MERGE_HEAD'])).exitCode === 0;
	if (status === '' && !mergeInProgress) { return { kind: 'committed', commit: await head(), createdCommit: false }; }
	await git(treePath, ['add', '--all']);
	const staged = (await gitExit(treePath, ['diff', '--cached', '--quiet'])).exitCode !== 0;
	if (!staged && !mergeInProgress) { return { kind: 'committed', commit: await head(), createdCommit: false }; }
	// verbatim: a title starting with '#' is kept. A resolved merge the agent did not commit is concluded here,
	// with the merge's own parents.
	await git(treePath, ['commit', '--no-verify', '--cleanup=verbatim', ...(staged ? [] : ['--allow-empty']), '-m', resultCommitMessage(input)],
		{ env: identityEnv(input.identity) });
	return { kind: 'committed', commit: await head(), createdCommit: true };
}
