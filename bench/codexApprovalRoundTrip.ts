// Approval round trip for codex app-server, beside approvalRoundTrip.ts's for Claude Code: a real `tutti host`, a
// worker Run on a codex target (the pinned `codex app-server`, driven by the Run's supervisor) against the scripted
// Responses server; the model asks to run one command outside the sandbox after another (`require_escalated`), each a
// Tutti approval. The developer side lists pending approvals over the socket (approval/list every 2 ms) and allows each
// with approval/answer; the command appends its own clock to a file when it runs. Medians only; never assertions.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { codexTestArgs } from '../test/agents/codexKit.js';
import { codexBin } from '../test/agents/agentKit.js';
import type { Script } from '../test/agents/modelServer/script.js';
import { startScriptedServer } from '../test/agents/modelServer/server.js';
import { until } from './approvalRoundTrip.js';
import { startBenchHost } from './peers/hostFixture.js';
import { fmtMs, median, percentile } from './stats.js';

export interface CodexApprovalRound {
	/** The model's tool call (the scripted server answered the request with it) → the developer's list shows it pending, ms. */
	readonly visibleMs: number;
	/** The developer answers → the command has run (its own clock), ms. */
	readonly answerToRanMs: number;
}

export interface CodexApprovalBench {
	readonly rounds: CodexApprovalRound[];
	/** Task added → the first approval pending (Run, supervisor, app-server, thread, turn, first model request), ms. */
	readonly firstAskMs: number;
}

export async function benchCodexApprovalRoundTrip(options: { rounds?: number; log?: (line: string) => void } = {}): Promise<CodexApprovalBench> {
	const rounds = options.rounds ?? 15;
	const log = options.log ?? (() => undefined);
	const script: Script = {
		turns: Array.from({ length: rounds }, (_, i) => ({
			...(i > 0 ? { when: { last_user_includes: `call_${i - 1}` } } : {}),
			blocks: [{ type: 'tool' as const, name: 'exec_command', id: `call_${i}`, input: { cmd: `echo "${i} $(date +%s%N)" >> ran.log`, sandbox_permissions: 'require_escalated', justification: `round ${i}` } }],
		})),
		default: { blocks: [{ type: 'text', text: 'done' }] },
	};
	const server = await startScriptedServer({ script });
	const home = mkdtempSync(join(tmpdir(), 'tutti-bench-codex-home-'));
	const host = await startBenchHost({
		agentTargets: [{
			id: 'codex', adapter: 'codex', path: codexBin, model: 'gpt-5.5', args: [...codexTestArgs], isolation: 'none',
			env: { OPENAI_BASE_URL: `${server.url}/v1`, CODEX_HOME: home },
		}],
		maxParallelRuns: 1,
	});
	try {
		log(`${rounds} commands asked, each allowed over the socket …`);
		const added = Date.now();
		const { issueId } = await host.call<{ issueId: string }>('issue/create', { title: 'Codex approvals', autoAccept: true });
		await host.call('task/add', { issueId, taskId: 'asks', title: 'Asks to run commands', agentTargetId: 'codex' });
		const ranLog = join(host.workspace, 'ran.log');
		const ranAt = (i: number): number | undefined => {
			if (!existsSync(ranLog)) { return undefined; }
			const line = readFileSync(ranLog, 'utf8').split('\n').find((l) => l.startsWith(`${i} `));
			return line === undefined ? undefined : Number(line.split(' ')[1]) / 1e6;
		};
		const result: CodexApprovalRound[] = [];
		let firstAskMs = 0;
		for (let i = 0; i < rounds; i++) {
			const pending = await until(`approval ${i} pending`, async () => {
				const { approvals } = await host.call<{ approvals: { approvalId: string; toolUseId: string; status: string }[] }>('approval/list', {});
				return approvals.find((a) => a.toolUseId.endsWith(`/call_${i}`) && a.status === 'pending');
			}, 2);
			const visible = Date.now();
			if (i === 0) { firstAskMs = visible - added; }
			const asked = server.log.filter((r) => typeof r.served === 'number' && r.served === i).at(-1)?.atUnixMs ?? visible;
			const answering = Date.now();
			await host.call('approval/answer', { approvalId: pending.approvalId, allow: true });
			const ran = await until(`command ${i} to run`, () => ranAt(i), 2);
			result.push({ visibleMs: visible - asked, answerToRanMs: ran - answering });
		}
		return { rounds: result, firstAskMs };
	} finally {
		await host.stop();
		await server.close();
		rmSync(home, { recursive: true, force: true });
	}
}

export function formatCodexApprovalRoundTrip(r: CodexApprovalBench): string {
	const m = (f: (x: CodexApprovalRound) => number): string => `${fmtMs(median(r.rounds.map(f)))} / ${fmtMs(percentile(r.rounds.map(f), 90))}`;
	return [
		'A worker Run on a codex target (`codex app-server`, its JSON-RPC driven by the Run\'s supervisor) whose scripted model asks to run one command outside the sandbox after another; each ask becomes a Tutti approval (approval/request + approval/wait from the supervisor), listed every 2 ms and allowed with approval/answer; the command stamps its own clock. ' +
			`From the task added to the first ask pending took ${fmtMs(r.firstAskMs)} (once per Run: the Run, its supervisor, app-server, the thread, the turn, the model's first answer).`,
		'',
		'| developer answers with | model\'s tool call → pending visible (median / p90) | answer → command has run (median / p90) | both (less the developer\'s thinking) | rounds |',
		'|---|---|---|---|---|',
		`| \`approval/answer\` over the socket (what VS Code sends) | ${m((x) => x.visibleMs)} | ${m((x) => x.answerToRanMs)} | ${m((x) => x.visibleMs + x.answerToRanMs)} | ${r.rounds.length} |`,
	].join('\n');
}

if (require.main === module) {
	void (async () => {
		console.log(formatCodexApprovalRoundTrip(await benchCodexApprovalRoundTrip({ log: (l) => console.error(`  ${l}`) })));
	})();
}
