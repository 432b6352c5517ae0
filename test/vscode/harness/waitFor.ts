// Bounded waiting: every wait in the harness names what it waited for, so a timeout says what did not appear.

export class HarnessTimeoutError extends Error {
	constructor(what: string, timeoutMs: number, detail?: string) {
		super(`timed out after ${Math.round(timeoutMs / 1000)} s waiting for ${what}${detail ? `: ${detail}` : ''}`);
		this.name = 'HarnessTimeoutError';
	}
}

export function sleep(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Polls `probe` until it returns a value other than undefined; throws HarnessTimeoutError naming `what`. */
export async function pollFor<T>(
	what: string,
	timeoutMs: number,
	probe: () => Promise<T | undefined>,
	intervalMs = 250,
): Promise<T> {
	const deadline = Date.now() + timeoutMs;
	let lastError: unknown;
	for (;;) {
		try {
			const value = await probe();
			if (value !== undefined) {
				return value;
			}
		} catch (error) {
			lastError = error;
		}
		if (Date.now() >= deadline) {
			throw new HarnessTimeoutError(what, timeoutMs, lastError instanceof Error ? lastError.message.split('\n')[0] : undefined);
		}
		await sleep(Math.min(intervalMs, Math.max(0, deadline - Date.now())));
	}
}

/** Races a promise against a deadline; the error names `what`. */
export async function withTimeout<T>(what: string, timeoutMs: number, work: Promise<T>): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new HarnessTimeoutError(what, timeoutMs)), timeoutMs);
	});
	try {
		return await Promise.race([work, timeout]);
	} finally {
		clearTimeout(timer);
	}
}
