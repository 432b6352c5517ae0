// Whole-process timing: wall time from spawn to the child's close.
import { spawn } from 'node:child_process';

export interface ProcessSample {
	readonly ms: number;
	readonly code: number | null;
	readonly stdout: string;
	readonly stderr: string;
}

export function timeProcess(file: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<ProcessSample> {
	return new Promise((done, fail) => {
		const start = process.hrtime.bigint();
		const child = spawn(file, args, { env: options.env, cwd: options.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
		let stdout = '';
		let stderr = '';
		child.stdout.setEncoding('utf8').on('data', (chunk: string) => { stdout += chunk; });
		child.stderr.setEncoding('utf8').on('data', (chunk: string) => { stderr += chunk; });
		child.on('error', fail);
		child.on('close', (code) => done({ ms: Number(process.hrtime.bigint() - start) / 1e6, code, stdout, stderr }));
	});
}

/** Like timeProcess, but a non-zero exit is an error (a failing command must never pass as a fast one). */
export async function timeOk(what: string, file: string, args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): Promise<ProcessSample> {
	const sample = await timeProcess(file, args, options);
	if (sample.code !== 0) {
		throw new Error(`${what} failed (exit ${sample.code}): ${(sample.stdout + sample.stderr).slice(0, 600)}`);
	}
	return sample;
}

/** The environment without NODE_EXTRA_CA_CERTS (and NODE_OPTIONS), optionally with a CA bundle set again. */
export function envWithCa(base: NodeJS.ProcessEnv, caFile: string | undefined): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = { ...base };
	delete env['NODE_EXTRA_CA_CERTS'];
	delete env['NODE_OPTIONS'];
	if (caFile !== undefined) {
		env['NODE_EXTRA_CA_CERTS'] = caFile;
	}
	return env;
}
