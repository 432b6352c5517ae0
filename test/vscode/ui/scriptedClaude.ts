// The developer's `claude` for the journey test: a `claude` on code-server's PATH that is the real pinned Claude Code
// CLI (node_modules/.bin/claude) pointed at a scripted model server on 127.0.0.1 (test/agents/e2e/brainServer.ts,
// answers computed by the source planner), with its own HOME and CLAUDE_CONFIG_DIR, so Tutti: Add Agent finds it on
// PATH like a developer's own install and nothing of the machine's real config or credentials is used.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../../src/agents/stopHook.js';
import { claudeBin, claudeEnv } from '../../agents/agentKit.js';
import { type BrainServer, startBrainServer } from '../../agents/e2e/brainServer.js';
import { type PlannedTask, type SourcePlanner, sourcePlanner } from '../../agents/e2e/sourcePlanner.js';

export interface ScriptedClaude {
	/** The directory holding the `claude` wrapper: put it first on code-server's PATH. */
	readonly binDir: string;
	/** The wrapper's path (what Add Agent lists). */
	readonly claudePath: string;
	readonly planner: SourcePlanner;
	readonly server: BrainServer;
	close(): Promise<void>;
}

export async function startScriptedClaude(plan: { tasks: PlannedTask[]; fixedContent: string }): Promise<ScriptedClaude> {
	const root = mkdtempSync(join(tmpdir(), 'tutti-vscode-claude-'));
	const binDir = join(root, 'bin');
	const home = join(root, 'home');
	mkdirSync(binDir);
	mkdirSync(join(home, 'claude-config'), { recursive: true });
	const planner = sourcePlanner(plan);
	const server = await startBrainServer(planner.brain);
	const env = { ...claudeEnv(server.url, join(home, 'claude-config')), HOME: home };
	const claudePath = join(binDir, 'claude');
	writeFileSync(claudePath, [
		'#!/bin/sh',
		'# The pinned Claude Code CLI against the journey test\'s scripted model server.',
		...Object.entries(env).map(([k, v]) => `export ${k}=${shellQuote(v)}`),
		`exec ${shellQuote(claudeBin)} "$@"`,
		'',
	].join('\n'));
	chmodSync(claudePath, 0o755);
	return {
		binDir, claudePath, planner, server,
		close: async () => {
			await server.close();
			rmSync(root, { recursive: true, force: true });
		},
	};
}
