// Approval round trip: an agent asks about a tool call, the developer answers, the tool
// runs. Through the real path: a real `tutti host`; a worker Run whose agent (a command target) acts as Claude Code
// does: it starts `tutti mcp` (the real bundle, over stdio with the official MCP client) and calls its permission
// tool `approve`, which asks the Host (approval/request) and waits (approval/wait). The developer side lists pending
// approvals over the socket (approval/list, polled every 2 ms; VS Code reads on its own schedule, see the text) and
// answers with approval/answer (what VS Code sends) or with `tutti approval answer --as-user` (a whole process).
// Both sides stamp the same clock (performance.timeOrigin + performance.now()). Medians only; never assertions.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliScript, startBenchHost } from './peers/hostFixture.js';
import { fmtMs, median, percentile } from './stats.js';

const now = (): number => performance.timeOrigin + performance.now();

/** The agent: `tutti mcp` started once (as claude starts it), then `rounds` tool calls one after another. */
const agentSource = (rounds: number): string => `const now = () => performance.timeOrigin + performance.now();
const fs = require('node:fs');
const { execFileSync } = require('node:child_process');
const { Client } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/client/index.js'))});
const { StdioClientTransport } = require(${JSON.stringify(require.resolve('@modelcontextprotocol/sdk/client/stdio.js'))});
const log = (e) => fs.appendFileSync(process.env.APPROVAL_LOG, JSON.stringify(e) + '\\n');
(async () => {
	const client = new Client({ name: 'bench-agent', version: '1' });
	await client.connect(new StdioClientTransport({ command: process.execPath, args: [${JSON.stringify(cliScript)}, 'mcp'], env: process.env, stderr: 'inherit' }));
	log({ ev: 'ready', t: now() });
	for (let i = 0; i < ${rounds}; i++) {
		const requested = now();
		log({ ev: 'request', i, t: requested });
		const result = await client.callTool({ name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'echo ' + i }, tool_use_id: 'toolu_' + i } });
		const answered = now();
		const answer = JSON.parse(result.content[0].text);
		// The tool runs (what claude does with an allow): here a small command.
		if (answer.behavior === 'allow') { execFileSync('echo', [String(i)]); }
		log({ ev: 'answered', i, t: answered, ran: now(), behavior: answer.behavior });
	}
	await client.close();
})().catch((e) => { log({ ev: 'error', error: String(e && e.stack || e) }); process.exit(1); });
`;

interface LogEntry { ev: string; i?: number; t?: number; ran?: number; behavior?: string; error?: string }

export interface ApprovalRound {
	readonly via: 'socket' | 'cli';
	/** Agent's tool call → the developer's list shows it pending, ms. */
	readonly visibleMs: number;
	/** The developer starts answering → the tool call returns in the agent, ms. */
	readonly answerToReturnMs: number;
	/** … → the tool has run. */
	readonly answerToRanMs: number;
}

export interface ApprovalBench {
	readonly rounds: ApprovalRound[];
	readonly mcpStartMs: number;
}

function readLog(file: string): LogEntry[] {
	return existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as LogEntry) : [];
}

/** Polls `probe` every `everyMs` until it gives a value (bounded). */
export async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, everyMs: number, timeoutMs = 60_000): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	for (;;) {
		const value = await probe();
		if (value !== undefined) { return value; }
		if (Date.now() > deadline) { throw new Error(`timed out waiting for ${what}`); }
		await new Promise((r) => setTimeout(r, everyMs));
	}
}

