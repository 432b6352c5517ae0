// Security: a developer's pause or stop is lifted only by the developer. The Host records who paused an issue; the
// source session's resume (`plan issue resume`, or its compat form `issue update --dispatch-paused=false`) lifts a
// pause of its own (`plan issue pause`) and is refused `paused_by_developer` for the developer's, with a hint that
// says so and never hands the agent a developer command. Real Host, real CLI.
import { strict as assert } from 'node:assert';
import {
	type CliResult, type HostHandle, type ManagedIssue, expectError, expectOk, issueGet, managedIssue, shareHost, taskSpec,
} from '../integration/harness.js';

describe('security: who lifts a pause', function () {
	let host: HostHandle;
	shareHost((h) => { host = h; });

	const asUser = (words: string[]): Promise<CliResult> => host.cli([...words, '--json'], { asUser: true });
	/** The source session's two resume forms, each with its own token. */
	const sourceResumes = (issue: ManagedIssue): Promise<CliResult>[] => [
		issue.resume(),
		issue.cli(['issue', 'update', '--issue-id', issue.issueId, '--dispatch-paused=false', '--json']),
	];

	async function expectDeveloperPauseHolds(issue: ManagedIssue, what: string): Promise<void> {
		for (const attempt of await Promise.all(sourceResumes(issue))) {
			const error = expectError(attempt, 'paused_by_developer', 1);
			assert.match(error.message, /the developer paused issue .*; it stays paused until they resume it/, `${what}: ${error.message}`);
			assert.match(error.hint, /^The developer paused this issue .*it stays paused until they resume it/, `${what}: ${error.hint}`);
			assert.doesNotMatch(error.hint, /--as-user|tutti issue resume/, `${what}: the hint never hands the agent the developer's command`);
		}
		const after = await issueGet(host, issue.issueId);
		assert.equal(after.dispatchPaused, true, `${what}: the issue stays paused`);
		assert.equal(after.pausedBy, 'developer', `${what}: the issue says who paused it`);
		const plan = await issue.get();
		assert.ok(!plan.allowedActions.includes('resume'), `${what}: resume is not the source's action (${plan.allowedActions})`);
		assert.match(plan.recoveryHint, /^The developer paused this issue; it stays paused until they resume it/);
		// Scheduling is refused the same way, never with a hint to resume.
		const schedule = expectError(await issue.schedule(['a']), 'paused_by_developer', 1);
		assert.doesNotMatch(schedule.hint, /plan issue resume/);
	}

	it("the developer's pause: the source's resume is refused in both forms; the developer's resume lifts it", async function () {
		const issue = await managedIssue(host, 'Paused by the developer');
		await issue.addTasks(taskSpec('a'));
		expectOk(await asUser(['issue', 'pause', '--issue-id', issue.issueId]));
		await expectDeveloperPauseHolds(issue, 'issue pause');

		expectOk(await asUser(['issue', 'resume', '--issue-id', issue.issueId]));
		const resumed = await issueGet(host, issue.issueId);
		assert.equal(resumed.dispatchPaused, false);
		assert.equal(resumed.pausedBy, undefined, 'nobody holds a pause once dispatch runs');
	});

	it("the developer's stop: the source's resume is refused in both forms; the developer's resume lifts it", async function () {
		const issue = await managedIssue(host, 'Stopped by the developer');
		await issue.addTasks(taskSpec('a'));
		expectOk(await asUser(['issue', 'stop', '--issue-id', issue.issueId]));
		await expectDeveloperPauseHolds(issue, 'issue stop');

		expectOk(await asUser(['issue', 'resume', '--issue-id', issue.issueId]));
		assert.equal((await issueGet(host, issue.issueId)).dispatchPaused, false);
		await issue.scheduleOk(['a']);
	});

	it("the source's own pause: its resume lifts it (both forms); the developer's resume lifts it too", async function () {
		const issue = await managedIssue(host, 'Paused by its source');
		await issue.addTasks(taskSpec('a'));
		for (const resume of [
			() => issue.resume(),
			() => issue.cli(['issue', 'update', '--issue-id', issue.issueId, '--dispatch-paused=false', '--json']),
			() => asUser(['issue', 'resume', '--issue-id', issue.issueId]),
		]) {
			expectOk(await issue.cli(['plan', 'issue', 'pause', '--issue-id', issue.issueId, '--json']));
			const paused = await issueGet(host, issue.issueId);
			assert.equal(paused.dispatchPaused, true);
			assert.equal(paused.pausedBy, 'source');
			assert.ok((await issue.get()).allowedActions.includes('resume'), "resume is the source's action for its own pause");
			expectOk(await resume());
			assert.equal((await issueGet(host, issue.issueId)).dispatchPaused, false);
		}
	});

	it("the developer pausing over the source's pause makes it the developer's", async function () {
		const issue = await managedIssue(host, 'Paused twice');
		await issue.addTasks(taskSpec('a'));
		expectOk(await issue.cli(['plan', 'issue', 'pause', '--issue-id', issue.issueId, '--json']));
		expectOk(await asUser(['issue', 'pause', '--issue-id', issue.issueId]));
		await expectDeveloperPauseHolds(issue, 'a pause over the source\'s');
	});
});
