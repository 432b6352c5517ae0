// The quick parser answers the usual command line without loading commander. Whatever it answers must be exactly
// what the commander program answers for the same argv; what it cannot answer it leaves to commander (null).
import * as assert from 'node:assert/strict';
import { parseWithCommander } from '../../../src/cli/commanderParse.js';
import { type CommandSpec, type FlagSpec, commandTable } from '../../../src/cli/commandTable.js';
import { quickParse } from '../../../src/cli/quickParse.js';
import { shellWords } from './shellWords.js';

const sampleFor = (flag: FlagSpec): string => {
	switch (flag.kind) {
		case 'positiveInt': case 'nonNegativeInt': return '3';
		case 'bool': return 'false';
		case 'jsonStringArray': return '["a","b"]';
		case 'jsonObject': return '{"command":"ls"}';
		case 'jsonArray': return '[{"argv":["true"]}]';
		case 'choice': return flag.choices?.[0] ?? 'x';
		default: return `v-${flag.name}`;
	}
};

/** Command lines around one command: every flag given, `=` forms, repeats, bare booleans and the usual mistakes. */
function variants(spec: CommandSpec): string[][] {
	const all = spec.flags.flatMap((f) => [`--${f.name}`, sampleFor(f)]);
	const required = spec.flags.filter((f) => f.required).flatMap((f) => [`--${f.name}`, sampleFor(f)]);
	const out: string[][] = [
		[...spec.path], [...spec.path, '--json'], [...spec.path, ...required], [...spec.path, ...required, '--json', '--as-user'],
		[...spec.path, ...all, '--json'], [...spec.path, ...spec.flags.map((f) => `--${f.name}=${sampleFor(f)}`)],
		[...spec.path, ...required, '--no-such-flag', 'x'], [...spec.path, ...required, 'operand'], [...spec.path, ...required, '--help'],
		[...spec.path, ...required, '--json=true'], [...spec.path, ...required, '--'], [...spec.path.slice(0, -1), '--json'],
	];
	for (const flag of spec.flags) {
		out.push([...spec.path, ...required, `--${flag.name}`]);
		out.push([...spec.path, ...required, `--${flag.name}`, '--json']);
		out.push([...spec.path, ...required, `--${flag.name}`, '-']);
		out.push([...spec.path, ...required, `--${flag.name}`, '-5']);
		out.push([...spec.path, ...required, `--${flag.name}`, sampleFor(flag), `--${flag.name}`, 'again']);
		if (flag.kind === 'choice') { out.push([...spec.path, ...required, `--${flag.name}`, 'not-a-choice']); }
		if (flag.file !== undefined) {
			out.push([...spec.path, ...required.filter((w, i, ws) => w !== `--${flag.name}` && ws[i - 1] !== `--${flag.name}`), `--${flag.file}`, 'in.json']);
			out.push([...spec.path, ...required, `--${flag.file}`, 'in.json']);
		}
	}
	return out;
}

describe('quickParse', () => {
	const corpus = commandTable.flatMap((spec) => [
		...spec.examples.filter((e) => !/[<>|]/.test(e.replace(/'[^']*'/g, ''))).map((e) => shellWords(e).slice(1)),
		...variants(spec),
	]);

	it('answers exactly what the commander program answers, or leaves the command line to it', () => {
		let answered = 0;
		for (const argv of corpus) {
			const quick = quickParse(argv);
			if (quick !== null) {
				answered++;
				assert.deepEqual(quick, parseWithCommander(argv), `tutti ${argv.join(' ')}`);
			}
		}
		assert.ok(answered > corpus.length / 3, `the quick parser answered ${answered} of ${corpus.length} command lines`);
	});

	it('answers every example the help prints (the usual command lines)', () => {
		for (const spec of commandTable) {
			for (const example of spec.examples.filter((e) => !/[<>|]/.test(e.replace(/'[^']*'/g, '')))) {
				const argv = shellWords(example).slice(1);
				assert.notEqual(quickParse(argv), null, example);
			}
		}
	});

	it('leaves help, groups, `tutti host`, unknown flags and missing values to commander', () => {
		for (const argv of [[], ['--help'], ['issue'], ['issue', 'list', '--help'], ['host', '--workspace', '.'], ['issue', 'list', '--bogus'],
			['issue', 'get', '--issue-id'], ['issue', 'get', '--issue-id', '--json'], ['help', 'issue']]) {
			assert.equal(quickParse(argv), null, `tutti ${argv.join(' ')}`);
		}
	});
});
