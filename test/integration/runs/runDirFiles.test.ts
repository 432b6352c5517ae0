import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureCliShim } from '../../../src/host/runs/cliShim.js';
import { readLogSlice } from '../../../src/host/runs/readLogSlice.js';
import { writeJsonAtomic, writeJsonExclusive } from '../../../src/supervisor/runFiles.js';
import { makeTempDir } from './runTestKit.js';

describe('run directory files (real files)', () => {
	let tmp: ReturnType<typeof makeTempDir>;
	beforeEach(() => { tmp = makeTempDir('tutti-rundir-'); });
	afterEach(() => tmp.remove());

	it('writes JSON atomically (0600, no temp file left) and exclusively never replaces a record', () => {
		const path = join(tmp.path, 'exit.json');
		assert.equal(writeJsonExclusive(path, { n: 1 }), true);
		assert.equal(writeJsonExclusive(path, { n: 2 }), false);
		assert.deepEqual(JSON.parse(readFileSync(path, 'utf8')), { n: 1 });
		writeJsonAtomic(join(tmp.path, 'pid.json'), { p: 1 });
		assert.equal(statSync(join(tmp.path, 'pid.json')).mode & 0o777, 0o600);
		assert.deepEqual(readdirSync(tmp.path).sort(), ['exit.json', 'pid.json']);
	});

	it('writes a tutti shim that runs the CLI with the given Node, even from an awkward path', () => {
		const dir = join(tmp.path, "it's a dir $HOME");
		mkdirSync(dir);
		const cli = join(dir, 'cli.js');
		writeFileSync(cli, 'console.log(JSON.stringify(process.argv.slice(2)))');
		const bin = ensureCliShim(join(dir, 'bin'), process.execPath, [], cli);
		assert.equal(statSync(join(bin, 'tutti')).mode & 0o777, 0o755);
		const out = execFileSync(join(bin, 'tutti'), ['a', 'b c', '$x']).toString();
		assert.deepEqual(JSON.parse(out), ['a', 'b c', '$x']);
	});

	it('reads log slices: missing file, past the end, and a character split by the writer', () => {
		const path = join(tmp.path, 'stdout.log');
		assert.deepEqual(readLogSlice(path, 0, 100), { data: '', nextOffset: 0, size: 0 });
		const violin = Buffer.from('ok🎻', 'utf8');
		writeFileSync(path, violin.subarray(0, 4));
		assert.deepEqual(readLogSlice(path, 0, 100), { data: 'ok', nextOffset: 2, size: 4 });
		writeFileSync(path, violin);
		assert.deepEqual(readLogSlice(path, 2, 100), { data: '🎻', nextOffset: 6, size: 6 });
		assert.deepEqual(readLogSlice(path, 50, 100), { data: '', nextOffset: 50, size: 6 });
	});
});
