// What the Host adds to a check beyond the check's own process, read from what the Host records (never from this
// bench's own clock): Run settled (the verification's start, written in the settlement's transaction) → the check's
// process started (its result's start, taken as the Host spawns it), and the check's process exited (its result's end,
// when the Host saw it close) → verified recorded (the verification's completion, written in the transaction that
// records the answer and settles the task). The Host's services run in this process over a real Store and a real git
// repository with worktree Runs; the agents are scripted (the test harness's RunProcessPort), the check is a real
// process (`node -e "process.exit(0)"`). Runs one at a time, so each figure is one Run's path, not a queue.
// Runnable alone: `node --import tsx bench/checkOverhead.ts`.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verificationRepository } from '../src/store/repositories/verificationRepository.js';
import { commandTarget, FakeClock, ServiceHarness } from '../test/unit/host/services/serviceHarness.js';
import { commitProject } from './delivery/gitFixture.js';
import { median, percentile } from './stats.js';

/** The Host's recorded times are the wall clock's (the harness's default clock stands still). */
class WallClock extends FakeClock {
	override now(): number { return Date.now(); }
}

export interface CheckOverhead {
	readonly runs: number;
	/** Per Run: Run settled → check process started, ms (recorded). */
	readonly settledToStartMs: number[];
	/** Per Run: check process exited → verified recorded, ms (recorded). */
	readonly exitedToRecordedMs: number[];
	/** Per Run: the check's own process (its recorded duration), ms, for scale. */
	readonly checkMs: number[];
}

export async function benchCheckOverhead(options: { runs?: number; warmup?: number; log?: (line: string) => void } = {}): Promise<CheckOverhead> {
	const runs = options.runs ?? 20;
	const warmup = options.warmup ?? 2;
	const h = await ServiceHarness.open({
		clock: new WallClock(),
		config: {
			agentTargets: [commandTarget('agent', { isolation: 'worktree' })],
			checks: [{ name: 'exit0', argv: [process.execPath, '-e', 'process.exit(0)'] }],
		},
	});
	const out: CheckOverhead = { runs, settledToStartMs: [], exitedToRecordedMs: [], checkMs: [] };
	try {
		commitProject(h.workspace, 200);
		const { issueId } = await h.call('issue/create', { title: 'Checked Runs', autoAccept: true });
		for (let i = 0; i < warmup + runs; i++) {
			const taskId = `t${i}`;
			await h.call('task/add', { issueId, taskId, title: `Task ${i}`, agentTargetId: 'agent' });
			await h.idle();
			const launch = h.runs.launches.find((l) => l.taskId === taskId);
			if (!launch) { throw new Error(`task ${taskId} did not launch (logs: ${h.logs.slice(-3).join(' | ')})`); }
			writeFileSync(join(launch.cwd, `out-${taskId}.txt`), `work of ${taskId}\n`);
			h.runs.exit(launch.runId, { exitCode: 0 });
			await h.idle();
			const v = h.store.read((r) => verificationRepository.latestOfRun(r, launch.runId));
			const result = v ? h.store.read((r) => verificationRepository.results(r, v.verificationId))[0] : undefined;
			if (!v || v.status !== 'passed' || !result) {
				throw new Error(`task ${taskId}: its check did not pass (${v?.status ?? 'no verification'}; logs: ${h.logs.slice(-3).join(' | ')})`);
			}
			if (i < warmup) { continue; }
			out.settledToStartMs.push(result.startedAtUnixMs - v.createdAtUnixMs);
			out.exitedToRecordedMs.push(v.completedAtUnixMs - result.endedAtUnixMs);
			out.checkMs.push(result.durationMs);
		}
		options.log?.(`${runs} checked Runs measured (after ${warmup} to warm up)`);
		return out;
	} finally {
		await h.close();
	}
}

export function formatCheckOverhead(o: CheckOverhead): string {
	// Recorded in whole milliseconds, so printed as such.
	const ms = (x: number): string => `${Math.round(x)} ms`;
	const row = (what: string, xs: readonly number[], goal: string): string =>
		`| ${what} | ${ms(median(xs))} | ${ms(percentile(xs, 90))} | ${ms(Math.max(...xs))} | ${goal} |`;
	return [
		`${o.runs} worktree Runs one after another, each with one check (\`node -e "process.exit(0)"\`); times as the Host recorded them (ms resolution):`,
		'',
		'| interval | median | p90 | max | goal |',
		'|---|---|---|---|---|',
		row('Run settled → check process started', o.settledToStartMs, '≤ 50 ms'),
		row('check process exited → verified recorded', o.exitedToRecordedMs, '≤ 50 ms'),
		row('the check\'s own process (for scale)', o.checkMs, '—'),
		'',
		'The first interval is the settlement\'s commit, the pass that picks the verification up, the look that the tree is at the result commit (one `git rev-parse`) and the durable mark of the check in flight; '
		+ 'the second ends when the answer is written in its transaction (its durable commit follows: see the durable commit section).',
	].join('\n');
}

if (require.main === module) {
	void benchCheckOverhead({ log: (l) => console.error(l) }).then((o) => { console.log(formatCheckOverhead(o)); });
}
