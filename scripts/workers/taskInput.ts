// What a demo worker receives from its Run: the task content on stdin, with one `params: {…}` line.
import { join } from 'node:path';

/** Reads stdin to its end (the Host closes it after writing the task content); gives up after `timeoutMs`. */
export function readStdin(timeoutMs = 3000): Promise<string> {
	return new Promise((resolve) => {
		let text = '';
		const done = (): void => {
			clearTimeout(timer);
			process.stdin.removeAllListeners();
			process.stdin.pause();
			resolve(text);
		};
		const timer = setTimeout(done, timeoutMs);
		process.stdin.setEncoding('utf8');
		process.stdin.on('data', (chunk: string) => { text += chunk; });
		process.stdin.on('end', done);
		process.stdin.on('error', done);
	});
}

/** The JSON object on the content's `params:` line, or {} when there is none. */
export function paramsOf(content: string): Record<string, unknown> {
	const match = /^params:\s*(\{.*\})\s*$/m.exec(content);
	if (!match) {
		return {};
	}
	try {
		const value: unknown = JSON.parse(match[1]!);
		return value !== null && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : {};
	} catch {
		return {};
	}
}

export function numberParam(params: Record<string, unknown>, name: string, fallback: number): number {
	const value = params[name];
	return typeof value === 'number' && Number.isFinite(value) ? value : fallback;
}

/** Where the demo's workers read and write, relative to the Run's working directory. */
export function outputDir(cwd: string): string {
	return join(cwd, 'demo-output');
}

export function corpusDir(cwd: string): string {
	return join(outputDir(cwd), 'corpus');
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
