// `npm run bench`: every benchmark in one run, printed as tables of medians and ratios and written to
// bench/RESULTS.md with the command and the machine. Never assertions on time.
import { execSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchCheckOverhead, formatCheckOverhead } from './checkOverhead.js';
import { benchCliGet, formatCliGetBench, startCliGetFixture } from './cliGet.js';
import { benchCliSmallRead, formatCliSmallRead } from './cliSmallRead.js';
import { benchCompactSnapshot, formatCompactSnapshot } from './compactSnapshot.js';
import { deliverySections } from './deliveryBench.js';
import { withLoad } from './machineLoad.js';
import { benchRestartToReady, formatRestartToReady } from './restartToReady.js';
import { benchHostMemory, formatHostMemory } from './limits/hostMemory.js';
import { benchStoreLimits, formatStoreLimits } from './limits/storeLimits.js';
import { benchStoreRecovery, formatStoreRecovery } from './limits/storeRecovery.js';
import { benchWakeLatency, formatWakeLatency } from './limits/wakeLatency.js';
import { benchPanelBrowser, formatPanelBrowser } from './panelBrowser.js';
import { benchPanelRender, formatPanelRender } from './panelRender.js';
import { benchDispatchPass, formatDispatchPass } from './dispatchPass.js';
import { benchReadySet, formatReadySet } from './readySet.js';
import { benchPeers, formatPeers } from './peers/peerBench.js';
import { benchStoreCommit, formatStoreCommitTable } from './storeCommit.js';
import { benchWorktreeSetup, formatWorktreeSetup } from './worktreeSetup.js';

function machine(): string {
	const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
	let load = '';
	try { load = ` · load at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`; } catch { /* no load average */ }
	let commit = '';
	try { commit = ` · commit ${execSync('git rev-parse --short HEAD', { encoding: 'utf8' }).trim()}`; } catch { /* not a git checkout */ }
	return `${os.cpus().length} × ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, ${os.platform()} ${os.release()}${load}${commit}`;
}

