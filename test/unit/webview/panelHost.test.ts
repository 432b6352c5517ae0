// The Issue panel's Host side without VS Code: handshake, snapshots, message validation, command routing, CSP.
import { strict as assert } from 'node:assert';
import type { IssueWithTasksDto, PlanSnapshotDto, RunDto, TranscriptEntryDto } from '../../../src/protocol/dto.js';
import { type PanelSnapshot, type ToWebview, toHost, transcriptMaxEntries } from '../../../src/protocol/webview.js';
import { applySnapshotDelta } from '../../../src/protocol/webviewDelta.js';
import { commandIds } from '../../../src/extension/commands/ids.js';
import { type CoalesceTimer, IssuePanelController, type PanelEffects, type PanelWebviewPort } from '../../../src/extension/panels/issuePanelController.js';
import { issuePanelHtml } from '../../../src/extension/panels/issuePanelHtml.js';
import { contentSecurityPolicy } from '../../../src/extension/panels/webviewPage.js';
import { panelActionFor } from '../../../src/extension/panels/panelActions.js';
import type { PanelHostApi } from '../../../src/extension/panels/panelHostApi.js';
import { buildPanelSnapshot } from '../../../src/extension/panels/panelSnapshot.js';
import { aManagedSnapshot, aPlanTask, aRun, aTask, anIssue } from './builders.js';

class FakeApi implements PanelHostApi {
	issueDto: IssueWithTasksDto = anIssue([aTask('t1', { status: 'pending_acceptance' }), aTask('t2')]);
	plan: PlanSnapshotDto | null = null;
	runList = [aRun('r1', 't1')];
	planCalls = 0;
	failWith: Error | null = null;
	readonly listeners = new Set<() => void>();
	async issue(): Promise<IssueWithTasksDto> {
		if (this.failWith) { throw this.failWith; }
		return this.issueDto;
	}
	async planSnapshot(): Promise<PlanSnapshotDto | null> { this.planCalls++; return this.plan; }
	async runs(): Promise<{ runs: RunDto[] }> { return { runs: this.runList }; }
	onDidChange(listener: () => void): { dispose(): void } {
		this.listeners.add(listener);
		return { dispose: () => this.listeners.delete(listener) };
	}
	now(): number { return 42_000; }
	change(): void { for (const l of this.listeners) { l(); } }
}

class FakeWebview implements PanelWebviewPort {
	visible = true;
	title = '';
	readonly posted: ToWebview[] = [];
	/** Every snapshot the page drew: complete ones as posted, deltas applied to the one before (as the webview does). */
	readonly drawn: PanelSnapshot[] = [];
	async postMessage(m: ToWebview): Promise<boolean> {
		const copy = JSON.parse(JSON.stringify(m)) as ToWebview;
		this.posted.push(copy);
		if (copy.type === 'snapshot') { this.drawn.push(copy); }
		if (copy.type === 'delta') {
			const applied = this.drawn.length > 0 ? applySnapshotDelta(this.drawn.at(-1)!, copy) : null;
			assert.ok(applied, `delta ${copy.seq} applies to the snapshot drawn before it`);
			this.drawn.push(applied);
		}
		return true;
	}
	setTitle(t: string): void { this.title = t; }
	snapshots(): PanelSnapshot[] { return this.drawn; }
	errors(): string[] { return this.posted.flatMap((m) => (m.type === 'error' ? [m.message] : [])); }
}

class FakeEffects implements PanelEffects {
	readonly commands: [string, unknown[]][] = [];
	readonly copied: string[] = [];
	readonly warnings: string[] = [];
	failNext: Error | null = null;
	/** What every command returns (undefined: what a command that failed or was canceled returns). */
	result: unknown = undefined;
	async executeCommand(command: string, args: readonly unknown[]): Promise<unknown> {
		if (this.failNext) { const e = this.failNext; this.failNext = null; throw e; }
		this.commands.push([command, [...args]]);
		return this.result;
	}
	async copyToClipboard(text: string): Promise<void> { this.copied.push(text); }
	warn(message: string): void { this.warnings.push(message); }
}

