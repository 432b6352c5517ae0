import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunExit } from '../../../src/core/runs/runProcessPort.js';
import { isSafeRunId, parsePidRecord, parseRunExit, parseSupervisorSpec, readRunExit, recordExit } from '../../../src/supervisor/runFiles.js';

describe('run directory records', () => {
	it('accepts only run ids that stay inside .tutti/runs/', () => {
		for (const ok of ['run-1', 'r_2.x', 'run:abc', 'A9']) { assert.equal(isSafeRunId(ok), true, ok); }
		for (const bad of ['', '.', '..', '../x', 'a/b', 'a\\b', '.hidden', 'a..b', 'x'.repeat(201), 'a b']) {
			assert.equal(isSafeRunId(bad), false, bad);
		}
	});

	it('parses an exit record and rejects malformed ones', () => {
		const exit = { runId: 'r', clientSubmitId: 'issue-run:r', exitCode: 0, signal: null, startedAtUnixMs: 1, endedAtUnixMs: 2 };
		assert.deepEqual(parseRunExit(exit), exit);
		assert.deepEqual(parseRunExit({ ...exit, exitCode: null, spawnError: 'ENOENT' }), { ...exit, exitCode: null, spawnError: 'ENOENT' });
		for (const bad of [null, [], { ...exit, exitCode: '0' }, { ...exit, signal: 9 }, { ...exit, endedAtUnixMs: undefined }, { ...exit, spawnError: 1 }]) {
			assert.equal(parseRunExit(bad), null);
		}
	});

	it('parses pid records, with start ticks optional', () => {
		const pid = { supervisorPid: 10, agentPid: 11, agentPgid: 11, startedAtUnixMs: 5 };
		assert.deepEqual(parsePidRecord(pid), { ...pid, supervisorStartTicks: null, agentStartTicks: null });
		assert.equal(parsePidRecord({ ...pid, agentPgid: 0 }), null);
		assert.equal(parsePidRecord({ ...pid, agentPid: 1.5 }), null);
	});

	it('parses a supervisor spec and rejects a wrong version or shape', () => {
		const spec = { version: 1, runId: 'r', file: 'node', args: ['-e', '1'], shell: false, cwd: '/', env: { A: 'b' }, unsetEnv: [], hasStdin: false, launchedAtUnixMs: 1 };
		assert.deepEqual(parseSupervisorSpec(spec), spec);
		assert.equal(parseSupervisorSpec({ ...spec, version: 2 }), null);
		assert.equal(parseSupervisorSpec({ ...spec, args: [1] }), null);
		assert.equal(parseSupervisorSpec({ ...spec, env: { A: 1 } }), null);
		assert.equal(parseSupervisorSpec({ ...spec, file: '' }), null);
	});

	it('records a Run\'s end: the event line, then exit.json (visible when the Host is told), never replacing one', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-runfiles-'));
		try {
			const exit: RunExit = { runId: 'r', clientSubmitId: 'issue-run:r', exitCode: 3, signal: null, startedAtUnixMs: 1, endedAtUnixMs: 2 };
			let seenByHost: RunExit | null = null;
			const first = await recordExit(dir, { type: 'exited', exitCode: 3, signal: null, atUnixMs: 2 }, exit, async () => { seenByHost = readRunExit(dir); });
			assert.equal(first, true);
			assert.deepEqual(seenByHost, exit, 'the record is complete before the Host is told');
			assert.deepEqual(JSON.parse(readFileSync(join(dir, 'events.jsonl'), 'utf8')), { type: 'exited', exitCode: 3, signal: null, atUnixMs: 2 });
			const second = await recordExit(dir, { type: 'exited', exitCode: 0, signal: null, atUnixMs: 5 }, { ...exit, exitCode: 0 }, async () => undefined);
			assert.equal(second, false);
			assert.deepEqual(readRunExit(dir), exit, 'the first record stays');
			assert.deepEqual(readdirSync(dir).sort(), ['events.jsonl', 'exit.json'], 'no temporary file is left');
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
