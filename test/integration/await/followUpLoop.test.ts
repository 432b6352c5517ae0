// Next steps after completion through the real CLI and Host: a `tutti next-action` loop of short calls
// while the developer's follow-up (`tutti follow-up`) lands between two calls; it is returned once, with the
// exact command that starts it, and that command works as printed.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import {
	expectOk, type HostHandle, managedIssue, type ManagedIssue, show, standardTargets, startHost, taskSpec,
} from '../harness.js';

const shortWait = { TUTTI_AWAIT_TIMEOUT_MS: '300', TUTTI_KEEPALIVE_MS: '100' };

interface AgentJson {
	ok: boolean;
	state?: string;
	advance_allowed?: boolean;
	note?: string;
	message?: string;
	next?: string;
}

/** The words of a printed shell command, as a POSIX shell splits them. */
function shellWords(command: string): string[] {
	const out = execFileSync('sh', ['-c', 'eval "set -- $1"; for a in "$@"; do printf "%s\\0" "$a"; done', 'sh', command], { encoding: 'utf8' });
	return out.split('\0').slice(0, -1);
}

describe('follow-up after completion through the CLI', function () {
	this.timeout(60_000);
	let host: HostHandle;
	let issue: ManagedIssue;

	before(async () => {
		host = await startHost({ config: (gates) => ({ agentTargets: standardTargets(gates), maxParallelRuns: 4, developerConfirmation: false, autoAcceptDefault: true } as never) });
		issue = await managedIssue(host);
	});
	after(async () => { await host.dispose(); });

	async function agent(args: string[]): Promise<{ code: number; json: AgentJson; stdout: string }> {
		const result = await issue.cli(args, { env: shortWait });
		const lines = result.stdout.trim().split('\n');
		assert.equal(lines.length, 1, `exactly one JSON document on stdout: ${show(result)}`);
		return { code: result.code, json: JSON.parse(lines[0]!) as AgentJson, stdout: result.stdout };
	}

	it('a follow-up picked between two next-action calls is returned once, with a command that starts it', async () => {
		await issue.addTasks(taskSpec('a', 'ok', [], { autoAccept: true }));
		await issue.scheduleOk(['a']);
		let snapshot = await issue.get();
		for (let calls = 0; snapshot.activeCheckpoint?.kind !== 'all_tasks_terminal'; calls++) {
			assert.ok(calls < 60, 'the terminal checkpoint arrives');
			if (snapshot.activeCheckpoint === null) {
				await agent(['plan', 'issue', 'await', '--issue-id', issue.issueId]);
			} else {
				await issue.acknowledgeOk();
			}
			snapshot = await issue.get();
		}
		await issue.completeOk();

		const self = `tutti next-action --issue-id ${issue.issueId}`;
		const waiting = await agent(['next-action', '--issue-id', issue.issueId]);
		assert.equal(waiting.code, 0);
		assert.equal(waiting.json.state, 'waiting');
		assert.equal(waiting.json.next, self);

		// The developer picks a follow-up while no call is waiting.
		const text = "Add a dark-mode toggle; keep the user's choice";
		const picked = expectOk(await host.cli(['follow-up', '--issue-id', issue.issueId, '--text', text, '--as-user', '--json'])) as { followUpId: string; next: string; replayed: boolean };
		assert.equal(picked.replayed, false);
		// An agent session may not pick it.
		const forbidden = await issue.cli(['follow-up', '--issue-id', issue.issueId, '--text', 'x', '--json']);
		assert.notEqual(forbidden.code, 0, show(forbidden));

		const offered = await agent(['next-action', '--issue-id', issue.issueId]);
		assert.equal(offered.code, 0);
		assert.equal(offered.json.state, 'follow_up');
		assert.equal(offered.json.advance_allowed, true);
		assert.equal(offered.json.note, text);
		assert.equal(offered.json.next, picked.next);
		assert.match(offered.json.next ?? '', /^tutti plan issue create --title 'Follow-up: Add a dark-mode toggle; keep the user'\\''s choice' --content .* --request-id \S+ --json$/);

		// Not offered twice: the next call waits again.
		const after = await agent(['next-action', '--issue-id', issue.issueId]);
		assert.equal(after.json.state, 'waiting');
		assert.equal(after.json.next, self);

		// The command works exactly as printed (run by the source session): a new managed issue with the text.
		const words = shellWords(offered.json.next ?? '');
		assert.equal(words[0], 'tutti');
		const created = expectOk(await issue.cli(words.slice(1))) as { issueId: string; replayed: boolean };
		assert.notEqual(created.issueId, issue.issueId);
		const again = expectOk(await issue.cli(words.slice(1))) as { issueId: string; replayed: boolean };
		assert.deepEqual({ issueId: again.issueId, replayed: again.replayed }, { issueId: created.issueId, replayed: true });
		const shown = expectOk(await host.cli(['issue', 'get', '--issue-id', created.issueId, '--as-user', '--json'])) as { issue?: { content?: string }; content?: string };
		assert.equal(shown.issue?.content ?? shown.content, text);

		// Finish ends the loop for the completed issue.
		expectOk(await host.cli(['finish', '--issue-id', issue.issueId, '--as-user', '--json']));
		assert.equal((await agent(['next-action', '--issue-id', issue.issueId])).json.state, 'finished');
		const late = await host.cli(['follow-up', '--issue-id', issue.issueId, '--text', 'late', '--as-user', '--json']);
		assert.notEqual(late.code, 0, 'Finish recorded first wins');
	});
});
