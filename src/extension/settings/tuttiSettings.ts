// The `tutti.*` settings as plain data, their defaults, and how they become the Host's config and store location.
// vscode-free (unit-tested); src/extension/settings/readSettings.ts reads them from VS Code.
import * as path from 'node:path';
import { z } from 'zod';
import { defaultShareCacheMaxMb, defaultWorktreeSetupTimeoutSeconds, type HostConfig, hostConfigFile } from '../../host/config.js';

export interface TuttiSettings {
	readonly agentTargets: unknown;
	readonly maxParallelRuns: unknown;
	readonly developerConfirmation: unknown;
	readonly autoAcceptDefault: unknown;
	readonly storePath: unknown;
	readonly worktreeCopy: unknown;
	readonly worktreeSetup: unknown;
	readonly worktreeSetupTimeoutSeconds: unknown;
	readonly worktreeShare?: unknown;
	readonly worktreeShareCacheMaxMb?: unknown;
	readonly maxParallelSetups?: unknown;
	readonly modelPrices: unknown;
	readonly defaultBudgetUsd: unknown;
	readonly integrateRunsHooks: unknown;
	readonly checks: unknown;
	readonly stallSeconds: unknown;
	/** This machine's executables by agent target id (machine scope: only the developer's user settings set it). */
	readonly agentPaths: unknown;
}

export const settingsSection = 'tutti';
export const settingKeys = [
	'agentTargets', 'maxParallelRuns', 'developerConfirmation', 'autoAcceptDefault', 'storePath', 'worktreeCopy', 'worktreeSetup', 'worktreeSetupTimeoutSeconds',
	'worktreeShare', 'worktreeShareCacheMaxMb', 'maxParallelSetups', 'modelPrices', 'defaultBudgetUsd', 'integrateRunsHooks', 'checks', 'stallSeconds', 'agentPaths',
] as const;
export const defaultStorePath = '.tutti/tutti.sqlite';
/** The settings that only take effect when the Host starts. */
export const hostSettingKeys: readonly (typeof settingKeys)[number][] = settingKeys;

export interface HostConfigResult {
	readonly config: HostConfig;
	/** Empty when the settings were valid; otherwise what was wrong (defaults were used for that part). */
	readonly problems: readonly string[];
}

/** `tutti.agentPaths`: target id → an absolute executable on this machine. */
const agentPathsSetting = z.record(z.string().min(1).max(200), z.string().min(1).max(4096)
	.refine((p) => path.posix.isAbsolute(p) || path.win32.isAbsolute(p), { message: 'must be an absolute path to the executable on this machine' })
	.refine((p) => !p.includes('\0'), { message: 'must not contain NUL characters' }));

/**
 * The targets with this machine's executables merged in: `tutti.agentPaths[id]` is the target's executable (a claude
 * or codex target's `path`, a command target's argv[0]); the folder's setting keeps only its name.
 */
export function withMachinePaths(targets: unknown, agentPaths: Readonly<Record<string, string>>): unknown {
	if (!Array.isArray(targets) || Object.keys(agentPaths).length === 0) { return targets; }
	return targets.map((t: unknown) => {
		if (typeof t !== 'object' || t === null) { return t; }
		const target = t as Record<string, unknown>;
		const machine = typeof target['id'] === 'string' && Object.hasOwn(agentPaths, target['id']) ? agentPaths[target['id']] : undefined;
		if (machine === undefined) { return t; }
		if (target['adapter'] === 'command') {
			return Array.isArray(target['argv']) && target['argv'].length > 0 ? { ...target, argv: [machine, ...(target['argv'] as unknown[]).slice(1)] } : t;
		}
		return { ...target, path: machine };
	});
}

