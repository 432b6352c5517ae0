// The journal format: one checksummed frame per committed transaction (written by journalWriter.ts), and the
// scan that recovery uses to tell a torn tail (dropped) from corruption (refused).
//
// File layout (little-endian):
//   header (48 bytes): "TUTTIJNL" | u32 format version | u32 crc32(bytes 16..48) | store id (16 bytes)
//                      | u64 base sequence (the snapshot sequence this journal continues) | 8 reserved bytes
//   frame:  u32 magic "TFRM" | u32 crc32(bytes 8..end) | u64 sequence | u32 payload length | payload (UTF-8 JSON)
// Frames carry consecutive sequence numbers starting at base + 1. A snapshot records the last sequence it
// contains, so recovery skips frames the snapshot already holds and never applies a frame twice.
import type { SqlValue } from './tx.js';
import { StoreError, leftUntouched } from './storeErrors.js';

export const journalFormatVersion = 1;
export const journalHeaderBytes = 48;
export const frameHeaderBytes = 20;

const headerMagic = Buffer.from('TUTTIJNL', 'latin1');
const frameMagic = 0x4d524654; // "TFRM" read as a little-endian u32
const frameMagicBytes = Buffer.from('TFRM', 'latin1');
const maxPayloadBytes = 512 * 1024 * 1024;

// ---- CRC-32 (IEEE, as zlib) ----

const crcTable = ((): Int32Array => {
	const table = new Int32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) {
			c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		}
		table[n] = c;
	}
	return table;
})();

export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
	let c = -1;
	for (let i = start; i < end; i++) {
		c = (crcTable[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8);
	}
	return (c ^ -1) >>> 0;
}

// ---- statements and frames ----

/** One statement of a committed transaction, as it will be replayed. */
export interface JournalStatement {
	readonly sql: string;
	readonly params: readonly SqlValue[];
	/** The statement threw during the transaction (and the body caught it); replay expects it to throw again. */
	readonly failed?: boolean;
}

type EncodedParam = string | number | null | { b: string } | { f: string };
type EncodedStatement = [string, EncodedParam[]] | [string, EncodedParam[], 1];

function encodeParam(value: SqlValue): EncodedParam {
	if (value instanceof Uint8Array) {
		return { b: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('base64') };
	}
	if (typeof value === 'number' && !Number.isFinite(value)) {
		return { f: String(value) };
	}
	return value;
}

function decodeParam(value: unknown): SqlValue {
	if (value === null || typeof value === 'string' || typeof value === 'number') {
		return value;
	}
	if (typeof value === 'object' && typeof (value as { b?: unknown }).b === 'string') {
		return new Uint8Array(Buffer.from((value as { b: string }).b, 'base64'));
	}
	if (typeof value === 'object' && typeof (value as { f?: unknown }).f === 'string') {
		return Number((value as { f: string }).f);
	}
	throw new Error(`unexpected parameter ${JSON.stringify(value)}`);
}

export function encodeFramePayload(statements: readonly JournalStatement[]): Buffer {
	const encoded: EncodedStatement[] = statements.map((s) => {
		const params = s.params.map(encodeParam);
		return s.failed ? [s.sql, params, 1] : [s.sql, params];
	});
	return Buffer.from(JSON.stringify(encoded), 'utf8');
}

/** Throws a plain Error on malformed payloads; the caller names the file and frame. */
export function decodeFramePayload(payload: Uint8Array): JournalStatement[] {
	const parsed: unknown = JSON.parse(Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength).toString('utf8'));
	if (!Array.isArray(parsed)) {
		throw new Error('frame payload is not a list of statements');
	}
	return parsed.map((entry: unknown): JournalStatement => {
		if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) {
			throw new Error('malformed statement in frame payload');
		}
		const params = (entry[1] as unknown[]).map(decodeParam);
		return entry[2] === 1 ? { sql: entry[0], params, failed: true } : { sql: entry[0], params };
	});
}

export function encodeFrame(seq: number, payload: Uint8Array): Buffer {
	const frame = Buffer.allocUnsafe(frameHeaderBytes + payload.length);
	frame.writeUInt32LE(frameMagic, 0);
	frame.writeBigUInt64LE(BigInt(seq), 8);
	frame.writeUInt32LE(payload.length, 16);
	frame.set(payload, frameHeaderBytes);
	frame.writeUInt32LE(crc32(frame, 8), 4);
	return frame;
}

