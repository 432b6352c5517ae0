// The panel's page: the shared strict page (webviewPage.ts) around the empty regions the script fills, and nothing
// else.
import { esc, webviewPage } from './webviewPage.js';

export interface IssuePanelHtmlInput {
	/** `webview.cspSource`. */
	readonly cspSource: string;
	/** `webview.asWebviewUri(dist/webview/issuePanel.js)`, as a string. */
	readonly scriptUri: string;
	readonly styleUri: string;
	readonly nonce: string;
	readonly issueId: string;
	readonly title: string;
}

export function issuePanelHtml(p: IssuePanelHtmlInput): string {
	return webviewPage(p, `<div id="app" data-issue-id="${esc(p.issueId)}">
<div id="panel-error" role="alert" hidden></div>
<div id="live" class="visually-hidden" aria-live="polite"></div>
<header id="header-region"><p class="muted">Loading the issue…</p></header>
<main id="main-region">
<section id="graph-region" aria-label="Task graph">
<div id="toolbar-region"></div>
<div id="graph-status-region"></div>
<div id="graph-scroll"><div id="graph-canvas"></div></div>
</section>
<aside id="detail-region" aria-label="Task detail"></aside>
</main>
</div>`);
}
