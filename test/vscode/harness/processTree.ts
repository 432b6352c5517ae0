// Ends a process and everything it started, by pid, checking each pid's start time so a reused pid is never hit.
import { readdirSync, readFileSync } from 'node:fs';
import { sleep } from './waitFor.js';

interface ProcessIdentity {
	readonly pid: number;
	readonly startTime: string;
}

interface ProcStat {
	readonly pid: number;
	readonly ppid: number;
	readonly startTime: string;
}

function readStat(pid: number): ProcStat | undefined {
	try {
		const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
		// Fields after the command name, which is in parentheses and may contain spaces.
		const rest = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { pid, ppid: Number(rest[1]), startTime: rest[19] ?? '' };
	} catch {
		return undefined;
	}
}

function allStats(): ProcStat[] {
	const stats: ProcStat[] = [];
	for (const name of readdirSync('/proc')) {
		if (/^\d+$/.test(name)) {
			const stat = readStat(Number(name));
			if (stat) {
				stats.push(stat);
			}
		}
	}
	return stats;
}

/** The process and all its live descendants, parents first. */
export function processTree(rootPid: number): ProcessIdentity[] {
	const stats = allStats();
	const root = stats.find((stat) => stat.pid === rootPid);
	if (!root) {
		return [];
	}
	const tree: ProcessIdentity[] = [root];
	for (let i = 0; i < tree.length; i++) {
		const parent = tree[i]!.pid;
		for (const stat of stats) {
			if (stat.ppid === parent) {
				tree.push(stat);
			}
		}
	}
	return tree.map(({ pid, startTime }) => ({ pid, startTime }));
}

/** Pids (with their command line) whose command line contains `marker`, e.g. a run folder. */
export function processesWithArgument(marker: string): number[] {
	const pids: number[] = [];
	for (const name of readdirSync('/proc')) {
		if (!/^\d+$/.test(name) || Number(name) === process.pid) {
			continue;
		}
		try {
			if (readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(marker)) {
				pids.push(Number(name));
			}
		} catch {
			// gone already
		}
	}
	return pids;
}

function isAlive(identity: ProcessIdentity): boolean {
	const stat = readStat(identity.pid);
	return stat !== undefined && stat.startTime === identity.startTime;
}

function signal(identity: ProcessIdentity, sig: NodeJS.Signals): void {
	if (isAlive(identity)) {
		try {
			process.kill(identity.pid, sig);
		} catch {
			// exited between the check and the kill
		}
	}
}

/** SIGTERM to the tree, then SIGKILL to whatever of it is still alive after `graceMs`. */
export async function killProcessTree(rootPid: number, graceMs = 3000): Promise<void> {
	const known = new Map<number, ProcessIdentity>();
	const remember = (): void => {
		for (const identity of known.size === 0 ? processTree(rootPid) : [...known.values()].flatMap((p) => (isAlive(p) ? processTree(p.pid) : []))) {
			known.set(identity.pid, identity);
		}
	};
	remember();
	for (const identity of known.values()) {
		signal(identity, 'SIGTERM');
	}
	const deadline = Date.now() + graceMs;
	while (Date.now() < deadline && [...known.values()].some(isAlive)) {
		remember();
		await sleep(100);
	}
	remember();
	for (const identity of known.values()) {
		signal(identity, 'SIGKILL');
	}
}

/** Synchronous last resort for process 'exit': SIGKILL the tree now. */
export function killProcessTreeNow(rootPid: number): void {
	for (const identity of processTree(rootPid)) {
		signal(identity, 'SIGKILL');
	}
}
