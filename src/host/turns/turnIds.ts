// Deterministic ids of a source session's wake Turn: the Turn id is derived from its submit id (so a lost response
// is found again by the same id), and each delivery attempt gets its own runner directory.
import { createHash } from 'node:crypto';

/** `turn-<16 hex>` from the Turn's client submit id. */
export function turnIdFor(clientSubmitId: string): string {
	return `turn-${createHash('sha256').update(clientSubmitId, 'utf8').digest('hex').slice(0, 16)}`;
}

/** The runner id (directory `.tutti/runs/<id>`) of one delivery attempt of a Turn. */
export function turnProcessId(turnId: string, attempt: number): string {
	return `${turnId}-a${attempt}`;
}

/** Whether a runner id belongs to a source-session Turn (not a Run). */
export function isTurnProcessId(processId: string): boolean {
	return /^turn-[0-9a-f]{16}-a\d+$/.test(processId);
}
