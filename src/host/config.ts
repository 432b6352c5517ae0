// The headless Host's settings: `.tutti/config.json` (VS Code passes the same shape from its settings).
// A missing file means defaults; a broken one is refused with the file and the offending path named.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { agentTargetProblems } from '../agents/agentTarget.js';
import { DomainError } from '../core/errors.js';
import type { AgentTargetConfig, WorktreeShareRule } from '../core/runs/runProcessPort.js';
import type { PriceTable } from '../core/usage/prices.js';
import type { CheckInput } from '../core/checks/checks.js';
import { checksInput } from '../protocol/checks.js';
import { maxStallSeconds } from '../core/runs/stallRules.js';
import { jsonSyntaxErrorOffset, positionAt } from './jsonSyntax.js';

export interface HostConfig {
	agentTargets: AgentTargetConfig[];
	/** How many Runs may be active at once across the workspace. */
	maxParallelRuns: number;
	/** The autoAccept of new issues when the command does not say. */
	autoAcceptDefault: boolean;
	/**
	 * Goal Review waits for the developer's confirmation after the source agent completes; `plan issue
	 * create --developer-confirmation` overrides it per issue. Absent = true.
	 */
	developerConfirmation?: boolean;
	/**
	 * Glob patterns of untracked or ignored files copied from the workspace into each new task worktree (e.g.
	 * `.env`); never anything under `.tutti/` or `.git/`. Absent: nothing is copied.
	 */
	worktreeCopy?: string[];
	/** An argv run in each new task worktree before its agent starts (e.g. `["npm","ci"]`). Absent: none. */
	worktreeSetup?: string[];
	/** How long worktreeSetup may run before the Run fails (default 600). */
	worktreeSetupTimeoutSeconds?: number;
	/** What a tree's setup produces that later trees with the same key files reuse (cloned or copied, never linked). */
	worktreeShare?: WorktreeShareRule[];
	/** How large `.tutti/setup-cache` may grow before the least recently used installs are dropped (default 4096). */
	worktreeShareCacheMaxMb?: number;
	/** How many trees are created and set up at once (default: the number of cores). */
	maxParallelSetups?: number;
	/** USD per million tokens by model, over the dated defaults of src/core/usage/prices.ts. Absent: the defaults. */
	modelPrices?: PriceTable;
	/** The USD budget of new issues when the command names none. Absent: no budget. */
	defaultBudgetUsd?: number;
	/**
	 * `tutti issue integrate` runs the repository's git hooks (post-merge, reference-transaction, …) when it moves
	 * the branch. Absent or false: no hook runs (Tutti's own git calls never run hooks). Only the developer sets it:
	 * it is read from the developer's settings when the Host starts; no request changes it.
	 */
	integrateRunsHooks?: boolean;
	/**
	 * Checks every task of the workspace runs after its Run reports success, before anyone accepts it (a task runs the
	 * union: these, its agent target's, its issue's and its own). Only the developer sets them. Absent: none.
	 */
	checks?: readonly CheckInput[];
	/**
	 * How long a Run may show no activity (no output, no tool call, no usage) before it is marked stalled (an agent
	 * target's own `stallSeconds` comes first); 0: never. Absent: 600. A mark only: the Run is never failed or stopped
	 * for it. Only the developer sets it; no request changes it.
	 */
	stallSeconds?: number;
}

export const defaultWorktreeSetupTimeoutSeconds = 600;

export const defaultShareCacheMaxMb = 4096;

export const configFileName = 'config.json';
export const defaultMaxParallelRuns = 4;

const name = z.string().min(1).max(200);
/** A tree-relative path of a worktree setting: never absolute, never `..`, never inside .git or .tutti. */
const treePath = z.string().min(1).max(500)
	.refine((g) => !/^(\.\/)?\.(tutti|git)(\/|$)/.test(g), { message: 'worktree paths never name .tutti/ or .git/' })
	.refine((g) => !g.startsWith('/') && !/^[A-Za-z]:/.test(g) && !g.startsWith('~') && !g.replace(/\\/g, '/').split('/').includes('..'),
		{ message: 'worktree paths are relative to the tree (no leading /, ~ or drive, and no ..)' });
