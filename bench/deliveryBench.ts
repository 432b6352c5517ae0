// The code-delivery and approval benches of `npm run bench`, as result sections with the machine's load beside each:
// worktree and result-commit cost per Run at 1 / 10 / 100 in flight and merge bases for 2 / 8 parents
// (delivery/worktreeRuns.ts), `tutti issue integrate` of a 50-task issue (delivery/integrateIssue.ts), the default
// `plan issue get` at 1k / 10k / 100k tasks and `issue list` (compactAtScale.ts) and the approval round trips (approvalRoundTrip.ts for
// Claude Code's `tutti mcp`, codexApprovalRoundTrip.ts for codex app-server).
// Runnable alone: `node --import tsx bench/deliveryBench.ts` (after `npm run build`) prints the sections.
import { benchApprovalRoundTrip, formatApprovalRoundTrip } from './approvalRoundTrip.js';
import { benchCodexApprovalRoundTrip, formatCodexApprovalRoundTrip } from './codexApprovalRoundTrip.js';
import { benchCompactAtScale, formatCompactAtScale } from './compactAtScale.js';
import { benchIntegrate, formatIntegrate } from './delivery/integrateIssue.js';
import { benchTreeDisk, formatTreeDisk } from './delivery/treeDisk.js';
import { benchWorktreeRuns, formatWorktreeRuns } from './delivery/worktreeRuns.js';
import { withLoad } from './machineLoad.js';

export type Section = (title: string, goal: string, table: string) => void;

export async function deliverySections(section: Section, log: (line: string) => void): Promise<void> {
	const sub = (l: string): void => log(`  ${l}`);
	log('bench: worktree and result commit per Run at 1/10/100 in flight, merge bases for 2/8 parents …');
	const worktrees = await withLoad(() => benchWorktreeRuns({ log: sub }));
	section('Worktree and result commit per Run at 1 / 10 / 100 in flight; merge base for 2 / 8 parents',
		'launch of 100 worktree Runs: total ÷ N at most 0.5× 396 ms (the figure before trees were checked out outside the serial chain), with the floor (`git worktree add` alone) beside it; cost per Run flat from 1 to 100 in flight (no O(n²)).',
		`${formatWorktreeRuns(worktrees.result)}\n\n${worktrees.load}`);

	log('bench: the disk of a tree of 1,000 / 10,000 files (the board\'s measurement) against du …');
	const disk = await withLoad(() => benchTreeDisk({ log: sub }));
	section('The disk of a tree, as the board measures it, against `du -s`', 'none set in the spec; the walk runs in the background, so it only needs to stay near du.',
		`${formatTreeDisk(disk.result)}\n\n${disk.load}`);

	log('bench: `tutti issue integrate` of a 50-task issue …');
	const integrate = await withLoad(() => benchIntegrate({ log: sub }));
	section('`tutti issue integrate` of a 50-task issue', 'none set in the spec; recorded to compare later runs against (linear in the tasks).',
		`${formatIntegrate(integrate.result)}\n\n${integrate.load}`);

	log('bench: default `plan issue get` bytes and Host time at 1k/10k/100k tasks, and issue list …');
	const compact = await withLoad(() => benchCompactAtScale({ log: sub }));
	section('Default `plan issue get` at 1,000, 10,000 and 100,000 tasks: bytes and Host time; `issue list` beside it', 'the default `plan issue get` at most 8 KB, and its Host time at 100k tasks at most 1.5× its time at 1k; `issue list` the same Host time at 1k and 100k tasks (at most 1.5×).',
		`${formatCompactAtScale(compact.result)}\n\n${compact.load}`);

	log('bench: approval round trip (tutti mcp → developer answer → the tool runs) …');
	const approvals = await withLoad(() => benchApprovalRoundTrip({ log: sub }));
	section('Approval round trip: request → developer answer → the tool runs', 'none set in the spec; recorded to compare later runs against.',
		`${formatApprovalRoundTrip(approvals.result)}\n\n${approvals.load}`);

	log('bench: approval round trip for codex app-server (the supervisor asks → developer answer → the command runs) …');
	const codexApprovals = await withLoad(() => benchCodexApprovalRoundTrip({ log: sub }));
	section('Approval round trip for codex app-server: request → developer answer → the command runs', 'none set in the spec; recorded beside the claude round trip above.',
		`${formatCodexApprovalRoundTrip(codexApprovals.result)}\n\n${codexApprovals.load}`);
}

if (require.main === module) {
	void (async () => {
		const started = Date.now();
		await deliverySections((title, goal, table) => { console.log(`## ${title}\n\nGoal: ${goal}\n\n${table}\n`); }, (l) => console.error(l));
		console.error(`bench: delivery sections in ${((Date.now() - started) / 1000).toFixed(0)} s`);
	})();
}
