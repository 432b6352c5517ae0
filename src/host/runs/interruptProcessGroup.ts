// Stops a Run's agent: SIGINT to its process group, wait, SIGTERM, wait, SIGKILL, wait briefly. An agent its
// supervisor interrupts itself (codex app-server: `turn/interrupt`, then its stdin closes) is first only waited for,
// since SIGINT would end the server before the commands it runs (they live in sessions of their own).
import type { PidRecord } from '../../supervisor/runFiles.js';
import { processGroupIsAlive, processStartTicks, signalTargetExists } from '../../supervisor/processTable.js';
import type { InterruptResult } from '../../core/runs/runProcessPort.js';

export interface InterruptTimings {
	/** How long each of SIGINT and SIGTERM is given. */
	graceMs: number;
	/** How long SIGKILL is given before answering 'still_running'. */
	killWaitMs: number;
	/** How often the process table is checked while waiting. */
	checkEveryMs: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Whether the Run's process group still has a live member. The group id is the agent's pid; if that pid now
 * belongs to another process (reused, different start time), the group is not ours and counts as gone.
 */
export function agentGroupIsAlive(pid: PidRecord): boolean {
	if (pid.agentStartTicks !== null && signalTargetExists(pid.agentPid)) {
		const now = processStartTicks(pid.agentPid);
		if (now !== null && now !== pid.agentStartTicks) { return false; }
	}
	return processGroupIsAlive(pid.agentPgid);
}

function signalGroup(pgid: number, signal: NodeJS.Signals): void {
	try {
		process.kill(-pgid, signal);
	} catch {
		// ESRCH: the group is already gone; EPERM: not ours to signal. The liveness check decides.
	}
}

async function waitUntilGone(pid: PidRecord, ms: number, every: number): Promise<boolean> {
	const deadline = Date.now() + ms;
	for (;;) {
		if (!agentGroupIsAlive(pid)) { return true; }
		const left = deadline - Date.now();
		if (left <= 0) { return false; }
		await sleep(Math.min(every, left));
	}
}

/** `signal`: SIGINT first (the default), or `none`: the supervisor was asked to interrupt the agent; only wait at first. */
export async function interruptProcessGroup(pid: PidRecord, timings: InterruptTimings, first: 'signal' | 'none' = 'signal'): Promise<InterruptResult> {
	try {
		if (!agentGroupIsAlive(pid)) { return 'not_running'; }
		const steps = [[first === 'signal' ? 'SIGINT' : null, timings.graceMs], ['SIGTERM', timings.graceMs], ['SIGKILL', timings.killWaitMs]] as const;
		for (const [signal, wait] of steps) {
			if (signal !== null) { signalGroup(pid.agentPgid, signal); }
			if (await waitUntilGone(pid, wait, timings.checkEveryMs)) { return 'exited'; }
		}
		return 'still_running';
	} catch {
		return 'still_running';
	}
}