const worktreeCopyConfig = z.array(treePath).max(100);
const worktreeSetupConfig = z.array(z.string().min(1)).max(200);
const worktreeShareConfig = z.array(z.strictObject({
	paths: z.array(treePath).min(1).max(50),
	key: z.array(treePath).min(1).max(50),
})).max(20);
/** Seconds of silence before a Run is marked stalled; 0: never. */
const stallSeconds = z.number().int().min(0).max(maxStallSeconds);
/** The shape of a target; what its fields may hold is the one agent-target check every adapter also runs. */
const agentTargetConfig = z.strictObject({
	id: name,
	adapter: z.enum(['command', 'claude', 'codex']),
	argv: z.array(z.string()).optional(),
	shell: z.boolean().optional(),
	cwd: z.string().optional(),
	env: z.record(z.string(), z.string()).optional(),
	path: z.string().optional(),
	args: z.array(z.string()).optional(),
	model: z.string().optional(),
	allowedTools: z.array(z.string()).optional(),
	isolation: z.enum(['none', 'worktree']).optional(),
	onMergeConflict: z.enum(['fail', 'agent']).optional(),
	/**
	 * claude: `ask` (default) routes tool calls outside allowedTools to the developer; `allowed-tools-only` denies them.
	 * codex app-server: `ask` (default) routes its approval requests and questions to the developer; the other never asks.
	 */
	approvals: z.enum(['ask', 'allowed-tools-only']).optional(),
	/** codex: `app-server` (default) drives `codex app-server` over JSON-RPC; `exec` runs `codex exec --json` as before. */
	protocol: z.enum(['app-server', 'exec']).optional(),
	/** In place of the workspace-wide settings for this target's trees. */
	worktreeSetup: worktreeSetupConfig.optional(),
	worktreeCopy: worktreeCopyConfig.optional(),
	worktreeShare: worktreeShareConfig.optional(),
	/** Checks every task on this target runs (added to the workspace's). */
	checks: checksInput.optional(),
	/** Seconds of silence before a Run of this target is marked stalled (0: never); absent: the workspace's. */
	stallSeconds: stallSeconds.optional(),
}).superRefine((target, ctx) => {
	for (const { path, problem } of agentTargetProblems(target)) {
		ctx.addIssue({ code: 'custom', message: problem, path });
	}
});

const perMTok = z.number().nonnegative().max(1_000_000);
/** One model's price: USD per million tokens (cache prices default to 0). */
export const modelPriceConfig = z.strictObject({
	inputPerMTok: perMTok, outputPerMTok: perMTok, cacheReadPerMTok: perMTok.default(0), cacheWritePerMTok: perMTok.default(0),
});
export const modelPricesConfig = z.record(z.string().min(1).max(200), modelPriceConfig);

export const hostConfigFile = z.strictObject({
	agentTargets: z.array(agentTargetConfig).max(200).default([]),
	maxParallelRuns: z.number().int().min(1).max(256).default(defaultMaxParallelRuns),
	autoAcceptDefault: z.boolean().default(false),
	developerConfirmation: z.boolean().default(true),
	worktreeCopy: worktreeCopyConfig.default([]),
	worktreeSetup: worktreeSetupConfig.default([]),
	worktreeSetupTimeoutSeconds: z.number().int().min(1).max(86_400).default(defaultWorktreeSetupTimeoutSeconds),
	worktreeShare: worktreeShareConfig.default([]),
	worktreeShareCacheMaxMb: z.number().int().min(0).max(10_000_000).default(defaultShareCacheMaxMb),
	maxParallelSetups: z.number().int().min(1).max(256).optional(),
	modelPrices: modelPricesConfig.optional(),
	defaultBudgetUsd: z.number().nonnegative().max(1_000_000).optional(),
	integrateRunsHooks: z.boolean().default(false),
	checks: checksInput.default([]),
	stallSeconds: stallSeconds.optional(),
}).superRefine((config, ctx) => {
	const seen = new Set<string>();
	config.agentTargets.forEach((target, index) => {
		if (seen.has(target.id)) {
			ctx.addIssue({ code: 'custom', message: `duplicate agent target id "${target.id}"`, path: ['agentTargets', index, 'id'] });
		}
		seen.add(target.id);
	});
});

