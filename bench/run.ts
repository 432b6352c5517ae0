// `npm run bench`: every benchmark in one run, printed as tables of medians and ratios and written to
// bench/RESULTS.md with the command and the machine. Never assertions on time.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchCliGet, formatCliGetBench, startCliGetFixture } from './cliGet.js';
import { benchPanelRender, formatPanelRender } from './panelRender.js';
import { benchReadySet, formatReadySet } from './readySet.js';
import { benchStoreCommit, formatStoreCommitTable } from './storeCommit.js';

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	let load = '';
	try { load = ` · load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`; } catch { /* no load average */ }
	let commit = '';
	try { commit = ` · commit ${execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim()}`; } catch { /* not a git checkout */ }
	return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}${load}${commit}`;
}

async function main(): Promise<void> {
	const sections: string[] = [];
	const section = (title: string, goal: string, table: string): void => {
		const text = `## ${title}\n\nGoal: ${goal}\n\n${table}\n`;
		console.log(`\n${text}`);
		sections.push(text);
	};

	console.error('bench: durable store commits at 1k/10k/100k tasks …');
	section('Durable commit of a one-task update', 'at most 1 ms median, flat in size; beside whole-database export per commit.',
		formatStoreCommitTable(await benchStoreCommit({ log: (l) => console.error(`  ${l}`) })));

	console.error('bench: ready set at 1k/10k/100k tasks …');
	section('Ready-set computation (next 50 ready tasks)', 'at most 2 ms at 100k tasks.', formatReadySet(benchReadySet()));

	console.error('bench: `tutti plan issue get` whole process on a 1,000-task issue …');
	const fixture = await startCliGetFixture();
	try {
		section('`tutti plan issue get` end to end (1,000 tasks)', 'at most 100 ms median whole process, close to the floor (`node -e 0`, minimal socket client).',
			formatCliGetBench(await benchCliGet(fixture)));
	} finally {
		await fixture.stop();
	}

	console.error('bench: issue panel layout and render at 50/200/1,000 tasks …');
	section('Issue panel layout and render (Node, no DOM)', 'readable at 200 tasks; a status change re-renders without a new layout.',
		formatPanelRender(benchPanelRender()));

	const header = `# Benchmark results\n\nProduced by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)}.\nMachine: ${machine()}.\nShared, noisy machines: read the ratios, not single figures.\n`;
	writeFileSync(path.join(__dirname, 'RESULTS.md'), `${header}\n${sections.join('\n')}`);
	console.error('bench: wrote bench/RESULTS.md');
}

main().catch((e: unknown) => {
	console.error(e instanceof Error ? e.stack : e);
	process.exit(1);
});
