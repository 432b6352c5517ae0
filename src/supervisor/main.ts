// Entry of dist/supervisor.js, started detached by the Host's ProcessRunner (src/host/runs/processRunner.ts); see
// src/supervisor/runFiles.ts for the files it writes.
//   `node supervisor.js <absolute run directory>`  supervises that Run;
//   `node supervisor.js --spare`                   a spare started ahead of need: it waits, already booted, for one
//                                                  run directory on stdin, then supervises that Run exactly like the
//                                                  first form (end of stdin without one: exits, nothing done).
import { appendFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { supervise } from './supervise.js';
import { runFile } from './runFiles.js';

// Detached in its own session already; never let a stray hang-up end the Run's bookkeeping.
process.on('SIGHUP', () => undefined);

const arg = process.argv[2];
if (arg === undefined || arg === '') {
	process.stderr.write('usage: supervisor <run directory> | supervisor --spare\n');
	process.exit(2);
} else if (arg === '--spare') {
	awaitAssignment();
} else {
	run(resolve(arg), (text) => process.stderr.write(text));
}

function run(runDir: string, report: (text: string) => void): void {
	supervise(runDir).then(
		(code) => process.exit(code),
		(err: unknown) => {
			report(`supervisor failed: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
			process.exit(1);
		},
	);
}

/** Reads one line (the run directory) from stdin, lets go of the Host's pipe, and supervises that Run. */
function awaitAssignment(): void {
	let text = '';
	const onData = (chunk: string): void => {
		text += chunk;
		const newline = text.indexOf('\n');
		if (newline < 0) { return; }
		process.stdin.off('data', onData);
		process.stdin.off('end', onEnd);
		process.stdin.destroy();
		const runDir = resolve(text.slice(0, newline));
		process.chdir(runDir);
		// Its stdout and stderr are not the Run's supervisor.log (a spare has no Run when it starts): failures go there by hand.
		const log = (line: string): void => { try { appendFileSync(runFile(runDir, 'supervisorLog'), line, { mode: 0o600 }); } catch { /* nowhere left to say it */ } };
		process.on('uncaughtException', (err) => { log(`supervisor failed: ${err.stack ?? err.message}\n`); process.exit(1); });
		run(runDir, log);
	};
	const onEnd = (): void => { process.exit(0); };
	process.stdin.setEncoding('utf8').on('data', onData).on('end', onEnd);
}
