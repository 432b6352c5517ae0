// Every webview page of the extension: one strict CSP (a nonce for our one script and for the UI kit's one
// feature-detection <style>; styles, fonts and images only from dist/webview), the head they share, and escaping.
// Pure, so the CSP is unit-tested.
import { randomBytes } from 'node:crypto';

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

export interface WebviewPageInput {
	/** `webview.cspSource`. */
	readonly cspSource: string;
	/** `webview.asWebviewUri(dist/webview/<page>.js)`, as a string. */
	readonly scriptUri: string;
	readonly styleUri: string;
	readonly nonce: string;
	readonly title: string;
}

/** A whole page: the shared head, `body` (trusted markup: every value in it escaped by the caller), our one script. */
export function webviewPage(p: WebviewPageInput, body: string): string {
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
${body}
<script type="module" nonce="${esc(p.nonce)}" src="${esc(p.scriptUri)}"></script>
</body>
</html>`;
}
