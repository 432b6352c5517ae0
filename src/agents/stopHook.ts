// The Stop hook of agents Tutti launches, installed through launch flags only: nothing is
// written into the user's repo. The hook runs `tutti hook stop`, which resolves the session from the agent's
// TUTTI_SESSION_TOKEN (so no session flag is needed and nothing is guessed). Pure functions; the adapters call them.

/** Seconds Claude Code gives the hook command (the hook answers within a few seconds, or fails open). */
export const claudeStopHookTimeoutSeconds = 60;

/** The flag that makes `codex exec` run hooks that are not managed and not trusted (otherwise silently skipped). */
export const codexHookTrustFlag = '--dangerously-bypass-hook-trust';

/** Quotes one word for a POSIX shell when it needs it. */
export function shellQuote(word: string): string {
	return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The hook's shell command: `<cli argv…> hook stop`, e.g. `/usr/bin/node /abs/dist/cli.js hook stop`. */
export function stopHookCommand(cliArgv: readonly string[]): string {
	if (cliArgv.length === 0) { throw new Error('stopHookCommand needs the argv that runs the tutti CLI'); }
	return [...cliArgv, 'hook', 'stop'].map(shellQuote).join(' ');
}

/** The `--settings` JSON for Claude Code. */
export function claudeStopHookSettings(command: string): string {
	return JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: 'command', command, timeout: claudeStopHookTimeoutSeconds }] }] } });
}

/** Claude Code launch args with the hook appended (the caller's args, approval flags included, are kept). */
export function withClaudeStopHook(args: readonly string[], command: string): string[] {
	return [...args, '--settings', claudeStopHookSettings(command)];
}

/** A TOML basic string (inline TOML for `codex -c`). */
export function tomlString(value: string): string {
	let out = '"';
	for (const ch of value) {
		const code = ch.codePointAt(0) ?? 0;
		if (ch === '"') { out += '\\"'; } else if (ch === '\\') { out += '\\\\'; } else if (ch === '\n') { out += '\\n'; } else if (ch === '\r') { out += '\\r'; } else if (ch === '\t') { out += '\\t'; } else if (code < 0x20 || code === 0x7f) { out += `\\u${code.toString(16).padStart(4, '0')}`; } else { out += ch; }
	}
	return `${out}"`;
}

/** The `-c` value for Codex: `hooks.Stop=[{hooks=[{type="command",command="…"}]}]`. */
export function codexStopHookConfig(command: string): string {
	return `hooks.Stop=[{hooks=[{type="command",command=${tomlString(command)}}]}]`;
}

/** The value of a TOML basic string written by tomlString, or undefined for anything else. */
function tomlStringValue(quoted: string): string | undefined {
	if (!quoted.startsWith('"') || !quoted.endsWith('"') || quoted.length < 2) { return undefined; }
	let out = '';
	const body = quoted.slice(1, -1);
	for (let i = 0; i < body.length; i++) {
		const ch = body[i]!;
		if (ch === '"') { return undefined; }
		if (ch !== '\\') { out += ch; continue; }
		const next = body[++i];
		const simple: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t' };
		if (next !== undefined && simple[next] !== undefined) { out += simple[next]; continue; }
		if (next !== 'u' || !/^[0-9a-f]{4}$/.test(body.slice(i + 1, i + 5))) { return undefined; }
		out += String.fromCodePoint(parseInt(body.slice(i + 1, i + 5), 16));
		i += 4;
	}
	return out;
}

/**
 * The hook command in a `-c` value written by codexStopHookConfig, or undefined for any other value: `codex
 * app-server` runs no hook that is not trusted and has no flag to bypass that, so its Run supervisor plays Tutti's
 * own Stop hook (src/agents/codexAppServerSession.ts) and takes the command back out of the flags the Host gave.
 */
export function codexStopHookCommandOf(configValue: string): string | undefined {
	const prefix = 'hooks.Stop=[{hooks=[{type="command",command=';
	const suffix = '}]}]';
	if (!configValue.startsWith(prefix) || !configValue.endsWith(suffix)) { return undefined; }
	const command = tomlStringValue(configValue.slice(prefix.length, -suffix.length));
	return command !== undefined && codexStopHookConfig(command) === configValue ? command : undefined;
}

/**
 * Codex launch args with the hook and the trust flag inserted after the `exec` subcommand (or appended when there
 * is none). Appends, never replaces: auto-approve flags already present are kept.
 */
export function withCodexStopHook(args: readonly string[], command: string): string[] {
	const hook = ['-c', codexStopHookConfig(command), ...(args.includes(codexHookTrustFlag) ? [] : [codexHookTrustFlag])];
	const exec = args.indexOf('exec');
	if (exec === -1) { return [...args, ...hook]; }
	return [...args.slice(0, exec + 1), ...hook, ...args.slice(exec + 1)];
}

/** The launch flags that install the Stop hook for one adapter (none for `command` targets, which have no hooks). */
export function stopHookLaunchArgs(adapter: 'command' | 'claude' | 'codex', command: string): string[] {
	switch (adapter) {
		case 'claude': return withClaudeStopHook([], command);
		case 'codex': return ['-c', codexStopHookConfig(command), codexHookTrustFlag];
		case 'command': return [];
	}
}
