// The real headless Host resolves agent targets' workspace-dependent defaults at start: claude and codex targets
// run each task in its own worktree in a git workspace, command targets run in place; outside git, in place.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectOk, type HostHandle, runCli, startHost } from '../harness.js';

const targets = [
	{ id: 'claude', adapter: 'claude', path: '/bin/true' },
	{ id: 'codex', adapter: 'codex', path: '/bin/true' },
	{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'true'] },
	{ id: 'claude-in-place', adapter: 'claude', path: '/bin/true', isolation: 'none' },
];

describe('agent target defaults in the real Host', function () {
	this.timeout(60_000);
	let root: string;
	let host: HostHandle | undefined;
	beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'tutti-defaults-')); });
	afterEach(async () => { await host?.dispose(); host = undefined; rmSync(root, { recursive: true, force: true }); });

	async function placements(workspace: string): Promise<Record<string, string>> {
		host = await startHost({ workspace, config: { agentTargets: targets, maxParallelRuns: 2 } as never });
		const listed = expectOk<{ agentTargets: { id: string; isolation: string; onMergeConflict: string }[] }>(await runCli(host, ['agent', 'list', '--json'], { asUser: true }));
		return Object.fromEntries(listed.agentTargets.map((t) => [t.id, `${t.isolation}/${t.onMergeConflict}`]));
	}

	it('in a git workspace: claude and codex in worktrees (conflicts to the agent), command targets in place (conflicts fail)', async () => {
		const workspace = join(root, 'git-ws');
		mkdirSync(workspace);
		execFileSync('git', ['init', '-q'], { cwd: workspace });
		assert.deepEqual(await placements(workspace), {
			'claude': 'worktree/agent', 'codex': 'worktree/agent', 'sh': 'none/fail', 'claude-in-place': 'none/agent',
		});
	});

	it('in a folder that is not a git repository: everything in place', async () => {
		const workspace = join(root, 'plain-ws');
		mkdirSync(workspace);
		assert.deepEqual(await placements(workspace), {
			'claude': 'none/agent', 'codex': 'none/agent', 'sh': 'none/fail', 'claude-in-place': 'none/agent',
		});
	});
});
