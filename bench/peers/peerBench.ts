// task-master-ai against `tutti` on the same generated 1,000-task graph, whole processes, pair by pair (list,
// next/ready, show, set-status, add-dependency); then the floors: `node -e 0` and a minimal Node client making the
// same request over the same socket, with and without NODE_EXTRA_CA_CERTS, and the CLI's overhead above them.
// Each mutation does new work in every run (a new task, a new dependency pair). Medians and ratios, never asserts.
// Run alone: npm run build && node --import tsx bench/peers/peerBench.ts
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userTokenPathForSocket } from '../../src/ipc/endpointPaths.js';
import { fmtMs, median } from '../stats.js';
import { ensureBenchPackages } from './benchPackages.js';
import { cliScript } from './hostFixture.js';
import { generatePeerGraph, taskMasterTasksJson, tuttiTaskId } from './peerGraph.js';
import { startTuttiPeerFixture, type TuttiPeerFixture } from './tuttiPeerFixture.js';
import { envWithCa, timeOk } from './wholeProcess.js';

export interface PeerBenchOptions {
	/** Timed pairs per command against task-master (default 3; each task-master call takes seconds). */
	readonly peerRuns?: number;
	/** Timed runs per floor row (default 10). */
	readonly floorRuns?: number;
	readonly log?: (line: string) => void;
}

export interface PeerRow {
	readonly command: string;
	readonly taskMaster: string;
	readonly tutti: string;
	readonly taskMasterMs: number[];
	readonly tuttiMs: number[];
}

export interface FloorRow {
	readonly command: string;
	readonly withCaCerts: boolean;
	readonly minimalClientMs: number[];
	readonly tuttiMs: number[];
}

export interface PeerBenchResult {
	/** Set when task-master could not be installed or run: the exact reason. */
	readonly peerError?: string;
	readonly taskMasterVersion?: string;
	readonly peers: readonly PeerRow[];
	readonly nodeFloorMs: ReadonlyMap<boolean, number[]>;
	readonly floors: readonly FloorRow[];
	readonly caFile?: string;
}

/** One request over the socket with node:http (user credential read from the file, as `--as-user` does); prints the result. */
const minimalClientSource = `const http = require('node:http');
const token = require('node:fs').readFileSync(process.env.TUTTI_USER_TOKEN_FILE, 'utf8').trim();
const body = process.argv[3];
const req = http.request({ socketPath: process.env.TUTTI_IPC_HOOK, path: '/v1/' + process.argv[2], method: 'POST', headers: {
	'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer ' + token } }, (res) => {
	const chunks = [];
	res.on('data', (c) => chunks.push(c));
	res.on('end', () => { const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')); process.stdout.write(JSON.stringify(reply.result) + '\\n'); process.exitCode = reply.ok ? 0 : 1; });
});
req.end(body);
`;

interface TuttiCall { args: string[]; method: string; params: unknown }

interface CommandPair {
	name: string;
	taskMasterLabel: string;
	tuttiLabel: string;
	taskMaster(k: number): string[];
	tutti(k: number): TuttiCall;
}

function commandPairs(fixture: TuttiPeerFixture): CommandPair[] {
	const manual = fixture.manualIssueId;
	const read = (args: string[], method: string, issueId: string): TuttiCall => ({ args: [...args, '--issue-id', issueId, '--as-user', '--json'], method, params: { issueId } });
	return [
		{ name: 'list', taskMasterLabel: 'list --json', tuttiLabel: 'issue get (all 1,000 tasks)', taskMaster: () => ['list', '--json'], tutti: () => read(['issue', 'get'], 'issue/get', manual) },
		{ name: 'next / ready', taskMasterLabel: 'next --format json', tuttiLabel: 'plan issue get (readyTaskIds)', taskMaster: () => ['next', '--format', 'json'], tutti: () => read(['plan', 'issue', 'get'], 'plan/get', fixture.managedIssueId) },
		{ name: 'show', taskMasterLabel: 'show 500 --json', tuttiLabel: 'issue get (no one-task read command)', taskMaster: () => ['show', '500', '--json'], tutti: () => read(['issue', 'get'], 'issue/get', manual) },
		{
			name: 'set-status', taskMasterLabel: 'set-status --id=K --status=in-progress', tuttiLabel: 'issue task update --title (Runs own the status)',
			taskMaster: (k) => ['set-status', `--id=${100 + ((k * 7) % 850)}`, '--status=in-progress'],
			tutti: (k) => {
				const taskId = tuttiTaskId(100 + ((k * 7) % 850));
				const title = `Task retitled ${k}`;
				return { args: ['issue', 'task', 'update', '--issue-id', manual, '--task-id', taskId, '--title', title, '--as-user', '--json'], method: 'task/update', params: { issueId: manual, taskId, title } };
			},
		},
		{
			name: 'add-dependency', taskMasterLabel: 'add-dependency --id=A --depends-on=A-60', tuttiLabel: 'issue task update --depends-on (list + A-60)',
			taskMaster: (k) => ['add-dependency', `--id=${200 + k}`, `--depends-on=${140 + k}`],
			tutti: (k) => {
				const a = 200 + k;
				const deps = [...(fixture.deps.get(a) ?? []), a - 60];
				fixture.deps.set(a, deps);
				const dependencyTaskIds = deps.map(tuttiTaskId);
				return {
					args: ['issue', 'task', 'update', '--issue-id', manual, '--task-id', tuttiTaskId(a), ...dependencyTaskIds.flatMap((d) => ['--depends-on', d]), '--as-user', '--json'],
					method: 'task/update', params: { issueId: manual, taskId: tuttiTaskId(a), dependencyTaskIds },
				};
			},
		},
	];
}

