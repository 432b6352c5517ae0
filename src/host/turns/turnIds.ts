// Runner ids of agent Turns. A wake Turn's id is derived from its submit id (so a lost response is found again by the
// same id), and each delivery attempt gets its own runner directory; a worker Run's later Turns are `<runId>.t<n>`.
import { createHash } from 'node:crypto';

/** `turn-<16 hex>` from the Turn's client submit id. */
export function turnIdFor(clientSubmitId: string): string {
	return `turn-${createHash('sha256').update(clientSubmitId, 'utf8').digest('hex').slice(0, 16)}`;
}

/** The runner id (directory `.tutti/runs/<id>`) of one delivery attempt of a Turn. */
export function turnProcessId(turnId: string, attempt: number): string {
	return `${turnId}-a${attempt}`;
}

/** The Run a worker Turn process belongs to (`<runId>.t<n>` → `<runId>`; anything else names itself). */
export function runIdOfProcess(processId: string): string {
	const m = /^(.+)\.t([0-9]+)$/.exec(processId);
	return m && Number(m[2]) >= 2 ? m[1]! : processId;
}

/** Whether a runner id belongs to a source-session Turn (not a Run). */
export function isTurnProcessId(processId: string): boolean {
	return /^turn-[0-9a-f]{16}-a\d+$/.test(processId);
}
