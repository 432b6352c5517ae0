// Finds the agent CLIs Tutti can launch (`claude`, `codex`) on PATH and in the workspace's node_modules/.bin, for
// Tutti: Add Agent. vscode-free (unit-tested with a fake PATH directory of executables).
import * as fs from 'node:fs';
import * as path from 'node:path';

export type AgentAdapter = 'claude' | 'codex';
export const agentAdapters: readonly AgentAdapter[] = ['claude', 'codex'];

export interface FoundAgent {
	readonly adapter: AgentAdapter;
	/** The executable's absolute path. */
	readonly path: string;
	/** Where it was found: a PATH directory, or the workspace's node_modules/.bin. */
	readonly source: 'PATH' | 'workspace';
}

export interface DiscoveryEnv {
	/** The PATH value (`process.env.PATH`). */
	readonly pathEnv: string | undefined;
	/** The workspace folder (its node_modules/.bin is searched after PATH); undefined without one. */
	readonly workspace: string | undefined;
	readonly platform?: NodeJS.Platform;
	/** Windows: the extensions PATHEXT lists (default .COM;.EXE;.BAT;.CMD). */
	readonly pathExt?: string | undefined;
}

function isExecutableFile(file: string, windows: boolean): boolean {
	try {
		const stat = fs.statSync(file);
		if (!stat.isFile()) { return false; }
		if (windows) { return true; }
		fs.accessSync(file, fs.constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

function candidates(dir: string, name: string, windows: boolean, pathExt: string | undefined): string[] {
	if (!windows) { return [path.join(dir, name)]; }
	const exts = (pathExt ?? '.COM;.EXE;.BAT;.CMD').split(';').filter((e) => e !== '');
	return exts.map((e) => path.join(dir, name + e.toLowerCase()));
}

/**
 * Every `claude` and `codex` executable, PATH directories in order then the workspace's node_modules/.bin; the same
 * file (after resolving links) is listed once, at its first place.
 */
export function discoverAgents(env: DiscoveryEnv): FoundAgent[] {
	const windows = (env.platform ?? process.platform) === 'win32';
	const dirs: { dir: string; source: FoundAgent['source'] }[] = (env.pathEnv ?? '')
		.split(windows ? ';' : ':')
		.filter((d) => d.trim() !== '' && path.isAbsolute(d))
		.map((dir) => ({ dir, source: 'PATH' as const }));
	if (env.workspace !== undefined) {
		dirs.push({ dir: path.join(env.workspace, 'node_modules', '.bin'), source: 'workspace' });
	}
	const found: FoundAgent[] = [];
	const seen = new Set<string>();
	for (const adapter of agentAdapters) {
		for (const { dir, source } of dirs) {
			for (const file of candidates(dir, adapter, windows, env.pathExt)) {
				if (!isExecutableFile(file, windows)) { continue; }
				let real = file;
				try { real = fs.realpathSync(file); } catch { /* keep the path as found */ }
				if (seen.has(real)) { continue; }
				seen.add(real);
				found.push({ adapter, path: file, source });
			}
		}
	}
	return found;
}
