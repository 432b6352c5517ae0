// Codex helpers for the agent tier: a codex target for the pinned CLI against a scripted server (its own
// CODEX_HOME, retries off, config typos fatal), and a process-table probe.
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentTargetConfig } from '../../src/core/runs/runProcessPort.js';
import { type AgentSandbox, codexBin } from './agentKit.js';
import type { ScriptedServer } from './modelServer/server.js';

/** The test-only launch args: config typos fail loudly, no retries (a failure takes exactly one request), no telemetry. */
export const codexTestArgs: readonly string[] = [
	'--strict-config',
	'-c', 'model_providers.tutti.request_max_retries=0', '-c', 'model_providers.tutti.stream_max_retries=0',
	'-c', 'analytics.enabled=false', '-c', 'check_for_update_on_startup=false',
];

/** A codex target that runs the pinned CLI against `server` with CODEX_HOME inside the sandbox's home. */
export function codexTestTarget(server: ScriptedServer, sandbox: AgentSandbox, extra: Partial<AgentTargetConfig> = {}): AgentTargetConfig {
	const codexHome = join(sandbox.home, 'codex-home');
	mkdirSync(codexHome, { recursive: true }); // Codex refuses a CODEX_HOME that does not exist
	const { args, ...rest } = extra;
	return {
		id: 'codex-test', adapter: 'codex', path: codexBin, model: 'gpt-5.5',
		env: { OPENAI_BASE_URL: `${server.url}/v1`, CODEX_HOME: codexHome },
		...rest,
		args: [...codexTestArgs, ...(args ?? [])],
	};
}

/** Pids (other than ours) with `marker` as one of their argv words, e.g. the `sleep 37.123` a scripted tool call started. */
export function pidsWithArg(marker: string): number[] {
	const pids: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) { continue; }
		try {
			if (readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').includes(marker)) { pids.push(Number(name)); }
		} catch { /* gone */ }
	}
	return pids;
}