export async function benchApprovalRoundTrip(options: { socketRounds?: number; cliRounds?: number; log?: (line: string) => void } = {}): Promise<ApprovalBench> {
	const socketRounds = options.socketRounds ?? 20;
	const cliRounds = options.cliRounds ?? 5;
	const total = socketRounds + cliRounds;
	const log = options.log ?? (() => undefined);
	const dir = mkdtempSync(join(tmpdir(), 'tutti-bench-approval-'));
	const approvalLog = join(dir, 'approval.log');
	const script = join(dir, 'agent.js');
	writeFileSync(script, agentSource(total));
	const host = await startBenchHost({ agentTargets: [{ id: 'agent', adapter: 'command', argv: [process.execPath, script], env: { APPROVAL_LOG: approvalLog } }], maxParallelRuns: 1 });
	try {
		const launched = now();
		const { issueId } = await host.call<{ issueId: string }>('issue/create', { title: 'Approvals', autoAccept: true });
		await host.call('task/add', { issueId, taskId: 'asks', title: 'Asks about tool calls', agentTargetId: 'agent' });
		const ready = await until('the agent and its tutti mcp', () => readLog(approvalLog).find((e) => e.ev === 'ready' || e.ev === 'error'), 20);
		if (ready.ev === 'error') { throw new Error(`the agent failed: ${ready.error}`); }
		log(`${socketRounds} rounds answered over the socket, ${cliRounds} with \`tutti approval answer\` …`);
		const rounds: ApprovalRound[] = [];
		for (let i = 0; i < total; i++) {
			const via = i < socketRounds ? 'socket' : 'cli';
			const pending = await until(`approval ${i} pending`, async () => {
				const { approvals } = await host.call<{ approvals: { approvalId: string; toolUseId: string; status: string }[] }>('approval/list', {});
				return approvals.find((a) => a.toolUseId === `toolu_${i}` && a.status === 'pending');
			}, 2);
			const visible = now();
			const answering = now();
			if (via === 'socket') {
				await host.call('approval/answer', { approvalId: pending.approvalId, allow: true });
			} else {
				await new Promise<void>((done, fail) => {
					const child = spawn(process.execPath, [cliScript, 'approval', 'answer', '--approval-id', pending.approvalId, '--allow', '--as-user', '--json'],
						{ cwd: host.workspace, env: host.env, stdio: 'ignore' });
					child.on('error', fail);
					child.on('close', (code) => { if (code === 0) { done(); } else { fail(new Error(`tutti approval answer exited ${code}`)); } });
				});
			}
			const answered = await until(`the agent's tool call ${i} to return`, () => readLog(approvalLog).find((e) => (e.ev === 'answered' && e.i === i) || e.ev === 'error'), 2);
			if (answered.ev === 'error') { throw new Error(`the agent failed: ${answered.error}`); }
			const requested = readLog(approvalLog).find((e) => e.ev === 'request' && e.i === i)!;
			rounds.push({ via, visibleMs: visible - requested.t!, answerToReturnMs: answered.t! - answering, answerToRanMs: answered.ran! - answering });
		}
		return { rounds, mcpStartMs: ready.t! - launched };
	} finally {
		await host.stop();
		rmSync(dir, { recursive: true, force: true });
	}
}

export function formatApprovalRoundTrip(r: ApprovalBench): string {
	const row = (via: 'socket' | 'cli', label: string): string => {
		const rs = r.rounds.filter((x) => x.via === via);
		const m = (f: (x: ApprovalRound) => number): string => `${fmtMs(median(rs.map(f)))} / ${fmtMs(percentile(rs.map(f), 90))}`;
		return `| ${label} | ${m((x) => x.visibleMs)} | ${m((x) => x.answerToReturnMs)} | ${m((x) => x.answerToRanMs)} | ${m((x) => x.visibleMs + x.answerToRanMs)} | ${rs.length} |`;
	};
	return [
		'A worker Run whose agent starts `tutti mcp` once (as Claude Code does) and calls its `approve` tool for one Bash call after another; the developer side sees each request by listing pending approvals (approval/list every 2 ms) and allows it. ' +
			`Starting the Run, the agent and its \`tutti mcp\` took ${fmtMs(r.mcpStartMs)} (once per Run).`,
		'',
		'| developer answers with | tool call → pending visible (median / p90) | answer → tool call returns (median / p90) | answer → tool has run (median / p90) | both (request → ran, less the developer\'s thinking) | rounds |',
		'|---|---|---|---|---|---|',
		row('socket', '`approval/answer` over the socket (what VS Code sends)'),
		row('cli', '`tutti approval answer --allow --as-user` (a whole process)'),
		'',
		'In VS Code the developer sees the request when the window next reads the Host: within 100 ms of the store commit in the window that owns the store, within 500 ms in a viewer window (src/extension/changes/storeChangeSource.ts), on top of "pending visible" here.',
	].join('\n');
}

if (require.main === module) {
	void (async () => {
		console.log(formatApprovalRoundTrip(await benchApprovalRoundTrip({ log: (l) => console.error(`  ${l}`) })));
	})();
}
