// Git worktrees for task isolation. A task whose agent target says `"isolation":"worktree"` runs in
// `.tutti/worktrees/<issueId>/<taskId>` on branch `tutti/<issueId>/<taskId>` (worktreePaths.ts), created from its
// issue's base commit before launch (never inside a store transaction). The tree is kept after the Run; a rework (a
// task superseding this one) goes back to the same tree; only the developer's `tutti worktree remove`, Finish and prune
// delete it (and its branch once merged: src/host/delivery/treeCleanup.ts), never with uncommitted changes.
//
// The issue's base commit is HEAD when the issue first needs a worktree (recorded then, reused for every later
// task of the issue). Bookkeeping lives in `.tutti/worktrees.json` (no schema change; outside the trees' folder so
// no task id can collide with it): each issue's base commit and one record per tree with the folder and branch it was
// made with, which every later step reads (a tree made when trees were named by task id alone keeps those names; the
// older file, which recorded only each tree's issue by task id, is read as such records). A record is written before
// `git worktree add`, so a Host that dies in between finds the half-made tree as its own next time.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DomainError } from '../../core/errors.js';
import { git, GitError, gitExit } from './git.js';
import { copyFiles, filesToCopy, noPreparation, runSetup, type TreePreparation } from './treePreparation.js';
import {
	isInsideTree, isKnownLayout, legacyTreeNames, type TreeRecord, worktreeBranch, worktreeRelativePath, worktreesFolder, worktreeTaskIdProblem,
} from './worktreePaths.js';

export interface WorktreeState {
	/** issueId → base commit (full sha). */
	bases: Record<string, string>;
	/** Every tree Tutti made and has not deleted with its branch, with the names it was made with. */
	trees: TreeRecord[];
}

/** `.tutti/worktrees.json`: this shape, or the older one (`owners`: taskId → issueId; `prepared`: taskId → true). */
const stateFile = z.object({
	bases: z.record(z.string(), z.string()).optional(),
	trees: z.array(z.object({ issueId: z.string(), taskId: z.string(), path: z.string(), branch: z.string(), prepared: z.boolean().optional() })).optional(),
	owners: z.record(z.string(), z.string()).optional(),
	prepared: z.record(z.string(), z.boolean()).optional(),
});

