import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
	crc32, decodeFramePayload, encodeFrame, encodeFramePayload, encodeJournalHeader, frameHeaderBytes,
	journalHeaderBytes, scanJournal,
} from '../../../src/store/journal.js';
import type { JournalStatement } from '../../../src/store/journal.js';
import { JournalWriter } from '../../../src/store/journalWriter.js';
import { StoreError } from '../../../src/store/storeErrors.js';

const storeId = '00112233445566778899aabbccddeeff';

function statementsFor(seq: number): JournalStatement[] {
	return [{ sql: 'UPDATE issues SET title = ? WHERE issue_id = ?', params: [`title ${seq}`, `issue-${seq}`] }];
}

function journalImage(baseSeq: number, count: number): { bytes: Buffer; frameStarts: number[] } {
	const parts = [encodeJournalHeader(storeId, baseSeq)];
	const frameStarts: number[] = [];
	let offset = journalHeaderBytes;
	for (let i = 1; i <= count; i++) {
		const frame = encodeFrame(baseSeq + i, encodeFramePayload(statementsFor(baseSeq + i)));
		frameStarts.push(offset);
		offset += frame.length;
		parts.push(frame);
	}
	return { bytes: Buffer.concat(parts), frameStarts };
}

function expectStoreError(fn: () => unknown, code: string, pattern?: RegExp): StoreError {
	try {
		fn();
	} catch (e) {
		assert.ok(e instanceof StoreError, `expected a StoreError, got ${String(e)}`);
		assert.equal(e.code, code);
		if (pattern) {
			assert.match(e.message, pattern);
		}
		return e;
	}
	assert.fail(`expected ${code}`);
}

describe('store journal format', () => {
	it('computes the standard CRC-32 (IEEE) check value', () => {
		assert.equal(crc32(Buffer.from('123456789')), 0xcbf43926);
		assert.equal(crc32(Buffer.alloc(0)), 0);
	});

	it('round-trips statements with every parameter type', () => {
		const statements: JournalStatement[] = [
			{ sql: 'INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)', params: ['text ✓', 42, -1.5, null, new Uint8Array([0, 1, 255]), Number.MAX_SAFE_INTEGER] },
			{ sql: 'INSERT INTO t VALUES (?, ?)', params: [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY] },
			{ sql: 'INSERT INTO u VALUES (1)', params: [], failed: true },
		];
		const decoded = decodeFramePayload(encodeFramePayload(statements));
		assert.deepEqual(decoded, statements);
	});

	it('scans whole frames with consecutive sequence numbers after the base', () => {
		const { bytes } = journalImage(7, 3);
		const scan = scanJournal(bytes, 'j');
		assert.equal(scan.storeId, storeId);
		assert.equal(scan.baseSeq, 7);
		assert.deepEqual(scan.frames.map((f) => f.seq), [8, 9, 10]);
		assert.equal(scan.goodEnd, bytes.length);
		assert.equal(scan.tornBytes, 0);
		assert.deepEqual(decodeFramePayload((scan.frames[1] ?? assert.fail()).payload), statementsFor(9));
	});

	it('drops a torn tail frame cut at any byte', () => {
		const { bytes, frameStarts } = journalImage(0, 3);
		const lastStart = frameStarts[2] ?? assert.fail();
		for (let cut = lastStart + 1; cut < bytes.length; cut++) {
			const scan = scanJournal(bytes.subarray(0, cut), 'j');
			assert.deepEqual(scan.frames.map((f) => f.seq), [1, 2], `cut at ${cut}`);
			assert.equal(scan.goodEnd, lastStart);
			assert.equal(scan.tornBytes, cut - lastStart);
		}
	});

	it('drops a damaged last frame and trailing zeros as a torn tail', () => {
		const { bytes, frameStarts } = journalImage(0, 3);
		const damaged = Buffer.from(bytes);
		damaged.writeUInt8(damaged.readUInt8(damaged.length - 2) ^ 0x40, damaged.length - 2);
		assert.deepEqual(scanJournal(damaged, 'j').frames.map((f) => f.seq), [1, 2]);
		const zeros = Buffer.concat([bytes, Buffer.alloc(4096)]);
		const scan = scanJournal(zeros, 'j');
		assert.deepEqual(scan.frames.map((f) => f.seq), [1, 2, 3]);
		assert.equal(scan.goodEnd, bytes.length);
		assert.equal(frameStarts.length, 3);
	});

	it('reports corruption in the middle (a bad frame followed by good ones) instead of dropping it', () => {
		const { bytes, frameStarts } = journalImage(0, 4);
		for (const spot of [frameStarts[1]! + 4, frameStarts[1]! + 10, frameStarts[1]! + frameHeaderBytes + 3, frameStarts[1]!]) {
			const damaged = Buffer.from(bytes);
			damaged.writeUInt8(damaged.readUInt8(spot) ^ 0x01, spot);
			const e = expectStoreError(() => scanJournal(damaged, '/x/tutti.journal'), 'store_corrupt', /damaged but a whole frame follows/);
			assert.match(e.message, /\/x\/tutti\.journal/);
			assert.match(e.message, /left untouched/);
		}
	});

	it('reports a sequence gap as corruption', () => {
		const header = encodeJournalHeader(storeId, 0);
		const bytes = Buffer.concat([header, encodeFrame(1, encodeFramePayload([])), encodeFrame(3, encodeFramePayload([]))]);
		expectStoreError(() => scanJournal(bytes, 'j'), 'store_corrupt', /sequence 3/);
	});

	it('reports an unreadable header as corruption and a newer format as too new', () => {
		const { bytes } = journalImage(0, 1);
		expectStoreError(() => scanJournal(Buffer.from('not a journal at all, no sir, not even close to one'), 'j'), 'store_corrupt', /header is unreadable/);
		expectStoreError(() => scanJournal(bytes.subarray(0, 20), 'j'), 'store_corrupt', /header is unreadable/);
		const badCrc = Buffer.from(bytes);
		badCrc.writeUInt8(badCrc.readUInt8(33) ^ 0xff, 33);
		expectStoreError(() => scanJournal(badCrc, 'j'), 'store_corrupt', /header is damaged/);
		const newer = Buffer.from(bytes);
		newer.writeUInt32LE(99, 8);
		expectStoreError(() => scanJournal(newer, 'j'), 'store_too_new', /format version 99/);
	});
});

