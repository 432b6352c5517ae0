/* global require, exports, __dirname */
// extensionTestsPath for @vscode/test-electron / @vscode/test-cli (desktop VS Code): its extension host's Node does
// not strip TypeScript types, so register tsx first, then hand over to index.ts with the same run().
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports */
const path = require('node:path');
require('tsx/cjs');
const { run } = require('./index.ts');

exports.run = function runSuite() {
	return run(path.join(__dirname, 'index.ts'));
};
