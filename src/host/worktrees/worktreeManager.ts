// Git worktrees for task isolation (issue 3 "Isolation"). A task whose agent target says `"isolation":"worktree"`
// runs in `.tutti/worktrees/<taskId>` on branch `tutti/<taskId>`, created from its issue's base commit before
// launch (never inside a store transaction). The tree is kept after the Run; a rework (a task superseding this
// one) goes back to the same tree; only `tutti worktree remove` deletes it, and never with uncommitted changes.
//
// The issue's base commit is HEAD when the issue first needs a worktree (recorded then, reused for every later
// task of the issue). Bookkeeping lives in `.tutti/worktrees.json` (no schema change; outside the trees' folder so
// no task id can collide with it): which issue owns each tree and each issue's base commit. The owner is recorded
// before `git worktree add`, so a Host that dies in between finds the half-made tree as its own next time.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DomainError } from '../../core/errors.js';
import { git, GitError, gitExit } from './git.js';
import { copyFiles, filesToCopy, noPreparation, runSetup, type TreePreparation } from './treePreparation.js';
import { worktreeBranch, worktreeRelativePath, worktreesFolder, worktreeTaskIdProblem } from './worktreePaths.js';

export interface WorktreeState {
	/** issueId → base commit (full sha). */
	bases: Record<string, string>;
	/** taskId → the issue whose task owns `.tutti/worktrees/<taskId>`. */
	owners: Record<string, string>;
	/** taskId → true once worktreeCopy and worktreeSetup have run in its tree (they run once per tree). */
	prepared: Record<string, boolean>;
}

/** worktreeSetup failed: the Run fails before its agent starts. */
export class WorktreeSetupError extends Error {
	constructor(readonly exitCode: number | null, readonly tail: string, why: string) {
		super(`worktree setup failed (${why})${tail.trim() !== '' ? `:\n${tail.trim()}` : ''}`);
		this.name = 'WorktreeSetupError';
	}
}

export interface EnsureOptions {
	/** Where worktreeSetup's output is appended (the Run's stderr log). */
	setupLogFile?: string;
	/** A new tree starts here (its parents' commits) instead of at the issue's base commit. */
	startCommit?: string;
}

export interface Worktree {
	/** Workspace-relative (recorded on the Run as executionDirectory). */
	relativePath: string;
	absolutePath: string;
	branch: string;
	/** The task whose tree this is (the launching task, or the one its rework chain leads back to). */
	taskId: string;
	baseCommit: string;
	created: boolean;
}

function refused(message: string, hint: string, details: Record<string, unknown> = {}): DomainError {
	return new DomainError('invalid_input', message, hint, details);
}

export class WorktreeManager {
	readonly #workspace: string;
	readonly #stateFile: string;
	readonly #preparation: TreePreparation;
	readonly #beforeBranchDelete: (ref: string) => void;
	#chain: Promise<unknown> = Promise.resolve();

	/** `beforeBranchDelete`: told each `refs/heads/tutti/<task>` the developer's removal deletes, before git does. */
	constructor(workspace: string, preparation: TreePreparation = noPreparation, beforeBranchDelete: (ref: string) => void = () => undefined) {
		this.#workspace = resolve(workspace);
		this.#stateFile = join(this.#workspace, `${worktreesFolder}.json`);
		this.#preparation = preparation;
		this.#beforeBranchDelete = beforeBranchDelete;
	}