export function defaultHostConfig(): HostConfig {
	return {
		agentTargets: [], maxParallelRuns: defaultMaxParallelRuns, autoAcceptDefault: false, developerConfirmation: true,
		worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: defaultWorktreeSetupTimeoutSeconds,
	};
}

/** Reads `<tuttiDir>/config.json`; defaults when it does not exist. */
export function loadHostConfig(tuttiDir: string): HostConfig {
	return readHostConfigFile(tuttiDir).config;
}

/** A config and the exact bytes it was parsed from (undefined: no file, the defaults). */
export interface HostConfigFile {
	readonly config: HostConfig;
	readonly bytes: Buffer | undefined;
}

/** `<tuttiDir>/config.json`, read once. */
export function readHostConfigFile(tuttiDir: string): HostConfigFile {
	const file = hostConfigPath(tuttiDir);
	return hostConfigFromBytes(readHostConfigBytes(file), file);
}

export function hostConfigPath(tuttiDir: string): string {
	return path.join(tuttiDir, configFileName);
}

/** The bytes of the config file; undefined when it does not exist. */
export function readHostConfigBytes(file: string): Buffer | undefined {
	try {
		return fs.readFileSync(file);
	} catch (error) {
		if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
			return undefined;
		}
		throw invalidConfig(file, `cannot be read: ${(error as Error).message}`);
	}
}

/** The config those bytes hold (undefined: no file, the defaults). */
export function hostConfigFromBytes(bytes: Buffer | undefined, file: string): HostConfigFile {
	return { config: bytes === undefined ? defaultHostConfig() : parseHostConfig(bytes.toString('utf8'), file), bytes };
}

/** Parses the text of a config file (`file` names it in errors). */
export function parseHostConfig(text: string, file: string): HostConfig {
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		const offset = jsonSyntaxErrorOffset(text);
		const position = offset === undefined ? undefined : positionAt(text, offset);
		const at = position === undefined ? '' : `:${position.line}:${position.column}`;
		throw invalidConfig(`${file}${at}`, `is not valid JSON: ${(error as Error).message}`, file);
	}
	const parsed = hostConfigFile.safeParse(value);
	if (!parsed.success) {
		throw invalidConfig(file, `is invalid:\n${z.prettifyError(parsed.error)}`);
	}
	return {
		agentTargets: parsed.data.agentTargets, maxParallelRuns: parsed.data.maxParallelRuns, autoAcceptDefault: parsed.data.autoAcceptDefault,
		developerConfirmation: parsed.data.developerConfirmation,
		worktreeCopy: parsed.data.worktreeCopy, worktreeSetup: parsed.data.worktreeSetup,
		worktreeSetupTimeoutSeconds: parsed.data.worktreeSetupTimeoutSeconds,
		...(parsed.data.worktreeShare.length > 0 ? { worktreeShare: parsed.data.worktreeShare } : {}),
		...(parsed.data.worktreeShareCacheMaxMb !== defaultShareCacheMaxMb ? { worktreeShareCacheMaxMb: parsed.data.worktreeShareCacheMaxMb } : {}),
		...(parsed.data.maxParallelSetups !== undefined ? { maxParallelSetups: parsed.data.maxParallelSetups } : {}),
		...(parsed.data.integrateRunsHooks ? { integrateRunsHooks: true } : {}),
		...(parsed.data.checks.length > 0 ? { checks: parsed.data.checks } : {}),
		...(parsed.data.modelPrices !== undefined ? { modelPrices: parsed.data.modelPrices } : {}),
		...(parsed.data.defaultBudgetUsd !== undefined ? { defaultBudgetUsd: parsed.data.defaultBudgetUsd } : {}),
		...(parsed.data.stallSeconds !== undefined ? { stallSeconds: parsed.data.stallSeconds } : {}),
	};
}

/** `where` names the file, and the line and column when known (`file:3:7`, as compilers say it). */
function invalidConfig(where: string, problem: string, file = where): DomainError {
	return new DomainError('invalid_input', `${where} ${problem}`,
		`fix ${file} (for example {"agentTargets":[{"id":"sh","adapter":"command","argv":["sh","-c","…"]}]}), then start the Host again with \`tutti host --workspace DIR\``,
		{ file });
}
