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
//
// Trees are made in parallel: only the git calls that change the repository's worktree list run one at a time (git
// locks it), while worktreeCopy, worktreeSetup and the shared installs of different trees run at once, at most
// `maxParallelSetups` of them.
import { existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { DomainError } from '../../core/errors.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import { git, GitError, gitExit } from './git.js';
import { SetupCache, shareKey, sharedPaths, type ShareMethod } from './setupShare.js';
import { appendSetupLog, copyFiles, filesToCopy, noPreparation, preparationFor, runSetup, type TreePreparation } from './treePreparation.js';
import {
	isInsideTree, isKnownLayout, legacyTreeNames, type TreeRecord, type TreeSetupRecord, worktreeBranch, worktreeRelativePath, worktreesFolder,
	worktreeTaskIdProblem,
} from './worktreePaths.js';

export interface WorktreeState {
	/** issueId → base commit (full sha). */
	bases: Record<string, string>;
	/** Every tree Tutti made and has not deleted with its branch, with the names it was made with. */
	trees: TreeRecord[];
}

/** How a tree was set up (absent in a file written before set-ups were recorded, or when no setup ran). */
const treeSetupRecord = z.object({
	startedAtUnixMs: z.number(), endedAtUnixMs: z.number(), method: z.enum(['installed', 'clone', 'copy']).nullable(), key: z.string(),
});

/** `.tutti/worktrees.json`: this shape, or the older one (`owners`: taskId → issueId; `prepared`: taskId → true). */
const stateFile = z.object({
	bases: z.record(z.string(), z.string()).optional(),
	trees: z.array(z.object({
		issueId: z.string(), taskId: z.string(), path: z.string(), branch: z.string(), prepared: z.boolean().optional(),
		setup: treeSetupRecord.optional(),
	})).optional(),
	owners: z.record(z.string(), z.string()).optional(),
	prepared: z.record(z.string(), z.boolean()).optional(),
});

/** The state a file holds: records that name a known layout, and the older file's trees under their old names. */
function stateOf(value: unknown): WorktreeState {
	const parsed = stateFile.safeParse(value);
	if (!parsed.success) { return { bases: {}, trees: [] }; }
	const trees: TreeRecord[] = (parsed.data.trees ?? [])
		.map((t) => ({
			issueId: t.issueId, taskId: t.taskId, path: t.path, branch: t.branch, prepared: t.prepared === true,
			...(t.setup !== undefined ? { setup: t.setup } : {}),
		}))
		.filter(isKnownLayout);
	for (const [taskId, issueId] of Object.entries(parsed.data.owners ?? {})) {
		if (trees.some((t) => t.issueId === issueId && t.taskId === taskId)) { continue; }
		const record = { issueId, taskId, ...legacyTreeNames(taskId), prepared: parsed.data.prepared?.[taskId] === true };
		if (isKnownLayout(record)) { trees.push(record); }
	}
	return { bases: { ...(parsed.data.bases ?? {}) }, trees };
}

/** A launch whose tree is being made or set up now: `waiting` (for git, a setup slot, or another tree's install) or `setting_up`. */
export interface SetupProgress {
	issueId: string;
	taskId: string;
	state: 'waiting' | 'setting_up';
	startedAtUnixMs: number;
	logFile: string | null;
}

/** At most `limit` holders at once; the others wait in order. */
class Slots {
	#free: number;
	readonly #waiting: (() => void)[] = [];
	constructor(limit: number) { this.#free = limit; }
	async acquire(): Promise<() => void> {
		if (this.#free > 0) {
			this.#free -= 1;
		} else {
			await new Promise<void>((resolve) => { this.#waiting.push(resolve); });
		}
		let released = false;
		return () => {
			if (released) { return; }
			released = true;
			const next = this.#waiting.shift();
			if (next !== undefined) { next(); } else { this.#free += 1; }
		};
	}
}

export interface WorktreeManagerOptions {
	/** How many trees are set up at once (default: the number of cores). */
	maxParallelSetups?: number;
	/** The size limit of `.tutti/setup-cache` (default 4096). */
	shareCacheMaxMb?: number;
	now?: () => number;
}

/** The key of one tree in the maps of work under way (the same task id in two issues names two trees). */
function treeKey(issueId: string, taskId: string): string {
	return JSON.stringify([issueId, taskId]);
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
	/** The launch this tree is made for: its progress is readable meanwhile (`setupProgress`). */
	runId?: string;
	/** The launching target: its own worktreeSetup, worktreeCopy and worktreeShare replace the workspace's. */
	target?: Pick<AgentTargetConfig, 'worktreeSetup' | 'worktreeCopy' | 'worktreeShare'>;
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

/** Whether the tree at `treePath` has an index, i.e. was checked out (a tree made with --no-checkout has none yet). */
function hasIndex(treePath: string): boolean {
	try {
		const pointer = readFileSync(join(treePath, '.git'), 'utf8').trim();
		if (!pointer.startsWith('gitdir:')) { return true; }
		return existsSync(join(resolve(treePath, pointer.slice('gitdir:'.length).trim()), 'index'));
	} catch {
		return true; // a main checkout (a .git folder) or no tree at all: nothing to check out here
	}
}

function refused(message: string, hint: string, details: Record<string, unknown> = {}): DomainError {
	return new DomainError('invalid_input', message, hint, details);
}

export class WorktreeManager {
	readonly #workspace: string;
	readonly #stateFile: string;
	readonly #preparation: TreePreparation;
	readonly #beforeBranchDelete: (ref: string) => void;
	readonly #slots: Slots;
	readonly #cache: SetupCache;
	readonly #now: () => number;
	#chain: Promise<unknown> = Promise.resolve();
	/** treeKey → that tree's preparation under way (a second launch into the same tree waits for it). */
	readonly #preparing = new Map<string, Promise<void>>();
	/** Checkouts of new trees in flight, by tree path (started while trees are made one at a time, awaited outside). */
	readonly #checkingOut = new Map<string, Promise<void>>();
	/** install key → the first tree's setup of that key under way (later trees wait, then copy its result). */
	readonly #installing = new Map<string, Promise<void>>();
	/** runId → the launch's tree being made or set up. */
	readonly #progress = new Map<string, SetupProgress>();

	/** `beforeBranchDelete`: told each `refs/heads/tutti/…` branch the developer's removal deletes, before git does. */
	constructor(workspace: string, preparation: TreePreparation = noPreparation, beforeBranchDelete: (ref: string) => void = () => undefined, options: WorktreeManagerOptions = {}) {
		this.#workspace = resolve(workspace);
		this.#stateFile = join(this.#workspace, `${worktreesFolder}.json`);
		this.#preparation = preparation;
		this.#beforeBranchDelete = beforeBranchDelete;
		this.#slots = new Slots(options.maxParallelSetups ?? availableParallelism());
		this.#cache = new SetupCache(this.#workspace, options.shareCacheMaxMb ?? 4096);
		this.#now = options.now ?? Date.now;
	}

	/** How the task's tree was set up, if a setup ran there since it was made. */
	setupRecord(issueId: string, taskId: string): TreeSetupRecord | undefined {
		return this.recordOf(issueId, taskId)?.setup;
	}

	/** The launch's tree while it is being made or set up; undefined before and after. */
	setupProgress(runId: string): SetupProgress | undefined {
		const progress = this.#progress.get(runId);
		return progress === undefined ? undefined : { ...progress };
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
		const runId = options.runId;
		if (runId !== undefined) {
			this.#progress.set(runId, { issueId, taskId: chain[0] ?? '', state: 'waiting', startedAtUnixMs: this.#now(), logFile: options.setupLogFile ?? null });
		}
		const made = (async () => {
			// Only the repository's worktree list is git's shared, locked state: trees are created one at a time.
			// A read of the repository, asked before the serial chain: only git's worktree bookkeeping waits in it.
			await this.#requireGit(targetId);
			const { tree, checkout } = await this.#serial(() => this.#ensure(issueId, chain, targetId, options.startCommit));
			await checkout;
			if (runId !== undefined) {
				const progress = this.#progress.get(runId);
				if (progress !== undefined) { this.#progress.set(runId, { ...progress, taskId: tree.taskId }); }
			}
			await this.#prepareOnce(issueId, tree, options);
			return tree;
		})();
		return runId === undefined ? made : made.finally(() => { this.#progress.delete(runId); });
	}

	/** One preparation per tree at a time: a second launch into a tree being prepared waits for it, then checks. */
	async #prepareOnce(issueId: string, tree: Worktree, options: EnsureOptions): Promise<void> {
		const key = treeKey(issueId, tree.taskId);
		for (let under = this.#preparing.get(key); under !== undefined; under = this.#preparing.get(key)) {
			await under.catch(() => undefined);
		}
		const preparing = this.#prepare(issueId, tree, options);
		this.#preparing.set(key, preparing);
		try {
			await preparing;
		} finally {
			this.#preparing.delete(key);
		}
	}

	/**
	 * The shared paths, then worktreeCopy, then worktreeSetup, once per tree (a failed setup runs again at the next
	 * launch). At most `maxParallelSetups` trees do this at once; a tree whose install key another tree is installing
	 * now waits for that install and copies it instead of installing again.
	 */
	async #prepare(issueId: string, tree: Worktree, options: EnsureOptions): Promise<void> {
		const { copy, setup, setupTimeoutMs, share } = preparationFor(this.#preparation, options.target);
		if (this.recordOf(issueId, tree.taskId)?.prepared === true || (copy.length === 0 && setup.length === 0)) { return; }
		const logFile = options.setupLogFile ?? null;
		const key = shareKey(tree.absolutePath, setup, share);
		let installing: (() => void) | undefined;
		if (key !== null) {
			for (let first = this.#installing.get(key); first !== undefined; first = this.#installing.get(key)) {
				appendSetupLog(logFile, `[worktree setup] waiting for another tree's install of the same ${share.flatMap((r) => r.key).join(', ')}\n`);
				await first;
			}
			// Checked and claimed with no wait in between, so exactly one tree of a key installs at a time.
			if (!this.#cache.hasNow(key)) {
				this.#installing.set(key, new Promise<void>((resolve) => { installing = resolve; }));
			}
		}
		const release = await this.#slots.acquire();
		const startedAtUnixMs = this.#now();
		if (options.runId !== undefined) {
			const progress = this.#progress.get(options.runId);
			if (progress !== undefined) { this.#progress.set(options.runId, { ...progress, state: 'setting_up', startedAtUnixMs }); }
		}
		try {
			const paths = sharedPaths(share);
			let method: ShareMethod | null = null;
			if (key !== null && installing === undefined) {
				method = await this.#cache.restore(key, tree.absolutePath, paths, this.#now());
				appendSetupLog(logFile, method === null
					? `[worktree setup] ${paths.join(', ')} already in the tree or no longer cached: installing in this tree\n`
					: `[worktree setup] ${paths.join(', ')} from the install of the same ${share.flatMap((r) => r.key).join(', ')} (${method === 'clone' ? 'copy-on-write clone' : 'plain copy: this filesystem cannot clone'}); setup not run again\n`);
			}
			copyFiles(this.#workspace, tree.absolutePath, await filesToCopy(this.#workspace, copy));
			if (method === null) {
				const result = await runSetup(tree.absolutePath, setup, setupTimeoutMs, logFile);
				if (!result.ok) { throw new WorktreeSetupError(result.exitCode, result.tail, result.why); }
				if (key !== null) {
					const kept = await this.#cache.store(key, tree.absolutePath, paths, this.#now(), this.#keysInUse())
						.catch((e: unknown) => `not shared: ${(e as Error).message}`);
					appendSetupLog(logFile, kept === null ? `[worktree setup] ${paths.join(', ')} kept for later trees with the same ${share.flatMap((r) => r.key).join(', ')}\n` : `[worktree setup] ${kept}\n`);
					method = 'installed';
				}
			}
			const setupRecord: TreeSetupRecord | undefined = setup.length > 0 ? { startedAtUnixMs, endedAtUnixMs: this.#now(), method, key: key ?? '' } : undefined;
			this.#updateRecord(issueId, tree.taskId, (record) => (record ? { ...record, prepared: true, ...(setupRecord !== undefined ? { setup: setupRecord } : {}) } : record));
		} finally {
			release();
			if (key !== null && installing !== undefined) {
				this.#installing.delete(key);
				installing();
			}
		}
	}

	/** The install keys the trees still on disk were set up with. */
	#keysInUse(): Set<string> {
		return new Set(this.readState().trees.filter((t) => t.setup !== undefined && t.setup.key !== '' && existsSync(this.#absolute(t)))
			.map((t) => t.setup?.key ?? ''));
	}

	/** Pruned with the trees: cached installs no remaining tree uses go. */
	async #pruneCache(): Promise<void> {
		await this.#cache.prune(this.#keysInUse(), new Set(this.#installing.keys())).catch(() => undefined);
	}

	/** A tree being set up now is not removed under its setup. */
	#refuseWhilePreparing(issueId: string, taskId: string): void {
		if (this.#preparing.has(treeKey(issueId, taskId))) {
			throw refused(`The worktree of task ${taskId} of issue ${issueId} is being set up now; it was not removed.`,
				`Wait until its setup ends (\`tutti run list --issue-id ${issueId}\`), then remove it again.`, { issueId, taskId });
		}
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

	/** The tree, and its checkout when one is in flight (started here, awaited by the caller outside the serial chain). */
	async #ensure(issueId: string, chain: readonly string[], targetId: string, startCommit?: string): Promise<{ tree: Worktree; checkout: Promise<void> | undefined }> {
		const taskId = chain[0];
		if (taskId === undefined) { throw new Error('ensure needs a task id'); }
		const existing = this.existingTree(issueId, chain);
		// A tree removed by hand or by `worktree remove` comes back with the names it was made with.
		const recorded = this.recordOf(issueId, taskId);
		const names = recorded ?? { path: worktreeRelativePath(issueId, taskId), branch: worktreeBranch(issueId, taskId) };
		this.#requireTreesInside(issueId, taskId, existing?.relativePath ?? names.path);
		if (existing !== null) {
			// A tree whose checkout never ran (the Host stopped right after making it) is checked out now.
			const inFlight = this.#checkingOut.get(existing.absolutePath);
			return { tree: existing, checkout: inFlight ?? (hasIndex(existing.absolutePath) ? undefined : this.#startCheckout(issueId, taskId, existing.absolutePath)) };
		}
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
		const branchExists = (): Promise<boolean> => git(this.#workspace, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`]).then(() => true, () => false);
		// An existing branch (its tree was removed earlier) keeps its commits: the tree comes back on it.
		// Only git's worktree bookkeeping runs here, one tree at a time; the checkout of the files (what `worktree add`
		// itself runs as `reset --hard` in the new tree) starts right after and runs beside the next trees' bookkeeping.
		const add = (onBranch: boolean): Promise<unknown> => git(this.#workspace, onBranch
			? ['worktree', 'add', '--no-checkout', absolutePath, branch]
			: ['worktree', 'add', '--no-checkout', '-b', branch, absolutePath, baseCommit]);
		mkdirSync(resolve(absolutePath, '..'), { recursive: true, mode: 0o700 });
		try {
			// A new tree's branch is new: one git call. A recorded tree coming back may find its branch.
			try {
				await add(recorded !== undefined && await branchExists());
			} catch {
				// A tree folder deleted by hand stays registered in git until pruned, which blocks `worktree add`; and a
				// branch left by an earlier tree is taken as it is. Both are looked at only when the first attempt fails.
				await git(this.#workspace, ['worktree', 'prune']).catch(() => undefined);
				await add(await branchExists());
			}
		} catch (e) {
			throw refused(`Could not create the worktree ${absolutePath} for task ${taskId}: ${(e as Error).message}`,
				`Check \`git -C ${this.#workspace} worktree list\` and \`git branch --list ${branch}\`, fix the conflict, then schedule the task again.`,
				{ issueId, taskId, path: absolutePath });
		}
		const checkout = this.#startCheckout(issueId, taskId, absolutePath);
		return { tree: { relativePath: names.path, absolutePath, branch, taskId, baseCommit, created: true }, checkout };
	}

	/** Checks out the tree's files from its HEAD (its own index: nothing shared with other trees is locked). */
	#startCheckout(issueId: string, taskId: string, absolutePath: string): Promise<void> {
		const checkout = git(absolutePath, ['reset', '--hard', '-q']).then(() => undefined, (e: unknown) => {
			throw refused(`Could not check out the worktree ${absolutePath} for task ${taskId}: ${(e as Error).message}`,
				`Check \`git -C ${absolutePath} status\`, fix the problem, then schedule the task again.`, { issueId, taskId, path: absolutePath });
		}).finally(() => { this.#checkingOut.delete(absolutePath); });
		checkout.catch(() => undefined);
		this.#checkingOut.set(absolutePath, checkout);
		return checkout;
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
			this.#refuseWhilePreparing(issueId, taskId);
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
			// The record stays (the branch keeps the work, and a tree made again comes back with the same names); its
			// set-up went with the folder, so the install it used may leave the cache.
			this.#updateRecord(issueId, taskId, (r) => (r ? { issueId: r.issueId, taskId: r.taskId, path: r.path, branch: r.branch, prepared: false } : r));
			await this.#pruneCache();
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
