// The board shows the disk each issue's worktrees use (real git, real trees on disk): the issue list answers at once
// with the last measurement and asks for a new one in the background when it is missing or a minute old; the
// measurement counts what `du` counts; an unchanged tree writes nothing; a tree that grew is measured again once the
// minute has passed, and an issue whose trees are removed no longer shows any.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, it } from 'mocha';
import { commandTarget, ServiceHarness } from '../../unit/host/services/serviceHarness.js';
import { initRepo } from './gitRepoKit.js';

/** What `du` says the folder uses, in bytes (GNU du: blocks of 1 byte, hard links once). */
function du(path: string): number {
	return Number(execFileSync('du', ['-s', '-B1', path], { encoding: 'utf8' }).split('\t')[0]);
}

describe('the disk of each issue\'s trees (real git)', function () {
	this.timeout(60_000);
	let h: ServiceHarness;
	afterEach(async () => { await h.close(); });

	it('measured in the background on a read of the list, as du counts it; written again only once old and changed; gone with its trees', async () => {
		h = await ServiceHarness.open({ config: { agentTargets: [commandTarget('iso', { isolation: 'worktree' })] } });
		initRepo(h.workspace);
		const issueId = (await h.call('issue/create', { title: 'Uses some disk' })).issueId;
		await h.call('task/add', { issueId, taskId: 'a', title: 'Write a lot', agentTargetId: 'iso', autoAccept: true });
		await h.idle();
		const launch = h.runs.launches.find((l) => l.taskId === 'a')!;
		writeFileSync(join(launch.cwd, 'big.bin'), Buffer.alloc(3 * 1024 * 1024, 7));
		h.runs.exit(launch.runId, { exitCode: 0 });
		await h.idle();

		const first = await h.call('issue/list', {});
		assert.equal(first.issues[0]!.worktreeDisk, null, 'the read does not wait for the walk');
		await h.idle();
		const measured = (await h.call('issue/list', {})).issues[0]!.worktreeDisk!;
		assert.equal(measured.trees, 1);
		assert.equal(measured.bytes, du(launch.cwd));
		assert.match(measured.label, /^1 tree · 3\.\d MB$/);

		// Within the minute nothing is measured again, even though the tree grew.
		writeFileSync(join(launch.cwd, 'more.bin'), Buffer.alloc(2 * 1024 * 1024, 7));
		await h.call('issue/list', {});
		await h.idle();
		assert.equal((await h.call('issue/list', {})).issues[0]!.worktreeDisk!.bytes, measured.bytes);
		// A minute later the read asks again, and the new size is written.
		h.clock.advance(60_000);
		await h.call('issue/list', {});
		await h.idle();
		const grown = (await h.call('issue/list', {})).issues[0]!.worktreeDisk!;
		assert.equal(grown.bytes, du(launch.cwd));
		assert.ok(grown.bytes > measured.bytes);

		// Integrated and finished with its trees removed (the extra file gone, so nothing uncommitted keeps the tree): no disk left to show.
		rmSync(join(launch.cwd, 'more.bin'));
		await h.call('issue/integrate', { issueId });
		await h.call('issue/finish', { issueId, removeWorktrees: true });
		h.clock.advance(60_000);
		await h.call('issue/list', {});
		await h.idle();
		assert.equal((await h.call('issue/list', {})).issues[0]!.worktreeDisk, null);
	});
});
