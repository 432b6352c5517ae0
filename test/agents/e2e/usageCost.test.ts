// End to end through the real Host and the real CLIs: what a Run used and cost is recorded. A claude Run's tokens are
// what the scripted server reported (summed over its requests) and its cost is Claude Code's own `total_cost_usd`,
// read here from the result line in the Run's raw stdout.log (not from Tutti's parse of it). A codex Run reports
// tokens only: its cost is its tokens at the price this test configures for its model, computed by hand below. The
// issue's spend is the sum of both Runs.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDto } from '../../../src/protocol/dto.js';
import { type HostHandle, issueGet, manualIssue } from '../../integration/harness.js';
import { makeTempDir, type TempDir } from '../agentKit.js';
import { type ScriptedServer, startScriptedServer } from '../modelServer/server.js';
import { claudeTarget, codexTarget, killLeftovers, latestRunId, manualTask, settledRun, startAgentHost, targetHome } from './e2eKit.js';

/** USD sums are floating point. */
function near(actual: number | null | undefined, expected: number, what: string): void {
	assert.ok(typeof actual === 'number' && Math.abs(actual - expected) < 1e-12, `${what}: expected ${expected}, got ${actual}`);
}

/** Claude Code's own figure: `total_cost_usd` of the `result` line the agent wrote to the Run's stdout. */
function claudeReportedCost(run: RunDto): number {
	const lines = readFileSync(join(run.outputDir, 'stdout.log'), 'utf8').split('\n').filter((l) => l.trim() !== '');
	const results = lines.map((l) => JSON.parse(l) as { type?: string; total_cost_usd?: unknown }).filter((o) => o.type === 'result');
	assert.equal(results.length, 1, `one result line:\n${lines.slice(-5).join('\n')}`);
	const cost = results[0]!.total_cost_usd;
	assert.ok(typeof cost === 'number' && cost > 0, `total_cost_usd: ${String(cost)}`);
	return cost;
}

describe('e2e: usage and cost of real claude and codex Runs', function () {
	this.timeout(120_000);
	let dir: TempDir;
	let host: HostHandle | undefined;
	let claudeServer: ScriptedServer;
	let codexServer: ScriptedServer;

	before(async () => {
		dir = makeTempDir('tutti-e2e-usage-');
		claudeServer = await startScriptedServer({
			script: {
				turns: [
					{
						blocks: [{ type: 'text', text: 'Checking.' }, { type: 'tool', name: 'Bash', id: 'toolu_usage', input: { command: 'echo usage', description: 'check' } }],
						usage: { input_tokens: 1500, output_tokens: 40, cache_read_input_tokens: 300, cache_creation_input_tokens: 60 },
					},
					{
						when: { last_user_includes: 'toolu_usage' }, blocks: [{ type: 'text', text: 'Done.' }],
						usage: { input_tokens: 2500, output_tokens: 70, cache_read_input_tokens: 900, cache_creation_input_tokens: 0 },
					},
				],
			},
		});
		codexServer = await startScriptedServer({
			script: {
				turns: [
					{ blocks: [{ type: 'tool', name: 'exec_command', id: 'call_usage', input: { cmd: 'echo usage' } }], responses_usage: { input_tokens: 1200, cached_tokens: 200, output_tokens: 50 } },
					{ when: { last_user_includes: 'function_call_output' }, blocks: [{ type: 'text', text: 'Done.' }], responses_usage: { input_tokens: 1800, cached_tokens: 1000, output_tokens: 30 } },
				],
			},
		});
		host = await startAgentHost([
			claudeTarget('claude-u', claudeServer.url, targetHome(dir, 'claude'), { allowedTools: ['Bash'] }),
			codexTarget('codex-u', codexServer.url, targetHome(dir, 'codex')),
		], {
			// The codex target runs gpt-5.5; this price replaces the dated default, so the cost below is this test's own.
			modelPrices: { 'gpt-5.5': { inputPerMTok: 4, outputPerMTok: 16, cacheReadPerMTok: 0.4, cacheWritePerMTok: 0 } },
		});
	});
	after(async () => {
		killLeftovers(host);
		await host?.dispose();
		await claudeServer.close();
		await codexServer.close();
		dir.remove();
	});

	it("records each Run's tokens as the model server reported them, claude's cost as Claude Code reported it and codex's by the configured price; the issue sums both", async () => {
		const h = host!;
		const issueId = await manualIssue(h, 'E2E usage and cost', true);
		await manualTask(h, 'c', 'claude-u', 'Check the usage.', issueId);
		await manualTask(h, 'x', 'codex-u', 'Check the usage.', issueId);
		const claudeRun = await settledRun(h, await latestRunId(h, issueId, 'c'));
		const codexRun = await settledRun(h, await latestRunId(h, issueId, 'x'));
		assert.equal(claudeRun.status, 'completed', JSON.stringify(claudeRun));
		assert.equal(codexRun.status, 'completed', JSON.stringify(codexRun));
		assert.equal(claudeServer.turnsUsed(), 2);
		assert.equal(codexServer.turnsUsed(), 2);

		// claude: the two responses' usage, summed (input excludes cache reads in the Messages API).
		assert.deepEqual(claudeRun.usage, { inputTokens: 4000, outputTokens: 110, cacheReadTokens: 1200, cacheWriteTokens: 60 });
		const claudeCost = claudeReportedCost(claudeRun);
		near(claudeRun.costUsd, claudeCost, "the claude Run's cost is Claude Code's total_cost_usd");

		// codex: the Responses API counts cached tokens inside input_tokens; Tutti keeps them apart, like claude's.
		// Input (1200 - 200) + (1800 - 1000) = 1800 uncached, 200 + 1000 = 1200 cache reads, 50 + 30 = 80 output.
		assert.deepEqual(codexRun.usage, { inputTokens: 1800, outputTokens: 80, cacheReadTokens: 1200, cacheWriteTokens: 0 });
		// 1800 × $4 + 80 × $16 + 1200 × $0.40 per million tokens = $0.00896.
		near(codexRun.costUsd, 0.00896, "the codex Run's cost by the configured price");

		const spend = (await issueGet(h, issueId)).spend;
		assert.deepEqual(spend.usage, { inputTokens: 5800, outputTokens: 190, cacheReadTokens: 2400, cacheWriteTokens: 60 });
		assert.equal(spend.tokens, 5800 + 190 + 2400 + 60);
		near(spend.costUsd, claudeCost + 0.00896, "the issue's spend: both Runs");
		assert.equal(spend.unpricedTurns, 0);
	});
});
