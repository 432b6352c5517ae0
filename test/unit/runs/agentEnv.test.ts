import assert from 'node:assert/strict';
import { delimiter } from 'node:path';
import { agentEnvAdditions, agentEnvironment, agentSearchPath, inheritableEnv } from '../../../src/host/runs/agentEnv.js';

const hostEnv = {
	PATH: '/usr/bin', HOME: '/home/u', GITHUB_TOKEN: 'gh',
	TUTTI_USER_TOKEN: 'user-secret', TUTTI_SESSION_TOKEN: 'host-session', TUTTI_IPC_HOOK: '/old.sock',
	tutti_lowercase: 'x', ELECTRON_RUN_AS_NODE: '1', UNDEF: undefined,
};

describe('agent environment', () => {
	it('never inherits TUTTI_* (credentials, another session’s token) or ELECTRON_RUN_AS_NODE from the Host', () => {
		assert.deepEqual(inheritableEnv(hostEnv), { PATH: '/usr/bin', HOME: '/home/u', GITHUB_TOKEN: 'gh' });
		assert.deepEqual(inheritableEnv(hostEnv, ['GITHUB_TOKEN']), { PATH: '/usr/bin', HOME: '/home/u' });
	});

	it('adds the target env, then the Run’s TUTTI_* variables over it', () => {
		const env = agentEnvironment({
			hostEnv,
			targetEnv: { MODE: 'fast', TUTTI_RUN_ID: 'forged' },
			runEnv: { TUTTI_RUN_ID: 'run-1', TUTTI_SESSION_TOKEN: 'agent-token' },
		});
		assert.equal(env.MODE, 'fast');
		assert.equal(env.TUTTI_RUN_ID, 'run-1');
		assert.equal(env.TUTTI_SESSION_TOKEN, 'agent-token');
		assert.equal(env.TUTTI_USER_TOKEN, undefined);
		assert.equal(env.TUTTI_IPC_HOOK, undefined);
		assert.equal(env.PATH, '/usr/bin');
	});

	it('puts the shim directory first on PATH, also over a target PATH', () => {
		assert.equal(agentEnvAdditions({ hostEnv, targetEnv: {}, runEnv: {}, shimDir: '/ws/.tutti/bin' }).PATH, `/ws/.tutti/bin${delimiter}/usr/bin`);
		assert.equal(agentEnvAdditions({ hostEnv, targetEnv: { PATH: '/opt/bin' }, runEnv: {}, shimDir: '/s' }).PATH, `/s${delimiter}/opt/bin`);
		assert.equal(agentEnvAdditions({ hostEnv: {}, targetEnv: {}, runEnv: {}, shimDir: '/s' }).PATH, '/s');
		assert.equal(agentEnvAdditions({ hostEnv, targetEnv: {}, runEnv: {} }).PATH, '/usr/bin');
		assert.equal(agentEnvAdditions({ hostEnv: {}, targetEnv: {}, runEnv: {} }).PATH, undefined);
	});

	it('drops relative, empty and .tutti PATH entries (repository content), keeping the order of the rest', () => {
		const messy = ['', '.', 'bin', '/ws/.tutti/bin', '/ws/.tutti', '/usr/local/bin', '/ws/.tuttiX', '/usr/bin', '/usr/local/bin'].join(delimiter);
		assert.equal(
			agentEnvAdditions({ hostEnv: { PATH: messy }, targetEnv: {}, runEnv: {}, shimDir: '/private/bin', tuttiDir: '/ws/.tutti' }).PATH,
			['/private/bin', '/usr/local/bin', '/ws/.tuttiX', '/usr/bin'].join(delimiter),
		);
		assert.deepEqual(agentSearchPath({ hostEnv: { PATH: messy }, targetEnv: { PATH: `.${delimiter}/opt/bin` }, runEnv: {}, tuttiDir: '/ws/.tutti' }).entries, ['/opt/bin']);
	});
});