/** The coalescing window, ended by hand: fire() runs what is pending and lets the snapshot it builds be posted. */
class ManualTimer implements CoalesceTimer {
	readonly pending: { fn: () => void; ms: number }[] = [];
	setTimeout(fn: () => void, ms: number): unknown {
		const entry = { fn, ms };
		this.pending.push(entry);
		return entry;
	}
	clearTimeout(handle: unknown): void {
		const i = this.pending.indexOf(handle as { fn: () => void; ms: number });
		if (i >= 0) { this.pending.splice(i, 1); }
	}
	/** Runs only the timers of `ms` (the transcript's, the activity refresh's), leaving the others pending. */
	async fireOnly(ms: number): Promise<void> {
		const due = this.pending.filter((t) => t.ms === ms);
		for (const t of due) { this.pending.splice(this.pending.indexOf(t), 1); t.fn(); }
		await new Promise((r) => setImmediate(r));
	}
	async fire(): Promise<void> {
		for (const { fn } of this.pending.splice(0)) { fn(); }
		// The fakes answer without I/O: one turn of the event loop finishes every snapshot the timers started.
		await new Promise((r) => setImmediate(r));
	}
}

function setup(): { api: FakeApi; web: FakeWebview; fx: FakeEffects; panel: IssuePanelController; timer: ManualTimer } {
	const api = new FakeApi();
	const web = new FakeWebview();
	const fx = new FakeEffects();
	const timer = new ManualTimer();
	const panel = new IssuePanelController('i1', api, web, fx, { selectedTaskId: null, showHistory: false }, { coalesceMs: 30, timer });
	return { api, web, fx, panel, timer };
}

