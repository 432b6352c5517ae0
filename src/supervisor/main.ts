// Entry of dist/supervisor.js: `node supervisor.js <absolute run directory>`. Started detached by the Host's
// ProcessRunner (src/host/runs/processRunner.ts); see src/supervisor/runFiles.ts for the files it writes.
import { resolve } from 'node:path';
import { supervise } from './supervise.js';

const runDir = process.argv[2];
if (runDir === undefined || runDir === '') {
	process.stderr.write('usage: supervisor <run directory>\n');
	process.exit(2);
}
// Detached in its own session already; never let a stray hang-up end the Run's bookkeeping.
process.on('SIGHUP', () => undefined);
supervise(resolve(runDir)).then(
	(code) => process.exit(code),
	(err: unknown) => {
		process.stderr.write(`supervisor failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
		process.exit(1);
	},
);
