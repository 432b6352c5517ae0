// Runs what Tutti printed exactly as printed: a hint's `tutti …` command through the real CLI parser to the Host, a
// `git …` command from the workspace, so every way forward a text names is proven to work in the state it names it.
import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import type { Method } from '../../../src/protocol/controlPlane.js';
import { shellWords } from '../../unit/cli/shellWords.js';
import type { ServiceHarness } from '../../unit/host/services/serviceHarness.js';

export function git(cwd: string, ...args: string[]): string {
	return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] }).trim();
}

/** The backticked command of `text` that starts with `prefix` (exactly one). */
export function printed(text: string, prefix: string): string {
	const found = [...text.matchAll(/`([^`]*)`/g)].map((m) => m[1]!).filter((c) => c.startsWith(prefix));
	assert.equal(new Set(found).size, 1, `one \`${prefix}…\` in: ${text}`);
	return found[0]!;
}

/**
 * Runs a `tutti …` command exactly as Tutti printed it: the real CLI parser turns it into its method and params (as the
 * developer's command, --as-user), and the Host answers that call.
 */
export async function runPrinted(h: ServiceHarness, text: string, prefix: string): Promise<unknown> {
	const argv = shellWords(printed(text, prefix));
	const parsed = parseCommandLine(argv.slice(1));
	assert.ok(parsed.kind === 'call' && parsed.asUser, `${argv.join(' ')} parses as a developer's call: ${JSON.stringify(parsed)}`);
	return h.call(parsed.method as Method, parsed.params as never);
}

/** Runs a `git …` command exactly as printed, from the workspace (where the developer's terminal is). */
export function gitPrinted(h: ServiceHarness, text: string, prefix: string): void {
	const argv = shellWords(printed(text, prefix));
	assert.equal(argv[0], 'git');
	git(h.workspace, ...argv.slice(1));
}

