// The machine's load as `uptime` reports it, for the line beside each result table (shared machines: say how busy).
import { execFileSync } from 'node:child_process';
import * as os from 'node:os';

/** "load average 1.53, 1.69, 1.86" from `uptime` (os.loadavg() where there is no uptime). */
export function uptimeLoad(): string {
	try {
		const text = execFileSync('uptime', { encoding: 'utf8' }).trim();
		const at = text.indexOf('load average');
		return at >= 0 ? text.slice(at).replace('load average:', 'load average') : text;
	} catch {
		return `load average ${os.loadavg().map((l) => l.toFixed(2)).join(', ')}`;
	}
}

/** Runs `measure` and answers its result with the load before and after, as one line for the results. */
export async function withLoad<T>(measure: () => Promise<T>): Promise<{ result: T; load: string }> {
	const before = uptimeLoad();
	const result = await measure();
	return { result, load: `Machine load (\`uptime\`, 1/5/15 min, ${os.cpus().length} cores shared with other sessions): ${before} before, ${uptimeLoad()} after.` };
}
