// The usual command line without commander: `tutti <command words> --flag value … [--json] [--as-user]` with every
// flag known to that command. Anything else — help, a group without its command, an unknown or misplaced flag, a
// missing value, an operand, `--`, a value that looks like a flag, a choice not offered — is left to the commander
// program (returns null), so errors and help read the same as ever. What it returns is what commander's parse
// gives for the same argv (test/unit/cli/quickParse.test.ts compares both).
import { type CommandSpec, type FlagSpec, commandTable } from './commandTable.js';
import { type Invocation, attributeName, toCall } from './invocation.js';

/** How a flag takes its value, as the commander program declares it (commanderParse.ts `optionFor`). */
type Arity = 'none' | 'optional' | 'required';

interface KnownFlag {
	/** The key in commander's opts. */
	key: string;
	arity: Arity;
	flag?: FlagSpec;
}

export function quickParse(argv: readonly string[]): Invocation | null {
	const spec = commandTable.find((s) => s.path.every((word, i) => argv[i] === word) && (argv.length === s.path.length || argv[s.path.length]!.startsWith('--')));
	if (spec === undefined) {
		return null;
	}
	const known = knownFlags(spec);
	const opts: Record<string, unknown> = {};
	for (let i = spec.path.length; i < argv.length; i++) {
		const token = argv[i]!;
		if (!token.startsWith('--') || token === '--') {
			return null;
		}
		const equals = token.indexOf('=');
		const name = equals < 0 ? token.slice(2) : token.slice(2, equals);
		const option = known.get(name);
		if (option === undefined) {
			return null;
		}
		let value: string | true;
		if (equals >= 0) {
			if (option.arity === 'none') {
				return null;
			}
			value = token.slice(equals + 1);
		} else if (option.arity === 'none') {
			value = true;
		} else {
			const next = argv[i + 1];
			const takesNext = next !== undefined && !(next.length > 1 && next.startsWith('-'));
			if (option.arity === 'required' && !takesNext) {
				return null;
			}
			value = takesNext ? next : true;
			if (takesNext) { i++; }
		}
		if (option.flag?.kind === 'choice' && !(option.flag.choices ?? []).includes(String(value))) {
			return null;
		}
		opts[option.key] = option.flag?.kind === 'list' ? [...(Array.isArray(opts[option.key]) ? opts[option.key] as string[] : []), value] : value;
	}
	return toCall(spec, opts, argv.includes('--json'));
}

function knownFlags(spec: CommandSpec): Map<string, KnownFlag> {
	const known = new Map<string, KnownFlag>([['json', { key: 'json', arity: 'none' }], ['as-user', { key: 'asUser', arity: 'none' }]]);
	for (const flag of spec.flags) {
		const arity: Arity = flag.kind === 'optionalValue' ? 'optional' : flag.kind !== 'bool' ? 'required' : flag.valueName ? 'optional' : 'none';
		known.set(flag.name, { key: attributeName(flag.name), arity, flag });
		if (flag.file !== undefined) {
			known.set(flag.file, { key: attributeName(flag.file), arity: 'required' });
		}
	}
	return known;
}
