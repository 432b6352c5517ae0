// Security: the Issue panel. A strict CSP (default-src 'none', our one script by nonce, nothing inline, no eval),
// local resources only from dist/webview, every message from the webview validated before it does anything, and
// hostile titles never becoming markup — along the whole path: real Host → snapshot → wire → validation → render.
import { strict as assert } from 'node:assert';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { IssuePanelController, type PanelEffects, type PanelWebviewPort } from '../../src/extension/panels/issuePanelController.js';
import { issuePanelHtml } from '../../src/extension/panels/issuePanelHtml.js';
import { contentSecurityPolicy, newNonce } from '../../src/extension/panels/webviewPage.js';
import type { PanelHostApi } from '../../src/extension/panels/panelHostApi.js';
import { buildPanelSnapshot } from '../../src/extension/panels/panelSnapshot.js';
import type { IssueWithTasksDto, PlanSnapshotDto, RunDto } from '../../src/protocol/dto.js';
import { type PanelAgentTarget, parseToHost, parseToWebview, type ToWebview } from '../../src/protocol/webview.js';
import { LayoutCache, panelTree, renderPanel } from '../../webview/issuePanel/renderPanel.js';
import { renderToString } from '../../webview/shared/vnode.js';
import { type HostHandle, expectOk, managedIssue, manualIssue, repoRoot, startHost, taskSpec } from '../integration/harness.js';
import { rawPost, settledRunOf, userCredentialOf } from './securityKit.js';

const hostile = [
	'<img src=x onerror=alert(1)>',
	'"><script>alert(document.cookie)</script>',
	"' onmouseover='alert(1)' x='",
	'</title><script>alert(2)</script>',
	'<svg onload=alert(3)><foreignObject><iframe src="javascript:alert(4)"></iframe></foreignObject></svg>',
	'<style>*{display:none}</style><a href="javascript:alert(5)">x</a>',
	'{{constructor.constructor("alert(6)")()}}',
];
/**
 * Tags hostile data would bring (the graph's own SVG uses <title> for tooltips, so that one is checked by content; the
 * toolbar's own search field is the one <input>, checked by its id).
 */
const forbiddenTags = ['script', 'img', 'iframe', 'style', 'foreignobject', 'object', 'embed', 'link', 'meta', 'base', 'a', 'form'];

function tagNames(html: string): string[] {
	return [...html.matchAll(/<([a-zA-Z][^\s>/]*)/g)].map((m) => m[1]!.toLowerCase());
}