describe('issue panel host', () => {
	describe('handshake and snapshots', () => {
		let ctx: ReturnType<typeof setup>;
		beforeEach(() => { ctx = setup(); });
		afterEach(() => ctx.panel.dispose());

		it('posts nothing before ready, then a full snapshot on ready', async () => {
			ctx.api.change();
			await ctx.timer.fire();
			assert.equal(ctx.web.posted.length, 0, 'no eager post before the handshake');
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			const [s] = ctx.web.snapshots();
			assert.ok(s);
			assert.equal(s.seq, 1);
			assert.equal(s.issue.issueId, 'i1');
			assert.equal(s.plan, null);
			assert.deepEqual(s.runs.map((r) => r.runId), ['r1']);
			assert.deepEqual(s.view, { selectedTaskId: null, showHistory: false, nowUnixMs: 42_000, agentWaiting: null, handBack: null, taskForm: null });
			assert.equal(ctx.web.title, 'Tutti: Ship the feature');
			assert.equal(ctx.panel.lastSnapshot?.seq, 1);
		});

		it('coalesces a burst of store changes into one snapshot with a higher seq', async () => {
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			for (let i = 0; i < 20; i++) { ctx.api.change(); }
			assert.deepEqual(ctx.timer.pending.map((t) => t.ms), [30], 'one coalescing window for the whole burst');
			await ctx.timer.fire();
			assert.deepEqual(ctx.web.snapshots().map((s) => s.seq), [1, 2]);
		});

		it('posts what changed after the first snapshot, and a complete one to a page that says ready again', async () => {
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			ctx.api.issueDto = anIssue([aTask('t1', { status: 'completed' }), aTask('t2')]);
			ctx.api.change();
			await ctx.timer.fire();
			const delta = ctx.web.posted[1];
			assert.equal(delta?.type, 'delta');
			assert.deepEqual(delta.type === 'delta' ? [delta.baseSeq, delta.issueTasks?.upsert.map((t) => t.taskId), delta.runs] : [], [1, ['t1'], undefined]);
			assert.equal(ctx.web.snapshots()[1]?.issue.tasks[0]?.status, 'completed', 'the page rebuilds the new snapshot');
			assert.deepEqual(ctx.web.snapshots()[1], ctx.panel.lastSnapshot);
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			assert.equal(ctx.web.posted[2]?.type, 'snapshot', 'a new page has nothing to apply a delta to');
		});

		it('owes a snapshot while hidden and posts it when shown again', async () => {
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			ctx.web.visible = false;
			ctx.api.change();
			await ctx.timer.fire();
			assert.equal(ctx.web.snapshots().length, 1);
			assert.equal(ctx.panel.owesSnapshot, true);
			ctx.web.visible = true;
			ctx.panel.visibilityChanged();
			await ctx.timer.fire();
			assert.equal(ctx.web.snapshots().length, 2);
		});

		it('echoes the UI state (selection, history) in the next snapshot', async () => {
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			await ctx.panel.receive({ type: 'task/select', taskId: 't2' });
			await ctx.panel.receive({ type: 'history/toggle', show: true });
			await ctx.timer.fire();
			const last = ctx.web.snapshots().at(-1)!;
			assert.deepEqual([last.view.selectedTaskId, last.view.showHistory], ['t2', true]);
		});

		it('asks for the plan only for a managed issue', async () => {
			await buildPanelSnapshot(ctx.api, 'i1', { selectedTaskId: null, showHistory: false }, 1);
			assert.equal(ctx.api.planCalls, 0);
			const managed = aManagedSnapshot([aPlanTask('t1')]);
			ctx.api.issueDto = managed.issue;
			ctx.api.plan = managed.plan;
			const s = await buildPanelSnapshot(ctx.api, 'i1', { selectedTaskId: null, showHistory: false }, 2);
			assert.equal(ctx.api.planCalls, 1);
			assert.equal(s.plan?.execution.executionId, 'tutti-execution:i1');
		});

		it('reports an unreadable issue as an error message, not a crash', async () => {
			ctx.api.failWith = new Error('issue i1 not found');
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			assert.equal(ctx.web.snapshots().length, 0);
			assert.match(ctx.web.errors()[0] ?? '', /issue i1 not found/);
		});

		it('refuses to post a snapshot the protocol would reject (Host bug shows as an error)', async () => {
			ctx.api.issueDto = { ...ctx.api.issueDto, status: 'exploded' as never };
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			assert.equal(ctx.web.snapshots().length, 0);
			assert.match(ctx.web.errors()[0] ?? '', /cannot read/);
		});

		it('stops listening once disposed', async () => {
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			ctx.panel.dispose();
			assert.equal(ctx.api.listeners.size, 0);
			await ctx.panel.receive({ type: 'issue/pause' });
			assert.equal(ctx.fx.commands.length, 0);
		});
	});

	describe('messages become palette commands', () => {
		let ctx: ReturnType<typeof setup>;
		beforeEach(async () => { ctx = setup(); await ctx.panel.receive({ type: 'ready', protocol: 1 }); });
		afterEach(() => ctx.panel.dispose());

		it('runs the same command ids as the palette, with ids as arguments', async () => {
			const sent: [unknown, [string, unknown[]]][] = [
				[{ type: 'issue/pause' }, [commandIds.pauseIssue, ['i1']]],
				[{ type: 'issue/resume' }, [commandIds.resumeIssue, ['i1']]],
				[{ type: 'issue/stop' }, [commandIds.stopIssue, ['i1']]],
				[{ type: 'issue/integrate' }, [commandIds.integrateIssue, ['i1']]],
				[{ type: 'issue/integrate', push: true }, [commandIds.integrateIssue, ['i1', { push: true }]]],
				[{ type: 'run/stop', runId: 'r1' }, [commandIds.stopRun, ['r1']]],
				[{ type: 'run/openOutput', runId: 'r1' }, [commandIds.openRunOutput, ['r1']]],
				[{ type: 'task/accept', taskId: 't1' }, [commandIds.acceptTask, ['i1', 't1']]],
				[{ type: 'task/requestChanges', taskId: 't1', note: 'Add tests.' }, [commandIds.requestChanges, ['i1', 't1', 'Add tests.']]],
				[{ type: 'goal/confirm' }, [commandIds.confirmGoal, ['i1']]],
				[{ type: 'goal/requestChanges', note: 'Docs.' }, [commandIds.requestChanges, ['i1', undefined, 'Docs.']]],
				[{ type: 'task/openChanges', taskId: 't1' }, [commandIds.openTaskChanges, ['i1', 't1']]],
				[{ type: 'issue/start' }, [commandIds.startIssue, ['i1']]],
				[{ type: 'issue/finish' }, [commandIds.finishIssue, ['i1']]],
				[{ type: 'issue/followUp' }, [commandIds.followUpIssue, ['i1']]],
				[{ type: 'source/stop' }, [commandIds.stopSourceSession, ['i1']]],
				[{ type: 'goalReview/switchToSelf' }, [commandIds.switchReviewToSelf, ['i1']]],
				[{ type: 'task/create', title: 'New', content: 'Do it', dependencyTaskIds: ['t1'], agentTargetId: 'sh' },
					[commandIds.addTask, [{ issueId: 'i1', title: 'New', content: 'Do it', dependencyTaskIds: ['t1'], agentTargetId: 'sh' }]]],
				[{ type: 'task/update', taskId: 't1', title: 'Renamed', content: '', dependencyTaskIds: [], agentTargetId: 'sh' },
					[commandIds.editTask, ['i1', 't1', { title: 'Renamed', content: '', dependencyTaskIds: [], agentTargetId: 'sh' }]]],
				[{ type: 'task/delete', taskId: 't1' }, [commandIds.deleteTask, ['i1', 't1', { confirmed: true }]]],
				[{ type: 'task/retry', taskId: 't1' }, [commandIds.retryTask, ['i1', 't1']]],
				[{ type: 'task/retry', taskId: 't1', fields: { title: 'Again', content: 'Use the fixture', dependencyTaskIds: [], agentTargetId: 'sh' } },
					[commandIds.retryTask, ['i1', 't1', { title: 'Again', content: 'Use the fixture', dependencyTaskIds: [], agentTargetId: 'sh' }]]],
				[{ type: 'task/updateFromBase', taskId: 't1' }, [commandIds.updateTaskFromBase, ['i1', 't1']]],
				[{ type: 'agent/add' }, [commandIds.addAgent, []]],
			];
			for (const [message] of sent) { await ctx.panel.receive(message); }
			assert.deepEqual(ctx.fx.commands, sent.map(([, c]) => c));
		});

		it('Accept selected accepts each checked task, one after the other; a task of another issue refuses them all', async () => {
			ctx.api.issueDto = anIssue([aTask('t1', { status: 'pending_acceptance' }), aTask('t2', { status: 'pending_acceptance' })]);
			await ctx.panel.receive({ type: 'ready', protocol: 1 });
			await ctx.panel.receive({ type: 'tasks/accept', taskIds: ['t1', 't2', 't1'] });
			assert.deepEqual(ctx.fx.commands, [[commandIds.acceptTask, ['i1', 't1']], [commandIds.acceptTask, ['i1', 't2']]]);
			await ctx.panel.receive({ type: 'tasks/accept', taskIds: ['t2', 'ghost'] });
			assert.equal(ctx.fx.commands.length, 2, 'nothing more ran');
			assert.deepEqual(ctx.web.errors(), ['Task ghost is not part of this issue.']);
		});

		it('the task form is UI state the Host keeps: opened, echoed in snapshots, closed once a sent form was taken', async () => {
			await ctx.panel.receive({ type: 'taskForm/set', form: { mode: 'add' } });
			await ctx.timer.fire();
			assert.deepEqual(ctx.web.snapshots().at(-1)!.view.taskForm, { mode: 'add' });
			ctx.fx.result = { taskId: 'new' };
			await ctx.panel.receive({ type: 'task/create', title: 'New', content: '', dependencyTaskIds: [], agentTargetId: 'sh' });
			await ctx.timer.fire();
			assert.equal(ctx.web.snapshots().at(-1)!.view.taskForm, null, 'taken: closed');
			await ctx.panel.receive({ type: 'taskForm/set', form: { mode: 'edit', taskId: 't1' } });
			ctx.fx.result = undefined;
			await ctx.panel.receive({ type: 'task/update', taskId: 't1', title: 'Renamed', content: '', dependencyTaskIds: [], agentTargetId: 'sh' });
			await ctx.timer.fire();
			assert.deepEqual(ctx.web.snapshots().at(-1)!.view.taskForm, { mode: 'edit', taskId: 't1' }, 'refused (the command said why): still open with what was typed');
			await ctx.panel.receive({ type: 'taskForm/set', form: { mode: 'edit', taskId: 'ghost' } });
			assert.deepEqual(ctx.web.errors().at(-1), 'Task ghost is not part of this issue.');
		});

		it('copies through the Host clipboard', async () => {
			await ctx.panel.receive({ type: 'command/copy', text: 'tutti plan issue get --issue-id i1 --json' });
			assert.deepEqual(ctx.fx.copied, ['tutti plan issue get --issue-id i1 --json']);
		});

		it('ignores invalid messages (warns, runs nothing, tells the webview)', async () => {
			for (const raw of [null, { type: 'issue/pause', issueId: 'other' }, { type: 'task/requestChanges', taskId: 't1', note: '  ' }, { type: 'rm -rf' }]) {
				await ctx.panel.receive(raw);
			}
			assert.equal(ctx.fx.commands.length, 0);
			assert.equal(ctx.fx.warnings.length, 4);
			assert.equal(ctx.web.errors().length, 4);
		});

		it('refuses ids that are not part of this issue', async () => {
			await ctx.panel.receive({ type: 'run/stop', runId: 'someone-elses-run' });
			await ctx.panel.receive({ type: 'task/accept', taskId: 'ghost' });
			await ctx.panel.receive({ type: 'task/select', taskId: 'ghost' });
			assert.equal(ctx.fx.commands.length, 0);
			assert.deepEqual(ctx.web.errors(), ['Run someone-elses-run is not part of this issue.', 'Task ghost is not part of this issue.', 'Task ghost is not part of this issue.']);
		});

		it('shows a failing command as an error and refreshes', async () => {
			ctx.fx.failNext = new Error('issue is archived');
			await ctx.panel.receive({ type: 'issue/pause' });
			await ctx.timer.fire();
			assert.deepEqual(ctx.web.errors(), ['issue is archived']);
			assert.equal(ctx.web.snapshots().length, 2);
		});

		it('answers an approval the snapshot shows pending, and refuses any other approval id', () => {
			const known = { taskIds: new Set(['t1']), runIds: new Set(['r1']), approvalIds: new Set(['a1']) };
			assert.deepEqual(panelActionFor('i1', { type: 'approval/answer', approvalId: 'a1', choice: 'deny', message: 'Use the CI' }, known),
				{ kind: 'command', command: commandIds.answerApproval, args: ['a1', 'deny', 'Use the CI'] });
			assert.deepEqual(panelActionFor('i1', { type: 'approval/answer', approvalId: 'a1', choice: 'allowForTask' }, known),
				{ kind: 'command', command: commandIds.answerApproval, args: ['a1', 'allowForTask', ''] });
			assert.deepEqual(panelActionFor('i1', { type: 'approval/answer', approvalId: 'elsewhere', choice: 'allow' }, known),
				{ kind: 'reject', message: 'Approval elsewhere is not waiting for an answer in this issue.' });
			assert.equal(panelActionFor('i1', { type: 'approval/answer', approvalId: 'a1', choice: 'allow' }, { taskIds: new Set(), runIds: new Set() }).kind, 'reject');
		});

		it("answers a question the snapshot shows pending with the developer's answers, and refuses any other", () => {
			const known = { taskIds: new Set(['t1']), runIds: new Set(['r1']), approvalIds: new Set(['q1']) };
			assert.deepEqual(panelActionFor('i1', { type: 'question/answer', approvalId: 'q1', answers: ['color=Blue'] }, known),
				{ kind: 'command', command: commandIds.answerApproval, args: ['q1', 'answer', '', ['color=Blue']] });
			assert.deepEqual(panelActionFor('i1', { type: 'question/answer', approvalId: 'other', answers: ['x'] }, known),
				{ kind: 'reject', message: 'Approval other is not waiting for an answer in this issue.' });
			assert.equal(toHost.safeParse({ type: 'question/answer', approvalId: 'q1', answers: [] }).success, false, 'no answer at all is refused');
			assert.equal(toHost.safeParse({ type: 'question/answer', approvalId: 'q1', answers: ['  '] }).success, false, 'an empty answer is refused');
		});

		it('maps every message type (the mapping is total)', () => {
			const known = { taskIds: new Set(['t1']), runIds: new Set(['r1']) };
			assert.deepEqual(panelActionFor('i1', { type: 'task/select', taskId: null }, known), { kind: 'view', view: { selectedTaskId: null } });
			assert.deepEqual(panelActionFor('i1', { type: 'history/toggle', show: false }, known), { kind: 'view', view: { showHistory: false } });
			assert.deepEqual(panelActionFor('i1', { type: 'ready', protocol: 1 }, known), { kind: 'ready' });
		});
	});

	describe('page and CSP', () => {
		const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U';
		const html = issuePanelHtml({
			cspSource: 'https://file+.vscode-resource.vscode-cdn.net', scriptUri: 'https://x/dist/webview/issuePanel.js', styleUri: 'https://x/dist/webview/issuePanel.css',
			nonce, issueId: 'i"1<', title: '</title><script>alert(1)</script>',
		});

		it('allows only our nonce-tagged script and styles from the webview root', () => {
			const csp = contentSecurityPolicy('https://src', nonce);
			assert.match(csp, /default-src 'none'/);
			assert.match(csp, new RegExp(`script-src 'nonce-${nonce}'`));
			assert.match(csp, new RegExp(`style-src https://src 'nonce-${nonce}'(;|$)`));
			assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
			assert.ok(html.includes(`<script type="module" nonce="${nonce}" src="https://x/dist/webview/issuePanel.js"></script>`));
		});

		it('has exactly one script, no inline handlers or styles, and escapes what it embeds', () => {
			assert.equal(html.match(/<script/g)?.length, 1);
			assert.doesNotMatch(html, /\son[a-z]+=/i);
			assert.doesNotMatch(html, /\sstyle=|<style/i);
			assert.ok(html.includes('data-issue-id="i&quot;1&lt;"'));
			assert.ok(html.includes('<title>&lt;/title&gt;&lt;script&gt;'));
		});

		it('holds the regions the webview script fills', () => {
			for (const id of ['app', 'panel-error', 'live', 'header-region', 'toolbar-region', 'graph-status-region', 'graph-scroll', 'graph-canvas', 'detail-region']) {
				assert.ok(html.includes(`id="${id}"`), id);
			}
		});
	});
});

