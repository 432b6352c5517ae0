// `tutti plan issue get` end to end as whole processes (spawn → exit), beside its floors: `node -e 0` and a
// minimal Node client making the same request over the same socket. Each with and without
// NODE_EXTRA_CA_CERTS, which Node 20 parses at every start. Medians and ratios only, never assertions.
// Needs a running Host (its socket and a token) and the built dist/cli.js.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startBenchHost } from './peers/hostFixture.js';
import { fmtMs, median, percentile } from './stats.js';

export interface CliGetBenchOptions {
	/** The Host's socket (TUTTI_IPC_HOOK). */
	readonly socket: string;
	/** A token the Host accepts for `plan/get` on this issue (TUTTI_SESSION_TOKEN). */
	readonly token: string;
	/** A managed issue (the goal is measured on a 1,000-task issue). */
	readonly issueId: string;
	/** Default: dist/cli.js of this repository. */
	readonly cliScript?: string;
	/** Timed runs per variant (default 20), after `warmups` untimed ones (default 3). */
	readonly runs?: number;
	readonly warmups?: number;
	/** The CA bundle for the "with NODE_EXTRA_CA_CERTS" rows (default: the variable's value, else Debian's bundle). */
	readonly caCertsFile?: string;
}

export interface CliGetBenchRow {
	/** `node -e 0`, `minimal socket client` or `tutti plan issue get`. */
	readonly name: string;
	readonly withCaCerts: boolean;
	readonly medianMs: number;
	readonly p90Ms: number;
	readonly minMs: number;
	readonly maxMs: number;
	readonly runs: number;
}

export interface CliGetBenchResult {
	readonly rows: readonly CliGetBenchRow[];
	/** Per CA setting: CLI median / `node -e 0` median and CLI median / minimal client median. */
	readonly ratios: readonly { withCaCerts: boolean; cliOverNode: number; cliOverMinimalClient: number }[];
	/** Bytes of stdout of one CLI call (the snapshot's size). */
	readonly snapshotBytes: number;
}

const repoRoot = resolve(__dirname, '..');

/** The floor: one POST over the socket with node:http, printing the result as one JSON line (what the CLI does). */
const minimalClientSource = `const http = require('node:http');
const body = JSON.stringify({ issueId: process.argv[2] });
const req = http.request({ socketPath: process.env.TUTTI_IPC_HOOK, path: '/v1/plan/getCompact', method: 'POST', headers: {
	'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: 'Bearer ' + process.env.TUTTI_SESSION_TOKEN } }, (res) => {
	const chunks = [];
	res.on('data', (c) => chunks.push(c));
	res.on('end', () => { const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')); process.stdout.write(JSON.stringify(reply.result) + '\\n'); process.exitCode = reply.ok ? 0 : 1; });
});
req.end(body);
`;

interface Variant {
	name: string;
	args: string[];
}

export interface Sample {
	ms: number;
	code: number | null;
	stdout: string;
	stderr: string;
}

/** One whole process of `file` (default: this Node) with `args`, timed from spawn to close. */
export function runOnce(args: readonly string[], env: NodeJS.ProcessEnv, file: string = process.execPath): Promise<Sample> {
	return new Promise((done, fail) => {
		const start = process.hrtime.bigint();
		const child = spawn(file, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.on('error', fail);
		child.on('close', (code) => done({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, stdout, stderr }));
	});
}

function environment(options: CliGetBenchOptions, caCertsFile: string | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...process.env, TUTTI_IPC_HOOK: options.socket, TUTTI_SESSION_TOKEN: options.token };
	delete env['NODE_EXTRA_CA_CERTS'];
	delete env['NODE_OPTIONS'];
	if (caCertsFile !== undefined) {
		env['NODE_EXTRA_CA_CERTS'] = caCertsFile;
	}
	return env;
}

