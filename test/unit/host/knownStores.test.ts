// The machine-local record of known stores: where it lives, what counts as known, and its modes.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fingerprintConfig } from '../../../src/host/configFingerprint.js';
import { isKnownStore, isKnownWorkspace, knownStoreConfig, knownStoresDir, recordKnownStore } from '../../../src/host/knownStores.js';

describe('host/knownStores', () => {
	let dir: string;
	beforeEach(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tutti-known-')); });
	afterEach(() => { fs.rmSync(dir, { recursive: true, force: true }); });

	it('lives under $XDG_STATE_HOME when it is absolute, else ~/.local/state', () => {
		assert.equal(knownStoresDir({ XDG_STATE_HOME: '/s', HOME: '/h' }, 'linux'), '/s/tutti/known-stores');
		assert.equal(knownStoresDir({ XDG_STATE_HOME: 'relative', HOME: '/h' }, 'linux'), '/h/.local/state/tutti/known-stores');
		assert.equal(knownStoresDir({ HOME: '/h' }, 'darwin'), '/h/.local/state/tutti/known-stores');
	});

	it('knows a store only by its id at the path it was recorded at', () => {
		const record = path.join(dir, 'state', 'tutti', 'known-stores');
		assert.equal(isKnownWorkspace(record, '/ws/a'), false);
		recordKnownStore(record, '/ws/a', 'id-1', 1);
		assert.equal(isKnownStore(record, '/ws/a', 'id-1'), true);
		assert.equal(isKnownStore(record, '/ws/a', 'id-2'), false, 'another store in the same folder');
		assert.equal(isKnownStore(record, '/ws/b', 'id-1'), false, 'the same store copied elsewhere');
		assert.equal(isKnownWorkspace(record, '/ws/a'), true);
		assert.equal(isKnownWorkspace(record, '/ws/b'), false);
		recordKnownStore(record, '/ws/a', 'id-1', 2); // idempotent
		assert.equal(isKnownStore(record, '/ws/a', 'id-1'), true);
	});

	it('keeps the fingerprint of the config its Host last started with, replaced by a new one, kept by a record without one', () => {
		const record = path.join(dir, 'state', 'tutti', 'known-stores');
		recordKnownStore(record, '/ws/a', 'id-1', 1);
		assert.equal(knownStoreConfig(record, '/ws/a', 'id-1'), undefined, 'none recorded yet');
		const first = fingerprintConfig(Buffer.from('{"maxParallelRuns":2}'));
		recordKnownStore(record, '/ws/a', 'id-1', 2, first);
		assert.deepEqual(knownStoreConfig(record, '/ws/a', 'id-1'), first);
		recordKnownStore(record, '/ws/a', 'id-1', 3); // a start with VS Code's settings: the file's fingerprint stays
		assert.deepEqual(knownStoreConfig(record, '/ws/a', 'id-1'), first);
		const second = fingerprintConfig(undefined);
		recordKnownStore(record, '/ws/a', 'id-1', 4, second);
		assert.deepEqual(knownStoreConfig(record, '/ws/a', 'id-1'), second);
		assert.equal(knownStoreConfig(record, '/ws/b', 'id-1'), undefined, 'only at the path it was recorded at');
		assert.equal(isKnownStore(record, '/ws/a', 'id-1'), true);
	});

	it('keeps its directories 0700 and its files 0600', () => {
		const record = path.join(dir, 'state', 'tutti', 'known-stores');
		recordKnownStore(record, '/ws/a', '../../escape', 1);
		const files: string[] = [];
		const walk = (d: string): void => {
			assert.equal(fs.statSync(d).mode & 0o777, 0o700, d);
			for (const name of fs.readdirSync(d)) {
				const p = path.join(d, name);
				if (fs.statSync(p).isDirectory()) { walk(p); } else { files.push(p); assert.equal(fs.statSync(p).mode & 0o777, 0o600, p); }
			}
		};
		walk(path.join(dir, 'state', 'tutti'));
		assert.equal(files.length, 1, 'one file, inside the record whatever the store id says');
		assert.ok(files[0]!.startsWith(record + path.sep));
	});
});
