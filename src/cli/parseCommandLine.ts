// argv → what to do: a control-plane call ({method, params}), `tutti host`, help text, or a structured error.
// The quick parser answers the usual command line; only help and the unusual load the commander program, which
// is most of the CLI's code and would otherwise be compiled and run by every agent command.
import type { Invocation } from './invocation.js';
import { quickParse } from './quickParse.js';

export function parseCommandLine(argv: readonly string[]): Invocation {
	return quickParse(argv) ?? commanderParse().parseWithCommander(argv);
}

function commanderParse(): typeof import('./commanderParse.js') {
	// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand: see the header
	return require('./commanderParse.js') as typeof import('./commanderParse.js');
}
