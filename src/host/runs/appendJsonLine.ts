// One durable append to a JSON-lines file (a Run's message queue, a Turn's live input): the line is written and
// fsynced before the call returns, and a torn last line (a crash mid-write) is terminated first so it cannot swallow
// the new one. Only the file's last byte is read, never the whole file.
import { closeSync, fstatSync, fsyncSync, openSync, readSync, writeSync } from 'node:fs';

export function appendJsonLine(file: string, value: unknown): void {
	const fd = openSync(file, 'a+', 0o600);
	try {
		const size = fstatSync(fd).size;
		let prefix = '';
		if (size > 0) {
			const last = Buffer.alloc(1);
			readSync(fd, last, 0, 1, size - 1);
			if (last[0] !== 0x0a) { prefix = '\n'; }
		}
		writeSync(fd, `${prefix}${JSON.stringify(value)}\n`);
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}
