// Restart: a reload (SIGTERM + start) while 4 Runs are running with live supervisors, and while 4 Runs are dying
// (exit 0, exit 3, killed -9, and a person's Stop still in flight). Outcomes: live Runs are re-attached and
// settle from their exit record afterwards; Runs that died while the Host was down settle from the exit record (or
// as a failure when there is none); a Run is a cancellation only when a person's Stop that took covers it. Every Run
// settles exactly once and has exactly one settlement checkpoint.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RunDto } from '../../src/protocol/dto.js';
import { expectOk, managedIssue, sleep, startHost, taskIn, taskSpec, waitFor, type HostHandle, type ManagedIssue } from '../../test/integration/harness.js';
import { CaseResult } from './kit.js';

interface PidRecord {
	supervisorPid: number;
	agentPid: number;
}

export async function restartCase(rounds: number): Promise<CaseResult> {
	const result = new CaseResult('Restart');
	const started = Date.now();
	const host = await startHost();
	const outcomes = new Map<string, number>();
	try {
		for (let round = 0; round < rounds; round++) {
			await oneRound(host, round, result, outcomes);
		}
	} finally {
		host.releaseAll();
		await host.dispose().catch(() => undefined);
	}
	result.figure('reloads (SIGTERM + start) with 8 Runs in flight', rounds);
	result.figure('outcomes (scenario → outcome ×count)', [...outcomes].sort().map(([k, n]) => `${k} ×${n}`).join('; '));
	result.durationMs = Date.now() - started;
	return result;
}

function pidRecord(host: HostHandle, runId: string): PidRecord {
	return JSON.parse(readFileSync(join(host.workspace, '.tutti', 'runs', runId, 'pid.json'), 'utf8')) as PidRecord;
}

function kill(pid: number): void {
	try {
		process.kill(pid, 'SIGKILL');
	} catch {
		// gone
	}
}