function attributeNames(html: string): string[] {
	const names: string[] = [];
	for (const tag of html.matchAll(/<[a-zA-Z][^\s>]*([^>]*)>/g)) {
		for (const a of (tag[1] ?? '').matchAll(/\s([^\s=>"]+)(?:="[^"]*")?/g)) { names.push(a[1]!.toLowerCase()); }
	}
	return names;
}

/** The panel's reads over the real socket with the developer's credential (as the extension does). */
function socketPanelApi(host: HostHandle): PanelHostApi {
	const call = async <T>(method: string, params: unknown): Promise<T> => {
		const reply = await rawPost(host.socket, method, userCredentialOf(host), params);
		const body = JSON.parse(reply.body) as { ok: boolean; result: T; error?: unknown };
		if (!body.ok) { throw new Error(`${method}: ${reply.body}`); }
		return body.result;
	};
	return {
		issue: (issueId) => call<IssueWithTasksDto>('issue/get', { issueId }),
		planSnapshot: (issueId) => call<PlanSnapshotDto>('plan/get', { issueId }),
		runs: (issueId) => call<{ runs: RunDto[] }>('run/list', { issueId }),
		agentTargets: async () => (await call<{ agentTargets: PanelAgentTarget[] }>('agent/list', {})).agentTargets.map((t) => ({ id: t.id, adapter: t.adapter, found: t.found, detail: t.detail })),
		onDidChange: () => ({ dispose: () => undefined }),
		now: () => 1_700_000_000_000,
	};
}

describe('security: the Issue panel webview', function () {
	describe('the page and its CSP (pure builder)', function () {
		const input = {
			cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://r/dist/webview/issuePanel.js',
			styleUri: 'https://r/dist/webview/issuePanel.css', nonce: newNonce(), issueId: hostile[1]!, title: hostile[3]!,
		};

		it('the CSP denies by default, allows scripts only by nonce and never inline code or eval', function () {
			const csp = contentSecurityPolicy(input.cspSource, input.nonce);
			const directives = new Map(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name!, values]));
			assert.deepEqual(directives.get('default-src'), ["'none'"]);
			assert.deepEqual(directives.get('script-src'), [`'nonce-${input.nonce}'`], 'scripts only by nonce');
			assert.ok(!csp.includes('unsafe-inline') && !csp.includes('unsafe-eval'), csp);
			assert.ok(!/(^|\s)(\*|https?:|data:\S*\s*;?\s*script)/.test(directives.get('script-src')!.join(' ')));
			for (const [name, values] of directives) {
				for (const value of values) {
					assert.ok(value !== '*' && value !== 'https:' && value !== 'http:', `${name} allows ${value}`);
				}
			}
		});

		it('nonces are fresh, unguessable and attribute-safe', function () {
			const nonces = new Set(Array.from({ length: 200 }, () => newNonce()));
			assert.equal(nonces.size, 200);
			for (const nonce of nonces) { assert.match(nonce, /^[A-Za-z0-9_-]{24,}$/); }
		});

		it('hostile titles and issue ids are escaped; the one script carries the nonce', function () {
			const html = issuePanelHtml(input);
			const tags = tagNames(html);
			assert.deepEqual(tags.filter((t) => t === 'script'), ['script'], 'exactly our one script');
			assert.deepEqual(tags.filter((t) => t === 'title'), ['title']);
			assert.ok(!tags.includes('img') && !tags.includes('iframe'));
			const script = /<script([^>]*)>/.exec(html)![1]!;
			assert.match(script, new RegExp(`nonce="${input.nonce}"`));
			assert.match(script, /src="https:\/\/r\/dist\/webview\/issuePanel\.js"/);
			assert.ok(!attributeNames(html).some((n) => n.startsWith('on')), 'no event handler attributes');
			assert.ok(html.includes('&lt;/title&gt;&lt;script&gt;'), 'the title is text');
		});

		it('localResourceRoots is only dist/webview, on every panel the extension creates or restores', function () {
			const panelSource = readFileSync(join(repoRoot, 'src', 'extension', 'panels', 'issuePanel.ts'), 'utf8');
			assert.match(panelSource, /Uri\.joinPath\(extensionUri, 'dist', 'webview'\)/, 'webviewRoot is <extension>/dist/webview');
			const extensionFiles = (readdirSync(join(repoRoot, 'src', 'extension'), { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
			const roots: string[] = [];
			for (const file of extensionFiles) {
				const text = readFileSync(join(repoRoot, 'src', 'extension', file), 'utf8');
				assert.ok(!text.includes('enableCommandUris'), `${file}: no command URIs in webviews`);
				roots.push(...[...text.matchAll(/localResourceRoots:\s*(\[[^\]]*\])/g)].map((m) => `${file}: ${m[1]}`));
				for (const create of text.matchAll(/createWebviewPanel\(([\s\S]*?)\);/g)) {
					assert.match(create[1]!, /issuePanelOptions\(/, `${file}: a created panel uses issuePanelOptions`);
				}
			}
			assert.ok(roots.length >= 2, roots.join('\n'));
			for (const root of roots) {
				assert.match(root, /: \[(webviewRoot\(extensionUri\)|root)\]$/, `only the webview root: ${root}`);
			}
			assert.match(panelSource, /const root = webviewRoot\(extensionUri\);/);
		});
	});

	describe('messages from the webview', function () {
		const bad: unknown[] = [
			null, 'ready', 42, [], {}, { type: 'eval', code: 'alert(1)' },
			{ type: 'ready', protocol: 1, extra: true },
			{ type: 'ready', protocol: 999 },
			{ type: 'run/stop' },
			{ type: 'run/stop', runId: '' },
			{ type: 'run/stop', runId: 'r'.repeat(201) },
			{ type: 'task/accept', taskId: 7 },
			{ type: 'task/requestChanges', taskId: 't1', note: '   ' },
			{ type: 'task/requestChanges', taskId: 't1', note: 'x'.repeat(10_001) },
			{ type: 'command/copy', text: '' },
			JSON.parse('{"type":"issue/stop","__proto__":{"admin":true}}'),
			{ type: 'issue/stop', issueId: 'another-issue' },
			{ type: 'history/toggle', show: 'yes' },
		];

		it('the protocol rejects malformed, extra-key and oversized messages', function () {
			for (const message of bad) {
				assert.equal(parseToHost(message).ok, false, `accepted ${JSON.stringify(message)}`);
			}
		});

		it('the controller runs no command for invalid messages or ids the snapshot does not show', async function () {
			const executed: string[] = [];
			const posted: ToWebview[] = [];
			const effects: PanelEffects = {
				executeCommand: async (command) => { executed.push(command); },
				copyToClipboard: async () => undefined,
				warn: () => undefined,
			};
			const port: PanelWebviewPort = { visible: true, postMessage: async (m) => { posted.push(m); return true; }, setTitle: () => undefined };
			const api: PanelHostApi = {
				issue: async () => { throw new Error('no Host here'); },
				planSnapshot: async () => null,
				runs: async () => ({ runs: [] }),
				onDidChange: () => ({ dispose: () => undefined }),
			};
			const controller = new IssuePanelController('issue-1', api, port, effects, { selectedTaskId: null, showHistory: false }, { coalesceMs: 1 });
			try {
				await controller.receive({ type: 'ready', protocol: 1 });
				for (const message of bad) { await controller.receive(message); }
				await controller.receive({ type: 'run/stop', runId: 'run-of-another-issue' });
				await controller.receive({ type: 'task/accept', taskId: 'task-not-shown' });
				assert.deepEqual(executed, [], 'no command ran');
				assert.ok(posted.filter((m) => m.type === 'error').length >= bad.length, 'each refusal is reported to the panel');
			} finally {
				controller.dispose();
			}
		});
	});

	describe('hostile titles along the whole snapshot path (real Host)', function () {
		let host: HostHandle;
		before(async function () { host = await startHost(); });
		after(async function () { await host?.dispose(); });

		it('no hostile string becomes markup in any region, for manual and managed issues', async function () {
			const manual = await manualIssue(host, hostile[1]!);
			const added = await Promise.all(hostile.map((text, i) => host.cli(['issue', 'task', 'add', '--issue-id', manual, '--task-id', `m${i}`,
				'--title', text, '--content', text, ...(i === 0 ? ['--agent-target-id', 'ok'] : []), '--json'], { asUser: true })));
			for (const result of added) { expectOk(result); }
			await settledRunOf(host, manual, 'm0');
			const managed = await managedIssue(host, hostile[0]!, hostile[4]!);
			await managed.addTasks(...hostile.map((text, i) => taskSpec(`g${i}`, 'ok', i > 0 ? [`g${i - 1}`] : [], { title: text, content: text })));

			const api = socketPanelApi(host);
			for (const [issueId, prefix] of [[manual, 'm'], [managed.issueId, 'g']] as const) {
				for (const selected of [null, ...hostile.map((_, i) => `${prefix}${i}`)]) {
					const built = await buildPanelSnapshot(api, issueId, { selectedTaskId: selected, showHistory: true }, 1);
					const received = parseToWebview(JSON.parse(JSON.stringify(built)));
					assert.ok(received.ok, 'the webview accepts the snapshot');
					if (!received.ok) { return; }
					assert.equal(received.value.type, 'snapshot');
					if (received.value.type !== 'snapshot') { return; }
					// The task form (adding, and editing the selected task where the Host allows it) draws the hostile titles too.
					const form = prefix === 'm' ? (selected === null ? { mode: 'add' as const } : { mode: 'edit' as const, taskId: selected }) : null;
					const html = renderToString(panelTree(renderPanel(received.value, { selectedTaskId: selected, showHistory: true, taskForm: form }, 1, new LayoutCache())));
					const tags = new Set(tagNames(html));
					for (const tag of forbiddenTags) { assert.ok(!tags.has(tag), `<${tag}> from hostile data (${issueId}, ${selected})`); }
					const inputs = [...html.matchAll(/<input\b[^>]*>/gi)].map((m) => m[0]);
					const ours = /^<input (id="graph-search"|id="task-form-title"|type="checkbox")/;
					assert.ok(inputs.every((i) => ours.test(i)), `an <input> other than the search field, the form's title and its checkboxes: ${inputs.join(' ')}`);
					const attributes = attributeNames(html);
					assert.ok(!attributes.some((n) => n.startsWith('on')), `event handler attribute (${issueId}, ${selected})`);
					assert.ok(!attributes.includes('href') && !attributes.includes('srcdoc'), 'no link or document attributes');
					for (const text of hostile.filter((t) => t.includes('<'))) { assert.ok(!html.includes(text), `raw hostile text ${text}`); }
					assert.ok(html.includes('&lt;'), 'the hostile text is present, escaped');
				}
			}
		});
	});
});
