// The one bounded poll of the tests that run in Node (unit, integration, security, agents, and the suite inside VS
// Code through suiteKit.ts; integration/harness.ts re-exports it): a wait names what it waits for, and a timeout
// says what it saw last. Only the harness that drives VS Code's window has its own, pollFor in
// test/vscode/harness/waitFor.ts (its timeouts are a HarnessTimeoutError the harness adds logs to).

export interface WaitOptions {
	/** Default 20 s. */
	timeoutMs?: number;
	/** Default 50 ms. */
	intervalMs?: number;
	/** Named in the timeout message. */
	what?: string;
	/** More to say on timeout (logs, the state seen last); read only then. */
	detail?: () => string;
}

function describeLast(last: unknown): string {
	return last instanceof Error ? last.message : last === undefined ? 'undefined' : JSON.stringify(last);
}

/**
 * Polls `fn` until it returns a value other than undefined/false/null and returns that value. An error thrown by
 * `fn` counts as "not yet"; on timeout the error names `what`, the last value or error, and `detail()`.
 */
export async function waitFor<T>(fn: () => Promise<T | undefined | null | false> | T | undefined | null | false, options: WaitOptions = {}): Promise<T> {
	const timeoutMs = options.timeoutMs ?? 20_000;
	const intervalMs = options.intervalMs ?? 50;
	const deadline = Date.now() + timeoutMs;
	let last: unknown;
	for (;;) {
		try {
			const value = await fn();
			if (value !== undefined && value !== null && value !== false) {
				return value;
			}
			last = value;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			const detail = options.detail ? `; ${options.detail()}` : '';
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${options.what ?? 'a condition'} (last: ${describeLast(last)}${detail})`);
		}
		await new Promise((r) => setTimeout(r, intervalMs));
	}
}
