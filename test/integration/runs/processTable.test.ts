// Liveness checks against the real process table: zombies are gone, reused pids are not the original.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { processGroupIsAlive, processIsAlive, processStartTicks, signalTargetExists } from '../../../src/supervisor/processTable.js';
import { waitFor } from '../../waitFor.js';

const hasProcfs = ((): boolean => { try { return readFileSync('/proc/self/stat').length > 0; } catch { return false; } })();

describe('process table checks (real processes)', () => {
	it('knows this process, and tells a different start time (a reused pid) from the original', () => {
		assert.equal(processIsAlive(process.pid, null), true);
		const ticks = processStartTicks(process.pid);
		assert.equal(processIsAlive(process.pid, ticks), true);
		if (hasProcfs) { assert.equal(processIsAlive(process.pid, 'not-the-same-start'), false); }
		assert.equal(signalTargetExists(0), false, 'pid 0 would address our own group');
		assert.equal(signalTargetExists(-1), false, 'pid -1 would address every process');
	});

	(hasProcfs ? it : it.skip)('counts a zombie as gone, and a group as alive only through live members', async () => {
		// sh leaves its finished `sleep 0` unreaped while it blocks in `read`: a zombie with a live parent.
		const sh = spawn('sh', ['-c', 'sleep 0 & echo $!; read x; wait'], { detached: true, stdio: ['pipe', 'pipe', 'ignore'] });
		try {
			let out = '';
			sh.stdout.on('data', (d: Buffer) => { out += d.toString(); });
			const zombie = await waitFor(() => (out.includes('\n') ? Number(out.trim()) : undefined), { what: 'the background pid' });
			await waitFor(() => (/\) Z /.test(readFileSync(`/proc/${zombie}/stat`, 'utf8')) ? true : undefined), { what: 'the zombie state' });
			assert.equal(signalTargetExists(zombie), true, 'signal 0 still reaches a zombie');
			assert.equal(processIsAlive(zombie, null), false);
			assert.equal(processGroupIsAlive(sh.pid!), true, 'sh itself is alive in the group');
		} finally {
			sh.stdin.end('\n');
			await new Promise((r) => sh.once('exit', r));
		}
		assert.equal(processGroupIsAlive(sh.pid!), false);
	});
});