export function encodeJournalHeader(storeId: string, baseSeq: number): Buffer {
	const header = Buffer.alloc(journalHeaderBytes);
	headerMagic.copy(header, 0);
	header.writeUInt32LE(journalFormatVersion, 8);
	Buffer.from(storeId, 'hex').copy(header, 16, 0, 16);
	header.writeBigUInt64LE(BigInt(baseSeq), 32);
	header.writeUInt32LE(crc32(header, 16), 12);
	return header;
}

// ---- scanning (recovery) ----

export interface ScannedFrame {
	readonly seq: number;
	/** Byte offset of the frame in the file. */
	readonly start: number;
	readonly end: number;
	readonly payload: Buffer;
}

export interface JournalScan {
	readonly storeId: string;
	readonly baseSeq: number;
	readonly frames: readonly ScannedFrame[];
	/** Where the last whole frame ends; bytes after it are a torn tail to drop. */
	readonly goodEnd: number;
	readonly tornBytes: number;
}

function frameAt(bytes: Buffer, start: number): ScannedFrame | undefined {
	if (bytes.length - start < frameHeaderBytes || bytes.readUInt32LE(start) !== frameMagic) {
		return undefined;
	}
	const length = bytes.readUInt32LE(start + 16);
	const end = start + frameHeaderBytes + length;
	if (length > maxPayloadBytes || end > bytes.length) {
		return undefined;
	}
	if (crc32(bytes, start + 8, end) !== bytes.readUInt32LE(start + 4)) {
		return undefined;
	}
	const seq = Number(bytes.readBigUInt64LE(start + 8));
	return { seq, start, end, payload: bytes.subarray(start + frameHeaderBytes, end) };
}

/** The offset of the first whole, checksum-valid frame at or after `from`, if any. */
function nextValidFrame(bytes: Buffer, from: number): number | undefined {
	let at = bytes.indexOf(frameMagicBytes, from);
	while (at !== -1) {
		if (frameAt(bytes, at)) {
			return at;
		}
		at = bytes.indexOf(frameMagicBytes, at + 1);
	}
	return undefined;
}

/**
 * Reads a journal image. A bad or incomplete last frame (and anything after it that is not a whole frame) is a
 * torn tail; a bad frame followed by a good one is corruption and throws store_corrupt.
 */
export function scanJournal(bytes: Buffer, file: string): JournalScan {
	const corrupt = (why: string, details: Record<string, unknown> = {}): StoreError =>
		new StoreError('store_corrupt', `The store journal ${file} is corrupt: ${why}. ${leftUntouched(file)}`, file, details);
	if (bytes.length < journalHeaderBytes || !bytes.subarray(0, headerMagic.length).equals(headerMagic)) {
		throw corrupt('its header is unreadable (not a Tutti journal)');
	}
	const version = bytes.readUInt32LE(8);
	if (version > journalFormatVersion) {
		throw new StoreError(
			'store_too_new',
			`The store journal ${file} has format version ${version}; this Tutti reads version ${journalFormatVersion}: ` +
				`it was written by a newer Tutti. ${leftUntouched(file)}`,
			file,
			{ version },
		);
	}
	if (version !== journalFormatVersion || crc32(bytes, 16, journalHeaderBytes) !== bytes.readUInt32LE(12)) {
		throw corrupt('its header is damaged (checksum or format version do not match)');
	}
	const storeId = bytes.subarray(16, 32).toString('hex');
	const baseSeq = Number(bytes.readBigUInt64LE(32));
	const frames: ScannedFrame[] = [];
	let offset = journalHeaderBytes;
	while (offset < bytes.length) {
		const frame = frameAt(bytes, offset);
		if (!frame) {
			const later = nextValidFrame(bytes, offset + 1);
			if (later !== undefined) {
				throw corrupt(`the frame at byte ${offset} is damaged but a whole frame follows at byte ${later}`, { offset, later });
			}
			break;
		}
		const expected = baseSeq + frames.length + 1;
		if (frame.seq !== expected) {
			throw corrupt(`frame sequence ${frame.seq} at byte ${offset} where ${expected} was expected`, { offset });
		}
		frames.push(frame);
		offset = frame.end;
	}
	return { storeId, baseSeq, frames, goodEnd: offset, tornBytes: bytes.length - offset };
}
