// The discovery file lets a CLI without TUTTI_IPC_HOOK find the Host of its workspace. It exists exactly while the
// server listens: written after listen, removed on dispose (only if it still names this process).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type DiscoveryRecord, parseDiscoveryRecord } from '../ipc/endpointPaths.js';
import { ensurePrivateDirectory, removeQuietly, writePrivateFile } from './privateFiles.js';

export function writeDiscoveryFile(file: string, record: DiscoveryRecord): void {
	ensurePrivateDirectory(path.dirname(file));
	writePrivateFile(file, `${JSON.stringify(record)}\n`);
}

/** Removes the discovery file unless a newer Host (another pid) has replaced it. Never throws. */
export function removeDiscoveryFileIfOwned(file: string, pid: number): void {
	let text: string;
	try {
		text = fs.readFileSync(file, 'utf8');
	} catch {
		return;
	}
	const record = parseDiscoveryRecord(text);
	if (record === null || record.pid === pid) {
		removeQuietly(file);
	}
}