async function setUpTaskMaster(bin: string, dir: string, graphJson: string, env: NodeJS.ProcessEnv): Promise<string> {
	const init = await timeOk('task-master init -y', bin, ['init', '-y'], { env, cwd: dir }).catch((e: unknown) => e as Error);
	if (init instanceof Error) {
		mkdirSync(join(dir, '.taskmaster'), { recursive: true }); // init is a convenience; the commands only need the files
	}
	mkdirSync(join(dir, '.taskmaster', 'tasks'), { recursive: true });
	writeFileSync(join(dir, '.taskmaster', 'tasks', 'tasks.json'), graphJson);
	return (await timeOk('task-master --version', bin, ['--version'], { env, cwd: dir })).stdout.trim();
}

export async function benchPeers(options: PeerBenchOptions = {}): Promise<PeerBenchResult> {
	const log = options.log ?? ((): void => undefined);
	if (!existsSync(cliScript)) {
		throw new Error(`${cliScript} is missing: run \`npm run build\` first`);
	}
	const packages = ensureBenchPackages(log);
	const graph = generatePeerGraph(1000);
	const work = mkdtempSync(join(tmpdir(), 'tutti-bench-peers-'));
	log('starting a Host with the 1,000-task graph (manual and managed issue) …');
	const fixture = await startTuttiPeerFixture(graph);
	try {
		const node = process.execPath;
		const plainEnv = envWithCa(fixture.host.env, undefined);
		const pairs = commandPairs(fixture);
		let tuttiK = 0;
		const runTutti = async (pair: CommandPair, env: NodeJS.ProcessEnv): Promise<number> => (await timeOk(`tutti ${pair.tuttiLabel}`, node, [cliScript, ...pair.tutti(tuttiK++).args], { env })).ms;

		const peers: PeerRow[] = [];
		let peerError: string | undefined;
		let taskMasterVersion: string | undefined;
		if ('error' in packages.taskMaster) {
			peerError = packages.taskMaster.error;
		} else {
			const bin = packages.taskMaster.bin;
			const tmDir = join(work, 'task-master');
			mkdirSync(tmDir);
			const tmEnv = { ...plainEnv, TASKMASTER_TELEMETRY: 'false' };
			try {
				taskMasterVersion = await setUpTaskMaster(bin, tmDir, taskMasterTasksJson(graph), tmEnv);
				const runs = options.peerRuns ?? 3;
				let tmK = 0;
				const times = pairs.map(() => ({ tm: [] as number[], tutti: [] as number[] }));
				for (const pair of pairs) { await runTutti(pair, plainEnv); } // warm-up (task-master's was --version)
				for (let r = 0; r < runs; r++) {
					for (const [i, pair] of pairs.entries()) {
						log(`  run ${r + 1}/${runs}: task-master ${pair.taskMasterLabel}`);
						times[i]!.tm.push((await timeOk(`task-master ${pair.taskMasterLabel}`, bin, pair.taskMaster(tmK++), { env: tmEnv, cwd: tmDir })).ms);
						times[i]!.tutti.push(await runTutti(pair, plainEnv));
					}
				}
				pairs.forEach((pair, i) => peers.push({ command: pair.name, taskMaster: pair.taskMasterLabel, tutti: pair.tuttiLabel, taskMasterMs: times[i]!.tm, tuttiMs: times[i]!.tutti }));
			} catch (error) {
				peerError = `task-master ran but failed: ${(error as Error).message}`;
			}
		}

		log('floors: node -e 0 and a minimal socket client, with and without NODE_EXTRA_CA_CERTS …');
		const minimalClient = join(work, 'minimal-client.js');
		writeFileSync(minimalClient, minimalClientSource);
		const caCandidate = process.env['NODE_EXTRA_CA_CERTS'] ?? '/etc/ssl/certs/ca-certificates.crt';
		const caSettings = existsSync(caCandidate) ? [undefined, caCandidate] : [undefined];
		const floors: FloorRow[] = [];
		const nodeFloorMs = new Map<boolean, number[]>();
		const runs = options.floorRuns ?? 10;
		for (const ca of caSettings) {
			const env = { ...envWithCa(fixture.host.env, ca), TUTTI_USER_TOKEN_FILE: userTokenPathForSocket(fixture.host.socket) };
			const nodeMs: number[] = [];
			const rows = pairs.map((pair) => ({ command: pair.name, withCaCerts: ca !== undefined, minimalClientMs: [] as number[], tuttiMs: [] as number[] }));
			for (let r = -2; r < runs; r++) {
				const ms = (await timeOk('node -e 0', node, ['-e', '0'], { env })).ms;
				if (r >= 0) { nodeMs.push(ms); }
				for (const [i, pair] of pairs.entries()) {
					const call = pair.tutti(tuttiK++);
					const minimal = (await timeOk(`minimal client ${call.method}`, node, [minimalClient, call.method, JSON.stringify(call.params)], { env })).ms;
					const cli = await runTutti(pair, env);
					if (r >= 0) {
						rows[i]!.minimalClientMs.push(minimal);
						rows[i]!.tuttiMs.push(cli);
					}
				}
			}
			nodeFloorMs.set(ca !== undefined, nodeMs);
			floors.push(...rows);
		}
		return { peerError, taskMasterVersion, peers, nodeFloorMs, floors, caFile: caSettings[1] };
	} finally {
		await fixture.host.stop();
		rmSync(work, { recursive: true, force: true });
	}
}

