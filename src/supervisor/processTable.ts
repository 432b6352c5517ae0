// Process-table checks shared by the supervisor and the Host's runner. Liveness is `kill(pid, 0)` (ESRCH →
// gone, EPERM → exists), refined on Linux with /proc: a zombie counts as gone (an orphan may stay a zombie
// when the init process does not reap), and a recorded start time tells a reused pid from the original.
import { readdirSync, readFileSync } from 'node:fs';

interface ProcStat {
	/** One letter: R, S, D, Z, T, … */
	state: string;
	pgrp: number;
	/** Field 22, clock ticks since boot. */
	startTicks: string;
}

function procStat(pid: number): ProcStat | null {
	let stat: string;
	try {
		stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
	} catch {
		return null;
	}
	// The command name (field 2) is in parentheses and may contain spaces or ')': split after the last ')'.
	const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
	// rest[0] is field 3 (state), rest[2] field 5 (pgrp), rest[19] field 22 (starttime).
	const state = rest[0];
	const pgrp = Number(rest[2]);
	const startTicks = rest[19];
	if (state === undefined || startTicks === undefined || !Number.isInteger(pgrp)) { return null; }
	return { state, pgrp, startTicks };
}

const hasProcfs = ((): boolean => {
	try { return readFileSync('/proc/self/stat', 'utf8').length > 0; } catch { return false; }
})();

/** Whether signal 0 reaches `pidOrNegPgid` (a negative number addresses a process group). */
export function signalTargetExists(pidOrNegPgid: number): boolean {
	if (!Number.isInteger(pidOrNegPgid) || pidOrNegPgid === 0 || pidOrNegPgid === -1) { return false; }
	try {
		process.kill(pidOrNegPgid, 0);
		return true;
	} catch (e) {
		return (e as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** The kernel's start time of a process, or null where there is no procfs or no such process. */
export function processStartTicks(pid: number): string | null {
	return procStat(pid)?.startTicks ?? null;
}

/** Whether `pid` is alive (not a zombie) and, when a start time was recorded, is still the same process. */
export function processIsAlive(pid: number, startTicks: string | null): boolean {
	if (!signalTargetExists(pid)) { return false; }
	if (!hasProcfs) { return true; }
	const stat = procStat(pid);
	if (stat === null) { return false; }
	if (stat.state === 'Z' || stat.state === 'X') { return false; }
	return startTicks === null || stat.startTicks === startTicks;
}

/** Whether any live (non-zombie) process is still in process group `pgid`. */
export function processGroupIsAlive(pgid: number): boolean {
	if (!signalTargetExists(-pgid)) { return false; }
	if (!hasProcfs) { return true; }
	let entries: string[];
	try {
		entries = readdirSync('/proc');
	} catch {
		return true;
	}
	for (const name of entries) {
		if (!/^\d+$/.test(name)) { continue; }
		const stat = procStat(Number(name));
		if (stat !== null && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') { return true; }
	}
	return false;
}
