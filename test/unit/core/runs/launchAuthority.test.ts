// The narrower/wider rule of launch settings (pure): each adapter's mode order, a target's configured default (its
// own args), and what counts as an agent widening a task (a changed or new setting only).
import assert from 'node:assert/strict';
import { claudePermissionModes } from '../../../../src/agents/claude.js';
import { codexSandboxModes } from '../../../../src/agents/codex.js';
import { launchWidening, permissionModeOrder, permissionModeStanding, targetDefaultPermissionMode } from '../../../../src/core/runs/launchAuthority.js';

const codex = (args?: string[]) => ({ adapter: 'codex' as const, ...(args ? { args } : {}) });
const claude = (args?: string[]) => ({ adapter: 'claude' as const, ...(args ? { args } : {}) });

describe('launch authority: narrower and wider permission modes', function () {
	it('orders exactly the modes each adapter accepts', function () {
		assert.deepEqual([...permissionModeOrder.claude].sort(), [...claudePermissionModes].sort());
		assert.deepEqual([...permissionModeOrder.codex].sort(), [...codexSandboxModes].sort());
	});

	it("reads a target's default from its own args, else the adapter's", function () {
		assert.equal(targetDefaultPermissionMode(codex()), 'workspace-write');
		assert.equal(targetDefaultPermissionMode(claude()), 'default');
		assert.equal(targetDefaultPermissionMode({ adapter: 'command' }), '');
		for (const args of [['--sandbox', 'danger-full-access'], ['--sandbox=danger-full-access'], ['-s', 'danger-full-access'], ['-sdanger-full-access'],
			['--dangerously-bypass-approvals-and-sandbox'], ['--yolo'], ['-c', 'sandbox_mode="danger-full-access"']]) {
			assert.equal(targetDefaultPermissionMode(codex(args)), 'danger-full-access', args.join(' '));
		}
		assert.equal(targetDefaultPermissionMode(codex(['-s', 'read-only'])), 'read-only');
		assert.equal(targetDefaultPermissionMode(codex(['-s', 'nonsense'])), 'workspace-write', 'an unknown mode falls back to the default');
		assert.equal(targetDefaultPermissionMode(claude(['--permission-mode', 'acceptEdits'])), 'acceptEdits');
		assert.equal(targetDefaultPermissionMode(claude(['--permission-mode=plan', '--permission-mode', 'auto'])), 'auto', 'the last one wins');
		assert.equal(targetDefaultPermissionMode(claude(['--dangerously-skip-permissions'])), 'bypassPermissions');
	});

	it('a mode no wider than the default is within; a wider one names the default and the narrower choices', function () {
		assert.deepEqual(permissionModeStanding(codex(), 'read-only'), { kind: 'within' });
		assert.deepEqual(permissionModeStanding(codex(), ''), { kind: 'within' });
		assert.deepEqual(permissionModeStanding(codex(), 'danger-full-access'), { kind: 'wider', targetDefault: 'workspace-write', narrower: ['read-only', 'workspace-write'] });
		assert.deepEqual(permissionModeStanding(codex(['--yolo']), 'danger-full-access'), { kind: 'within' });
		for (const mode of ['dontAsk', 'plan', 'default']) { assert.deepEqual(permissionModeStanding(claude(), mode), { kind: 'within' }, mode); }
		for (const mode of ['acceptEdits', 'auto', 'bypassPermissions']) { assert.equal(permissionModeStanding(claude(), mode).kind, 'wider', mode); }
		assert.equal(permissionModeStanding(claude(), 'yolo').kind, 'unknown');
		assert.deepEqual(permissionModeStanding({ adapter: 'command' }, 'anything'), { kind: 'within' }, 'a command target never gets a mode');
	});

	it('only a new or changed setting is the agent\'s widening; a rework (no before) answers for what it inherits', function () {
		const wide = { agentTargetId: 'codex', permissionModeId: 'danger-full-access', autoAccept: false };
		assert.equal(launchWidening(wide, wide, codex(), false), null, 'left as it was');
		assert.equal(launchWidening(wide, undefined, codex(), false)?.field, 'permissionModeId', 'new, or inherited by a rework');
		assert.equal(launchWidening(wide, { ...wide, agentTargetId: 'other' }, codex(), false)?.field, 'permissionModeId', 'moved to this target');
		assert.equal(launchWidening({ ...wide, permissionModeId: '' }, wide, codex(), false), null, 'narrowing');
		assert.equal(launchWidening(wide, undefined, undefined, false), null, 'no target: it cannot launch (a target set later clears the mode)');
		const accepting = { agentTargetId: 'codex', permissionModeId: '', autoAccept: true };
		assert.deepEqual(launchWidening(accepting, undefined, codex(), false), { field: 'autoAccept', requested: true });
		assert.equal(launchWidening(accepting, undefined, codex(), true), null, "the issue's default already accepts");
		assert.equal(launchWidening(accepting, accepting, codex(), false), null);
	});
});
