// The main job end to end: `node dist/demo.js` runs a real managed orchestration headless and exits 0: its report is
// checked, each task shows reported / verified / accepted, the issue is Done only after integrating, and its trees go.
import { strict as assert } from 'node:assert';
import { spawn } from 'node:child_process';
import { demoJs, requireDist } from '../harness.js';

describe('the headless demo', function () {
	it('orchestrates 6+ command tasks with one rework to a completed execution', async function () {
		this.timeout(120_000);
		requireDist();
		const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
		for (const name of Object.keys(env)) {
			if (name.startsWith('TUTTI_')) {
				delete env[name];
			}
		}
		const { code, stdout, stderr } = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
			const child = spawn(process.execPath, [demoJs], { env, stdio: ['ignore', 'pipe', 'pipe'] });
			let out = '';
			let err = '';
			child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
			child.stderr.setEncoding('utf8').on('data', (c: string) => { err += c; });
			child.on('error', reject);
			child.on('close', (c) => resolve({ code: c, stdout: out, stderr: err }));
		});
		const transcript = `stdout:\n${stdout}\nstderr:\n${stderr}`;
		assert.equal(code, 0, transcript);
		assert.match(stdout, /Demo passed/, transcript);
		assert.match(stdout, /✗ failed\s+verify/, transcript);
		assert.match(stdout, /↻ rework verify → verify-fixed/, transcript);
		assert.match(stdout, /◆ checkpoint all_tasks_terminal/, transcript);
		assert.match(stdout, /superseded by verify-fixed/, transcript);
		for (const task of ['generate', 'wordcount', 'letters', 'checksum', 'verify-fixed', 'index', 'report']) {
			assert.match(stdout, new RegExp(`^\\s+${task}\\s+completed\\s+\\S+s\\s+Completed in `, 'm'), `${task} completed\n${transcript}`);
		}
		assert.match(stdout, /# Corpus report/, transcript);
		// The report's output is verified, and every reported success shows all three facts.
		assert.match(stdout, /^\s+report\s+completed[^\n]*\n\s+verified: Checks passed at [0-9a-f]{7} · accepted: Accepted automatically at [0-9a-f]{7} \(checks passed\)$/m, transcript);
		assert.match(stdout, /^\s+generate\s+completed[^\n]*\n\s+verified: No checks: none are configured for this task · accepted: Accepted automatically at [0-9a-f]{7} \(no checks configured\)$/m, transcript);
		// Done only after integrating; then its trees go.
		assert.match(stdout, /before integrating: Needs you: ready to integrate \(delivery: ready_to_integrate\)/, transcript);
		assert.match(stdout, /tutti issue integrate: 7 tasks into main \([^)]*\) — Checks passed at [0-9a-f]{7} \(1 check\)/, transcript);
		assert.match(stdout, /after integrating: Done · integrated into main \(delivery: integrated\)/, transcript);
		assert.match(stdout, /tutti worktree prune: Removed 7 worktrees and 7 merged branches of 1 finished issue, freeing [\d.]+ [kM]?B\./, transcript);
	});
});
