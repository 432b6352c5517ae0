// `.tutti/config.json` (src/host/config.ts): defaults when missing, a clear error naming the file and the path.
// (Lives here because the Host composition is tested with the control plane; move to test/unit/host freely.)
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { defaultHostConfig, loadHostConfig, parseHostConfig } from '../../../src/host/config.js';
import { makeTempDir } from './serverTestKit.js';

const file = '/w/.tutti/config.json';

function rejection(text: string): { reasonCode: string; message: string; hint: string } {
	try {
		parseHostConfig(text, file);
	} catch (error) {
		return error as { reasonCode: string; message: string; hint: string };
	}
	assert.fail(`accepted ${text}`);
}

describe('host config', () => {
	it('defaults: no targets, 4 parallel Runs, no auto-accept', () => {
		assert.deepEqual(parseHostConfig('{}', file), { agentTargets: [], maxParallelRuns: 4, autoAcceptDefault: false, developerConfirmation: true, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
		assert.deepEqual(defaultHostConfig(), { agentTargets: [], maxParallelRuns: 4, autoAcceptDefault: false, developerConfirmation: true, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
		assert.equal(parseHostConfig('{"developerConfirmation":false}', file).developerConfirmation, false);
	});

	it('reads command targets as the issue writes them', () => {
		const config = parseHostConfig(JSON.stringify({
			agentTargets: [{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'make'], cwd: 'sub', env: { A_B: '1' } }],
			maxParallelRuns: 2, autoAcceptDefault: true,
		}), file);
		assert.deepEqual(config, { agentTargets: [{ id: 'sh', adapter: 'command', argv: ['sh', '-c', 'make'], cwd: 'sub', env: { A_B: '1' } }], maxParallelRuns: 2, autoAcceptDefault: true, developerConfirmation: true, worktreeCopy: [], worktreeSetup: [], worktreeSetupTimeoutSeconds: 600 });
	});

	it('reads worktreeShare and a target\'s own worktreeSetup, worktreeCopy and worktreeShare', () => {
		const share = [{ paths: ['node_modules'], key: ['package-lock.json'] }];
		const config = parseHostConfig(JSON.stringify({
			agentTargets: [{ id: 'docs', adapter: 'command', argv: ['true'], worktreeSetup: [], worktreeCopy: ['.env'], worktreeShare: [] }],
			worktreeSetup: ['npm', 'ci'], worktreeShare: share, maxParallelSetups: 2,
		}), file);
		assert.deepEqual(config.worktreeShare, share);
		assert.equal(config.maxParallelSetups, 2);
		assert.deepEqual(config.agentTargets[0], { id: 'docs', adapter: 'command', argv: ['true'], worktreeSetup: [], worktreeCopy: ['.env'], worktreeShare: [] });
		assert.throws(() => parseHostConfig('{"worktreeShare":[{"paths":["node_modules"]}]}', file), /→ at worktreeShare\[0\]\.key/);
	});

	it('reads stallSeconds, workspace-wide and per target (0: never marked)', () => {
		const config = parseHostConfig('{"stallSeconds":120,"agentTargets":[{"id":"x","adapter":"command","argv":["a"],"stallSeconds":0}]}', file);
		assert.equal(config.stallSeconds, 120);
		assert.equal(config.agentTargets[0]?.stallSeconds, 0);
		assert.equal(parseHostConfig('{}', file).stallSeconds, undefined, 'absent: the built-in 600 s applies');
	});

	const broken: Array<[string, string, RegExp]> = [
		['negative stallSeconds', '{"stallSeconds":-1}', /→ at stallSeconds/],
		['fractional stallSeconds', '{"stallSeconds":1.5}', /→ at stallSeconds/],
		['a target stallSeconds over a week', '{"agentTargets":[{"id":"x","adapter":"command","argv":["a"],"stallSeconds":604801}]}', /→ at agentTargets\[0\]\.stallSeconds/],
		['not JSON', '{agentTargets: []}', /^\/w\/\.tutti\/config\.json:1:2 is not valid JSON/],
		['a trailing comma', '{\n  "agentTargets": [\n    {"id": "x", "adapter": "claude"},\n  ]\n}', /^\/w\/\.tutti\/config\.json:4:3 is not valid JSON/],
		['unknown adapter', '{"agentTargets":[{"id":"x","adapter":"shell"}]}', /→ at agentTargets\[0\]\.adapter/],
		['command without argv', '{"agentTargets":[{"id":"x","adapter":"command"}]}', /"command" target needs "argv"[\s\S]*→ at agentTargets\[0\]\.argv/],
		['duplicate ids', '{"agentTargets":[{"id":"x","adapter":"claude"},{"id":"x","adapter":"codex"}]}', /duplicate agent target id "x"[\s\S]*→ at agentTargets\[1\]\.id/],
		['mistyped key', '{"agentTarget":[]}', /Unrecognized key: "agentTarget"/],
		['mistyped target key', '{"agentTargets":[{"id":"x","adapter":"command","agrv":["a"]}]}', /agrv/],
		['zero parallelism', '{"maxParallelRuns":0}', /→ at maxParallelRuns/],
		['bad env name', '{"agentTargets":[{"id":"x","adapter":"command","argv":["a"],"env":{"A-B":"1"}}]}', /→ at agentTargets\[0\]\.env\["A-B"\]/],
	];
	for (const [name, text, message] of broken) {
		it(`refuses ${name}, naming the file`, () => {
			const error = rejection(text);
			assert.equal(error.reasonCode, 'invalid_input');
			assert.ok(error.message.startsWith(file), error.message);
			assert.match(error.message, message);
			assert.match(error.hint, /tutti host --workspace DIR/);
		});
	}

	it('loads from <tuttiDir>/config.json; a missing file means defaults', () => {
		const dir = makeTempDir('tutti-cfg-');
		try {
			assert.deepEqual(loadHostConfig(dir), defaultHostConfig());
			fs.writeFileSync(path.join(dir, 'config.json'), '{"maxParallelRuns":9}');
			assert.equal(loadHostConfig(dir).maxParallelRuns, 9);
		} finally {
			fs.rmSync(dir, { recursive: true, force: true });
		}
	});
});
