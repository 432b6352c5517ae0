// Reads a slice of a Run's captured output without splitting a UTF-8 character across two reads.
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';

export interface LogSlice {
	data: string;
	/** Where the next read starts: offset + the bytes decoded into `data`. */
	nextOffset: number;
	/** The file's size when read. */
	size: number;
}

/** Upper bound of one read, whatever the caller asks for. */
export const maxLogSliceBytes = 4 * 1024 * 1024;

/**
 * The length of the longest prefix of `buf` that does not end inside a UTF-8 sequence. A trailing partial
 * sequence (the writer may be mid-character) is left for the next read; invalid bytes are not held back.
 */
export function completeUtf8Length(buf: Uint8Array): number {
	const n = buf.length;
	// Look back at most 3 bytes for the lead byte of the last sequence.
	for (let back = 1; back <= Math.min(3, n); back++) {
		const b = buf[n - back]!;
		if ((b & 0xc0) === 0x80) { continue; } // continuation byte: keep looking for the lead
		const need = b >= 0xf0 && b <= 0xf7 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
		return need > back ? n - back : n;
	}
	return n;
}

export function readLogSlice(path: string, offset: number, maxBytes: number): LogSlice {
	const start = Number.isFinite(offset) && offset > 0 ? Math.floor(offset) : 0;
	const want = Math.max(0, Math.min(Number.isFinite(maxBytes) ? Math.floor(maxBytes) : 0, maxLogSliceBytes));
	let fd: number;
	try {
		fd = openSync(path, 'r');
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') { return { data: '', nextOffset: start, size: 0 }; }
		throw e;
	}
	try {
		const size = fstatSync(fd).size;
		const length = Math.min(want, Math.max(0, size - start));
		if (length === 0) { return { data: '', nextOffset: start, size }; }
		const buf = Buffer.alloc(length);
		const read = readSync(fd, buf, 0, length, start);
		const keep = completeUtf8Length(buf.subarray(0, read));
		// A maxBytes too small for one whole character returns the raw bytes rather than nothing forever;
		// a file that ends mid-character (the writer is mid-write) returns nothing until the rest arrives.
		const used = keep > 0 ? keep : read >= want ? read : 0;
		return { data: buf.subarray(0, used).toString('utf8'), nextOffset: start + used, size };
	} finally {
		closeSync(fd);
	}
}
