// Work that leaves its tree (src/core/runs/outsideChanges.ts has the rule): before a worktree Run's agent starts,
// the developer's checkout and the local branches are recorded in the Run's private folder (`outside-before.json`,
// 0600; it survives a Host restart with the Run); when the Run ends, before its result is recorded, they are read
// again and compared. Two git processes each time. Who else moved a ref in the window comes from the store (the
// Runs live then) and from the developer's own Tutti commands in this Host (DeveloperGitMoves).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { type CheckoutSnapshot, outsideChanges } from '../../core/runs/outsideChanges.js';
import type { Store } from '../../store/database.js';
import { runRepository } from '../../store/repositories/runRepository.js';
import { isInsideTree, type TreeRecord } from '../worktrees/worktreePaths.js';
import { captureCheckout } from './checkoutSnapshot.js';

const baselineFileName = 'outside-before.json';

const baselineFile = z.object({
	ownRef: z.string(),
	/** Set when the checkout could not be read before the Run (the comparison then says so). */
	error: z.string().optional(),
	snapshot: z.object({
		atUnixMs: z.number(), head: z.string(), branch: z.string(),
		tracked: z.record(z.string(), z.string()), refs: z.record(z.string(), z.string()),
	}).optional(),
});

/**
 * Refs the developer's Tutti commands move in the developer's repository (integrate: the target branch and, when it
 * is checked out there, HEAD; finish --remove-worktrees: deleted task branches), recorded before git moves them.
 * In memory: after a Host restart, such a move during a Run that was live across it is listed as outside (never hidden).
 */
export class DeveloperGitMoves {
	readonly #moves: { ref: string; value: string; atUnixMs: number }[] = [];

	record(ref: string, value: string, atUnixMs: number): void {
		this.#moves.push({ ref, value, atUnixMs });
		if (this.#moves.length > 10_000) { this.#moves.splice(0, this.#moves.length - 10_000); }
	}

	since(atUnixMs: number): Map<string, Set<string>> {
		const out = new Map<string, Set<string>>();
		for (const m of this.#moves) {
			if (m.atUnixMs < atUnixMs) { continue; }
			const values = out.get(m.ref) ?? new Set<string>();
			values.add(m.value);
			out.set(m.ref, values);
		}
		return out;
	}
}

export interface OutsideWatchDeps {
	workspace: string;
	store: Store;
	moves: DeveloperGitMoves;
	runDir(runId: string): string;
	/** The recorded trees of an issue (worktreeManager.ts): which branch each Run's tree is on. */
	treesOf(issueId: string): TreeRecord[];
}

/** Reads the checkout before a Run; started beside the tree's preparation, awaited (and written) before the agent starts. */
export function readCheckoutBefore(workspace: string, nowUnixMs: number): Promise<{ snapshot: CheckoutSnapshot } | { error: string }> {
	return captureCheckout(workspace, nowUnixMs).then((snapshot) => ({ snapshot }), (e: unknown) => ({ error: (e as Error).message.split('\n')[0]! }));
}

/** Writes what readCheckoutBefore read into the Run's folder, with the Run's own branch. */
export function writeCheckoutBefore(runDir: string, ownBranch: string, read: { snapshot: CheckoutSnapshot } | { error: string }): void {
	mkdirSync(runDir, { recursive: true, mode: 0o700 });
	writeFileSync(join(runDir, baselineFileName), JSON.stringify({ ownRef: `refs/heads/${ownBranch}`, ...read }), { mode: 0o600 });
}

/** The tree branches of a Run: its own task's tree, and the one its recorded directory is in. */
function refsOfRun(trees: readonly TreeRecord[], taskId: string, executionDirectory: string): string[] {
	return trees.filter((t) => t.taskId === taskId || isInsideTree(t.path, executionDirectory)).map((t) => `refs/heads/${t.branch}`);
}

/**
 * What the Run changed outside its tree and branch since its baseline; null when it has none (launched by a Tutti
 * that did not record one). A baseline or a comparison that could not be read is listed as such, never as nothing.
 */
export async function outsideChangesOfRun(deps: OutsideWatchDeps, runId: string, nowUnixMs: number): Promise<string[] | null> {
	let text: string;
	try {
		text = readFileSync(join(deps.runDir(runId), baselineFileName), 'utf8');
	} catch {
		return null;
	}
	const parsed = baselineFile.safeParse((() => { try { return JSON.parse(text) as unknown; } catch { return undefined; } })());
	if (!parsed.success || parsed.data.snapshot === undefined) {
		return [`(not checked: the checkout could not be read before the Run${parsed.success && parsed.data.error ? `: ${parsed.data.error}` : ''})`];
	}
	const before = parsed.data.snapshot;
	let after: CheckoutSnapshot;
	try {
		after = await captureCheckout(deps.workspace, nowUnixMs);
	} catch (e) {
		return [`(not checked: the checkout could not be read after the Run: ${(e as Error).message.split('\n')[0]!})`];
	}
	const liveOtherRefs = deps.store.read((r) => new Set(runRepository.listLiveSince(r, before.atUnixMs)
		.filter((run) => run.runId !== runId)
		.flatMap((run) => refsOfRun(deps.treesOf(run.issueId), run.taskId, run.executionDirectory))));
	return outsideChanges(before, after, { ownRef: parsed.data.ownRef, liveOtherRefs, developerMoves: deps.moves.since(before.atUnixMs) });
}
