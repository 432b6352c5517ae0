// `tutti issue integrate --squash`: the accepted work as new commits on top of the branch instead of the tasks' own
// history (which holds every attempt, rejected ones included). `task`: one commit per task, parents first, titled by
// the task, each holding the branch plus the accepted work of the tasks so far; `issue`: one commit for the issue.
// The trees come from the same merges as an ordinary integration (combineCommits), computed in git's object
// database, so the last commit holds exactly what a merge would; a conflict is refused the same way, naming paths.
import { git } from '../worktrees/git.js';
import { type Combination, combineCommits } from './combineCommits.js';
import { type GitIdentity, identityEnv } from './gitIdentity.js';

export interface SquashTask {
	taskId: string;
	title: string;
	/** The task's accepted commit. */
	commit: string;
}

export interface SquashInput {
	repo: string;
	issueId: string;
	issueTitle: string;
	/** The branch's head the commits go on. */
	previous: string;
	/** Parents first (topological order). */
	tasks: readonly SquashTask[];
	mode: 'task' | 'issue';
	identity: GitIdentity;
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim();

async function treeOf(repo: string, commit: string): Promise<string> {
	return (await git(repo, ['rev-parse', '--verify', `${commit}^{tree}`])).stdout.trim();
}

/** The tree of the branch head merged with `commits` (a conflict answers as combineCommits does). */
async function mergedTree(repo: string, previous: string, commits: readonly string[], identity: GitIdentity): Promise<{ tree: string } | Extract<Combination, { kind: 'conflict' }>> {
	const combined = await combineCommits(repo, [previous, ...commits], 'squash', identity);
	if (combined.kind === 'conflict') { return combined; }
	return { tree: await treeOf(repo, combined.commit) };
}

/** The squashed commit the branch moves to (`previous` itself when the work is already on it), or the conflict. */
export async function squashCommits(input: SquashInput): Promise<Combination> {
	const { repo, previous, identity } = input;
	const env = identityEnv(identity);
	const whole = await mergedTree(repo, previous, input.tasks.map((t) => t.commit), identity);
	if ('kind' in whole) { return whole; }
	const commit = async (tree: string, parent: string, message: string): Promise<string> =>
		(await git(repo, ['commit-tree', tree, '-p', parent, '-m', message], { env })).stdout.trim();
	if (input.mode === 'issue') {
		if (whole.tree === await treeOf(repo, previous)) { return { kind: 'combined', commit: previous, mergeCommit: false }; }
		const body = input.tasks.map((t) => `- ${oneLine(t.title)} (${t.taskId})`).join('\n');
		return { kind: 'combined', commit: await commit(whole.tree, previous, `${oneLine(input.issueTitle)}\n\n${body}\n\nTutti-Issue: ${input.issueId}`), mergeCommit: false };
	}
	let head = previous;
	let headTree = await treeOf(repo, previous);
	for (let i = 0; i < input.tasks.length; i += 1) {
		const task = input.tasks[i]!;
		const merged = i === input.tasks.length - 1 ? whole : await mergedTree(repo, previous, input.tasks.slice(0, i + 1).map((t) => t.commit), identity);
		if ('kind' in merged) { return merged; }
		// A task whose work is already on the branch (or in an earlier task's) adds no empty commit.
		if (merged.tree === headTree) { continue; }
		head = await commit(merged.tree, head, `${oneLine(task.title)}\n\nTutti-Issue: ${input.issueId}\nTutti-Task: ${task.taskId}`);
		headTree = merged.tree;
	}
	return { kind: 'combined', commit: head, mergeCommit: false };
}
