// The workbench URL: ?folder=<abs path>&payload=<JSON pairs>, the route @vscode/test-web uses to hand the web
// client extensionDevelopmentPath / extensionTestsPath (read only with enable-smoke-test-driver).

export interface WorkbenchUrlOptions {
	readonly serverUrl: string;
	/** host:port exactly as the browser reaches the server; the vscode-remote authority must equal it. */
	readonly remoteAuthority: string;
	readonly workspacePath: string;
	readonly extensionDevelopmentPath?: string;
	readonly extensionTestsPath?: string;
}

function remoteUri(authority: string, absolutePath: string): string {
	return `vscode-remote://${authority}${absolutePath.split('/').map(encodeURIComponent).join('/')}`;
}

export function workbenchUrl(options: WorkbenchUrlOptions): string {
	const url = new URL(options.serverUrl);
	url.searchParams.set('folder', options.workspacePath);
	const payload: [string, string][] = [];
	if (options.extensionDevelopmentPath) {
		payload.push(['extensionDevelopmentPath', remoteUri(options.remoteAuthority, options.extensionDevelopmentPath)]);
	}
	if (options.extensionTestsPath) {
		payload.push(['extensionTestsPath', remoteUri(options.remoteAuthority, options.extensionTestsPath)]);
	}
	if (payload.length > 0) {
		url.searchParams.set('payload', JSON.stringify(payload));
	}
	return url.toString();
}
