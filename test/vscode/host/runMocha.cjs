/* global require, module, process */
// Runs inside the VS Code extension host (code-server harness or @vscode/test-electron): call it from the
// run() of an extensionTestsPath module. Resolves when all tests pass; rejects when any fails, which makes the
// extension host exit non-zero. Writes a JSON summary to $TUTTI_VSCODE_RESULTS when that is set.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports */
const fs = require('node:fs');
const util = require('node:util');
const Mocha = require('mocha');

/**
 * @param {string[]} files absolute paths of the test files (JavaScript, or TypeScript with require: ['tsx/cjs'])
 * @param {{ timeout?: number, grep?: string, require?: string[] }} [options] require: modules loaded first,
 *   e.g. ['tsx/cjs'] to run TypeScript test files directly (tested in code-server's Node 24 extension host)
 * @returns {Promise<{ passed: number, failed: number, pending: number, failures: { title: string, message: string }[], output: string }>}
 */
async function runMocha(files, options = {}) {
	for (const hook of options.require ?? []) {
		require(hook);
	}
	const mocha = new Mocha({ ui: 'bdd', reporter: 'spec', color: false, timeout: options.timeout ?? 20000 });
	if (options.grep) {
		mocha.grep(options.grep);
	}
	for (const file of files) {
		mocha.addFile(file);
	}
	await mocha.loadFilesAsync();
	const summary = { passed: 0, failed: 0, pending: 0, failures: [], output: '' };
	// The reporter's lines also go to the summary: in the harness, the forwarded console mixes them with the
	// workbench's own log lines. (The tests' own console.log cannot be teed: the extension host makes the
	// console methods non-configurable; it still reaches the driver's raw output.)
	const report = [];
	const reporterLog = Mocha.reporters.Base.consoleLog;
	Mocha.reporters.Base.consoleLog = (...args) => {
		report.push(util.format(...args));
		reporterLog(...args);
	};
	await new Promise((resolve) => {
		const runner = mocha.run(() => resolve());
		runner.on('pass', () => summary.passed++);
		runner.on('pending', () => summary.pending++);
		runner.on('fail', (test, error) => {
			summary.failed++;
			summary.failures.push({ title: test.fullTitle(), message: String((error && error.message) || error) });
		});
	}).finally(() => {
		Mocha.reporters.Base.consoleLog = reporterLog;
	});
	summary.output = report.join('\n');
	if (process.env.TUTTI_VSCODE_RESULTS) {
		fs.writeFileSync(process.env.TUTTI_VSCODE_RESULTS, JSON.stringify(summary, null, '\t'));
	}
	if (summary.failed > 0) {
		throw new Error(`${summary.failed} of ${summary.passed + summary.failed} tests failed`);
	}
	return summary;
}

module.exports = { runMocha };