	/** The worktree folder of a task (absolute), whether or not it exists. */
	pathOf(taskId: string): string {
		return resolve(this.#workspace, worktreeRelativePath(taskId));
	}

	readState(): WorktreeState {
		try {
			const value = JSON.parse(readFileSync(this.#stateFile, 'utf8')) as Partial<WorktreeState>;
			return { bases: { ...(value.bases ?? {}) }, owners: { ...(value.owners ?? {}) }, prepared: { ...(value.prepared ?? {}) } };
		} catch {
			return { bases: {}, owners: {}, prepared: {} };
		}
	}

	#writeState(state: WorktreeState): void {
		mkdirSync(join(this.#workspace, worktreesFolder), { recursive: true, mode: 0o700 });
		const tmp = `${this.#stateFile}.${process.pid}.tmp`;
		writeFileSync(tmp, `${JSON.stringify(state, null, '\t')}\n`, { mode: 0o600 });
		renameSync(tmp, this.#stateFile);
	}

	/**
	 * The worktree a launch of `chain[0]` runs in: the nearest existing tree of the chain (same task, or the task a
	 * rework supersedes), else a new tree for `chain[0]` from the issue's base commit. `targetId` names the
	 * setting in errors.
	 */
	ensure(issueId: string, chain: readonly string[], targetId: string, options: EnsureOptions = {}): Promise<Worktree> {
		return this.#serial(async () => {
			const tree = await this.#ensure(issueId, chain, targetId, options.startCommit);
			await this.#prepare(tree, options);
			return tree;
		});
	}

	/** worktreeCopy then worktreeSetup, once per tree (a failed setup runs again at the next launch). */
	async #prepare(tree: Worktree, options: EnsureOptions): Promise<void> {
		const { copy, setup, setupTimeoutMs } = this.#preparation;
		if (this.readState().prepared[tree.taskId] === true || (copy.length === 0 && setup.length === 0)) { return; }
		copyFiles(this.#workspace, tree.absolutePath, await filesToCopy(this.#workspace, copy));
		const result = await runSetup(tree.absolutePath, setup, setupTimeoutMs, options.setupLogFile ?? null);
		if (!result.ok) { throw new WorktreeSetupError(result.exitCode, result.tail, result.why); }
		const state = this.readState();
		state.prepared[tree.taskId] = true;
		this.#writeState(state);
	}

	/** The nearest existing tree of the chain that belongs to the issue, or null when a launch would create one. */
	existingTree(issueId: string, chain: readonly string[]): Worktree | null {
		const state = this.readState();
		for (const id of chain) {
			if (state.owners[id] === issueId && existsSync(this.pathOf(id))) {
				return {
					relativePath: worktreeRelativePath(id), absolutePath: this.pathOf(id), branch: worktreeBranch(id),
					taskId: id, baseCommit: state.bases[issueId] ?? '', created: false,
				};
			}
		}
		return null;
	}

	/**
	 * Task trees live only inside the workspace: `.tutti` and `.tutti/worktrees` must be real folders there, not
	 * symbolic links leading elsewhere (a tree made through one would put an agent outside the workspace).
	 */
	#requireTreesInside(issueId: string, taskId: string): void {
		const workspaceReal = realpathSync(this.#workspace);
		for (const folder of [join(this.#workspace, '.tutti'), join(this.#workspace, worktreesFolder)]) {
			let isLink = false;
			try {
				isLink = lstatSync(folder).isSymbolicLink();
			} catch {
				continue; // not there yet: it is created as a real folder
			}
			if (isLink) {
				let target = '?';
				try { target = realpathSync(folder); } catch { /* a dangling link */ }
				throw refused(`${folder} is a symbolic link (to ${target}): Tutti makes task worktrees only inside the workspace ${workspaceReal}, so task ${taskId} was not started.`,
					`Remove the link (\`rm ${folder}\`; its target is not touched), then schedule the task again.`, { issueId, taskId, path: folder });
			}
		}
	}

	async #ensure(issueId: string, chain: readonly string[], targetId: string, startCommit?: string): Promise<Worktree> {
		const taskId = chain[0];
		if (taskId === undefined) { throw new Error('ensure needs a task id'); }
		await this.#requireGit(targetId);
		this.#requireTreesInside(issueId, taskId);
		const state = this.readState();
		const existing = this.existingTree(issueId, chain);
		if (existing !== null) { return existing; }
		const problem = worktreeTaskIdProblem(taskId);
		if (problem !== null) {
			throw refused(`Agent target '${targetId}' uses "isolation":"worktree", but ${problem}.`,
				`Give the task a simple id (e.g. \`tutti issue task add --issue-id ${issueId} --task-id fix-login …\`) or use a target without isolation.`,
				{ issueId, taskId, agentTargetId: targetId });
		}
		const owner = state.owners[taskId];
		const absolutePath = this.pathOf(taskId);
		if ((owner !== undefined && owner !== issueId) || (owner === undefined && existsSync(absolutePath))) {
			throw refused(`The worktree folder ${absolutePath} already belongs to ${owner !== undefined ? `issue ${owner}` : 'something else'}; task ${taskId} of issue ${issueId} cannot use it.`,
				owner !== undefined
					? `Give this task another id, or ask the developer to remove that worktree (\`tutti worktree remove --issue-id ${owner} --task-id ${taskId} --as-user\`).`
					: `Move ${absolutePath} out of the way, then schedule the task again.`,
				{ issueId, taskId, path: absolutePath });
		}
		// The caller's start commit (its parents' work, or the issue base the store recorded) makes a HEAD lookup moot.
		let baseCommit = startCommit ?? state.bases[issueId];
		if (baseCommit === undefined) {
			try {
				baseCommit = (await git(this.#workspace, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
			} catch {
				throw refused(`Agent target '${targetId}' uses "isolation":"worktree", but the repository at ${this.#workspace} has no commit yet to branch from.`,
					'Make a first commit (`git add -A && git commit -m "initial"`), then schedule the task again.', { issueId, taskId });
			}
		}
		const branch = worktreeBranch(taskId);
		const intent = this.readState();
		// Without a start commit from the caller the base is the issue's; with one it may be a parent's, never the issue's.
		if (startCommit === undefined) { intent.bases[issueId] = baseCommit; }
		intent.owners[taskId] = issueId;
		this.#writeState(intent);
		const branchExists = await git(this.#workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(() => true, () => false);
		mkdirSync(join(this.#workspace, worktreesFolder), { recursive: true, mode: 0o700 });
		// A tree folder deleted by hand stays registered in git until pruned, which would block `worktree add`.
		await git(this.#workspace, ['worktree', 'prune']).catch(() => undefined);
		try {
			// An existing branch (its tree was removed earlier) keeps its commits: the tree comes back on it.
			await git(this.#workspace, branchExists
				? ['worktree', 'add', absolutePath, branch]
				: ['worktree', 'add', '-b', branch, absolutePath, baseCommit]);
		} catch (e) {
			throw refused(`Could not create the worktree ${absolutePath} for task ${taskId}: ${(e as Error).message}`,
				`Check \`git -C ${this.#workspace} worktree list\` and \`git branch --list ${branch}\`, fix the conflict, then schedule the task again.`,
				{ issueId, taskId, path: absolutePath });
		}
		return { relativePath: worktreeRelativePath(taskId), absolutePath, branch, taskId, baseCommit, created: true };
	}

	/** Removes the task's tree (its branch and commits stay). Refuses when the tree has uncommitted changes. */
	remove(issueId: string, taskId: string): Promise<{ path: string; branch: string }> {
		return this.#serial(async () => {
			const state = this.readState();
			const absolutePath = this.pathOf(taskId);
			if (state.owners[taskId] !== issueId || !existsSync(absolutePath)) {
				throw refused(`Task ${taskId} of issue ${issueId} has no worktree.`,
					`List the trees with \`git -C ${this.#workspace} worktree list\`.`, { issueId, taskId });
			}
			let status: string;
			try {
				status = (await git(absolutePath, ['status', '--porcelain', '--untracked-files=all'])).stdout;
			} catch (e) {
				throw refused(`Cannot read the state of ${absolutePath}: ${(e as Error).message}`, `Inspect it with \`git -C ${absolutePath} status\`.`, { issueId, taskId });
			}
			if (status.trim() !== '') {
				const files = status.trim().split('\n').slice(0, 10).map((l) => l.trim());
				throw refused(`The worktree ${absolutePath} has uncommitted changes (${files.join(', ')}); it was not removed.`,
					`Commit or discard them (\`git -C ${absolutePath} status\`), then run \`tutti worktree remove --issue-id ${issueId} --task-id ${taskId} --as-user\` again.`,
					{ issueId, taskId, path: absolutePath, changes: files });
			}
			try {
				await git(this.#workspace, ['worktree', 'remove', absolutePath]);
			} catch (e) {
				const detail = e instanceof GitError ? e.stderr.trim() : (e as Error).message;
				throw refused(`git refused to remove ${absolutePath}: ${detail}`, `Inspect it with \`git -C ${absolutePath} status\`.`, { issueId, taskId });
			}
			const next = this.readState();
			delete next.owners[taskId];
			delete next.prepared[taskId];
			this.#writeState(next);
			return { path: absolutePath, branch: worktreeBranch(taskId) };
		});
	}

	/**
	 * Removes every tree of the issue and its branch, once `integratedCommit` contains the branch's work. Refuses
	 * (removing nothing) when a tree has uncommitted changes or a branch holds work that was not integrated.
	 */
	removeIssueTrees(issueId: string, integratedCommit: string): Promise<{ taskId: string; path: string; branch: string }[]> {
		return this.#serial(async () => {
			const state = this.readState();
			const taskIds = Object.keys(state.owners).filter((t) => state.owners[t] === issueId).sort();
			const problems: string[] = [];
			for (const taskId of taskIds) {
				const absolutePath = this.pathOf(taskId);
				if (existsSync(absolutePath)) {
					const status = (await git(absolutePath, ['status', '--porcelain', '--untracked-files=all'])).stdout.trim();
					if (status !== '') { problems.push(`${absolutePath} has uncommitted changes (${status.split('\n').slice(0, 5).map((l) => l.trim()).join(', ')})`); }
				}
				const head = await gitExit(this.#workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${worktreeBranch(taskId)}`]);
				if (head.exitCode === 0 && (await gitExit(this.#workspace, ['merge-base', '--is-ancestor', head.stdout.trim(), integratedCommit])).exitCode !== 0) {
					problems.push(`branch ${worktreeBranch(taskId)} has commits that were not integrated`);
				}
			}
			if (problems.length > 0) {
				throw new DomainError('dirty_workspace', `The worktrees of issue ${issueId} were not removed: ${problems.join('; ')}.`,
					`Commit or discard those changes (or integrate again with \`tutti issue integrate --issue-id ${issueId} --as-user\`), then run \`tutti finish --issue-id ${issueId} --remove-worktrees --as-user\` again.`,
					{ issueId, problems });
			}
			const removed: { taskId: string; path: string; branch: string }[] = [];
			for (const taskId of taskIds) {
				const absolutePath = this.pathOf(taskId);
				if (existsSync(absolutePath)) { await git(this.#workspace, ['worktree', 'remove', absolutePath]); }
				this.#beforeBranchDelete(`refs/heads/${worktreeBranch(taskId)}`);
				await gitExit(this.#workspace, ['branch', '-D', '--', worktreeBranch(taskId)]);
				const next = this.readState();
				delete next.owners[taskId];
				delete next.prepared[taskId];
				this.#writeState(next);
				removed.push({ taskId, path: absolutePath, branch: worktreeBranch(taskId) });
			}
			return removed;
		});
	}

	async #requireGit(targetId: string): Promise<void> {
		let inside = false;
		try {
			inside = (await git(this.#workspace, ['rev-parse', '--is-inside-work-tree'])).stdout.trim() === 'true';
		} catch {
			inside = false;
		}
		if (!inside) {
			throw refused(`Agent target '${targetId}' uses "isolation":"worktree", but the workspace ${this.#workspace} is not a git repository.`,
				`Run \`git init\` and make a first commit in ${this.#workspace}, or remove "isolation" from target '${targetId}' in .tutti/config.json.`,
				{ agentTargetId: targetId, workspace: this.#workspace });
		}
	}

	#serial<T>(fn: () => Promise<T>): Promise<T> {
		const next = this.#chain.then(fn, fn);
		this.#chain = next.then(() => undefined, () => undefined);
		return next;
	}
}
