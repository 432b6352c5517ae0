// The panel's page: a strict CSP (nonce for our one script, styles only from dist/webview), the empty regions the
// script fills, and nothing else. Pure, so its CSP is unit-tested.
import { randomBytes } from 'node:crypto';

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

export function newNonce(): string {
	return randomBytes(18).toString('base64url');
}

/** Text for HTML attributes and content (every page of the extension escapes with this). */
export function esc(s: string): string {
	return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

export function contentSecurityPolicy(cspSource: string, nonce: string): string {
	return [
		"default-src 'none'",
		`img-src ${cspSource} data:`,
		// The nonce lets the UI kit's one feature-detection <style> (focus-visible) in; nothing else inline.
		`style-src ${cspSource} 'nonce-${nonce}'`,
		`font-src ${cspSource}`,
		`script-src 'nonce-${nonce}'`,
	].join('; ');
}

export function issuePanelHtml(p: IssuePanelHtmlInput): string {
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${esc(contentSecurityPolicy(p.cspSource, p.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<meta property="csp-nonce" content="${esc(p.nonce)}">
<link rel="stylesheet" href="${esc(p.styleUri)}">
<title>${esc(p.title)}</title>
</head>
<body>
<div id="app" data-issue-id="${esc(p.issueId)}">
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
</div>
<script type="module" nonce="${esc(p.nonce)}" src="${esc(p.scriptUri)}"></script>
</body>
</html>`;
}