describe('JournalWriter', () => {
	let root: string;
	beforeEach(() => { root = mkdtempSync(join(tmpdir(), 'tutti-journal-test-')); });
	afterEach(() => { rmSync(root, { recursive: true, force: true }); });

	it('appends frames durably and shares one fsync among frames appended in the same tick', async () => {
		const path = join(root, 'tutti.journal');
		const writer = JournalWriter.create(path, storeId, 0);
		await Promise.all([1, 2, 3, 4, 5].map((seq) => writer.append(encodeFrame(seq, encodeFramePayload(statementsFor(seq))))));
		assert.equal(writer.syncs, 1);
		assert.equal(writer.frames, 5);
		const scan = scanJournal(readFileSync(path), path);
		assert.deepEqual(scan.frames.map((f) => f.seq), [1, 2, 3, 4, 5]);
		await writer.close();
	});

	it('rotates to a new base, carrying over the frames appended after the mark', async () => {
		const path = join(root, 'tutti.journal');
		const writer = JournalWriter.create(path, storeId, 0);
		await writer.append(encodeFrame(1, encodeFramePayload(statementsFor(1))));
		await writer.append(encodeFrame(2, encodeFramePayload(statementsFor(2))));
		const mark = writer.mark();
		const third = writer.append(encodeFrame(3, encodeFramePayload(statementsFor(3))));
		const rotation = writer.rotate(mark, 2);
		const fourth = writer.append(encodeFrame(4, encodeFramePayload(statementsFor(4))));
		await Promise.all([third, rotation, fourth]);
		await writer.whenDurable();
		const scan = scanJournal(readFileSync(path), path);
		assert.equal(scan.baseSeq, 2);
		assert.deepEqual(scan.frames.map((f) => f.seq), [3, 4]);
		assert.equal(writer.frames, 2);
		assert.equal(writer.bytes, readFileSync(path).length);
		await writer.close();
	});
});
