// Reads a flag's value from stdin or a file (`--operations-json -`, `--operations-file PATH`), bounded by the
// control plane's request cap: an over-cap input is refused before it is sent, with the cap named.
import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { type CliError, cliError } from './cliError.js';
import { requestBodyCapBytes, requestCapText } from './client.js';
import { type PendingInput, inputLabel } from './invocation.js';

export type InputText = { ok: true; text: string } | { ok: false; error: CliError };

/** Reads a stream to its end, or stops once it passed `capBytes` (then `null`). */
export function readStreamCapped(stream: NodeJS.ReadableStream, capBytes: number): Promise<Buffer | null> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		const onData = (chunk: Buffer | string): void => {
			const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
			size += buffer.length;
			if (size > capBytes) {
				stream.off('data', onData);
				stream.pause();
				resolve(null);
				return;
			}
			chunks.push(buffer);
		};
		stream.on('data', onData);
		stream.once('end', () => resolve(Buffer.concat(chunks)));
		stream.once('error', reject);
		stream.resume();
	});
}

function overCap(input: PendingInput, bytes: string): CliError {
	return cliError('invalid_input', `${inputLabel(input)} is ${bytes}, over ${requestCapText}`,
		`send the operations in several commands (each under the cap), for example half of the tasks per \`tutti plan issue mutate\``);
}

export async function readInput(input: PendingInput, cwd: string, stdin: () => NodeJS.ReadableStream): Promise<InputText> {
	if (input.source.kind === 'stdin') {
		const buffer = await readStreamCapped(stdin(), requestBodyCapBytes);
		return buffer === null ? { ok: false, error: overCap(input, `more than ${requestBodyCapBytes} bytes`) } : { ok: true, text: buffer.toString('utf8') };
	}
	const file = resolve(cwd, input.source.path);
	try {
		const size = statSync(file).size;
		if (size > requestBodyCapBytes) {
			return { ok: false, error: overCap(input, `${size} bytes`) };
		}
		return { ok: true, text: readFileSync(file, 'utf8') };
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code ?? (error instanceof Error ? error.message : String(error));
		return { ok: false, error: cliError('invalid_input', `cannot read ${inputLabel(input)} (${code})`, `check the path (relative to ${cwd}) and that the file is readable`) };
	}
}