/** The state a file holds: records that name a known layout, and the older file's trees under their old names. */
function stateOf(value: unknown): WorktreeState {
	const parsed = stateFile.safeParse(value);
	if (!parsed.success) { return { bases: {}, trees: [] }; }
	const trees: TreeRecord[] = (parsed.data.trees ?? [])
		.map((t) => ({ issueId: t.issueId, taskId: t.taskId, path: t.path, branch: t.branch, prepared: t.prepared === true }))
		.filter(isKnownLayout);
	for (const [taskId, issueId] of Object.entries(parsed.data.owners ?? {})) {
		if (trees.some((t) => t.issueId === issueId && t.taskId === taskId)) { continue; }
		const record = { issueId, taskId, ...legacyTreeNames(taskId), prepared: parsed.data.prepared?.[taskId] === true };
		if (isKnownLayout(record)) { trees.push(record); }
	}
	return { bases: { ...(parsed.data.bases ?? {}) }, trees };
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

	/** `beforeBranchDelete`: told each `refs/heads/tutti/…` branch the developer's removal deletes, before git does. */
	constructor(workspace: string, preparation: TreePreparation = noPreparation, beforeBranchDelete: (ref: string) => void = () => undefined) {
		this.#workspace = resolve(workspace);
		this.#stateFile = join(this.#workspace, `${worktreesFolder}.json`);
		this.#preparation = preparation;
		this.#beforeBranchDelete = beforeBranchDelete;
	}

	#absolute(record: Pick<TreeRecord, 'path'>): string {
		return resolve(this.#workspace, record.path);
	}

	readState(): WorktreeState {
		try {
			return stateOf(JSON.parse(readFileSync(this.#stateFile, 'utf8')));
		} catch {
			return { bases: {}, trees: [] };
		}
	}

	#writeState(state: WorktreeState): void {
		mkdirSync(join(this.#workspace, worktreesFolder), { recursive: true, mode: 0o700 });
		const tmp = `${this.#stateFile}.${process.pid}.tmp`;
		writeFileSync(tmp, `${JSON.stringify({ bases: state.bases, trees: state.trees }, null, '\t')}\n`, { mode: 0o600 });
		renameSync(tmp, this.#stateFile);
	}

	/** Changes the record of one tree (or adds it) and writes the state. */
	#updateRecord(issueId: string, taskId: string, change: (record: TreeRecord | undefined) => TreeRecord | undefined): void {
		const state = this.readState();
		const index = state.trees.findIndex((t) => t.issueId === issueId && t.taskId === taskId);
		const next = change(index >= 0 ? state.trees[index] : undefined);
		if (index >= 0) { state.trees.splice(index, 1); }
		if (next !== undefined) { state.trees.push(next); }
		this.#writeState(state);
	}

	/** The recorded tree of a task (its folder may have been removed since), or undefined when it never had one. */
	recordOf(issueId: string, taskId: string): TreeRecord | undefined {
		return this.readState().trees.find((t) => t.issueId === issueId && t.taskId === taskId);
	}

	/** Every recorded tree of the issue. */
	treesOf(issueId: string): TreeRecord[] {
		return this.readState().trees.filter((t) => t.issueId === issueId);
	}

	/** The recorded tree of the issue whose folder is, or holds, the workspace-relative `directory` (a Run's). */
	treeContaining(issueId: string, directory: string): TreeRecord | undefined {
		return this.treesOf(issueId).filter((t) => isInsideTree(t.path, directory)).sort((a, b) => b.path.length - a.path.length)[0];
	}

	/**
	 * The worktree a launch of `chain[0]` runs in: the nearest existing tree of the chain (same task, or the task a
	 * rework supersedes), else a new tree for `chain[0]` from the issue's base commit. `targetId` names the
	 * setting in errors.
	 */
	ensure(issueId: string, chain: readonly string[], targetId: string, options: EnsureOptions = {}): Promise<Worktree> {
		return this.#serial(async () => {
			const tree = await this.#ensure(issueId, chain, targetId, options.startCommit);
			await this.#prepare(issueId, tree, options);
			return tree;
		});
	}

	/** worktreeCopy then worktreeSetup, once per tree (a failed setup runs again at the next launch). */
	async #prepare(issueId: string, tree: Worktree, options: EnsureOptions): Promise<void> {
		const { copy, setup, setupTimeoutMs } = this.#preparation;
		if (this.recordOf(issueId, tree.taskId)?.prepared === true || (copy.length === 0 && setup.length === 0)) { return; }
		copyFiles(this.#workspace, tree.absolutePath, await filesToCopy(this.#workspace, copy));
		const result = await runSetup(tree.absolutePath, setup, setupTimeoutMs, options.setupLogFile ?? null);
		if (!result.ok) { throw new WorktreeSetupError(result.exitCode, result.tail, result.why); }
		this.#updateRecord(issueId, tree.taskId, (record) => (record ? { ...record, prepared: true } : record));
	}

	/** The nearest existing tree of the chain that belongs to the issue, or null when a launch would create one. */
	existingTree(issueId: string, chain: readonly string[]): Worktree | null {
		const state = this.readState();
		for (const id of chain) {
			const record = state.trees.find((t) => t.issueId === issueId && t.taskId === id);
			if (record !== undefined && existsSync(this.#absolute(record))) {
				return {
					relativePath: record.path, absolutePath: this.#absolute(record), branch: record.branch,
					taskId: id, baseCommit: state.bases[issueId] ?? '', created: false,
				};
			}
		}
		return null;
	}

	/**
	 * Task trees live only inside the workspace: `.tutti` and `.tutti/worktrees` (and an issue's folder in it) must be
	 * real folders there, not symbolic links leading elsewhere (a tree made through one would put an agent outside the
	 * workspace).
	 */
	#requireTreesInside(issueId: string, taskId: string, treePath: string): void {
		const workspaceReal = realpathSync(this.#workspace);
		const folders = [join(this.#workspace, '.tutti'), join(this.#workspace, worktreesFolder)];
		const issueFolder = resolve(this.#workspace, treePath, '..');
		if (issueFolder !== join(this.#workspace, worktreesFolder)) { folders.push(issueFolder); }
		for (const folder of folders) {
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
		const existing = this.existingTree(issueId, chain);
		// A tree removed by hand or by `worktree remove` comes back with the names it was made with.
		const recorded = this.recordOf(issueId, taskId);
		const names = recorded ?? { path: worktreeRelativePath(issueId, taskId), branch: worktreeBranch(issueId, taskId) };
		this.#requireTreesInside(issueId, taskId, existing?.relativePath ?? names.path);
		if (existing !== null) { return existing; }
		const problem = worktreeTaskIdProblem(taskId) ?? worktreeTaskIdProblem(issueId);
		if (problem !== null) {
			throw refused(`Agent target '${targetId}' uses "isolation":"worktree", but ${problem}.`,
				`Add the work as a task with a simple id (e.g. \`tutti issue task add --issue-id ${issueId} --task-id fix-login …\`) or use a target without isolation.`,
				{ issueId, taskId, agentTargetId: targetId });
		}
		const absolutePath = this.#absolute(names);
		if (recorded === undefined && existsSync(absolutePath)) {
			throw refused(`The worktree folder ${absolutePath} already exists and is not a tree Tutti made for task ${taskId} of issue ${issueId}, so the task cannot use it.`,
				`Move ${absolutePath} out of the way, then schedule the task again.`, { issueId, taskId, path: absolutePath });
		}
		// The caller's start commit (its parents' work, or the issue base the store recorded) makes a HEAD lookup moot.
		let baseCommit = startCommit ?? this.readState().bases[issueId];
		if (baseCommit === undefined) {
			try {
				baseCommit = (await git(this.#workspace, ['rev-parse', '--verify', 'HEAD^{commit}'])).stdout.trim();
			} catch {
				throw refused(`Agent target '${targetId}' uses "isolation":"worktree", but the repository at ${this.#workspace} has no commit yet to branch from.`,
					'Make a first commit (`git add -A && git commit -m "initial"`), then schedule the task again.', { issueId, taskId });
			}
		}
		const branch = names.branch;
		const intent = this.readState();
		// Without a start commit from the caller the base is the issue's; with one it may be a parent's, never the issue's.
		if (startCommit === undefined) { intent.bases[issueId] = baseCommit; }
		intent.trees = intent.trees.filter((t) => t.issueId !== issueId || t.taskId !== taskId);
		intent.trees.push({ issueId, taskId, path: names.path, branch, prepared: false });
		this.#writeState(intent);
		const branchExists = await git(this.#workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(() => true, () => false);
		mkdirSync(resolve(absolutePath, '..'), { recursive: true, mode: 0o700 });
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
		return { relativePath: names.path, absolutePath, branch, taskId, baseCommit, created: true };
	}

	/** Removes the task's tree (its branch and commits stay). Refuses when the tree has uncommitted changes. */
	remove(issueId: string, taskId: string): Promise<{ path: string; branch: string }> {
		return this.#serial(async () => {
			const record = this.recordOf(issueId, taskId);
			const absolutePath = record !== undefined ? this.#absolute(record) : '';
			if (record === undefined || !existsSync(absolutePath)) {
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
			// The record stays (the branch keeps the work, and a tree made again comes back with the same names).
			this.#updateRecord(issueId, taskId, (r) => (r ? { ...r, prepared: false } : r));
			return { path: absolutePath, branch: record.branch };
		});
	}

	/** The issue's trees whose folder exists, with absolute paths, by task id. */
	treesOnDisk(issueId: string): { taskId: string; path: string; branch: string }[] {
		return this.treesOf(issueId).map((t) => ({ taskId: t.taskId, path: this.#absolute(t), branch: t.branch }))
			.filter((t) => existsSync(t.path)).sort((a, b) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : 0));
	}

	/** The commit `branch` points at ('' when there is no such branch). */
	async branchTip(branch: string): Promise<string> {
		const head = await gitExit(this.#workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}^{commit}`]);
		return head.exitCode === 0 ? head.stdout.trim() : '';
	}

	/**
	 * Deletes the task's recorded branch only while it still points at `tip` (git's compare-and-delete), telling
	 * `beforeBranchDelete` first, and forgets the tree's record; false when it moved meanwhile or is gone.
	 */
	deleteBranch(issueId: string, taskId: string, tip: string): Promise<boolean> {
		return this.#serial(async () => {
			const record = this.recordOf(issueId, taskId);
			if (record === undefined) { return false; }
			const ref = `refs/heads/${record.branch}`;
			this.#beforeBranchDelete(ref);
			const deleted = (await gitExit(this.#workspace, ['update-ref', '-d', ref, tip])).exitCode === 0;
			if (deleted && !existsSync(this.#absolute(record))) { this.#updateRecord(issueId, taskId, () => undefined); }
			return deleted;
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
