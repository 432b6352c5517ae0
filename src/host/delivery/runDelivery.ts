// Code delivery around a Run, the two git steps of a worker Run, both outside any transaction:
// - before its agent starts (`prepareRunTree`): the issue's base is recorded when it first needs one; a worktree
//   Run's tree starts from its parents' accepted commits (one merge commit of several), a rework's tree first
//   merges in the parent commits it lacks; conflicting parents fail the Run before launch ("fail") or leave the
//   tree in the conflicted merge with the paths for the agent ("agent"); the Run's base commit is recorded.
// - an update from base (a new attempt of an accepted task) goes back to the task's tree and merges its base branch
//   (and the work integrated before the task) in; a conflict is left in the tree for the agent or the developer.
// - when it ends (`recordRunResult`): what the agent left becomes its result commit (resultCommit.ts), recorded
//   once with the files it changed; a merge left unresolved is reported so that the Run fails.
import { resolve } from 'node:path';
import { couldNotStart } from '../../core/runs/outcome.js';
import { effectiveOnMergeConflict } from '../../core/runs/targetDefaults.js';
import type { AgentTargetConfig } from '../../core/runs/runProcessPort.js';
import type { Run, Task } from '../../core/model.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { taskRepository } from '../../store/repositories/taskRepository.js';
import { gitExit } from '../worktrees/git.js';
import type { Worktree, WorktreeManager } from '../worktrees/worktreeManager.js';
import { changedFiles } from './changedFiles.js';
import { fallbackIdentity, type GitIdentity, identityEnv, workspaceIdentity } from './gitIdentity.js';
import { type DeveloperGitMoves, outsideChangesOfRun } from './outsideWatch.js';
import { commitResult, type ResultCommit, unmergedPaths } from './resultCommit.js';
import { enterConflict, mergeMissingParents, newTreeBase, type ParentCommit, type TaskBase } from './taskBase.js';

export interface RunDeliveryDeps {
	workspace: string;
	store: Store;
	clock: { now(): number };
	worktrees: WorktreeManager;
}

/** Recording a result also compares the developer's checkout with the Run's baseline (outsideWatch.ts). */
export interface RunResultDeps extends RunDeliveryDeps {
	moves: DeveloperGitMoves;
	runDir(runId: string): string;
}

export interface MergeConflictNote {
	paths: string[];
	/** The task (or the tree's own task) whose work the parent's conflicts with. */
	withTaskId: string;
	parentTaskId: string;
}

/** An update from base to carry out in the tree: merge `commit` (what `into` and the work before the task hold). */
export interface TreeUpdate {
	into: string;
	commit: string;
	/** The merge commit's message. */
	message: string;
}

/** What merging the update into the tree came to: merged (a new merge commit, or nothing to merge), or conflicts. */
export type TreeUpdateOutcome = { kind: 'merged'; head: string } | { kind: 'conflict'; paths: string[] };

export type PreparedTree =
	| { ok: true; tree: Worktree; baseCommit: string; conflict: MergeConflictNote | null; update?: TreeUpdateOutcome }
	| { ok: false; message: string };

