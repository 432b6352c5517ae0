// `tutti mcp` as a real child process over stdio, driven by the official MCP client: it lists its one tool with the
// input schema Claude Code sends, and answers bad input with a clear error instead of hanging or crashing — an
// unknown tool and malformed arguments are MCP errors; an oversize input and a call outside a Run are denials whose
// message says why (the agent goes on).
import { strict as assert } from 'node:assert';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { approvalInputMaxChars } from '../../../src/core/approvals/approvalRules.js';
import { maxInputChars } from '../../../src/cli/mcp/permissionTool.js';

const cli = join(resolve(__dirname, '../../..'), 'dist', 'cli.js');

interface ToolText { content: { type: string; text: string }[]; isError?: boolean }

describe('tutti mcp (stdio, the real bundle)', function () {
	this.timeout(30_000);
	let client: Client;

	async function connect(env: Record<string, string>): Promise<Client> {
		const c = new Client({ name: 'test', version: '1' });
		const base: Record<string, string> = {};
		for (const [k, v] of Object.entries(process.env)) { if (v !== undefined && !k.startsWith('TUTTI_')) { base[k] = v; } }
		await c.connect(new StdioClientTransport({ command: process.execPath, args: [cli, 'mcp'], env: { ...base, ...env }, stderr: 'pipe' }));
		return c;
	}

	beforeEach(async () => {
		// A socket nobody listens on: nothing here may reach a Host.
		client = await connect({ TUTTI_RUN_ID: 'run-x', TUTTI_SESSION_TOKEN: 'x'.repeat(64), TUTTI_IPC_HOOK: '/nonexistent/tutti.sock' });
	});
	afterEach(async () => { await client.close(); });

	it('lists the approve tool with the schema Claude Code calls it with', async () => {
		const { tools } = await client.listTools();
		assert.deepEqual(tools.map((t) => t.name), ['approve']);
		assert.deepEqual(tools[0]!.inputSchema.required, ['tool_name', 'input']);
		assert.deepEqual(Object.keys(tools[0]!.inputSchema.properties ?? {}).sort(), ['input', 'tool_name', 'tool_use_id']);
	});

	it('an unknown tool is an MCP error naming the one it serves', async () => {
		await assert.rejects(client.callTool({ name: 'delete_everything', arguments: {} }), /Unknown tool "delete_everything": tutti serves only "approve"/);
	});

	it('malformed arguments are an MCP error naming the expected shape', async () => {
		for (const args of [{}, { tool_name: 'Bash' }, { tool_name: 'Bash', input: 'rm -rf /' }, { tool_name: '', input: {} }, { tool_name: 7, input: {} }]) {
			await assert.rejects(client.callTool({ name: 'approve', arguments: args }), /approve expects \{"tool_name": string, "input": object/, JSON.stringify(args));
		}
		// The server is still there afterwards.
		assert.equal((await client.listTools()).tools.length, 1);
	});

	it('an oversize input is denied without asking, and the message says why', async () => {
		assert.equal(maxInputChars, approvalInputMaxChars, 'the CLI mirrors the Host cap');
		const result = await client.callTool({ name: 'approve', arguments: { tool_name: 'Write', input: { file_path: 'big.txt', content: 'x'.repeat(maxInputChars) }, tool_use_id: 'toolu_big' } }) as ToolText;
		const answer = JSON.parse(result.content[0]!.text) as { behavior: string; message: string };
		assert.equal(answer.behavior, 'deny');
		assert.match(answer.message, /Tutti did not ask the developer: the Write input is \d+ characters, over the 262144/);
	});

	it('outside a Run (no TUTTI_RUN_ID) a call is denied with the reason', async () => {
		await client.close();
		client = await connect({ TUTTI_IPC_HOOK: '/nonexistent/tutti.sock' });
		const result = await client.callTool({ name: 'approve', arguments: { tool_name: 'Bash', input: { command: 'ls' } } }) as ToolText;
		assert.deepEqual(JSON.parse(result.content[0]!.text), { behavior: 'deny', message: 'Tutti cannot ask the developer: this agent was not started by Tutti for a Run (TUTTI_RUN_ID is not set).' });
	});
});
