/* global require, process */
// A command-target agent that asks the developer about one tool call the way Claude Code does: it runs `tutti mcp`
// (argv[2] is dist/cli.js) with its own Run's environment, calls the permission prompt tool `approve` for a Bash call,
// waits for the answer, prints it as one line (`answer: {...}`) and exits 0. The UI test answers it from the panel.
'use strict';
/* eslint-disable @typescript-eslint/no-require-imports */
const { spawn } = require('node:child_process');
const { createInterface } = require('node:readline');

const cli = process.argv[2];
const mcp = spawn(process.execPath, [cli, 'mcp'], { env: process.env, stdio: ['pipe', 'pipe', 'inherit'] });
const send = (message) => mcp.stdin.write(`${JSON.stringify(message)}\n`);
process.stdout.write('asking the developer before cleaning the build folder\n');
createInterface({ input: mcp.stdout }).on('line', (line) => {
	let reply;
	try { reply = JSON.parse(line); } catch { return; }
	if (reply.id === 'init') {
		send({ jsonrpc: '2.0', method: 'notifications/initialized' });
		send({ jsonrpc: '2.0', id: 'ask', method: 'tools/call', params: { name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'rm -rf build', description: 'clean the build folder' }, tool_use_id: 'toolu_clean' } } });
	} else if (reply.id === 'ask') {
		const text = reply.result && reply.result.content && reply.result.content[0] ? reply.result.content[0].text : JSON.stringify(reply.error);
		process.stdout.write(`answer: ${text}\n`);
		mcp.stdin.end();
		process.exit(0);
	}
});
mcp.on('exit', (code) => { process.stderr.write(`tutti mcp exited with ${code} before the answer\n`); process.exit(1); });
send({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'asking-agent', version: '1' } } });