/** HEAD of the workspace and the branch checked out ('' when detached); null outside git or before a first commit. */
async function workspaceHead(workspace: string): Promise<{ commit: string; branch: string } | null> {
	const head = await gitExit(workspace, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']);
	if (head.exitCode !== 0) { return null; }
	const branch = await gitExit(workspace, ['symbolic-ref', '--short', '-q', 'HEAD']);
	return { commit: head.stdout.trim(), branch: branch.exitCode === 0 ? branch.stdout.trim() : '' };
}

/** The parents of `task` that bring a commit: its dependencies accepted with an accepted commit (worktree work). */
function parentCommits(deps: RunDeliveryDeps, task: Task): ParentCommit[] {
	return deps.store.read((r) => task.dependencyTaskIds
		.map((taskId) => ({ taskId, commit: deliveryRepository.acceptedCommit(r, task.issueId, taskId) }))
		.filter((p) => p.commit !== ''));
}

/** Where a Run in the shared folder starts: HEAD at launch (nothing outside git). */
export async function recordSharedFolderBase(deps: RunDeliveryDeps, run: Run): Promise<void> {
	const head = await gitExit(deps.workspace, ['rev-parse', '--verify', '--quiet', 'HEAD^{commit}']).catch(() => null);
	if (head === null || head.exitCode !== 0) { return; }
	await deps.store.transaction((tx) => { deliveryRepository.recordRunBase(tx, run.runId, false, head.stdout.trim()); });
}

export function conflictPrompt(conflict: MergeConflictNote): string {
	return [
		`Before your task: merging the work of task ${conflict.parentTaskId} into this tree conflicts with ${conflict.withTaskId} in:`,
		...conflict.paths.map((p) => `  - ${p}`),
		'Resolve each of these files (keep both sides\' intent), then `git add` them and `git commit` to conclude the merge.',
		'The Run fails if it ends with the merge unresolved. Then do the task below.',
		'',
	].join('\n');
}

/**
 * Merges `update.commit` into the tree: a merge commit (with the workspace's identity), nothing when the tree has it
 * already, or the merge left in progress with its conflicting paths.
 */
async function mergeUpdate(treePath: string, update: TreeUpdate, identity: GitIdentity): Promise<TreeUpdateOutcome> {
	const merged = await gitExit(treePath, ['merge', '--no-ff', '--no-edit', '-m', update.message, update.commit], { env: identityEnv(identity) });
	if (merged.exitCode === 0) { return { kind: 'merged', head: (await gitExit(treePath, ['rev-parse', 'HEAD'])).stdout.trim() }; }
	const paths = await unmergedPaths(treePath);
	if (paths.length === 0) { throw new Error(`git merge ${update.commit} failed: ${(merged.stderr.trim() || merged.stdout.trim()).split('\n')[0] ?? ''}`); }
	return { kind: 'conflict', paths };
}

/**
 * The worktree a worker Run starts in, built on its parents (see the file comment). An update from base (`update`)
 * goes back to the task's own tree and merges the update in; its Run's base is the commit merged in, so the Run's
 * diff is the task's work on top of it.
 */
export async function prepareRunTree(
	deps: RunDeliveryDeps, run: Run, task: Task, target: AgentTargetConfig, chain: readonly string[], setupLogFile: string, update?: TreeUpdate,
): Promise<PreparedTree> {
	let issueBase = deps.store.read((r) => deliveryRepository.issueDelivery(r, run.issueId));
	if (issueBase === undefined) {
		const head = await workspaceHead(deps.workspace);
		if (head !== null) {
			// An issue whose trees were made before the store recorded bases keeps the base they were made from.
			const legacyBase = deps.worktrees.readState().bases[run.issueId];
			await deps.store.transaction((tx) => { deliveryRepository.recordIssueBase(tx, run.issueId, legacyBase ?? head.commit, head.branch); });
			issueBase = deps.store.read((r) => deliveryRepository.issueDelivery(r, run.issueId));
		}
	}
	const parents = parentCommits(deps, task);
	// Only a merge commits anything: no parent, no identity to look up.
	const identity = parents.length > 0 ? await workspaceIdentity(deps.workspace) : fallbackIdentity;
	const existing = deps.worktrees.existingTree(run.issueId, chain);
	if (update !== undefined && existing === null) {
		return { ok: false, message: `${couldNotStart}the tree of task ${task.taskId} is gone (removed after its acceptance), so there is no work to update from ${update.into}` };
	}
	let base: TaskBase;
	let tree: Worktree;
	if (existing !== null) {
		base = await mergeMissingParents(existing.absolutePath, task.taskId, parents, identity);
		tree = await deps.worktrees.ensure(run.issueId, chain, target.id, { setupLogFile });
	} else {
		base = issueBase === undefined ? { kind: 'ready', commit: '', mergeCommit: false }
			: await newTreeBase(deps.workspace, task.taskId, issueBase.baseCommit, parents, identity);
		const start = base.kind === 'ready' ? base.commit : base.cleanCommit;
		tree = await deps.worktrees.ensure(run.issueId, chain, target.id, { setupLogFile, ...(start !== '' ? { startCommit: start } : {}) });
	}
	const head = (await gitExit(tree.absolutePath, ['rev-parse', 'HEAD'])).stdout.trim();
	let conflict: MergeConflictNote | null = null;
	if (base.kind === 'conflict') {
		if (effectiveOnMergeConflict(target) === 'fail') {
			return {
				ok: false,
				message: `Could not start: merging ${base.otherTaskId} and ${base.conflicting.taskId} conflicts in ${base.paths.join(', ')}`,
			};
		}
		const paths = await enterConflict(tree.absolutePath, task.taskId, base.conflicting, identity);
		conflict = { paths: paths.length > 0 ? paths : base.paths, withTaskId: base.otherTaskId, parentTaskId: base.conflicting.taskId };
	}
	if (update !== undefined) {
		const outcome = await mergeUpdate(tree.absolutePath, update, await workspaceIdentity(deps.workspace));
		await deps.store.transaction((tx) => { deliveryRepository.recordRunBase(tx, run.runId, true, update.commit); });
		return { ok: true, tree, baseCommit: update.commit, conflict, update: outcome };
	}
	await deps.store.transaction((tx) => { deliveryRepository.recordRunBase(tx, run.runId, true, head); });
	return { ok: true, tree, baseCommit: head, conflict };
}

/** The outcome of recording a Run's result: the paths of a merge it left unresolved (empty when none). */
export interface RecordedResult {
	unresolvedPaths: string[];
	/** Why the result could not be committed (a full disk, a tree removed by hand); absent when it was, or none was owed. */
	recordError?: string;
}

/** The reason a result commit failed, in one line for the Run's error (a full disk is named as such). */
export function resultRecordError(e: unknown): string {
	const text = e instanceof Error ? e.message : String(e);
	if (/ENOSPC|No space left|Out of diskspace|disk quota/i.test(text)) { return 'the disk is full: free some space, then request changes or run the task again (its work stays in its worktree)'; }
	const line = text.split('\n').map((l) => l.trim()).find((l) => l !== '') ?? 'unknown error';
	return line.length > 300 ? `${line.slice(0, 299)}…` : line;
}

/**
 * A worktree Run ended: commit what it left (once, idempotent across a Host kill -9) and record the result with its
 * changed files. Nothing for a Run in the shared folder or one whose result is recorded already.
 */
export async function recordRunResult(deps: RunResultDeps, runId: string): Promise<RecordedResult> {
	const facts = deps.store.read((r) => {
		const commits = deliveryRepository.runCommits(r, runId);
		if (commits?.inWorktree !== true || commits.resultRecordedAtUnixMs !== 0) { return undefined; }
		const run = runRepository.get(r, runId);
		const task = run ? taskRepository.get(r, run.issueId, run.taskId) : undefined;
		return run && task ? { commits, run, task } : undefined;
	});
	if (facts === undefined) { return { unresolvedPaths: [] }; }
	const treePath = resolve(deps.workspace, facts.run.executionDirectory);
	// Before the result commit (which moves only the Run's own branch): what changed outside its tree meanwhile.
	const outside = await outsideChangesOfRun({
		workspace: deps.workspace, store: deps.store, moves: deps.moves, runDir: deps.runDir, treesOf: (issueId) => deps.worktrees.treesOf(issueId),
	}, runId, deps.clock.now());
	let result: ResultCommit;
	try {
		result = await commitResult({
			treePath, title: facts.task.title, issueId: facts.run.issueId, taskId: facts.run.taskId, runId,
			identity: await workspaceIdentity(deps.workspace),
		});
	} catch (e) {
		// No result to record, but what changed outside is still the Run's to show.
		if (outside !== null && outside.length > 0) {
			await deps.store.transaction((tx) => { deliveryRepository.recordOutsideChanges(tx, runId, outside); }).catch(() => undefined);
		}
		throw e;
	}
	const files = await changedFiles(deps.workspace, facts.commits.baseCommit, result.commit);
	await deps.store.transaction((tx) => { deliveryRepository.recordRunResult(tx, runId, result.commit, files, deps.clock.now(), outside ?? []); });
	return { unresolvedPaths: result.kind === 'unresolved_merge' ? result.paths : [] };
}


/**
 * A worktree Run's result, recorded before it settles, one recording per Run at a time: the same exit arrives twice
 * (the runner's event and the supervisor's run/report) and both wait for the one recording, so neither settles (and
 * binds an auto-acceptance) before the result is recorded. A tree git cannot commit in (removed by hand, a lock left
 * by a crashed git) never keeps the Run running: it settles without a result.
 */
export class RunResultRecorder {
	readonly #inFlight = new Map<string, Promise<RecordedResult>>();

	constructor(private readonly deps: RunResultDeps, private readonly log: (line: string) => void) {}

	record(runId: string): Promise<RecordedResult> {
		const inFlight = this.#inFlight.get(runId);
		if (inFlight) { return inFlight; }
		const recording = recordRunResult(this.deps, runId).catch((e: unknown): RecordedResult => {
			this.log(`recording the result commit of run ${runId} failed (it settles failed, without one): ${(e as Error).message}`);
			return { unresolvedPaths: [], recordError: resultRecordError(e) };
		}).finally(() => { this.#inFlight.delete(runId); });
		this.#inFlight.set(runId, recording);
		return recording;
	}
}
