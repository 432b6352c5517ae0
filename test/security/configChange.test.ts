// Security: a `.tutti/config.json` that changed since this store's Host last started here runs nothing by itself.
// The file is repository content (a clone or a pull delivers it, an agent in the workspace can edit it) and defines
// the commands agents run; it used to take effect at the next `tutti host` with no word from the developer. Now the
// machine-local record of the known store keeps the fingerprint of the config its Host started with, and a start
// with a config whose settings differ pauses every issue through the developer's own pause (an agent's pause is
// taken over), says what changed on the ready line, in `hello` and in the log, and launches nothing of them until
// the developer resumes. An unchanged config (or one only reformatted) changes nothing; issues created after the
// start run with the config the developer started the Host with.
import { strict as assert } from 'node:assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { protocolVersion } from '../../src/protocol/controlPlane.js';
import type { RunDto } from '../../src/protocol/dto.js';
import {
	type AgentTarget, type HostConfig, type HostHandle, type ManagedIssue, expectError, expectOk, issueGet, managedIssue, manualIssue,
	startHost, taskSpec, waitFor,
} from '../integration/harness.js';
import { addManualTask, holderTarget, rawPost, recordOf, recorderTarget, settledRunOf, userCredentialOf } from './securityKit.js';

const headline = /`\.tutti\/config\.json` changed since Tutti last ran here: nothing runs until you resume\./;
const bypass = '--dangerously-bypass-approvals-and-sandbox';

