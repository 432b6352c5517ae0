// Messages into a running claude Turn over a real Host (killed with -9 and restarted) and real supervisors, with a
// stand-in `claude` that speaks stream-json and holds its Turn until the test releases it: messages written into the
// Turn are consumed (replayed, and listed in the result) only on release, so "written, not yet echoed" is a state the
// test controls. The guarantee checked: a message is delivered exactly once and in order across a Host death between
// the write and the echo; the agent's stdin belongs to the supervisor, so a Host started later still reaches it.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { appendQueueEntry } from '../../../src/host/runs/messages/queueFile.js';
import type { Result } from '../../../src/protocol/controlPlane.js';
import { expectOk, type HostConfig, type HostHandle, issueGet, manualIssue, methods, runGet, startHost, waitFor } from '../harness.js';

/**
 * Replays its prompt at once; holds later messages until the release file exists, then replays them in order and
 * ends the Turn with a result listing every message it consumed. A message after the result starts another Turn
 * in the same process (as Claude Code does). Exits when stdin closes, but not before the linger file exists.
 */
const holdingClaude = `#!${process.execPath}
const fs = require('fs');
const args = process.argv.slice(2);
const at = args.indexOf('--session-id') >= 0 ? args.indexOf('--session-id') : args.indexOf('--resume');
const sid = args[at + 1];
const out = (o) => process.stdout.write(JSON.stringify(o) + '\\n');
out({ type: 'system', subtype: 'init', session_id: sid });
const held = [];
const seen = [];
let prompt = null;
let ended = false;
const replay = (m) => { out({ type: 'user', isReplay: true, uuid: m.uuid, session_id: sid, message: m.message }); seen.push(m.message.content[0].text); };
const result = () => out({ type: 'result', subtype: 'success', is_error: false, session_id: sid, result: JSON.stringify({ prompt: prompt.slice(-60), seen }), usage: { input_tokens: 1, output_tokens: 1 } });
require('readline').createInterface({ input: process.stdin }).on('line', (line) => {
	const m = JSON.parse(line);
	if (prompt === null) { prompt = m.message.content[0].text; out({ type: 'user', isReplay: true, uuid: m.uuid, session_id: sid, message: m.message }); return; }
	if (ended) { replay(m); result(); return; }
	held.push(m);
}).on('close', () => {
	const leave = setInterval(() => { if (fs.existsSync(process.env.FAKE_LINGER_FLAG)) { clearInterval(leave); process.exit(0); } }, 25);
});
const hold = setInterval(() => {
	if (prompt === null || !fs.existsSync(process.env.FAKE_RELEASE_FLAG)) { return; }
	clearInterval(hold);
	for (const m of held.splice(0)) { replay(m); }
	ended = true;
	result();
}, 25);
`;

interface TurnReport { prompt: string; seen: string[] }