async function oneRound(host: HostHandle, round: number, result: CaseResult, outcomes: Map<string, number>): Promise<void> {
	const issue = await managedIssue(host, `Restart round ${round}`);
	const live = ['live-ok', 'live-fail', 'live-stop', 'live-kill'];
	const dying = ['die-ok', 'die-fail', 'die-kill', 'die-stop'];
	await issue.addTasks(...[...live, ...dying].map((id) => taskSpec(id, 'gate')));
	await issue.scheduleOk([...live, ...dying]);
	for (const id of [...live, ...dying]) {
		await issue.waitGateStarted(id);
	}
	const snapshot = await issue.get();
	const runOf = (id: string): string => taskIn(snapshot, id).latestRunId;

	// The dying Runs: a person's Stop goes out (not awaited) and the Host gets SIGTERM right behind it.
	const stopCall = host.cli(['run', 'stop', '--run-id', runOf('die-stop'), '--as-user', '--json']);
	// Round by round the SIGTERM lands earlier or later against the Stop (before it reaches the Host, while the Host
	// records it, while it interrupts), so the case covers each place a reload can cut a Stop.
	await sleep(30 + ((round * 47) % 160));
	await host.stop();
	issue.openGate('die-ok', 0);
	issue.openGate('die-fail', 3);
	const dieKill = pidRecord(host, runOf('die-kill'));
	kill(dieKill.agentPid);
	kill(dieKill.supervisorPid);
	await sleep(400);
	await host.start();
	const stopReply = await stopCall;
	// A Stop that reached no Host at all (the old one closing its socket, the new one not up within the CLI's wait)
	// leaves die-stop running, as it should: nobody stopped it. Its gate is opened (exit 3) so it ends, as a failure.
	if (stopReply.code !== 0 && (await issue.run(runOf('die-stop'))).stopNotes.length === 0) {
		issue.openGate('die-stop', 3);
	}

	// Live Runs were re-attached: still running, no outcome.
	const afterStart = await issue.get();
	for (const id of live) {
		const run = await issue.run(runOf(id));
		result.check(run.outcome === null && taskIn(afterStart, id).status === 'running', `round ${round}: live Run ${id} was not re-attached (outcome ${run.outcome}, task ${taskIn(afterStart, id).status})`);
	}
	// Now the live ones end in four ways.
	issue.openGate('live-ok', 0);
	issue.openGate('live-fail', 3);
	const stop = expectOk<{ answer: string }>(await host.cli(['run', 'stop', '--run-id', runOf('live-stop'), '--as-user', '--json']));
	result.check(stop.answer === 'took', `round ${round}: a Stop of a re-attached Run answered ${stop.answer}, not took`);
	const liveKill = pidRecord(host, runOf('live-kill'));
	kill(liveKill.supervisorPid);
	kill(liveKill.agentPid);

	const all = [...live, ...dying];
	let unsettled: string[] = [];
	const settled = await waitFor(async () => {
		const runs = await Promise.all(all.map((id) => issue.run(runOf(id))));
		unsettled = all.flatMap((id, i) => (runs[i]!.outcome === null ? [`${id} (${runs[i]!.status})`] : []));
		return runs.every((r) => r.outcome !== null) ? runs : undefined;
	}, { what: `round ${round}: every Run to settle`, timeoutMs: 30_000, intervalMs: 250 }).catch((error: Error) => {
		// Which Runs never settled says where to look (a lost supervisor, an exit record not read, …).
		result.fail(`${error.message}; still unsettled: ${unsettled.join(', ') || 'none read'}; ${describeRuns(host, all.map(runOf))}`);
		return undefined;
	});
	if (!settled) {
		return;
	}
	const byId = new Map(all.map((id, i) => [id, settled[i]!] as const));
	const expect = (id: string, outcome: string, label: RegExp): void => {
		const run = byId.get(id)!;
		outcomes.set(`${id} → ${run.outcome}`, (outcomes.get(`${id} → ${run.outcome}`) ?? 0) + 1);
		result.check(run.outcome === outcome && label.test(run.outcomeLabel ?? ''), `round ${round}: ${id} ended ${run.outcome} "${run.outcomeLabel}", expected ${outcome}`);
	};
	expect('live-ok', 'success', /^Completed in /);
	expect('live-fail', 'failure', /^Failed after /);
	expect('live-stop', 'cancellation', /^Interrupted after .*you stopped this/);
	expect('live-kill', 'failure', /^Failed after /);
	expect('die-ok', 'success', /^Completed in /);
	expect('die-fail', 'failure', /^Failed after /);
	expect('die-kill', 'failure', /^Failed after /);
	// The in-flight Stop: a cancellation exactly when a Stop note says it took; otherwise an honest failure.
	const dieStop = byId.get('die-stop')!;
	const took = dieStop.stopNotes.some((n) => n.reason === 'person' && n.answer === 'took');
	const stopKey = `die-stop → ${dieStop.outcome} (stop note took: ${took}, CLI answer: ${(stopReply.json as { answer?: string } | undefined)?.answer ?? stopReply.error?.reasonCode ?? 'none'})`;
	outcomes.set(stopKey, (outcomes.get(stopKey) ?? 0) + 1);
	result.check(dieStop.outcome === (took ? 'cancellation' : 'failure'), `round ${round}: die-stop ended ${dieStop.outcome} with stop notes ${JSON.stringify(dieStop.stopNotes)}`);

	// Settled once: stable on a second read, and one settlement checkpoint per Run.
	await sleep(300);
	const again = await Promise.all(all.map((id) => issue.run(runOf(id))));
	again.forEach((run: RunDto, i) => {
		const first = settled[i]!;
		result.check(run.outcome === first.outcome && run.completedAtUnixMs === first.completedAtUnixMs, `round ${round}: ${all[i]} settled twice`);
	});
	const final = await issue.get();
	for (const id of all) {
		const count = final.checkpoints.filter((c) => c.subjectRunId === runOf(id)).length;
		result.check(count <= 1, `round ${round}: ${id} has ${count} open settlement checkpoints`);
	}
	await stopIssue(issue);
}

/** What the run directories say of Runs that never settled: files present, exit record, processes alive, the Host's stderr. */
function describeRuns(host: HostHandle, runIds: string[]): string {
	const parts = runIds.map((runId) => {
		const dir = join(host.workspace, '.tutti', 'runs', runId);
		const files = existsSync(dir) ? readdirSync(dir).sort().join(',') : 'no directory';
		let alive = 'no pid record';
		try {
			const pid = pidRecord(host, runId);
			alive = `supervisor ${isAlive(pid.supervisorPid) ? 'alive' : 'gone'}, agent ${isAlive(pid.agentPid) ? 'alive' : 'gone'}`;
		} catch { /* no pid.json */ }
		return `${runId}: [${files}] ${alive}`;
	});
	return `run dirs: ${parts.join('; ')}; Host stderr (tail): ${host.stderr.slice(-3000)}`;
}

function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch {
		return false;
	}
}

async function stopIssue(issue: ManagedIssue): Promise<void> {
	issue.release();
	await issue.stop('restart round done').catch(() => undefined);
}
