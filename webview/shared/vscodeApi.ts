// The webview side of VS Code's bridge, typed. `acquireVsCodeApi` may be called once per page.
export interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

export function acquireApi(): VsCodeApi {
	return acquireVsCodeApi();
}
