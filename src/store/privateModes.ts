// The store holds task text, prompts and agent output: `.tutti/` is 0700 and the database, its journal and the lease
// are 0600, whatever the umask. New files are created that way; an existing store (made by an older Tutti, or
// copied in) is tightened when it is opened. Only regular files and directories are touched: a symlink planted in
// a file's place is never followed here (opening it refuses it as not a Tutti store).
import { chmodSync, lstatSync } from 'node:fs';
import { StoreError } from './storeErrors.js';

export const privateFileMode = 0o600;
export const privateDirectoryMode = 0o700;

/** Sets `path`'s mode to `mode` if it is a real file (or directory) with any group/other bit set; a missing path is fine. */
export function tightenMode(path: string, mode: number): void {
	if (process.platform === 'win32') { return; }
	let stat;
	try {
		stat = lstatSync(path);
	} catch (e) {
		if ((e as NodeJS.ErrnoException).code === 'ENOENT') { return; }
		throw e;
	}
	if (stat.isSymbolicLink() || (!stat.isFile() && !stat.isDirectory())) { return; }
	if ((stat.mode & 0o777) === mode) { return; }
	try {
		chmodSync(path, mode);
	} catch (e) {
		throw new StoreError('store_io',
			`${path} holds the store's task text and must be private (mode 0${mode.toString(8)}), but it could not be changed: ${(e as Error).message}. ` +
			`Make it yours and run \`chmod 0${mode.toString(8)} ${path}\`, then start the Host again.`, path);
	}
}
