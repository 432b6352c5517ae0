// Claude Code's permission prompt tool, given through launch flags only: a tool call
// outside --allowedTools makes claude call `mcp__tutti__approve`, served by `tutti mcp` (a stdio MCP server that
// asks the developer and waits). The MCP config is inline JSON and holds no token: `tutti mcp` inherits the agent's
// environment (TUTTI_IPC_HOOK, TUTTI_SESSION_TOKEN, TUTTI_RUN_ID). `--strict-mcp-config` is never passed, so the
// developer's own MCP servers keep working. Pure.

/** The MCP server's name in the config; the tool is `mcp__<server>__<tool>`. */
export const tuttiMcpServerName = 'tutti';
export const permissionPromptTool = `mcp__${tuttiMcpServerName}__approve`;

/** `--mcp-config <json> --permission-prompt-tool mcp__tutti__approve`, running `<command> …args mcp`. */
export function claudeApprovalArgs(command: string, args: readonly string[] = []): string[] {
	const config = { mcpServers: { [tuttiMcpServerName]: { type: 'stdio', command, args: [...args, 'mcp'] } } };
	return ['--mcp-config', JSON.stringify(config), '--permission-prompt-tool', permissionPromptTool];
}
