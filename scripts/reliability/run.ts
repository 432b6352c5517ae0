// `npm run reliability`: the bounded fault campaign of issue 6 (crash, disk, concurrency, bad input, restart) against
// real Host processes (`node dist/cli.js host`), real CLI processes and real command targets. It stops by itself
// (each case is bounded; the crash case has a time budget) and writes test/reliability/RESULTS.md with the command,
// the machine and the figures. Exit code 1 when any case found a violation.
//
//   npm run reliability                      the whole campaign (the crash case, 1,000 kill points, < 25 minutes on an idle 2-core machine)
//   npm run reliability -- --quick           a few points per case (a smoke run of the campaign itself)
//   npm run reliability -- --only crash,disk --seed 42
//   npm run reliability -- --only crash --crash-points 20 --no-write   fewer Host kill points (the rest as usual)
//   npm run reliability -- --only crash --crash-budget-min 60   let the kill points run longer than 22 minutes (a loaded machine)
import { execSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { requireDist } from '../../test/integration/harness.js';
import { approvalsCase } from './approvalsCase.js';
import { badInputCase } from './badInputCase.js';
import { concurrencyCase } from './concurrencyCase.js';
import { crashCase } from './crashCase.js';
import { diskCase } from './diskCase.js';
import type { CaseResult } from './kit.js';
import { restartCase } from './restartCase.js';
import { writersCase } from './writersCase.js';

interface Args {
	quick: boolean;
	only: Set<string> | undefined;
	seed: number;
	write: boolean;
	/** Host kill points of the crash case (default: 1,000, 6 with --quick). */
	crashPoints: number | undefined;
	/** Minutes the crash case's kill points may take before it stops starting new ones (default 22). */
	crashBudgetMin: number;
}

function parseArgs(argv: string[]): Args {
	const args: Args = { quick: false, only: undefined, seed: Date.now() % 1_000_000, write: true, crashPoints: undefined, crashBudgetMin: 22 };
	for (let i = 0; i < argv.length; i++) {
		const a = argv[i];
		if (a === '--quick') {
			args.quick = true;
		} else if (a === '--only') {
			args.only = new Set((argv[++i] ?? '').split(','));
		} else if (a === '--seed') {
			args.seed = Number(argv[++i]);
		} else if (a === '--crash-points') {
			args.crashPoints = Number(argv[++i]);
		} else if (a === '--crash-budget-min') {
			args.crashBudgetMin = Number(argv[++i]);
		} else if (a === '--no-write') {
			args.write = false;
		} else {
			throw new Error(`unknown argument ${a} (use --quick, --only crash,disk,concurrency,writers,badInput,restart,approvals, --seed N, --crash-points N, --crash-budget-min N, --no-write)`);
		}
	}
	return args;
}

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	let commit = '';
	try {
		commit = ` · commit ${execSync('git rev-parse --short HEAD', { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim()}`;
	} catch {
		// not a git checkout
	}
	return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}${commit}`;
}

const load = (): string => os.loadavg().map((l) => l.toFixed(1)).join(' ');

/** CPU seconds of this process and of its children it has reaped (the Hosts, the CLI calls, the agents they started
 * while alive; not the supervisors and agents a killed Host left behind), from /proc; undefined off Linux. */
function cpuSeconds(): number | undefined {
	try {
		const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
		// utime stime cutime cstime: fields 14-17 of stat(5), i.e. 11-14 after the command name.
		return fields.slice(11, 15).reduce((n, f) => n + Number(f), 0) / 100;
	} catch {
		return undefined;
	}
}

async function main(): Promise<void> {
	const args = parseArgs(process.argv.slice(2));
	requireDist();
	const t0 = Date.now();
	const loadBefore = load();
	const wanted = (name: string): boolean => args.only === undefined || args.only.has(name);
	const results: CaseResult[] = [];
	const runCase = async (name: string, fn: () => Promise<CaseResult>): Promise<void> => {
		if (!wanted(name)) {
			return;
		}
		console.error(`reliability: ${name} …`);
		const started = Date.now();
		const cpuBefore = cpuSeconds();
		const loadAtStart = load();
		try {
			const r = await fn();
			r.durationMs = Date.now() - started;
			const cpuAfter = cpuSeconds();
			if (cpuBefore !== undefined && cpuAfter !== undefined) {
				r.figure('CPU time (this runner and the processes it reaped: Hosts, CLI calls) / load average at the start, at the end',
					`${(cpuAfter - cpuBefore).toFixed(0)} s / ${loadAtStart}, ${load()}`);
			}
			results.push(r);
			console.error(`reliability: ${name} ${r.passed ? 'passed' : `FAILED (${r.failures.length})`} in ${(r.durationMs / 1000).toFixed(0)} s`);
		} catch (error) {
			const { CaseResult: Result } = await import('./kit.js');
			const r = new Result(name);
			r.fail(`the case itself failed: ${(error as Error).stack ?? String(error)}`.slice(0, 2000));
			r.durationMs = Date.now() - started;
			results.push(r);
		}
	};
	const q = args.quick;
	await runCase('disk', () => diskCase());
	await runCase('badInput', () => badInputCase({ cliRuns: q ? 20 : 120, operationsRuns: q ? 50 : 400, webviewRuns: q ? 200 : 2000, seed: args.seed }));
	await runCase('concurrency', () => concurrencyCase({ sessions: 16, callsPerSession: q ? 40 : 500, seed: args.seed }));
	await runCase('writers', () => writersCase({ manualWriters: 8, managedWriters: 8, writesPerWriter: q ? 30 : 500, seed: args.seed }));
	await runCase('restart', () => restartCase(q ? 1 : 3));
	await runCase('approvals', () => approvalsCase({ rounds: q ? 1 : 5, seed: args.seed }));
	await runCase('crash', () => crashCase({
		points: args.crashPoints ?? (q ? 6 : 1000), supervisorKills: q ? 2 : 16, worktreeRounds: q ? 1 : 4, seed: args.seed,
		// The kill points stop by themselves; the supervisor kills, the worktree rounds and the final checks follow (~2 minutes).
		budgetMs: args.crashBudgetMin * 60_000,
	}));

	const totalMs = Date.now() - t0;
	const command = `npm run reliability${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;
	const lines: string[] = [
		'# Reliability results (fault campaign)',
		'',
		`Produced by \`${command}\` (scripts/reliability/run.ts) on ${new Date().toISOString().replace('T', ' ').slice(0, 16)} UTC, seed ${args.seed}.`,
		`Machine: ${machine()}; load average ${loadBefore} at the start, ${load()} at the end (shared machine).`,
		`Total: ${(totalMs / 1000).toFixed(0)} s. Verdict: ${results.every((r) => r.passed) ? '**all cases passed**' : '**violations found** (listed per case)'}.`,
		'',
		'Everything runs against real processes: the Host is `node dist/cli.js host`, reads that check the store go through',
		'`node dist/cli.js` (`issue list`, `issue get`, `plan issue get`, `run list`, `run get`) and never open the database;',
		'the bulk of each workload goes through a minimal client on the Host\'s Unix socket (the request the CLI makes).',
		'Agents are `command` targets (`node -e …` and the gated worker of the conformance suite).',
		'',
	];
	for (const r of results) {
		lines.push(`## ${r.name} — ${r.passed ? 'passed' : 'FAILED'} (${(r.durationMs / 1000).toFixed(0)} s)`, '');
		lines.push('| figure | value |', '|---|---|');
		for (const [label, value] of r.figures) {
			lines.push(`| ${label.replace(/\|/g, '\\|')} | ${value.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`);
		}
		lines.push('');
		for (const note of r.notes) {
			lines.push(`- ${note}`);
		}
		if (r.failures.length > 0) {
			lines.push('', 'Violations:', '');
			for (const f of r.failures) {
				lines.push(`- ${f.replace(/\n/g, ' ').slice(0, 600)}`);
			}
		}
		lines.push('');
	}
	const text = `${lines.join('\n').trimEnd()}\n`;
	console.log(text);
	if (args.write) {
		const file = path.join(__dirname, '..', '..', 'test', 'reliability', 'RESULTS.md');
		writeFileSync(file, text);
		console.error(`reliability: wrote ${path.relative(process.cwd(), file)}`);
	}
	process.exit(results.every((r) => r.passed) ? 0 : 1);
}

main().catch((error: unknown) => {
	console.error(error instanceof Error ? error.stack : error);
	process.exit(1);
});