export async function benchCliGet(options: CliGetBenchOptions): Promise<CliGetBenchResult> {
	const cliScript = options.cliScript ?? join(repoRoot, 'dist', 'cli.js');
	if (!existsSync(cliScript)) {
		throw new Error(`${cliScript} is missing: run \`npm run build\` first`);
	}
	const runs = options.runs ?? 20;
	const warmups = options.warmups ?? 3;
	const caCandidate = options.caCertsFile ?? process.env['NODE_EXTRA_CA_CERTS'] ?? '/etc/ssl/certs/ca-certificates.crt';
	const caSettings: (string | undefined)[] = existsSync(caCandidate) ? [undefined, caCandidate] : [undefined];
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-cli-'));
	try {
		const minimalClient = join(dir, 'minimal-client.js');
		writeFileSync(minimalClient, minimalClientSource);
		const variants: Variant[] = [
			{ name: 'node -e 0', args: ['-e', '0'] },
			{ name: 'minimal socket client', args: [minimalClient, options.issueId] },
			{ name: 'tutti plan issue get', args: [cliScript, 'plan', 'issue', 'get', '--issue-id', options.issueId, '--json'] },
		];
		const rows: CliGetBenchRow[] = [];
		let snapshotBytes = 0;
		for (const ca of caSettings) {
			const env = environment(options, ca);
			for (let i = 0; i < warmups; i++) {
				for (const variant of variants) {
					const sample = await runOnce(variant.args, env);
					if (sample.code !== 0) {
						throw new Error(`${variant.name} failed (exit ${sample.code}):\n${sample.stdout}${sample.stderr}`);
					}
					if (variant.name === 'tutti plan issue get') {
						snapshotBytes = Buffer.byteLength(sample.stdout);
					}
				}
			}
			// Interleaved, so load that comes and goes on a shared machine hits every variant alike.
			const times = variants.map(() => [] as number[]);
			for (let i = 0; i < runs; i++) {
				for (const [index, variant] of variants.entries()) {
					times[index]!.push((await runOnce(variant.args, env)).ms);
				}
			}
			variants.forEach((variant, index) => {
				const xs = times[index]!;
				rows.push({ name: variant.name, withCaCerts: ca !== undefined, medianMs: median(xs), p90Ms: percentile(xs, 90), minMs: Math.min(...xs), maxMs: Math.max(...xs), runs: xs.length });
			});
		}
		const ratios = caSettings.map((ca) => {
			const of = (name: string): number => rows.find((r) => r.name === name && r.withCaCerts === (ca !== undefined))!.medianMs;
			return { withCaCerts: ca !== undefined, cliOverNode: of('tutti plan issue get') / of('node -e 0'), cliOverMinimalClient: of('tutti plan issue get') / of('minimal socket client') };
		});
		return { rows, ratios, snapshotBytes };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

export function formatCliGetBench(result: CliGetBenchResult): string {
	const lines = [`tutti plan issue get, whole process (snapshot ${result.snapshotBytes} bytes of JSON); goal: median ≤ 100 ms`];
	for (const withCaCerts of [false, true]) {
		const rows = result.rows.filter((r) => r.withCaCerts === withCaCerts);
		if (rows.length === 0) {
			continue;
		}
		lines.push(withCaCerts ? '  with NODE_EXTRA_CA_CERTS:' : '  without NODE_EXTRA_CA_CERTS:');
		for (const r of rows) {
			lines.push(`    ${r.name.padEnd(22)} median ${fmtMs(r.medianMs).padStart(9)}  p90 ${fmtMs(r.p90Ms).padStart(9)}  (${fmtMs(r.minMs)}–${fmtMs(r.maxMs)}, n=${r.runs})`);
		}
		const ratio = result.ratios.find((x) => x.withCaCerts === withCaCerts);
		if (ratio) {
			lines.push(`    CLI / node -e 0 = ${ratio.cliOverNode.toFixed(2)}×   CLI / minimal client = ${ratio.cliOverMinimalClient.toFixed(2)}×`);
		}
	}
	return lines.join('\n');
}

// ---- standalone: `npm run build && node --import tsx bench/cliGet.ts [cli.js]` (a headless Host, 1,000-task issue) ----

/** Starts `tutti host` on a fresh workspace with a managed issue of `tasks` tasks; returns what benchCliGet needs. */
export async function startCliGetFixture(options: { tasks?: number; cliScript?: string } = {}): Promise<{ socket: string; token: string; issueId: string; cliScript: string; stop(): Promise<void> }> {
	const tasks = options.tasks ?? 1000;
	const cliScript = options.cliScript ?? join(repoRoot, 'dist', 'cli.js');
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }] });
	try {
		const session = await host.call<{ token: string }>('session/open', { role: 'source' });
		const created = await host.call<{ issueId: string; checkpointId: string; graphRevision: number }>('plan/create',
			{ title: 'Bench', content: 'cli get bench', requestId: 'bench-create' }, session.token);
		const operations = Array.from({ length: tasks }, (_, i) => ({
			kind: 'add', task: { taskId: `t${i}`, title: `Task ${i}`, agentTargetId: 'sh', dependencyTaskIds: i > 0 && i % 10 !== 0 ? [`t${i - 1}`] : [] },
		}));
		await host.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: created.graphRevision,
			requestId: 'bench-mutate', operations: operations,
		}, session.token);
		return { socket: host.socket, token: session.token, issueId: created.issueId, cliScript, stop: () => host.stop() };
	} catch (error) {
		await host.stop();
		throw error;
	}
}

if (require.main === module) {
	void (async () => {
		const fixture = await startCliGetFixture({ cliScript: process.argv[2] });
		try {
			console.log(formatCliGetBench(await benchCliGet(fixture)));
		} finally {
			await fixture.stop();
		}
	})();
}
