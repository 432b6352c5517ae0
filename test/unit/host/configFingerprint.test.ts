// The fingerprint of .tutti/config.json kept in the known-stores record, and how a change is named.
import assert from 'node:assert/strict';
import { absentConfigSha256, configChange, fingerprintConfig } from '../../../src/host/configFingerprint.js';

const bytes = (value: unknown, indent?: number): Buffer => Buffer.from(JSON.stringify(value, null, indent));
const sh = { id: 'sh', adapter: 'command', argv: ['sh', '-c', 'true'] };
const claude = { id: 'claude', adapter: 'claude' };

describe('host/configFingerprint', () => {
	it('hashes the bytes (SHA-256), and a missing file has its own value', () => {
		assert.equal(fingerprintConfig(Buffer.from('{}')).sha256, '44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a');
		assert.equal(fingerprintConfig(undefined).sha256, absentConfigSha256);
		assert.notEqual(fingerprintConfig(Buffer.from('')).sha256, absentConfigSha256, 'an empty file is not a missing one');
	});

	it('names the settings and the agent targets that changed, were added or removed', () => {
		const before = fingerprintConfig(bytes({ agentTargets: [sh, claude], maxParallelRuns: 2 }));
		assert.equal(configChange(before, fingerprintConfig(bytes({ agentTargets: [{ ...sh, argv: ['sh', '-c', 'evil'] }, claude], maxParallelRuns: 2 }))), 'agentTargets (sh)');
		assert.equal(configChange(before, fingerprintConfig(bytes({ agentTargets: [sh], maxParallelRuns: 2, worktreeSetup: ['npm', 'ci'] }))), 'agentTargets (claude), worktreeSetup');
		assert.equal(configChange(before, fingerprintConfig(bytes({ agentTargets: [sh, claude, { id: 'x', adapter: 'codex' }], maxParallelRuns: 3 }))), 'agentTargets (x), maxParallelRuns');
		assert.equal(configChange(before, fingerprintConfig(undefined)), 'the file was removed');
		assert.equal(configChange(fingerprintConfig(undefined), before), 'the file was added (agentTargets, maxParallelRuns)');
	});

	it('the same settings in other spacing or key order are no change; no record is one only when there is a file', () => {
		const before = fingerprintConfig(bytes({ agentTargets: [sh], maxParallelRuns: 2 }));
		const reordered = fingerprintConfig(bytes({ maxParallelRuns: 2, agentTargets: [{ argv: sh.argv, adapter: sh.adapter, id: sh.id }] }, 4));
		assert.notEqual(reordered.sha256, before.sha256);
		assert.equal(configChange(before, reordered), undefined);
		assert.equal(configChange(before, before), undefined);
		assert.equal(configChange(undefined, fingerprintConfig(undefined)), undefined);
		assert.match(configChange(undefined, before) ?? '', /no record/);
	});
});