function signedMs(ms: number): string {
	return ms < 0 ? `−${fmtMs(-ms)}` : fmtMs(ms);
}

function range(xs: readonly number[]): string {
	return `${fmtMs(Math.min(...xs))}–${fmtMs(Math.max(...xs))}`;
}

export function formatPeers(result: PeerBenchResult): string {
	const lines: string[] = [];
	if (result.peerError !== undefined) {
		lines.push(`**task-master-ai was not measured**: ${result.peerError}`, '');
	} else {
		lines.push(`task-master-ai ${result.taskMasterVersion ?? '?'} (installed outside the repository) and \`tutti\` (dist/cli.js), both without NODE_EXTRA_CA_CERTS, same generated 1,000-task graph; pairs interleaved; each mutation does new work in every run.`, '');
		lines.push('| command | task-master | tutti | task-master median (min–max) | tutti median (min–max) | ratio of medians | median of pair ratios |', '|---|---|---|---|---|---|---|');
		for (const r of result.peers) {
			const pairRatios = r.taskMasterMs.map((tm, i) => tm / r.tuttiMs[i]!);
			lines.push(`| ${r.command} | \`${r.taskMaster}\` | \`${r.tutti}\` | ${fmtMs(median(r.taskMasterMs))} (${range(r.taskMasterMs)}, n=${r.taskMasterMs.length}) | ${fmtMs(median(r.tuttiMs))} (${range(r.tuttiMs)}) | ${(median(r.taskMasterMs) / median(r.tuttiMs)).toFixed(0)}× | ${median(pairRatios).toFixed(0)}× |`);
		}
		lines.push('', 'Tutti has no command that reads one task, so `show` is paired with `issue get`; Tutti task status changes only through Runs and reviews, so `set-status` is paired with the developer\'s one-task update.');
	}
	lines.push('', '**Floors and the CLI\'s overhead above them** (minimal client = one request with node:http over the same socket, same method and parameters, printing the result):', '');
	lines.push('| command | NODE_EXTRA_CA_CERTS | node -e 0 | minimal client | tutti | tutti − minimal client | tutti ÷ node -e 0 | tutti ÷ minimal client |', '|---|---|---|---|---|---|---|---|');
	for (const f of result.floors) {
		const nodeMs = median(result.nodeFloorMs.get(f.withCaCerts) ?? []);
		const minimal = median(f.minimalClientMs);
		const cli = median(f.tuttiMs);
		lines.push(`| ${f.command} | ${f.withCaCerts ? 'set' : 'unset'} | ${fmtMs(nodeMs)} | ${fmtMs(minimal)} | ${fmtMs(cli)} (n=${f.tuttiMs.length}) | ${signedMs(cli - minimal)} | ${(cli / nodeMs).toFixed(2)}× | ${(cli / minimal).toFixed(2)}× |`);
	}
	if (result.caFile !== undefined) {
		const off = median(result.nodeFloorMs.get(false) ?? []);
		const on = median(result.nodeFloorMs.get(true) ?? []);
		lines.push('', `NODE_EXTRA_CA_CERTS=${result.caFile} costs ${fmtMs(on - off)} per Node start here (node -e 0: ${fmtMs(off)} → ${fmtMs(on)}).`);
	}
	return lines.join('\n');
}

if (require.main === module) {
	benchPeers({ log: (l) => console.error(l) }).then((r) => console.log(formatPeers(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
