// codex app-server's requests as Tutti approvals and Tutti's answers as its decisions (src/agents/codexAppServerApprovals.ts).
import { strict as assert } from 'node:assert';
import {
	commandAsk, commandDecision, fileChangeAsk, fileChangeDecision, permissionsAsk, permissionsDecision, questionAnswers, questionAsk, unwrappedCommand,
} from '../../../src/agents/codexAppServerApprovals.js';

const ids = { threadId: 't1', turnId: 'u1', itemId: 'call_1' };
const allow = (updatedInput?: unknown): { behavior: 'allow'; updatedInput: unknown } => ({ behavior: 'allow', updatedInput });
const deny = (message: string): { behavior: 'deny'; message: string } => ({ behavior: 'deny', message });

describe('codex app-server approvals as Tutti approvals', () => {
	it('unwraps the shell Codex runs a command in, quotes included', () => {
		assert.equal(unwrappedCommand("/bin/bash -c 'echo hi > out.txt'"), 'echo hi > out.txt');
		assert.equal(unwrappedCommand("/bin/bash -lc 'echo '\\''quoted'\\'''"), "echo 'quoted'");
		assert.equal(unwrappedCommand('ls -la'), 'ls -la');
	});

	it('a command: asked as exec_command with its command, cwd and reason; one id per turn and item', () => {
		const asked = commandAsk({ ...ids, command: "/bin/bash -c 'make'", cwd: '/ws', reason: 'build it' });
		assert.deepEqual(asked, { tool: 'exec_command', input: { command: "/bin/bash -c 'make'", cwd: '/ws', reason: 'build it' }, toolUseId: 'u1/call_1' });
		assert.deepEqual(commandDecision(allow(), asked), { decision: 'accept' });
		assert.deepEqual(commandDecision(allow({ command: 'make' }), asked), { decision: 'accept' }, 'the same command, unwrapped');
		assert.deepEqual(commandDecision(deny('not now'), asked), { decision: 'decline', steer: 'The developer denied running `make`: not now' });
		assert.deepEqual(commandDecision(deny(''), asked), { decision: 'decline', steer: 'The developer denied running `make`.' });
		assert.deepEqual(commandDecision(allow({ command: 'make -j1' }), asked), {
			decision: 'decline', allowNext: 'make -j1',
			steer: 'The developer did not allow `make` as asked, and allows this command instead: `make -j1`. Run exactly that command.',
		});
	});

	it('a file change: asked as apply_patch with the changes of its item; a denial is declined with its note', () => {
		const changes = [{ path: '/ws/a.ts', kind: { type: 'add' }, diff: 'x\n' }];
		assert.deepEqual(fileChangeAsk({ ...ids, reason: null, grantRoot: null }, changes), { tool: 'apply_patch', input: { changes }, toolUseId: 'u1/call_1' });
		assert.deepEqual(fileChangeDecision(allow()), { decision: 'accept' });
		assert.deepEqual(fileChangeDecision(deny('no')), { decision: 'decline', steer: 'The developer denied the file change: no' });
	});

	it('a permissions request: granted as asked for the turn (null parts grant nothing), or nothing', () => {
		const asked = permissionsAsk({ ...ids, reason: 'network', permissions: { network: { enabled: true }, fileSystem: null } });
		assert.deepEqual(permissionsDecision(allow(), asked), { permissions: { network: { enabled: true } }, scope: 'turn' });
		assert.deepEqual(permissionsDecision(deny('no'), asked), { permissions: {}, scope: 'turn' });
	});

	it('a question: the answers given (a string or a list), else the first option; a denial answers with its message', () => {
		const questions = [
			{ id: 'color', header: 'Color', question: 'Which?', isOther: true, isSecret: false, options: [{ label: 'Red (Recommended)', description: '' }, { label: 'Blue', description: '' }] },
			{ id: 'name', header: 'Name', question: 'Name?', isOther: true, isSecret: false, options: null },
		];
		assert.deepEqual(questionAsk({ ...ids, questions }), { tool: 'request_user_input', input: { questions }, toolUseId: 'u1/call_1' });
		assert.deepEqual(questionAnswers(allow({ answers: { color: 'Blue', name: ['Ada', 'Lovelace'] } }), questions), { answers: { color: { answers: ['Blue'] }, name: { answers: ['Ada', 'Lovelace'] } } });
		assert.deepEqual(questionAnswers(allow(), questions), { answers: { color: { answers: ['Red (Recommended)'] }, name: { answers: [] } } });
		assert.deepEqual(questionAnswers(deny('ask me later'), questions), { answers: { color: { answers: ['ask me later'] }, name: { answers: ['ask me later'] } } });
	});
});