describe('security: a changed .tutti/config.json runs nothing until the developer resumes', function () {
	this.timeout(120_000);
	let records: string;
	let host: HostHandle;
	let rec: AgentTarget;
	let configFile: string;
	let sourced: ManagedIssue;
	let queued: string;
	let held: string;

	const configWith = (target: AgentTarget): HostConfig => ({ agentTargets: [target, holderTarget('hold', records)], maxParallelRuns: 1 });
	const write = (config: HostConfig, indent: string | number = '\t'): void => writeFileSync(configFile, JSON.stringify(config, null, indent));
	const runsOf = async (issueId: string): Promise<RunDto[]> =>
		expectOk<{ runs: RunDto[] }>(await host.cli(['run', 'list', '--issue-id', issueId, '--json'], { asUser: true })).runs;
	const helloNotice = async (): Promise<string | undefined> => {
		const hello = await rawPost(host.socket, 'hello', userCredentialOf(host), { client: 'security-test', protocol: protocolVersion });
		return (JSON.parse(hello.body) as { result?: { notice?: string } }).result?.notice;
	};

	before(async function () {
		records = mkdtempSync(join(tmpdir(), 'tutti-sec-config-'));
		rec = recorderTarget('rec', records);
		host = await startHost({ config: configWith(rec) });
		configFile = join(host.workspace, '.tutti', 'config.json');
		assert.equal(host.notice, undefined, `a store this Host created starts with its config recorded, no notice (${host.notice})`);
		// A managed issue whose source added a task and paused the issue itself (a pause its own resume lifts).
		sourced = await managedIssue(host, 'Paused by its source');
		await sourced.addTasks(taskSpec('s1', 'rec'));
		expectOk(await sourced.cli(['plan', 'issue', 'pause', '--issue-id', sourced.issueId, '--json']));
		// One Run holds the only slot; a task of another issue waits for it: a queued task.
		held = await manualIssue(host, 'Holds the slot');
		await addManualTask(host, held, 'h1', ['--content', 'hold', '--agent-target-id', 'hold']);
		await waitFor(() => recordOf(records, 'h1'), { what: 'the holder to start' });
		queued = await manualIssue(host, 'Queued');
		await addManualTask(host, queued, 'q1', ['--content', 'waits for the slot', '--agent-target-id', 'rec']);
		assert.deepEqual(await runsOf(queued), [], 'q1 waits for the slot');
	});

	after(async function () {
		await host?.dispose();
		rmSync(records, { recursive: true, force: true });
	});

	it('an unchanged config, or one only reformatted, changes nothing', async function () {
		await host.restart();
		assert.equal(host.notice, undefined, `same bytes: no notice (${host.notice})`);
		write(configWith(rec), 2);
		await host.restart();
		assert.equal(host.notice, undefined, `same settings, other spacing: no notice (${host.notice})`);
		assert.equal((await issueGet(host, queued)).dispatchPaused, false, 'the queued issue is not paused');
		assert.equal((await issueGet(host, held)).dispatchPaused, false);
		assert.equal((await issueGet(host, sourced.issueId)).pausedBy, 'source', "the source's pause stays the source's");
	});

	it('a target that gained a bypass flag: every issue paused, the change named, nothing launched until the developer resumes', async function () {
		await host.stop();
		const widened: AgentTarget = { ...rec, argv: [...rec.argv!, bypass] };
		write(configWith(widened)); // what a pull (or an agent in the workspace) can write
		await host.start();
		assert.match(host.notice ?? '', headline, 'the ready line says the config changed');
		assert.match(host.notice ?? '', /What changed: agentTargets \(rec\)\./, `it names what changed (${host.notice})`);
		assert.match(host.notice ?? '', /if you changed it yourself, just resume/);
		assert.match(await helloNotice() ?? '', headline, 'hello says so too');
		assert.match(host.stderr, headline, "and so does the Host's log");
		for (const issueId of [queued, held, sourced.issueId]) {
			const issue = await issueGet(host, issueId);
			assert.equal(issue.dispatchPaused, true, `${issue.title} is paused`);
			assert.equal(issue.pausedBy, 'developer', `${issue.title}: the developer's pause, which no agent lifts`);
		}
		expectError(await sourced.resume(), 'paused_by_developer', 1);

		// The slot frees; a dispatcher pass happens (an issue created after the start runs, with the new config)...
		writeFileSync(join(records, 'h1.release'), '');
		await settledRunOf(host, held, 'h1');
		const fresh = await manualIssue(host, 'Created after the start');
		await addManualTask(host, fresh, 'n1', ['--content', 'runs at once', '--agent-target-id', 'rec']);
		const n1 = await waitFor(() => recordOf(records, 'n1'), { what: 'a task of an issue created after the start to run' });
		assert.ok(n1.argv.includes(bypass), `it ran with the config the developer started the Host with (${n1.argv.join(' ')})`);
		// ...and nothing of the paused issues launched.
		assert.deepEqual(await runsOf(queued), [], 'the queued task did not start');
		assert.equal(recordOf(records, 'q1'), undefined);
		assert.equal(recordOf(records, 's1'), undefined);

		// The developer's resume: the queued task runs, with the new config.
		expectOk(await host.cli(['issue', 'resume', '--issue-id', queued, '--json'], { asUser: true }));
		const q1 = await waitFor(() => recordOf(records, 'q1'), { what: 'the queued task to run after the developer resumed' });
		assert.ok(q1.argv.includes(bypass), q1.argv.join(' '));
		expectOk(await host.cli(['issue', 'resume', '--issue-id', sourced.issueId, '--json'], { asUser: true }));
		expectOk(await host.cli(['issue', 'resume', '--issue-id', held, '--json'], { asUser: true }));
		assert.equal(await helloNotice(), undefined, 'once every paused issue is resumed, hello no longer says nothing runs');
		await sourced.scheduleOk(['s1']);
		await waitFor(() => recordOf(records, 's1'), { what: "the source's task to run once the developer resumed" });
	});

	it('once the Host started with it, the new config is the recorded one: the next start pauses nothing', async function () {
		await host.restart();
		assert.equal(host.notice, undefined, `no notice (${host.notice})`);
		assert.equal((await issueGet(host, queued)).dispatchPaused, false, "the developer's resume stands");
	});

	it('a change saved while the Host runs is applied by the same start: every issue paused, no agent lifts it', async function () {
		const saved = await manualIssue(host, 'Saved while the Host ran');
		const flag = '--saved-while-running';
		await host.applyConfig(configWith({ ...rec, argv: [...rec.argv!, bypass, flag] }));
		assert.match(host.stderr, /`\.tutti\/config\.json` changed while Tutti ran: nothing new runs until you resume\. What changed: agentTargets \(rec\)\./, host.stderr);
		assert.match(await helloNotice() ?? '', /changed while Tutti ran/, 'hello says so');
		for (const issueId of [saved, queued, held, sourced.issueId]) {
			const issue = await issueGet(host, issueId);
			assert.equal(issue.dispatchPaused, true, `${issue.title} is paused`);
			assert.equal(issue.pausedBy, 'developer', `${issue.title}: the developer's pause, which no agent lifts`);
		}
		expectError(await sourced.resume(), 'paused_by_developer', 1);
		await addManualTask(host, saved, 'w1', ['--content', 'waits for the developer', '--agent-target-id', 'rec']);
		assert.deepEqual(await runsOf(saved), [], 'a task of a paused issue does not start');
		expectOk(await host.cli(['issue', 'resume', '--issue-id', saved, '--json'], { asUser: true }));
		const w1 = await waitFor(() => recordOf(records, 'w1'), { what: 'the task to run once the developer resumed' });
		assert.ok(w1.argv.includes(flag), `it runs with the saved config (${w1.argv.join(' ')})`);
	});
});
