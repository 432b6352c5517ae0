// Files only this user may read: 0700 directories and 0600 files written atomically.
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DomainError } from '../core/errors.js';

/**
 * Creates `dir` with mode 0700, or checks an existing one: it must be a real directory (never follow a symlink
 * someone planted) owned by this user; a looser mode is tightened.
 */
export function ensurePrivateDirectory(dir: string): void {
	fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
	const stat = fs.lstatSync(dir);
	if (!stat.isDirectory()) {
		throw new DomainError('host_unavailable', `${dir} is not a directory`, `remove ${dir} and run \`tutti host --workspace DIR\` again`);
	}
	const uid = process.getuid?.();
	if (uid !== undefined && stat.uid !== uid) {
		throw new DomainError('host_unavailable', `${dir} belongs to another user (uid ${stat.uid})`,
			`remove ${dir} or set TMPDIR to a private directory, then run \`tutti host --workspace DIR\` again`);
	}
	if (process.platform !== 'win32' && (stat.mode & 0o777) !== 0o700) {
		fs.chmodSync(dir, 0o700);
	}
}

/** Atomic write with mode 0600: a temp file in the same directory, then rename over `file`. */
export function writePrivateFile(file: string, text: string): void {
	const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(4).toString('hex')}`);
	try {
		fs.writeFileSync(temp, text, { mode: 0o600, flag: 'wx' });
		fs.chmodSync(temp, 0o600);
		fs.renameSync(temp, file);
	} catch (error) {
		removeQuietly(temp);
		throw error;
	}
}

/** Removes a file if it exists; never throws. */
export function removeQuietly(file: string): void {
	try {
		fs.unlinkSync(file);
	} catch {
		// already gone
	}
}
