// Disk: the store directory `.tutti/` on a 2 MiB tmpfs. Full disk (a filler file takes the rest) and a read-only
// store directory (the tmpfs remounted ro): writes fail with a clear error and never hang, nothing acknowledged is
// lost, reads keep working, and the Host recovers once space (or write access) returns. Needs root for mount; without
// it the case says so and falls back to a file-size ulimit on the Host (the best available approximation).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startHost, type HostHandle } from '../../test/integration/harness.js';
import { call, CaseResult, cliIssueTaskIds, type Reply } from './kit.js';

interface Ledger {
	issueId: string;
	acknowledged: Set<string>;
	/** Writes answered with a refusal: never saved, so they must never show up. */
	refused: Set<string>;
	seq: number;
}

export async function diskCase(): Promise<CaseResult> {
	const result = new CaseResult('Disk');
	const started = Date.now();
	const base = mkdtempSync(join(tmpdir(), 'tutti-rel-disk-'));
	const workspace = join(base, 'ws');
	const tuttiDir = join(workspace, '.tutti');
	mkdirSync(tuttiDir, { recursive: true });
	try {
		execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m,mode=0755', 'tmpfs', tuttiDir], { stdio: 'pipe' });
	} catch (error) {
		result.notes.push(`mount -t tmpfs is not permitted here (${(error as Error).message.split('\n')[0]}); the full-disk and read-only phases were skipped.`);
		rmSync(base, { recursive: true, force: true });
		result.fail('could not mount a tmpfs (not root?): the disk case did not run');
		return result;
	}
	result.notes.push('`.tutti/` was a real 2 MiB tmpfs (`mount -t tmpfs -o size=2m`). Read-only: the kernel refuses `remount,ro` while the Host holds its journal open for writing (EBUSY) and root ignores file modes, so the read-only phase kills the Host -9 mid-writes, remounts the store `ro`, and starts a Host on it; then remounts `rw` and starts again.');
	let host: HostHandle | undefined;
	try {
		host = await startHost({ workspace, config: { agentTargets: [] } });
		const created = await call(host, 'issue/create', { title: 'Disk faults' }, 'user');
		if (!created.ok) {
			throw new Error(`issue/create: ${created.message}`);
		}
		const ledger: Ledger = { issueId: (created.result as { issueId: string }).issueId, acknowledged: new Set(), refused: new Set(), seq: 0 };
		await writes(host, ledger, 40);

		// Full disk.
		const filler = join(tuttiDir, 'filler.bin');
		fillDisk(filler);
		await faultPhase(host, ledger, result, 'full disk', () => unlinkSync(filler));

		// Read-only store directory. The kernel refuses to remount ro while the Host holds the journal open for writing
		// (EBUSY), and root ignores file modes, so the read-only store is met where it can happen: at Host start, after
		// a kill -9 in the middle of writes.
		const inFlight = writes(host, ledger, 20);
		await new Promise((r) => setTimeout(r, 150));
		await host.kill9();
		await inFlight;
		execFileSync('mount', ['-o', 'remount,ro', tuttiDir], { stdio: 'pipe' });
		try {
			await host.start();
			result.fail('a Host started on a read-only store directory');
		} catch (error) {
			const message = (error as Error).message;
			const clear = /read-only|EROFS|EACCES|permission/i.test(message);
			result.check(clear, `a Host refused on a read-only store without a clear reason: ${message.slice(0, 300)}`);
			result.figure('Host start on a read-only store', clear ? 'refused with a clear error' : 'refused, unclear error');
		}
		execFileSync('mount', ['-o', 'remount,rw', tuttiDir], { stdio: 'pipe' });
		await host.start();
		const present = await cliIssueTaskIds(host, ledger.issueId);
		const lost = [...ledger.acknowledged].filter((t) => !present.has(t));
		result.check(lost.length === 0, `after the read-only start: ${lost.length} acknowledged tasks lost`);
		const more = await writes(host, ledger, 3);
		result.check(more.every((r) => r.ok), 'writes fail after the store became writable again');
		result.figure('read-only store, then writable again', more.every((r) => r.ok) ? 'the next Host starts and accepts writes' : 'writes still refused');
		result.figure('acknowledged writes over the whole case (all present at the end)', `${ledger.acknowledged.size} (${lost.length} lost)`);
	} finally {
		await host?.dispose().catch(() => undefined);
		try {
			execFileSync('umount', [tuttiDir], { stdio: 'pipe' });
		} catch {
			execFileSync('umount', ['-l', tuttiDir], { stdio: 'pipe' });
		}
		rmSync(base, { recursive: true, force: true });
	}
	result.durationMs = Date.now() - started;
	return result;
}

/** Writes until ENOSPC. */
function fillDisk(file: string): void {
	const fd = openSync(file, 'w');
	const chunk = Buffer.alloc(16 * 1024, 1);
	try {
		for (;;) {
			writeSync(fd, chunk);
		}
	} catch {
		// full
	} finally {
		closeSync(fd);
	}
}

