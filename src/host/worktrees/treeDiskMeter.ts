// The disk each issue's worktrees use, as the board shows it: measured in the background, one issue at a time, at
// most once a minute per issue, when a read of the issue list finds the last measurement missing or old. Walking a
// big tree takes a while (`du` does the same work), so a read never waits for it: it answers the last measurement
// from the store, and a new one is written (one small commit) only when it changed, which refreshes the board.
import type { Clock } from '../../core/ports.js';
import type { Store } from '../../store/database.js';
import { deliveryRepository } from '../../store/repositories/deliveryRepository.js';
import { diskUsage } from './diskUsage.js';

export interface TreeDiskMeterDeps {
	store: Store;
	clock: Clock;
	/** The issue's worktrees that exist on disk. */
	treesOnDisk: (issueId: string) => readonly { readonly path: string }[];
	log: (line: string) => void;
	/** How old a measurement may be before a read asks for a new one (default one minute). */
	maxAgeMs?: number;
}

/** What the issue list already says of an issue's trees (null: never measured, or no tree left). */
export interface MeasuredIssue {
	readonly issueId: string;
	readonly worktreeDisk: { readonly bytes: number; readonly trees: number; readonly measuredAtUnixMs: number } | null;
}

export class TreeDiskMeter {
	readonly #deps: TreeDiskMeterDeps;
	readonly #maxAgeMs: number;
	/** When each issue was last measured (also the issues with no tree, which have no row to say so). */
	readonly #measuredAt = new Map<string, number>();
	/** Issues to measure, in the order asked (a Set: the issue list may name thousands). */
	readonly #queue = new Set<string>();
	#working: Promise<void> | null = null;
	#disposed = false;

	constructor(deps: TreeDiskMeterDeps) {
		this.#deps = deps;
		this.#maxAgeMs = deps.maxAgeMs ?? 60_000;
	}

	/** Queues a measurement of every issue whose last one is missing or older than the bound; returns at once. */
	requestStale(issues: readonly MeasuredIssue[]): void {
		if (this.#disposed) { return; }
		const now = this.#deps.clock.now();
		for (const issue of issues) {
			const last = Math.max(this.#measuredAt.get(issue.issueId) ?? 0, issue.worktreeDisk?.measuredAtUnixMs ?? 0);
			if (now - last >= this.#maxAgeMs) { this.#queue.add(issue.issueId); }
		}
		if (this.#queue.size > 0 && this.#working === null) {
			this.#working = this.#drain().finally(() => { this.#working = null; });
		}
	}

	/** Resolves once every queued measurement is written (tests, close). */
	async whenIdle(): Promise<void> {
		while (this.#working !== null) { await this.#working; }
	}

	dispose(): void {
		this.#disposed = true;
		this.#queue.clear();
	}

	async #drain(): Promise<void> {
		for (let issueId = this.#next(); issueId !== undefined && !this.#disposed; issueId = this.#next()) {
			try {
				await this.#measure(issueId);
			} catch (error) {
				this.#deps.log(`worktree disk: measuring the trees of issue ${issueId} failed: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	}

	#next(): string | undefined {
		const first = this.#queue.values().next();
		if (first.done === true) { return undefined; }
		this.#queue.delete(first.value);
		return first.value;
	}

	async #measure(issueId: string): Promise<void> {
		const trees = this.#deps.treesOnDisk(issueId);
		let bytes = 0;
		for (const tree of trees) { bytes += await diskUsage(tree.path); }
		const measuredAtUnixMs = this.#deps.clock.now();
		this.#measuredAt.set(issueId, measuredAtUnixMs);
		if (this.#disposed) { return; }
		const before = this.#deps.store.read((r) => deliveryRepository.worktreeDisk(r, issueId));
		// Unchanged (same trees, within 1% or 1 MiB): no commit, so the board is not redrawn for nothing.
		const same = before !== undefined ? before.trees === trees.length && Math.abs(before.bytes - bytes) <= Math.max(before.bytes / 100, 1024 * 1024) : trees.length === 0;
		if (same) { return; }
		await this.#deps.store.transaction((tx) => { deliveryRepository.setWorktreeDisk(tx, { issueId, bytes, trees: trees.length, measuredAtUnixMs }); });
	}
}