async function main(): Promise<void> {
	const startedAt = Date.now();
	const loadAtStart = os.loadavg().map((l) => l.toFixed(2)).join(' ');
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
	const readySet = formatReadySet(benchReadySet());
	console.error('bench: one dispatch pass over a real Store at 1k/10k/100k tasks …');
	const dispatch = formatDispatchPass(await benchDispatchPass());
	section('Ready/next at 1k/10k/100k tasks', 'at most 2 ms at 100k tasks.',
		`What the Host runs to start the next tasks of a manual issue: one pass of the real Dispatcher over a real Store (each issue's kept ready set, the selected rows checked again in the admitting transaction), admitting nothing:\n\n${dispatch}\n\n` +
		`The ready list as a pure computation: the core ReadyIndex (incremental; the Host keeps one per issue, src/store/taskCache.ts, read by the dispatcher and the compact \`plan issue get\`) beside \`readyTaskIds\`, the full pass \`plan issue get\` runs over an issue's tasks (at 100k tasks in one issue, loading the rows costs far more than this pass):\n\n${readySet}`);

	console.error('bench: `tutti plan issue get` whole process on a 1,000-task issue …');
	const fixture = await startCliGetFixture();
	try {
		section('`tutti plan issue get` end to end (1,000 tasks)', 'at most 100 ms median whole process, close to the floor (`node -e 0`, minimal socket client).',
			formatCliGetBench(await benchCliGet(fixture)));
	} finally {
		await fixture.stop();
	}

	console.error('bench: a small read, `tutti issue list` with 20 issues, beside `node -e 0` …');
	section('A small read: `tutti issue list` (20 issues) beside `node -e 0`', 'at most 1.5× `node -e 0`, measured side by side (no NODE_EXTRA_CA_CERTS).',
		formatCliSmallRead(await benchCliSmallRead()));

	console.error('bench: what a checkpoint costs the source agent: compact and full `plan issue get`, tokens per wake …');
	section('What a checkpoint costs the source agent: `plan issue get` compact and `--full`, tokens per wake',
		'the default `plan issue get` at most 8 KB at 1,000 tasks and flat in the graph\'s size.',
		formatCompactSnapshot(await benchCompactSnapshot({ log: (l) => console.error(`  ${l}`) })));

	await deliverySections(section, (l) => console.error(l));

	console.error('bench: what the Host adds to a check beyond its own process, on 20 checked Runs …');
	const checks = await withLoad(() => benchCheckOverhead({ log: (l) => console.error(`  ${l}`) }));
	section('What the Host adds to a check: Run settled → check started, check exited → verified recorded (20 Runs)',
		'at most 50 ms median and p90 for each.',
		`${formatCheckOverhead(checks.result)}\n\n${checks.load}`);

	console.error('bench: worktree set-up, 1 / 4 / 8 trees ready together with `npm ci`, shared and not, own filesystem and XFS …');
	section('Trees ready together: parallel set-up and shared installs (`npm ci`)',
		'the last of 8 agents starts ≤ 1.5× one tree\'s setup; on a copy-on-write filesystem the disk of 8 trees ≤ 1.5× one tree\'s; without sharing, no tree waits for another\'s setup to begin.',
		formatWorktreeSetup(await benchWorktreeSetup((l) => console.error(`  ${l}`))));

	console.error('bench: issue panel layout and render at 50/200/1,000 tasks …');
	section('Issue panel layout and render (Node, no DOM)', 'readable at 200 tasks; a status change re-renders without a new layout.',
		formatPanelRender(benchPanelRender()));

	console.error('bench: issue panel graph in Chromium at 50/200/1,000 tasks (first render, status change) …');
	let browserTable: string;
	try {
		browserTable = formatPanelBrowser(await benchPanelBrowser({ log: (l) => console.error(`  ${l}`) }));
	} catch (e) {
		browserTable = `Not measured: ${e instanceof Error ? e.message : String(e)}`;
	}
	section('Issue panel graph in a real browser (Chromium, the built webview bundle)',
		'at 1,000 tasks, first render at most 500 ms and a status change re-rendered at most 50 ms (snapshot message → painted frame).',
		`The built dist/webview bundle on a page like the panel's (same CSP, a stub of the webview API), served from 127.0.0.1 to Debian's Chromium through the VS Code harness's playwright-core; synthetic snapshots posted as the extension does. ` +
		`Up to 300 tasks dagre lays the graph out, above it the layered layout (webview/issuePanel/layeredLayout.ts); below 50 % zoom nodes are coloured blocks. The first render posts the complete snapshot, a status change the Host's delta against the snapshot the page drew (as the extension posts them); the bench checks that the patched page draws what a fresh page draws. "JS" is the panel's own \`panel-render\` measure (layout, model, VNodes, DOM); the rest is the message's clone and validation, style, layout and paint up to the next frame.\n\n${browserTable}`);

	console.error('bench: task-master-ai against tutti on the same 1,000-task graph, and the floors …');
	section('Peer CLI: task-master-ai against `tutti` (1,000-task graph, whole processes)',
		'every `tutti` read command at most 100 ms median and at most 2× the floor, i.e. tens of times faster than the peer.',
		formatPeers(await benchPeers({ log: (l) => console.error(`  ${l}`) })));

	console.error('bench: store against the limit (1 and 8 writers, export per commit, native SQLite WAL+FULL) …');
	section('Store against the limit: durable commits, 1 and 8 writers, beside export per commit and native SQLite',
		'at most 1 ms median at 100k tasks, flat in size; ready/next at most 2 ms at 100k (see the ready/next section).',
		formatStoreLimits(await benchStoreLimits({ log: (l) => console.error(`  ${l}`) })));

	console.error('bench: store memory at 100k tasks and recovery after kill -9 with a full journal …');
	section('Store memory at 100k tasks and recovery after `kill -9` with a full journal', 'recovery in seconds, nothing acknowledged lost.',
		formatStoreRecovery(await benchStoreRecovery()));

	console.error('bench: a live Host with 100k tasks: memory and plan/get …');
	section('Live Host at 100k tasks: memory and `plan/get`', 'Host memory bounded by the store image; ready/next cheap at 100k.',
		formatHostMemory(await benchHostMemory({ log: (l) => console.error(`  ${l}`) })));

	console.error('bench: wake latency over 50 settlements, and Host memory with 16 streaming Runs …');
	section('Wake latency: worker Run exit → source session\'s wake Turn', 'at most 60 ms above the floor of spawning the agent process.',
		formatWakeLatency(await benchWakeLatency({ log: (l) => console.error(`  ${l}`) })));

	console.error('bench: Host restart to ready with 0 / 4 / 16 Runs in flight …');
	const restart = await withLoad(() => benchRestartToReady({ log: (l) => console.error(`  ${l}`) }));
	section('Host restart to ready with 0 / 4 / 16 Runs in flight', 'restart with 16 Runs in flight at most 2× restart with none.',
		`${formatRestartToReady(restart.result)}\n\n${restart.load}`);

	const elapsedMin = ((Date.now() - startedAt) / 60_000).toFixed(1);
	const header = `# Benchmark results\n\nProduced by \`npm run bench\` (bench/run.ts) on ${new Date().toISOString().slice(0, 10)} in ${elapsedMin} min.\n` +
		`Machine: ${machine()}.\nLoad average at the start: ${loadAtStart}.\nShared, noisy machines: read the ratios, not single figures.\n`;
	writeFileSync(path.join(__dirname, 'RESULTS.md'), `${header}\n${sections.join('\n')}`);
	console.error('bench: wrote bench/RESULTS.md');
}

main().catch((e: unknown) => {
	console.error(e instanceof Error ? e.stack : e);
	process.exit(1);
});
