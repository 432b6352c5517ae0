// Reads the `tutti.*` settings from VS Code (the pure rules are in tuttiSettings.ts).
import * as vscode from 'vscode';
import { settingsSection, type TuttiSettings } from './tuttiSettings.js';

export function readSettings(scope?: vscode.ConfigurationScope): TuttiSettings {
	const config = vscode.workspace.getConfiguration(settingsSection, scope);
	return {
		agentTargets: config.get<unknown>('agentTargets'),
		maxParallelRuns: config.get<unknown>('maxParallelRuns'),
		developerConfirmation: config.get<unknown>('developerConfirmation'),
		autoAcceptDefault: config.get<unknown>('autoAcceptDefault'),
		storePath: config.get<unknown>('storePath'),
		worktreeCopy: config.get<unknown>('worktreeCopy'),
		worktreeSetup: config.get<unknown>('worktreeSetup'),
		worktreeSetupTimeoutSeconds: config.get<unknown>('worktreeSetupTimeoutSeconds'),
		worktreeShare: config.get<unknown>('worktreeShare'),
		worktreeShareCacheMaxMb: config.get<unknown>('worktreeShareCacheMaxMb'),
		maxParallelSetups: config.get<unknown>('maxParallelSetups'),
		modelPrices: config.get<unknown>('modelPrices'),
		defaultBudgetUsd: config.get<unknown>('defaultBudgetUsd'),
		// Machine-scoped in package.json: a folder's .vscode/settings.json (repository content) cannot turn it on.
		integrateRunsHooks: config.get<unknown>('integrateRunsHooks'),
		checks: config.get<unknown>('checks'),
		stallSeconds: config.get<unknown>('stallSeconds'),
		// Machine-scoped too, and read from the user settings alone: a path in a folder's settings is never a machine's.
		agentPaths: config.inspect<unknown>('agentPaths')?.globalValue,
	};
}
