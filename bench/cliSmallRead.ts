// A small read as whole processes: `tutti issue list --json` on a Host with 20 issues, beside `node -e 0` and two
// minimal clients making the same request over the same socket (node:http, and a raw net socket writing HTTP/1.1
// by hand, as the CLI does). Interleaved runs, no NODE_EXTRA_CA_CERTS; medians and ratios, never assertions.
// Standalone: `npm run build && node --import tsx bench/cliSmallRead.ts`.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runOnce } from './cliGet.js';
import { cliScript, startBenchHost } from './peers/hostFixture.js';
import { fmtMs, median, percentile } from './stats.js';

export interface SmallReadRow {
	readonly name: string;
	readonly medianMs: number;
	readonly p90Ms: number;
	readonly minMs: number;
	readonly maxMs: number;
	/** Median CPU time (user + system) of the process (through python3's wait4); undefined without python3. */
	readonly cpuMs?: number;
}

export interface SmallReadResult {
	readonly issues: number;
	readonly runs: number;
	readonly rows: readonly SmallReadRow[];
	/** Per run: tutti ÷ `node -e 0` of that same round (both spawned back to back). */
	readonly pairRatios: readonly number[];
	readonly replyBytes: number;
}

/** Runs argv[1:] with stdout to /dev/null and prints `cpu <ms>` (user + system of that process) on stderr. */
const rusageScript = `import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execv(sys.argv[1], sys.argv[1:])
_, status, usage = os.wait4(pid, 0)
sys.stderr.write('cpu %.3f\\n' % ((usage.ru_utime + usage.ru_stime) * 1000))
sys.exit(0 if status == 0 else 1)
`;

function hasPython(): Promise<boolean> {
	return runOnce(['-c', 'print(1)'], process.env, 'python3').then((s) => s.code === 0, () => false);
}

const httpClientSource = `const http = require('node:http');
const body = '{}';
const req = http.request({ socketPath: process.env.TUTTI_IPC_HOOK, path: '/v1/issue/list', method: 'POST', agent: false, headers: {
	'content-type': 'application/json', 'content-length': Buffer.byteLength(body), connection: 'close', authorization: 'Bearer ' + process.env.TUTTI_SESSION_TOKEN } }, (res) => {
	const chunks = [];
	res.on('data', (c) => chunks.push(c));
	res.on('end', () => { const reply = JSON.parse(Buffer.concat(chunks).toString('utf8')); process.stdout.write(JSON.stringify(reply.result) + '\\n'); process.exitCode = reply.ok ? 0 : 1; });
});
req.end(body);
`;

const netClientSource = `const net = require('node:net');
const body = '{}';
const socket = net.connect(process.env.TUTTI_IPC_HOOK, () => socket.write('POST /v1/issue/list HTTP/1.1\\r\\nHost: tutti\\r\\nContent-Type: application/json\\r\\nContent-Length: ' + body.length + '\\r\\nConnection: close\\r\\nAuthorization: Bearer ' + process.env.TUTTI_SESSION_TOKEN + '\\r\\n\\r\\n' + body));
const chunks = [];
socket.on('data', (c) => chunks.push(c));
socket.on('end', () => { const text = Buffer.concat(chunks).toString('utf8'); const reply = JSON.parse(text.slice(text.indexOf('\\r\\n\\r\\n') + 4)); process.stdout.write(JSON.stringify(reply.result) + '\\n'); process.exitCode = reply.ok ? 0 : 1; });
`;