describe('messages into a running claude Turn across a Host kill -9 (stand-in claude, real supervisors)', function () {
	this.timeout(120_000);
	let host: HostHandle;
	let release: string;
	let linger: string;

	beforeEach(async () => {
		host = await startHost({
			// The harness types its config for command targets; the Host itself validates every adapter.
			config: (gateDir): HostConfig => {
				const fake = join(gateDir, 'holding-claude');
				writeFileSync(fake, holdingClaude);
				chmodSync(fake, 0o755);
				release = join(gateDir, 'release.flag');
				linger = join(gateDir, 'linger.flag');
				return { agentTargets: [{ id: 'cc', adapter: 'claude', path: fake, env: { FAKE_RELEASE_FLAG: release, FAKE_LINGER_FLAG: linger } }], maxParallelRuns: 4 } as unknown as HostConfig;
			},
		});
	});
	afterEach(async () => {
		writeFileSync(release, 'x');
		writeFileSync(linger, 'x');
		await host.dispose();
	});

	async function startRun(): Promise<string> {
		const issueId = await manualIssue(host, 'live messages', true);
		methods['task/add'].result.parse(expectOk(await host.cli(['issue', 'task', 'add', '--issue-id', issueId, '--task-id', 'a', '--title', 'a',
			'--content', 'hold on', '--agent-target-id', 'cc', '--json'], { asUser: true })));
		const runId = await waitFor(async () => (await issueGet(host, issueId)).tasks[0]?.latestRunId || undefined, { what: 'the Run' });
		await waitFor(() => existsSync(join(host.workspace, '.tutti', 'runs', runId, 'pid.json')) || undefined, { what: 'the agent to start' });
		return runId;
	}

	async function send(runId: string, text: string): Promise<Result<'run/send'>> {
		return methods['run/send'].result.parse(expectOk(await host.cli(['run', 'send', '--run-id', runId, '--text', text, '--json'], { asUser: true })));
	}

	async function queue(runId: string): Promise<Result<'run/queue'>> {
		return methods['run/queue'].result.parse(expectOk(await host.cli(['run', 'queue', '--run-id', runId, '--json'], { asUser: true })));
	}

	async function settled(runId: string): Promise<Result<'run/get'>> {
		return waitFor(async () => { const run = await runGet(host, runId); return run.status !== 'running' ? run : undefined; }, { what: `run ${runId} to settle`, timeoutMs: 60_000 });
	}

	const processDir = (id: string): string => join(host.workspace, '.tutti', 'runs', id);

	it('Host killed between the write and the echo: the message is delivered once, in that Turn, and never again', async () => {
		const runId = await startRun();
		assert.equal((await send(runId, 'M1 written before the kill')).delivery, 'into-turn');
		await waitFor(async () => ((await queue(runId)).messages[0]?.state === 'sent' ? true : undefined), { what: 'M1 written into the Turn' });

		await host.kill9();
		writeFileSync(linger, 'x');
		writeFileSync(release, 'x');
		// The Turn consumes M1, ends, and its supervisor records the exit while no Host runs.
		await waitFor(() => existsSync(join(processDir(runId), 'exit.json')) || undefined, { what: 'the Turn to end without a Host' });
		await host.start();

		const run = await settled(runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], run.errorMessage);
		assert.deepEqual((JSON.parse(run.summary) as TurnReport).seen, ['M1 written before the kill']);
		assert.equal(existsSync(processDir(`${runId}.t2`)), false, 'no resume Turn repeats it');
		assert.deepEqual((await queue(runId)).messages.map((m) => [m.text, m.state]), [['M1 written before the kill', 'delivered']]);
	});

	it('the supervisor keeps the agent\'s stdin across the restart: messages from both Hosts reach the same Turn in order', async () => {
		const runId = await startRun();
		assert.equal((await send(runId, 'one')).delivery, 'into-turn');
		await waitFor(async () => ((await queue(runId)).messages[0]?.state === 'sent' ? true : undefined), { what: 'one written' });
		await host.kill9();
		// A Host that died after recording a send and before handing it over: the next Host hands it over.
		appendQueueEntry(processDir(runId), { type: 'message', messageId: 'msg-appended-before-death', text: 'two', atUnixMs: Date.now() });
		await host.start();
		assert.equal((await send(runId, 'three')).delivery, 'into-turn');
		await waitFor(async () => ((await queue(runId)).messages.every((m) => m.state === 'sent') ? true : undefined), { what: 'all three written' });
		// run get carries them too while the Run runs (the panel's message box draws them).
		assert.deepEqual((await runGet(host, runId)).messages?.map((m) => [m.text, m.state]), [['one', 'sent'], ['two', 'sent'], ['three', 'sent']]);
		writeFileSync(release, 'x');
		writeFileSync(linger, 'x');

		const run = await settled(runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], run.errorMessage);
		assert.deepEqual((JSON.parse(run.summary) as TurnReport).seen, ['one', 'two', 'three']);
		assert.equal(existsSync(processDir(`${runId}.t2`)), false);
		assert.deepEqual((await queue(runId)).messages.map((m) => [m.text, m.state]), [['one', 'delivered'], ['two', 'delivered'], ['three', 'delivered']]);
	});

	it('messages sent after the Turn ended wait, and the next Turns take them in order, each once', async () => {
		const runId = await startRun();
		writeFileSync(release, 'x');
		await waitFor(() => (existsSync(join(processDir(runId), 'input-state.jsonl')) && readText(join(processDir(runId), 'input-state.jsonl')).includes('"closed"')) || undefined,
			{ what: 'the first Turn to end' });
		assert.equal((await send(runId, 'after-1')).delivery, 'queued');
		assert.equal((await send(runId, 'after-2')).delivery, 'queued');
		writeFileSync(linger, 'x');

		const run = await settled(runId);
		assert.deepEqual([run.status, run.outcome], ['completed', 'success'], run.errorMessage);
		// The resume Turn's last result lists all it consumed (a message after its result made it answer again).
		const t2 = JSON.parse(readText(join(processDir(`${runId}.t2`), 'stdout.log')).split('\n').filter((l) => l.includes('"type":"result"')).at(-1)!) as { result: string };
		const seen = [(JSON.parse(t2.result) as TurnReport).prompt, ...(JSON.parse(t2.result) as TurnReport).seen];
		// after-2 went into the resume Turn, or (when that Turn had ended first) into a Turn of its own after it.
		const later = existsSync(processDir(`${runId}.t3`)) ? [(JSON.parse(run.summary) as TurnReport).prompt] : [];
		assert.deepEqual([...seen, ...later], ['after-1', 'after-2']);
		assert.deepEqual((await queue(runId)).messages.map((m) => [m.text, m.state]), [['after-1', 'delivered'], ['after-2', 'delivered']]);
	});
});

function readText(path: string): string {
	return readFileSync(path, 'utf8');
}
