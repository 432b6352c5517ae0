import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { hostConfigFromSettings, storeLocation, type TuttiSettings, withMachinePaths } from '../../../src/extension/settings/tuttiSettings.js';

function settings(over: Partial<TuttiSettings> = {}): TuttiSettings {
	return {
		agentTargets: [], maxParallelRuns: 4, developerConfirmation: true, autoAcceptDefault: false, storePath: '.tutti/tutti.sqlite',
		worktreeCopy: undefined, worktreeSetup: undefined, worktreeSetupTimeoutSeconds: undefined, modelPrices: undefined, defaultBudgetUsd: undefined, integrateRunsHooks: undefined, checks: undefined, stallSeconds: undefined, agentPaths: undefined, ...over,
	};
}

describe('extension/tuttiSettings', () => {
	it('turns the settings into the Host config', () => {
		const target = { id: 'sh', adapter: 'command', argv: ['sh', '-c', 'echo hi'] };
		const { config, problems } = hostConfigFromSettings(settings({ agentTargets: [target], maxParallelRuns: 2, autoAcceptDefault: true, developerConfirmation: false }));
		assert.deepEqual(problems, []);
		assert.deepEqual(config, { agentTargets: [target], maxParallelRuns: 2, autoAcceptDefault: true, developerConfirmation: false, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
	});

	it('merges this machine\'s executables (tutti.agentPaths) into the targets: a claude path, a command\'s argv[0]', () => {
		const targets = [{ id: 'claude', adapter: 'claude', model: 'sonnet' }, { id: 'mine', adapter: 'command', argv: ['my-agent', '--fast'] }, { id: 'other', adapter: 'codex' }];
		const { config, problems } = hostConfigFromSettings(settings({ agentTargets: targets, agentPaths: { claude: '/opt/claude/bin/claude', mine: '/usr/local/bin/my-agent', gone: '/x' } }));
		assert.deepEqual(problems, []);
		assert.deepEqual(config.agentTargets, [
			{ id: 'claude', adapter: 'claude', model: 'sonnet', path: '/opt/claude/bin/claude' },
			{ id: 'mine', adapter: 'command', argv: ['/usr/local/bin/my-agent', '--fast'] },
			{ id: 'other', adapter: 'codex' },
		]);
		assert.deepEqual(withMachinePaths(targets, {}), targets);
	});

	it('refuses a tutti.agentPaths entry that is not an absolute path, and uses none of it', () => {
		const targets = [{ id: 'claude', adapter: 'claude' }];
		const { config, problems } = hostConfigFromSettings(settings({ agentTargets: targets, agentPaths: { claude: 'bin/claude' } }));
		assert.deepEqual(config.agentTargets, targets);
		assert.equal(problems.length, 1);
		assert.match(problems[0]!, /^tutti\.agentPaths: .*absolute path to the executable on this machine/);
	});

	it('tutti.agentPaths and tutti.integrateRunsHooks are machine-scoped: a folder\'s settings cannot set them', () => {
		const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { configuration: { properties: Record<string, { scope?: string }> } } };
		const props = manifest.contributes.configuration.properties;
		assert.deepEqual([props['tutti.agentPaths']?.scope, props['tutti.integrateRunsHooks']?.scope], ['machine', 'machine']);
	});

	it('reports an invalid setting by name and uses its default, keeping the valid ones', () => {
		const { config, problems } = hostConfigFromSettings(settings({ agentTargets: [{ id: 'x', adapter: 'command' }], maxParallelRuns: 0 }));
		assert.deepEqual(config, { agentTargets: [], maxParallelRuns: 4, autoAcceptDefault: false, developerConfirmation: true, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
		assert.equal(problems.length, 2);
		assert.match(problems[0]!, /^tutti\.agentTargets: .*argv/);
		assert.match(problems[1]!, /^tutti\.maxParallelRuns: /);
	});

	it('passes model prices and the default budget through, and refuses a price without its output rate', () => {
		const ok = hostConfigFromSettings(settings({ modelPrices: { 'my-model': { inputPerMTok: 2, outputPerMTok: 8 } }, defaultBudgetUsd: 12.5 }));
		assert.deepEqual(ok.problems, []);
		assert.deepEqual(ok.config.modelPrices, { 'my-model': { inputPerMTok: 2, outputPerMTok: 8, cacheReadPerMTok: 0, cacheWritePerMTok: 0 } });
		assert.equal(ok.config.defaultBudgetUsd, 12.5);
		const bad = hostConfigFromSettings(settings({ modelPrices: { 'my-model': { inputPerMTok: 2 } }, defaultBudgetUsd: -1 }));
		assert.equal(bad.config.modelPrices, undefined);
		assert.equal(bad.config.defaultBudgetUsd, undefined);
		assert.equal(bad.problems.length, 2);
		assert.match(bad.problems[0]!, /^tutti\.modelPrices: .*outputPerMTok/);
		assert.match(bad.problems[1]!, /^tutti\.defaultBudgetUsd: /);
	});

	it('passes stallSeconds through and reports a bad one by name', () => {
		assert.equal(hostConfigFromSettings(settings({ stallSeconds: 90 })).config.stallSeconds, 90);
		const bad = hostConfigFromSettings(settings({ stallSeconds: -5 }));
		assert.equal(bad.config.stallSeconds, undefined);
		assert.equal(bad.problems.length, 1);
		assert.match(bad.problems[0]!, /^tutti\.stallSeconds: /);
	});

	it('uses the defaults for unset settings', () => {
		const { config } = hostConfigFromSettings(settings({ agentTargets: undefined, maxParallelRuns: undefined, developerConfirmation: undefined, autoAcceptDefault: undefined, storePath: undefined }));
		assert.deepEqual(config, { agentTargets: [], maxParallelRuns: 4, autoAcceptDefault: false, developerConfirmation: true, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
	});

	it('takes the worktree settings and refuses copying .tutti/, .git/ or outside the workspace', () => {
		const { config, problems } = hostConfigFromSettings(settings({ worktreeCopy: ['.env', '.env.*'], worktreeSetup: ['npm', 'ci'], worktreeSetupTimeoutSeconds: 120 }));
		assert.deepEqual(problems, []);
		assert.deepEqual([config.worktreeCopy, config.worktreeSetup, config.worktreeSetupTimeoutSeconds], [['.env', '.env.*'], ['npm', 'ci'], 120]);
		for (const bad of ['.tutti/config.json', '.git/config', '../secrets', '/etc/passwd']) {
			const refused = hostConfigFromSettings(settings({ worktreeCopy: [bad] }));
			assert.deepEqual(refused.config.worktreeCopy, [], bad);
			assert.match(refused.problems[0] ?? '', /^tutti\.worktreeCopy: /, bad);
		}
	});

	it('takes worktreeShare, its cache size and maxParallelSetups, and refuses a shared path outside the tree', () => {
		const share = [{ paths: ['node_modules'], key: ['package-lock.json'] }];
		const { config, problems } = hostConfigFromSettings(settings({ worktreeShare: share, worktreeShareCacheMaxMb: 100, maxParallelSetups: 3 }));
		assert.deepEqual(problems, []);
		assert.deepEqual([config.worktreeShare, config.worktreeShareCacheMaxMb, config.maxParallelSetups], [share, 100, 3]);
		const refused = hostConfigFromSettings(settings({ worktreeShare: [{ paths: ['../node_modules'], key: ['package-lock.json'] }], maxParallelSetups: 0 }));
		assert.equal(refused.config.worktreeShare, undefined);
		assert.equal(refused.config.maxParallelSetups, undefined);
		assert.match(refused.problems[0] ?? '', /^tutti\.worktreeShare: .*relative to the tree/);
		assert.match(refused.problems[1] ?? '', /^tutti\.maxParallelSetups: /);
	});

	it('places the store in .tutti/ of the folder, and refuses other folders with a warning', () => {
		const ws = path.join(path.sep, 'w', 'proj');
		assert.deepEqual(storeLocation(ws, '.tutti/tutti.sqlite'), { dir: path.join(ws, '.tutti'), fileName: 'tutti.sqlite', file: path.join(ws, '.tutti', 'tutti.sqlite') });
		assert.equal(storeLocation(ws, '.tutti/other.sqlite').fileName, 'other.sqlite');
		assert.equal(storeLocation(ws, '').fileName, 'tutti.sqlite');
		const elsewhere = storeLocation(ws, 'db/x.sqlite');
		assert.equal(elsewhere.file, path.join(ws, '.tutti', 'tutti.sqlite'));
		assert.match(elsewhere.warning ?? '', /must name a file inside \.tutti\//);
	});
});
