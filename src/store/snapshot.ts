// Snapshot files: the exported SQLite image, written atomically (temp file → fsync → rename → fsync dir), and the
// checks that refuse a file that is not a Tutti store before anything touches it.
import { closeSync, fsyncSync, openSync, readFileSync, rmSync } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { privateFileMode } from './privateModes.js';
import { StoreError, leftUntouched } from './storeErrors.js';

/** PRAGMA application_id of every Tutti store: the bytes "Tutt". */
export const tuttiApplicationId = 0x54757474;

const sqliteMagic = Buffer.from('SQLite format 3\0', 'latin1');
const applicationIdOffset = 68;

/** The temporary sibling a file is written to before it is renamed over the real one. */
export function temporaryPathFor(path: string): string {
	return `${path}.tmp`;
}

/** The file's bytes, or undefined when it does not exist. */
export function readFileIfExists(path: string): Buffer | undefined {
	try {
		return readFileSync(path);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}
		throw e;
	}
}

/** Throws store_foreign unless the bytes are a SQLite database carrying Tutti's application_id. */
export function checkSnapshotIdentity(bytes: Uint8Array, file: string): void {
	if (bytes.length < 100 || !Buffer.from(bytes.buffer, bytes.byteOffset, sqliteMagic.length).equals(sqliteMagic)) {
		throw new StoreError('store_foreign', `${file} is not a SQLite database, so it is not a Tutti store. ${leftUntouched(file)}`, file);
	}
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const applicationId = view.getUint32(applicationIdOffset, false);
	if (applicationId !== tuttiApplicationId) {
		throw new StoreError(
			'store_foreign',
			`${file} is a SQLite database of another application (application_id ${applicationId}), not a Tutti store. ${leftUntouched(file)}`,
			file,
			{ applicationId },
		);
	}
}

/** Replaces `path` with `bytes` (mode 0600) so that a crash at any instant leaves either the old or the new file, whole. */
export async function writeFileAtomically(path: string, bytes: Uint8Array): Promise<void> {
	const tmp = temporaryPathFor(path);
	const handle = await open(tmp, 'w', privateFileMode);
	try {
		await handle.chmod(privateFileMode); // whatever the umask, and a temporary a crash left behind

		let offset = 0;
		while (offset < bytes.length) {
			const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, offset);
			offset += bytesWritten;
		}
		await handle.sync();
	} catch (e) {
		await handle.close();
		await rm(tmp, { force: true });
		throw e;
	}
	await handle.close();
	await rename(tmp, path);
	fsyncDirectory(dirname(path));
}

/** Makes a rename or create in `dir` durable. A no-op where directories cannot be fsynced (Windows). */
export function fsyncDirectory(dir: string): void {
	if (process.platform === 'win32') {
		return;
	}
	const fd = openSync(dir, 'r');
	try {
		fsyncSync(fd);
	} finally {
		closeSync(fd);
	}
}

/** Removes a temporary file a crash may have left behind (only ever our own `.tmp` siblings). */
export function removeStaleTemporary(path: string): void {
	rmSync(temporaryPathFor(path), { force: true });
}