export async function benchCliSmallRead(options: { issues?: number; runs?: number; warmups?: number } = {}): Promise<SmallReadResult> {
	const issues = options.issues ?? 20;
	const runs = options.runs ?? 30;
	const warmups = options.warmups ?? 3;
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }] });
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-small-'));
	try {
		for (let i = 0; i < issues; i++) {
			await host.call('issue/create', { title: `Issue ${i}`, content: `What issue ${i} is about.` });
		}
		const session = await host.call<{ token: string }>('session/open', { role: 'source' });
		const env: NodeJS.ProcessEnv = { ...host.env, TUTTI_SESSION_TOKEN: session.token };
		delete env['NODE_EXTRA_CA_CERTS'];
		delete env['NODE_OPTIONS'];
		writeFileSync(join(dir, 'http-client.js'), httpClientSource);
		writeFileSync(join(dir, 'net-client.js'), netClientSource);
		const variants = [
			{ name: 'node -e 0', args: ['-e', '0'] },
			{ name: 'minimal node:http client', args: [join(dir, 'http-client.js')] },
			{ name: 'minimal net client', args: [join(dir, 'net-client.js')] },
			{ name: 'tutti issue list --json', args: [cliScript, 'issue', 'list', '--json'] },
		];
		let replyBytes = 0;
		for (let i = 0; i < warmups; i++) {
			for (const variant of variants) {
				const sample = await runOnce(variant.args, env);
				if (sample.code !== 0) { throw new Error(`${variant.name} failed (exit ${sample.code}):\n${sample.stdout}${sample.stderr}`); }
				if (variant.name.startsWith('tutti')) { replyBytes = Buffer.byteLength(sample.stdout); }
			}
		}
		const times = variants.map(() => [] as number[]);
		for (let i = 0; i < runs; i++) {
			for (const [index, variant] of variants.entries()) {
				times[index]!.push((await runOnce(variant.args, env)).ms);
			}
		}
		// CPU time does not count the time a loaded machine keeps a process waiting. Node cannot read a child's rusage;
		// when python3 is there, it runs each process and reports wait4's user + system time (microseconds).
		const cpu = variants.map(() => [] as number[]);
		if (await hasPython()) {
			for (let i = 0; i < runs; i++) {
				for (const [index, variant] of variants.entries()) {
					const sample = await runOnce(['-c', rusageScript, process.execPath, ...variant.args], env, 'python3');
					const m = /^cpu ([\d.]+)\s*$/m.exec(sample.stderr);
					if (m) { cpu[index]!.push(Number(m[1])); }
				}
			}
		}
		const rows = variants.map((v, i) => {
			const xs = times[i]!;
			const cpuMs = cpu[i]!.length > 0 ? median(cpu[i]!) : undefined;
			return { name: v.name, medianMs: median(xs), p90Ms: percentile(xs, 90), minMs: Math.min(...xs), maxMs: Math.max(...xs), ...(cpuMs !== undefined ? { cpuMs } : {}) };
		});
		const pairRatios = times[3]!.map((t, i) => t / times[0]![i]!);
		return { issues, runs, rows, pairRatios, replyBytes };
	} finally {
		await host.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

export function formatCliSmallRead(r: SmallReadResult): string {
	const node = r.rows[0]!.medianMs;
	const nodeCpu = r.rows[0]!.cpuMs;
	const cpu = (row: SmallReadRow): string => (row.cpuMs === undefined || nodeCpu === undefined ? 'n/a' : `${fmtMs(row.cpuMs)} (${(row.cpuMs / nodeCpu).toFixed(2)}×)`);
	const lines = [
		`${r.issues} issues (reply ${r.replyBytes} bytes); ${r.runs} interleaved rounds, no NODE_EXTRA_CA_CERTS. CPU time: user + system of the process (wait4), median, ÷ \`node -e 0\`'s.`, '',
		'| process | median | p90 | min–max | ÷ `node -e 0` median | CPU time |', '|---|---|---|---|---|---|',
		...r.rows.map((row) => `| ${row.name} | **${fmtMs(row.medianMs)}** | ${fmtMs(row.p90Ms)} | ${fmtMs(row.minMs)}–${fmtMs(row.maxMs)} | ${(row.medianMs / node).toFixed(2)}× | ${cpu(row)} |`),
		'', `\`tutti issue list\` ÷ \`node -e 0\`: ${(r.rows[3]!.medianMs / node).toFixed(2)}× (ratio of medians), ${median(r.pairRatios).toFixed(2)}× (median of the per-round ratios).`,
	];
	return lines.join('\n');
}

if (require.main === module) {
	benchCliSmallRead().then((r) => console.log(formatCliSmallRead(r)), (e: unknown) => {
		console.error(e);
		process.exitCode = 1;
	});
}
