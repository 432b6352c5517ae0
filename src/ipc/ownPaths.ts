// Before a client reads a discovery record or a credential, or sends a request to a socket, it checks that the path
// is this user's own: owned by this uid, writable by nobody else, and no symbolic link where a file is expected.
// Otherwise another user of the machine could plant a discovery record (or a symlink to this user's credential) in a
// directory of theirs and receive the request and the credential. The one place the CLI, the extension's client
// and the supervisor check it (node:fs only). Windows (named pipes, ACLs) is not checked here.
import * as fs from 'node:fs';
import { dirname } from 'node:path';

/** A path a client refuses to use; the message names the path and what is wrong with it. */
export class UntrustedPathError extends Error {
	readonly code = 'EUNTRUSTED';

	constructor(readonly path: string, readonly problem: string) {
		super(`refusing ${path}: ${problem}`);
		this.name = 'UntrustedPathError';
	}
}

export function isUntrustedPathError(error: unknown): error is UntrustedPathError {
	return error instanceof UntrustedPathError || (error as { code?: unknown } | null)?.code === 'EUNTRUSTED';
}

/** The uid paths must belong to, or undefined where ownership is not checked (Windows). */
function ownUid(): number | undefined {
	return process.platform === 'win32' ? undefined : process.getuid?.();
}

type Kind = 'directory' | 'file' | 'socket';

/** What is wrong with an lstat/fstat result for `kind`, or null when it is this user's own. */
function problemWith(stat: fs.Stats, kind: Kind, uid: number, path: string): string | null {
	if (stat.isSymbolicLink()) {
		return `it is a symbolic link${linkTarget(path)}, not a ${kind}`;
	}
	if (kind === 'directory' && !stat.isDirectory()) {
		return 'it is not a directory';
	}
	if (kind === 'file' && !stat.isFile()) {
		return 'it is not a regular file';
	}
	if (stat.uid !== uid) {
		return `it belongs to uid ${stat.uid}, not to this user (uid ${uid})`;
	}
	const writers = [(stat.mode & 0o020) !== 0 ? 'its group' : '', (stat.mode & 0o002) !== 0 ? 'other users' : ''].filter(Boolean);
	if (writers.length > 0) {
		return `it is writable by ${writers.join(' and ')} (mode 0${(stat.mode & 0o777).toString(8)})`;
	}
	return null;
}

function linkTarget(path: string): string {
	try {
		return ` (to ${fs.readlinkSync(path)})`;
	} catch {
		return '';
	}
}

/** lstat, or null when the path does not exist or cannot be looked at (then nothing is read from it either). */
function lstatOrNull(path: string): fs.Stats | null {
	try {
		return fs.lstatSync(path);
	} catch {
		return null;
	}
}

/** False when `dir` does not exist; throws UntrustedPathError when it is not this user's own directory. */
export function checkOwnDirectory(dir: string): boolean {
	const uid = ownUid();
	const stat = lstatOrNull(dir);
	if (stat === null) {
		return false;
	}
	const problem = uid === undefined ? null : problemWith(stat, 'directory', uid, dir);
	if (problem !== null) {
		throw new UntrustedPathError(dir, problem);
	}
	return true;
}

/**
 * The text of `file`, or null when it cannot be read (missing, its directory missing, no permission). Throws
 * UntrustedPathError when the file or its directory is not this user's own. The file is opened without following a
 * symlink and checked through the open descriptor, so what is read is what was checked.
 */
export function readOwnFile(file: string): string | null {
	try {
		return readChecked(file);
	} catch (error) {
		if (isUntrustedPathError(error)) {
			throw error;
		}
		return null;
	}
}

/** A credential file's token (trimmed), or null when it is missing or empty; throws like readOwnFile. */
export function readOwnCredential(file: string): string | null {
	const token = readOwnFile(file)?.trim() ?? '';
	return token === '' ? null : token;
}

function readChecked(file: string): string | null {
	if (!checkOwnDirectory(dirname(file))) {
		return null;
	}
	const uid = ownUid();
	if (uid === undefined) {
		return fs.readFileSync(file, 'utf8');
	}
	let fd: number;
	try {
		fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW | fs.constants.O_NONBLOCK);
	} catch (error) {
		const code = (error as NodeJS.ErrnoException).code;
		if (code === 'ELOOP' || code === 'EMLINK') {
			throw new UntrustedPathError(file, `it is a symbolic link${linkTarget(file)}, not a file`);
		}
		throw error;
	}
	try {
		const problem = problemWith(fs.fstatSync(fd), 'file', uid, file);
		if (problem !== null) {
			throw new UntrustedPathError(file, problem);
		}
		return fs.readFileSync(fd, 'utf8');
	} finally {
		fs.closeSync(fd);
	}
}

/**
 * Throws UntrustedPathError unless the socket and its directory are this user's own; a missing one passes (the
 * connect then fails with ENOENT, like any absent Host).
 */
export function checkOwnSocket(socketPath: string): void {
	const uid = ownUid();
	if (uid === undefined || !checkOwnDirectory(dirname(socketPath))) {
		return;
	}
	const stat = lstatOrNull(socketPath);
	const problem = stat === null ? null : problemWith(stat, 'socket', uid, socketPath);
	if (problem !== null) {
		throw new UntrustedPathError(socketPath, problem);
	}
}