describe('issue panel live transcript', () => {
	/** A Run's stdout as pages the Host answers: each call returns the next page the test released. */
	type Page = { entries: TranscriptEntryDto[]; nextOffset: number; stderrNextOffset?: number; done: boolean };
	class TranscriptApi extends FakeApi {
		readonly pages: Page[] = [];
		readonly reads: [string, number][] = [];
		readonly stderrReads: number[] = [];
		async transcript(runId: string, offset: number, stderrOffset: number): Promise<Required<Page>> {
			this.reads.push([runId, offset]);
			this.stderrReads.push(stderrOffset);
			const page = this.pages.shift() ?? { entries: [], nextOffset: offset, done: false };
			return { ...page, stderrNextOffset: page.stderrNextOffset ?? stderrOffset };
		}
	}

	function transcriptSetup(): { api: TranscriptApi; web: FakeWebview; panel: IssuePanelController; timer: ManualTimer } {
		const api = new TranscriptApi();
		api.runList = [aRun('r0', 't1', { createdAtUnixMs: 1_000 }), aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, createdAtUnixMs: 5_000 })];
		const web = new FakeWebview();
		const timer = new ManualTimer();
		const panel = new IssuePanelController('i1', api, web, new FakeEffects(), { selectedTaskId: 't1', showHistory: false }, { coalesceMs: 30, transcriptPollMs: 500, activityRefreshMs: 2_000, timer });
		return { api, web, panel, timer };
	}

	it('sends the selected task\'s latest Run as a transcript, then only what the Run wrote since, until it is done', async () => {
		const { api, web, panel, timer } = transcriptSetup();
		api.pages.push({ entries: [{ kind: 'assistant', text: 'Looking', tool: '' }], nextOffset: 40, done: false });
		await panel.receive({ type: 'ready', protocol: 1 });
		assert.deepEqual(web.snapshots().at(-1)!.transcript, { runId: 'r1', entries: [{ kind: 'assistant', text: 'Looking', tool: '' }], omittedCount: 0, done: false });
		assert.deepEqual(api.reads.slice(0, 2), [['r1', 0], ['r1', 40]], 'the latest Run, read on from where the first page ended');
		assert.deepEqual(timer.pending.map((t) => t.ms).sort(), [2_000, 500], 'a running Run is read again (and its activity refreshed)');
		api.pages.push({ entries: [{ kind: 'tool', text: '$ npm test', tool: 'Bash' }], nextOffset: 90, done: true });
		await timer.fireOnly(500);
		const last = web.snapshots().at(-1)!;
		assert.deepEqual(last.transcript?.entries.map((e) => e.text), ['Looking', '$ npm test']);
		assert.equal(last.transcript?.done, true);
		assert.equal(last.seq, web.snapshots().at(-2)!.seq + 1);
		assert.deepEqual(timer.pending.map((t) => t.ms), [2_000], 'nothing more to read once the Run is done');
		panel.dispose();
	});

	it('posts nothing when the Run wrote nothing new, and stops reading while the panel is hidden', async () => {
		const { api, web, panel, timer } = transcriptSetup();
		await panel.receive({ type: 'ready', protocol: 1 });
		const posted = web.snapshots().length;
		await timer.fireOnly(500);
		assert.equal(web.snapshots().length, posted, 'no new entries: no new snapshot');
		assert.deepEqual(timer.pending.map((t) => t.ms).sort(), [2_000, 500], 'still watching the running Run');
		web.visible = false;
		const reads = api.reads.length;
		await timer.fireOnly(500);
		assert.equal(api.reads.length, reads, 'a hidden panel reads nothing');
		panel.dispose();
	});

	it('rebuilds the snapshot now and then while a Run runs (its activity line changes without a store change), not once none runs', async () => {
		const { api, web, panel, timer } = transcriptSetup();
		await panel.receive({ type: 'ready', protocol: 1 });
		const posted = web.snapshots().length;
		await timer.fireOnly(2_000);
		await timer.fireOnly(30);
		assert.equal(web.snapshots().length, posted + 1, 'a fresh snapshot');
		api.runList = [aRun('r1', 't1')];
		for (const ms of [2_000, 30, 500]) { await timer.fireOnly(ms); }
		await timer.fireOnly(2_000);
		await timer.fireOnly(30);
		assert.deepEqual(timer.pending.filter((t) => t.ms === 2_000), [], 'no Run runs: no more activity refreshes');
		panel.dispose();
	});

	it('reads stderr on from where it stopped, and keeps its last lines for the failure card beyond the entries kept', async () => {
		const { api, web, panel } = transcriptSetup();
		const stderr = (text: string): TranscriptEntryDto => ({ kind: 'stderr', text, tool: '' });
		const many = Array.from({ length: transcriptMaxEntries }, (_, i) => ({ kind: 'assistant' as const, text: `line ${i}`, tool: '' }));
		api.pages.push({ entries: [stderr('warn 1'), stderr('npm ERR! 3 tests failed'), stderr('npm ERR! exit 3')], nextOffset: 10, stderrNextOffset: 64, done: false });
		api.pages.push({ entries: many, nextOffset: 9_000, done: true });
		await panel.receive({ type: 'ready', protocol: 1 });
		assert.deepEqual(api.stderrReads.slice(0, 2), [0, 64], 'stderr goes on from its own offset');
		const t = web.snapshots().at(-1)!.transcript!;
		assert.equal(t.entries.some((e) => e.kind === 'stderr'), false, 'the stderr lines left the newest entries');
		assert.deepEqual(t.stderrTail, ['warn 1', 'npm ERR! 3 tests failed', 'npm ERR! exit 3']);
		panel.dispose();
	});

	it('keeps the newest entries and counts the rest', async () => {
		const { api, web, panel } = transcriptSetup();
		const many = Array.from({ length: transcriptMaxEntries + 5 }, (_, i) => ({ kind: 'assistant' as const, text: `line ${i}`, tool: '' }));
		api.pages.push({ entries: many, nextOffset: 10_000, done: true });
		await panel.receive({ type: 'ready', protocol: 1 });
		const t = web.snapshots().at(-1)!.transcript!;
		assert.equal(t.entries.length, transcriptMaxEntries);
		assert.equal(t.omittedCount, 5);
		assert.equal(t.entries[0]!.text, 'line 5');
		panel.dispose();
	});
});

