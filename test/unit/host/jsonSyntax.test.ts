// Where a config.json first breaks (src/host/jsonSyntax.ts): the offset JSON.parse would stop at, as line:column,
// also for the errors whose message names no position (a trailing comma, an unknown word).
import * as assert from 'node:assert/strict';
import { jsonSyntaxErrorOffset, positionAt } from '../../../src/host/jsonSyntax.js';

describe('jsonSyntaxErrorOffset', () => {
	const cases: Array<[string, string, { line: number; column: number } | undefined]> = [
		['valid', '{"a": [1, -2.5e3, true, false, null, "x\\n\\u00e9"], "b": {}}', undefined],
		['valid with spaces around', ' \n {"a": []} \n', undefined],
		['a trailing comma in an array', '{"a": [1,\n]}', { line: 2, column: 1 }],
		['a trailing comma in an object', '{"a": 1,\n  }', { line: 2, column: 3 }],
		['an unquoted key', '{\n\tid: 1}', { line: 2, column: 2 }],
		['a missing colon', '{"a" 1}', { line: 1, column: 6 }],
		['an unknown word', '{"a": tru}', { line: 1, column: 7 }],
		['a leading zero', '{"a": 01}', { line: 1, column: 8 }],
		['text after the value', '{}\n\nx', { line: 3, column: 1 }],
		['a control character in a string', '{"a": "x\ny"}', { line: 1, column: 9 }],
		['a bad escape', '{"a": "\\q"}', { line: 1, column: 9 }],
		['a short unicode escape', '{"a": "\\u12"}', { line: 1, column: 12 }],
		['ends too early', '{"a": [1, 2', { line: 1, column: 12 }],
		['empty', '', { line: 1, column: 1 }],
		['a byte order mark', '\ufeff{}', { line: 1, column: 1 }],
	];
	for (const [name, text, expected] of cases) {
		it(name, () => {
			const offset = jsonSyntaxErrorOffset(text);
			assert.deepEqual(offset === undefined ? undefined : positionAt(text, offset), expected);
			let parses = true;
			try { JSON.parse(text); } catch { parses = false; }
			assert.equal(parses, expected === undefined, 'agrees with JSON.parse on whether the text is JSON');
		});
	}
});
