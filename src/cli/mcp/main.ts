// `tutti mcp`: a stdio MCP server (the official MCP TypeScript SDK) serving the permission prompt tool for the claude
// Run that started it. Bundled apart as dist/mcp.js and loaded only for this command, so plain CLI calls never load
// the SDK. The Run's identity comes from the environment claude passes on: TUTTI_IPC_HOOK, TUTTI_SESSION_TOKEN,
// TUTTI_RUN_ID (the MCP config holds no token).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
	CallToolRequestSchema, ErrorCode, InitializeRequestSchema, ListToolsRequestSchema, McpError, PingRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { callHost } from '../client.js';
import { type Env, resolveEndpoint } from '../discovery.js';
import { LineTransport, type ParamsCheck } from './lineTransport.js';
import { BadToolArguments, askDeveloper, permissionToolInputSchema, permissionToolName } from './permissionTool.js';

export interface McpCommandIo {
	env: Env;
	cwd: string;
	stderr: (text: string) => void;
}

interface RequestSchema {
	safeParse(value: unknown): { success: true } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };
}

/** The params check of a method we serve, from the SDK's own schema of its request (-32602 instead of an internal error). */
function checkWith(schema: RequestSchema): ParamsCheck {
	return (request) => {
		const parsed = schema.safeParse(request);
		return parsed.success ? null : parsed.error.issues.map((i) => `${i.path.map(String).join('.')}: ${i.message}`).join('; ');
	};
}

const paramsChecks: Record<string, ParamsCheck> = {
	'initialize': checkWith(InitializeRequestSchema),
	'ping': checkWith(PingRequestSchema),
	'tools/list': checkWith(ListToolsRequestSchema),
	'tools/call': checkWith(CallToolRequestSchema),
};

/** Serves until stdin closes; resolves with the exit code. */
export async function runMcpCommand(io: McpCommandIo): Promise<number> {
	const server = new Server({ name: 'tutti', version: '1' }, { capabilities: { tools: {} } });
	const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
	server.setRequestHandler(ListToolsRequestSchema, async () => ({
		tools: [{
			name: permissionToolName,
			description: "Asks the developer (in VS Code or `tutti approval answer`) whether a tool call outside the agent's allowedTools may run, and waits for the answer.",
			inputSchema: permissionToolInputSchema,
		}],
	}));
	server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
		if (request.params.name !== permissionToolName) {
			throw new McpError(ErrorCode.InvalidParams, `Unknown tool ${JSON.stringify(request.params.name).slice(0, 200)}: tutti serves only "${permissionToolName}".`);
		}
		try {
			const answer = await askDeveloper(request.params.arguments, {
				runId: io.env['TUTTI_RUN_ID'],
				signal: extra.signal,
				sleep,
				log: (line) => io.stderr(`tutti mcp: ${line}\n`),
				call: (method, params, timeoutMs) => callHost({
					resolve: () => resolveEndpoint(io.env, io.cwd), method, params, asUser: false,
					sessionToken: io.env['TUTTI_SESSION_TOKEN'] || undefined, connectTimeoutMs: 5_000, requestTimeoutMs: timeoutMs,
					sameCommand: 'tutti mcp', sleep,
				}),
			});
			return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
		} catch (error) {
			if (error instanceof BadToolArguments) { throw new McpError(ErrorCode.InvalidParams, error.message); }
			throw error;
		}
	});
	server.onerror = (error) => io.stderr(`tutti mcp: ${error.message.slice(0, 300)}\n`);
	const transport = new LineTransport(process.stdin, process.stdout, paramsChecks);
	const closed = new Promise<void>((resolve) => {
		server.onclose = () => resolve();
		process.stdin.once('end', () => resolve());
		process.stdin.once('close', () => resolve());
	});
	await server.connect(transport);
	await closed;
	await server.close().catch(() => undefined);
	return 0;
}