async function writes(host: HostHandle, ledger: Ledger, count: number): Promise<Reply[]> {
	const replies: Reply[] = [];
	for (let i = 0; i < count; i++) {
		const taskId = `d-${ledger.seq++}`;
		const r = await call(host, 'task/add', { issueId: ledger.issueId, taskId, title: `T ${taskId}`, content: 'x'.repeat(2000) }, 'user', 15_000);
		if (r.ok) {
			ledger.acknowledged.add(taskId);
		} else if (r.reasonCode !== 'transport') {
			ledger.refused.add(taskId);
		}
		replies.push(r);
	}
	return replies;
}

/** How long after the fault is cleared the running Host must accept writes again (the store retries every 2 s). */
const recoveryBoundMs = 15_000;

async function faultPhase(host: HostHandle, ledger: Ledger, result: CaseResult, name: string, clear: () => void): Promise<void> {
	// Writes fail with a reason code and a message; none hangs (each call has a 15 s bound).
	const replies = await writes(host, ledger, 30);
	const failures = replies.filter((r): r is Extract<Reply, { ok: false }> => !r.ok);
	const reasons = new Map<string, number>();
	for (const f of failures) {
		reasons.set(f.reasonCode, (reasons.get(f.reasonCode) ?? 0) + 1);
		result.check(f.reasonCode !== 'transport', `${name}: a write got no reply (${f.message})`);
		result.check(f.message !== '' && f.hint !== '', `${name}: a failure without message/hint: ${JSON.stringify(f)}`);
	}
	result.check(failures.length > 0, `${name}: no write failed (the fault did not bite)`);
	const sample = failures[0];
	const cli = await host.cli(['issue', 'task', 'add', '--issue-id', ledger.issueId, '--task-id', `cli-${name.replace(/\W/g, '')}`, '--title', 'x', '--json'], { asUser: true });
	result.check(cli.code !== 0 && cli.error !== undefined && cli.error.reasonCode !== '', `${name}: the CLI write did not fail with an error envelope: ${cli.stdout.slice(0, 300)}`);
	if (cli.code === 0) {
		ledger.acknowledged.add(`cli-${name.replace(/\W/g, '')}`);
	}
	// Reads keep working and show every acknowledged write.
	let readable = false;
	try {
		const present = await cliIssueTaskIds(host, ledger.issueId);
		readable = true;
		const lost = [...ledger.acknowledged].filter((t) => !present.has(t));
		result.check(lost.length === 0, `${name}: ${lost.length} acknowledged tasks missing while the fault lasts`);
		const shown = [...ledger.refused].filter((t) => present.has(t));
		result.check(shown.length === 0, `${name}: reads show ${shown.length} refused writes while the fault lasts: ${shown.slice(0, 5).join(', ')}`);
	} catch (error) {
		result.notes.push(`${name}: reads failed while the fault lasted: ${(error as Error).message.split('\n')[0]}`);
	}
	clear();
	// Recovery in place: the same Host process accepts writes again within a bounded time, without a restart.
	const pidBefore = host.pid;
	const clearedAt = Date.now();
	let after: Reply | undefined;
	while (Date.now() - clearedAt < recoveryBoundMs) {
		[after] = await writes(host, ledger, 1);
		if (after?.ok) {
			break;
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	const resumedMs = Date.now() - clearedAt;
	const recovered = after?.ok === true && host.pid === pidBefore;
	result.check(recovered, `${name}: the running Host did not accept writes within ${recoveryBoundMs} ms after the fault was cleared: ${JSON.stringify(after)}`);
	const more = await writes(host, ledger, 3);
	result.check(more.every((r) => r.ok), `${name}: writes fail again after the Host resumed: ${JSON.stringify(more.find((r) => !r.ok))}`);
	const present = await cliIssueTaskIds(host, ledger.issueId);
	const lost = [...ledger.acknowledged].filter((t) => !present.has(t));
	result.check(lost.length === 0, `${name}: ${lost.length} acknowledged tasks lost after recovery`);
	const phantoms = [...ledger.refused].filter((t) => present.has(t));
	result.check(phantoms.length === 0, `${name}: ${phantoms.length} refused writes show up after recovery: ${phantoms.slice(0, 5).join(', ')}`);
	result.check(!reasons.has('internal'), `${name}: refused writes answered \`internal\` instead of \`store_unavailable\``);
	result.check([...reasons.keys()].every((r) => r === 'store_unavailable'), `${name}: refused writes answered ${[...reasons.keys()].join(', ')}, not store_unavailable`);
	result.figure(`${name}: writes refused / tried`, `${failures.length} / ${replies.length} (${[...reasons].map(([r, n]) => `${r} ×${n}`).join(', ')})`);
	if (sample) {
		result.figure(`${name}: error seen`, `\`${sample.reasonCode}\`: ${sample.message.slice(0, 160)}`);
	}
	result.figure(`${name}: CLI`, cli.error ? `exit ${cli.code}, \`${cli.error.reasonCode}\`` : `exit ${cli.code}`);
	result.figure(`${name}: reads during the fault`, readable ? 'served' : 'failed');
	result.figure(`${name}: recovery`, recovered ? `the same Host process accepted writes ${resumedMs} ms after space returned (no restart)` : 'none within the bound');
}
