// The always-on slice of the fault campaign (`npm run reliability` runs the whole of it): a few kill -9 points of the
// mixed workload (budgets crossed, approvals answered around the kills) plus one supervisor kill and one diamond of
// worktree Runs with kills mid-Runs and mid-integrate, each approval fault once (Host killed while pending and while
// the answer is in flight, `tutti mcp` killed, the agent killed), a full disk on a real tmpfs (as
// root), and one reload with 4 live and 4 dying Runs. Real Host and CLI processes from dist/ (run `npm run build`
// first). About 45 s.
import { strict as assert } from 'node:assert';
import { approvalsCase } from '../../scripts/reliability/approvalsCase.js';
import { crashCase } from '../../scripts/reliability/crashCase.js';
import { diskCase } from '../../scripts/reliability/diskCase.js';
import type { CaseResult } from '../../scripts/reliability/kit.js';
import { restartCase } from '../../scripts/reliability/restartCase.js';
import { writersCase } from '../../scripts/reliability/writersCase.js';

function explain(result: CaseResult): string {
	return `${result.name}: ${result.failures.join('\n')}`;
}

describe('reliability (quick slice of the fault campaign)', function () {
	this.timeout(120_000);

	it('kill -9 of the Host at random points of a mixed workload, of a supervisor, and of worktree Runs and an integrate: nothing acknowledged is lost, one result commit per Run', async function () {
		const result = await crashCase({ points: 4, supervisorKills: 1, worktreeRounds: 1, seed: 6, budgetMs: 60_000 });
		assert.ok(result.passed, explain(result));
		assert.ok(result.figures.some(([label, value]) => label === 'acknowledged commands' && Number(value) > 0), 'the workload made progress');
	});

	it('approvals across faults: Host killed while pending and mid-answer, `tutti mcp` killed, the agent killed: each answered once or expired', async function () {
		const result = await approvalsCase({ rounds: 1, seed: 6, scenarios: ['host-kill-pending', 'host-kill-answer-in-flight', 'mcp-killed', 'agent-killed'] });
		assert.ok(result.passed, explain(result));
		const endings = result.figures.find(([label]) => label.startsWith('endings'))?.[1] ?? '';
		assert.match(endings, /host-kill-pending → allowed, 1 received, success/, 'the waiting MCP call got its answer from the new Host');
		assert.match(endings, /agent-killed → expired, 0 received, failure/);
		assert.match(endings, /mcp-killed → denied, 1 received, failure/, 'the resent call found the same request');
	});

	it('full disk on a real tmpfs: clear refusals, nothing acknowledged lost, the running Host resumes when space returns', async function () {
		if (process.getuid?.() !== 0) {
			this.skip(); // mounting a tmpfs needs root; `npm run reliability` reports the same
		}
		const result = await diskCase();
		assert.ok(result.passed, explain(result));
	});

	it('16 writers (8 manual issues, 8 managed plans) race one another and the dispatcher: every acknowledged write is there', async function () {
		const result = await writersCase({ manualWriters: 8, managedWriters: 8, writesPerWriter: 20, seed: 6 });
		assert.ok(result.passed, explain(result));
		assert.ok(result.figures.some(([label, value]) => label === 'accepted durable writes' && Number(value.split(' ')[0]) >= 16 * 20), 'every writer got its writes accepted');
	});

	it('a reload during 4 running and 4 dying Runs settles each one once', async function () {
		const result = await restartCase(1);
		assert.ok(result.passed, explain(result));
	});
});