/** The Host's config from the settings; an invalid setting is reported and replaced by its default. */
export function hostConfigFromSettings(settings: TuttiSettings): HostConfigResult {
	const problems: string[] = [];
	let agentPaths: Record<string, string> = {};
	if (settings.agentPaths !== undefined && settings.agentPaths !== null) {
		const parsed = agentPathsSetting.safeParse(settings.agentPaths);
		if (parsed.success) { agentPaths = parsed.data; } else { problems.push(`tutti.agentPaths: ${z.prettifyError(parsed.error).replace(/\s*\n\s*/g, ' ')}`); }
	}
	const defaults = hostConfigFile.parse({});
	const piece = <K extends keyof HostConfig>(key: K, value: unknown): HostConfig[K] => {
		if (value === undefined || value === null) {
			return defaults[key];
		}
		const parsed = hostConfigFile.safeParse({ [key]: value });
		if (!parsed.success) {
			problems.push(`tutti.${key}: ${z.prettifyError(parsed.error).replace(/\s*\n\s*/g, ' ')}`);
			return defaults[key];
		}
		return parsed.data[key];
	};
	const unlessDefault = <T>(value: T | undefined, standard: T): T | undefined => (value === standard ? undefined : value);
	const nonEmpty = <K extends 'checks' | 'worktreeShare'>(key: K, value: HostConfig[K] | undefined): Partial<HostConfig> => (value === undefined || value.length === 0 ? {} : { [key]: value });
	const optional = <K extends keyof HostConfig>(key: K, value: HostConfig[K] | undefined): Partial<HostConfig> => (value === undefined ? {} : { [key]: value });
	return {
		config: {
			agentTargets: piece('agentTargets', withMachinePaths(settings.agentTargets, agentPaths)),
			maxParallelRuns: piece('maxParallelRuns', settings.maxParallelRuns),
			autoAcceptDefault: piece('autoAcceptDefault', settings.autoAcceptDefault),
			developerConfirmation: piece('developerConfirmation', settings.developerConfirmation) ?? true,
			worktreeCopy: piece('worktreeCopy', settings.worktreeCopy) ?? [],
			worktreeSetup: piece('worktreeSetup', settings.worktreeSetup) ?? [],
			worktreeSetupTimeoutSeconds: piece('worktreeSetupTimeoutSeconds', settings.worktreeSetupTimeoutSeconds) ?? defaultWorktreeSetupTimeoutSeconds,
			...nonEmpty('worktreeShare', piece('worktreeShare', settings.worktreeShare)),
			...optional('worktreeShareCacheMaxMb', unlessDefault(piece('worktreeShareCacheMaxMb', settings.worktreeShareCacheMaxMb), defaultShareCacheMaxMb)),
			...optional('maxParallelSetups', piece('maxParallelSetups', settings.maxParallelSetups)),
			...(piece('integrateRunsHooks', settings.integrateRunsHooks) === true ? { integrateRunsHooks: true } : {}),
			...optional('modelPrices', piece('modelPrices', settings.modelPrices)),
			...optional('defaultBudgetUsd', piece('defaultBudgetUsd', settings.defaultBudgetUsd)),
			...nonEmpty('checks', piece('checks', settings.checks)),
			...optional('stallSeconds', piece('stallSeconds', settings.stallSeconds)),
		},
		problems,
	};
}

export interface StoreLocation {
	/** The `.tutti` directory. */
	readonly dir: string;
	/** The database file inside it. */
	readonly fileName: string;
	readonly file: string;
	/** Set when the setting asked for something this version cannot do (and what was used instead). */
	readonly warning?: string;
}

/**
 * Where the store is: `tutti.storePath` relative to the workspace folder. The Host keeps its Runs, lease and
 * config in `<workspace>/.tutti/`, so only the file name inside `.tutti/` can be chosen; anything else is reported.
 */
export function storeLocation(workspace: string, storePath: unknown): StoreLocation {
	const dir = path.join(workspace, '.tutti');
	const requested = typeof storePath === 'string' && storePath.trim() !== '' ? storePath.trim() : defaultStorePath;
	const resolved = path.resolve(workspace, requested);
	if (path.dirname(resolved) === dir && path.basename(resolved) !== '') {
		return { dir, fileName: path.basename(resolved), file: resolved };
	}
	const fileName = path.basename(defaultStorePath);
	return {
		dir, fileName, file: path.join(dir, fileName),
		warning: `tutti.storePath "${requested}" must name a file inside .tutti/ of the workspace folder; using ${defaultStorePath}`,
	};
}
