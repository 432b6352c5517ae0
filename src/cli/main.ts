// Entry of dist/cli.js (`tutti`). Keep imports light: this runs for every agent command.
import { runCli } from './runCli.js';

process.stdout.on('error', () => { /* a closed pipe (`| head`) is not our failure */ });
runCli(process.argv.slice(2), {
	env: process.env,
	cwd: process.cwd(),
	stdout: (text) => { process.stdout.write(text); },
	stderr: (text) => { process.stderr.write(text); },
}).then((code) => {
	process.exitCode = code;
}, (error: unknown) => {
	process.stderr.write(`tutti: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
	process.exitCode = 1;
});