describe('issue panel: the conflict Integrate met', () => {
	const conflict = {
		into: 'main', paths: ['shared.txt'], taskId: 't1', between: ['main', 't1'], tree: '.tutti/worktrees/i1/t1', updateFromBase: 'agent' as const, ways: [],
		message: 'Integrating issue i1 into main conflicts.', hint: 'Either update task t1 from main; or resolve it by hand.',
	};
	let ctx: ReturnType<typeof setup>;
	beforeEach(() => { ctx = setup(); });
	afterEach(() => ctx.panel.dispose());

	it('shows it in the snapshot; Open the task\'s tree opens the tree the block showed, and none without a block', async () => {
		await ctx.panel.receive({ type: 'ready', protocol: 1 });
		await ctx.panel.receive({ type: 'conflict/openTree' });
		assert.deepEqual(ctx.fx.commands, [], 'no block, no tree to open');
		assert.deepEqual(ctx.web.errors(), ['The panel shows no conflicting task\'s tree to open.']);
		ctx.panel.showConflict(conflict);
		await ctx.timer.fire();
		assert.deepEqual(ctx.web.snapshots().at(-1)!.view.conflict, conflict);
		await ctx.panel.receive({ type: 'conflict/openTree' });
		assert.deepEqual(ctx.fx.commands, [[commandIds.openTaskTree, ['i1', '.tutti/worktrees/i1/t1']]]);
	});

	it('keeps it while the delivery state stays, and drops it once the issue is integrated', async () => {
		ctx.api.issueDto = { ...anIssue([aTask('t1', { status: 'completed' })]), delivery: 'ready_to_integrate' };
		await ctx.panel.receive({ type: 'ready', protocol: 1 });
		ctx.panel.showConflict(conflict);
		await ctx.timer.fire();
		ctx.api.change();
		await ctx.timer.fire();
		assert.equal(ctx.web.snapshots().at(-1)!.view.conflict?.paths[0], 'shared.txt', 'a store change alone keeps it');
		ctx.api.issueDto = { ...ctx.api.issueDto, delivery: 'integrated' };
		ctx.api.change();
		await ctx.timer.fire();
		assert.equal(ctx.web.snapshots().at(-1)!.view.conflict ?? null, null);
		ctx.api.issueDto = { ...ctx.api.issueDto, delivery: 'ready_to_integrate' };
		ctx.api.change();
		await ctx.timer.fire();
		assert.equal(ctx.web.snapshots().at(-1)!.view.conflict ?? null, null, 'it does not come back');
	});
});
