// Launch flags that install the Stop hook (src/agents/stopHook.ts): the Claude `--settings` JSON is parsed, the Codex
// `-c` value is parsed as TOML (not a prefix check), and auto-approve flags are kept beside the hook.
import { strict as assert } from 'node:assert';
import {
	claudeStopHookSettings, codexHookTrustFlag, codexStopHookConfig, stopHookCommand, withClaudeStopHook, withCodexStopHook,
} from '../../../../src/agents/stopHook.js';

/** A small parser for the inline TOML subset `key.path=<value>` with arrays, inline tables, basic strings and bare keys. */
function parseInlineToml(text: string): { key: string[]; value: unknown } {
	let i = 0;
	const ws = (): void => { while (i < text.length && /\s/.test(text[i]!)) { i++; } };
	const expect = (ch: string): void => { ws(); if (text[i] !== ch) { throw new Error(`expected ${ch} at ${i} in ${text}`); } i++; };
	const bareKey = (): string => { ws(); const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i)); if (!m) { throw new Error(`key expected at ${i}`); } i += m[0].length; return m[0]; };
	const basicString = (): string => {
		expect('"');
		let out = '';
		for (;;) {
			const ch = text[i++];
			if (ch === undefined) { throw new Error('unterminated string'); }
			if (ch === '"') { return out; }
			if (ch === '\\') {
				const e = text[i++];
				const simple: Record<string, string> = { '"': '"', '\\': '\\', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
				if (e !== undefined && e in simple) { out += simple[e]; } else if (e === 'u') { out += String.fromCharCode(parseInt(text.slice(i, i + 4), 16)); i += 4; } else { throw new Error(`bad escape \\${e}`); }
			} else {
				if (ch.charCodeAt(0) < 0x20) { throw new Error('control character in a basic string'); }
				out += ch;
			}
		}
	};
	const value = (): unknown => {
		ws();
		if (text[i] === '"') { return basicString(); }
		if (text[i] === '[') {
			i++; const items: unknown[] = [];
			for (;;) { ws(); if (text[i] === ']') { i++; return items; } items.push(value()); ws(); if (text[i] === ',') { i++; } }
		}
		if (text[i] === '{') {
			i++; const table: Record<string, unknown> = {};
			for (;;) { ws(); if (text[i] === '}') { i++; return table; } const k = bareKey(); expect('='); table[k] = value(); ws(); if (text[i] === ',') { i++; } }
		}
		throw new Error(`value expected at ${i} in ${text}`);
	};
	const key = [bareKey()];
	while (text[i] === '.') { i++; key.push(bareKey()); }
	expect('=');
	const parsed = value();
	ws();
	if (i !== text.length) { throw new Error(`trailing text at ${i}`); }
	return { key, value: parsed };
}

const awkward = ['/opt/my tools/node', "/home/o'neil/dist/cli.js"];

describe('stop hook launch flags', () => {
	it('the hook command runs `tutti hook stop` through the given CLI argv, shell-quoted', () => {
		assert.equal(stopHookCommand(['/usr/bin/node', '/abs/dist/cli.js']), '/usr/bin/node /abs/dist/cli.js hook stop');
		assert.equal(stopHookCommand(awkward), `'/opt/my tools/node' '/home/o'\\''neil/dist/cli.js' hook stop`);
		assert.throws(() => stopHookCommand([]));
	});

	it('claude stop hook settings carry the hook command (parsed JSON)', () => {
		const command = stopHookCommand(awkward);
		assert.deepEqual(JSON.parse(claudeStopHookSettings(command)), {
			hooks: { Stop: [{ hooks: [{ type: 'command', command, timeout: 60 }] }] },
		});
	});

	it('claude launcher injects the settings and keeps them under auto-approve', () => {
		const command = stopHookCommand(['node', '/abs/cli.js']);
		for (const approval of [[], ['--permission-mode', 'bypassPermissions'], ['--dangerously-skip-permissions'], ['--allowedTools', 'Bash']]) {
			const args = withClaudeStopHook(['-p', '--output-format', 'stream-json', ...approval], command);
			for (const flag of approval) { assert.ok(args.includes(flag), `${flag} kept`); }
			const at = args.indexOf('--settings');
			assert.ok(at >= 0);
			assert.equal(JSON.parse(args[at + 1]!).hooks.Stop[0].hooks[0].command, command);
		}
	});

	it('codex stop hook config uses inline TOML (parsed, including quotes and backslashes)', () => {
		for (const command of [stopHookCommand(['node', '/abs/cli.js']), stopHookCommand(awkward), 'C:\\tools\\tutti.cmd hook stop "x"']) {
			assert.deepEqual(parseInlineToml(codexStopHookConfig(command)), {
				key: ['hooks', 'Stop'],
				value: [{ hooks: [{ type: 'command', command }] }],
			});
		}
	});

	it('codex launcher injects the hook and the trust flag after exec, and keeps them under auto-approve', () => {
		const command = stopHookCommand(['node', '/abs/cli.js']);
		for (const approval of [[], ['--dangerously-bypass-approvals-and-sandbox'], ['--full-auto'], ['-s', 'workspace-write']]) {
			const args = withCodexStopHook(['exec', '--json', ...approval, '-'], command);
			assert.equal(args[0], 'exec');
			for (const flag of approval) { assert.ok(args.includes(flag), `${flag} kept`); }
			const c = args.indexOf('-c');
			assert.deepEqual(parseInlineToml(args[c + 1]!).value, [{ hooks: [{ type: 'command', command }] }]);
			assert.equal(args.filter((a) => a === codexHookTrustFlag).length, 1);
			assert.equal(args[args.length - 1], '-', 'the prompt argument stays last');
		}
		assert.equal(withCodexStopHook(['exec', codexHookTrustFlag], command).filter((a) => a === codexHookTrustFlag).length, 1);
	});

	it('no session flag is passed: the hook resolves the session from TUTTI_SESSION_TOKEN', () => {
		const command = stopHookCommand(['node', '/abs/cli.js']);
		assert.doesNotMatch(command, /--session/);
		assert.doesNotMatch(withCodexStopHook(['exec'], command).join(' '), /--session/);
	});
});
