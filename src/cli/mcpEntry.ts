// `tutti mcp` runs the permission-prompt MCP server from the separate bundle dist/mcp.js (src/cli/mcp/main.ts), loaded
// only for that command: the CLI bundle itself never contains the MCP SDK (start-up cost of every other command).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from './discovery.js';

/** What src/cli/mcp/main.ts exports (structurally). */
export interface McpEntry {
	runMcpCommand(io: { env: Env; cwd: string; stderr: (text: string) => void }): Promise<number>;
}

/** dist/mcp.js next to dist/cli.js; from source (tsx), src/cli/mcp/main.ts. Null when neither exists. */
export function loadMcpEntry(): McpEntry | null {
	const candidates = [join(__dirname, 'mcp.js'), join(__dirname, 'mcp', 'main.ts')];
	const file = candidates.find((candidate) => existsSync(candidate));
	if (file === undefined) {
		return null;
	}
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- the MCP bundle, loaded only for `tutti mcp`
	const loaded: unknown = require(file);
	const entry = loaded as Partial<McpEntry> | null;
	return entry !== null && typeof entry === 'object' && typeof entry.runMcpCommand === 'function' ? (entry as McpEntry) : null;
}
