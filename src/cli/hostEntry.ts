// `tutti host` runs the Host in this process, from the separate bundle dist/host.js (src/host/main.ts), loaded
// only for that command: the CLI bundle itself never contains Host code (the CLI imports protocol only, and every agent command pays for what it loads).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './discovery.js';

/** What src/host/main.ts exports (structurally; the CLI may not import it). */
export interface HostEntry {
	runHostCommand(options: {
		workspace: string;
		env: Env;
		stdout: (text: string) => void;
		stderr: (text: string) => void;
	}): Promise<number>;
}

/** dist/host.js next to dist/cli.js; from source (tsx), src/host/main.ts. Null when neither exists. */
export function loadHostEntry(): HostEntry | null {
	const candidates = [join(__dirname, 'host.js'), join(__dirname, '..', 'host', 'main.ts')];
	const file = candidates.find((candidate) => existsSync(candidate));
	if (file === undefined) {
		return null;
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the Host bundle, loaded only for `tutti host`
	const loaded: unknown = require(file);
	const entry = loaded as Partial<HostEntry> | null;
	return entry !== null && typeof entry === 'object' && typeof entry.runHostCommand === 'function' ? (entry as HostEntry) : null;
}
