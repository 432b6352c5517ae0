import { strict as assert } from 'node:assert';
import type { PanelSnapshot } from '../../../src/protocol/webview.js';
import type { IssueControlsDto as IssueControls, TaskControlsDto } from '../../../src/protocol/dto.js';
import { summarizeWake } from '../../../webview/issuePanel/headerModel.js';
import { derivePanelModel } from '../../../webview/issuePanel/panelModel.js';
import { panelTasks } from '../../../webview/issuePanel/panelTasks.js';
import { attentionFor } from '../attentionFixture.js';
import { aCheckpoint, aManagedSnapshot, aPlanTask, aRun, aSnapshot, aTask, aWake, anIssue, type IssueFields } from './builders.js';

const ui = { selectedTaskId: null, showHistory: false };
const select = (taskId: string, showHistory = false): { selectedTaskId: string; showHistory: boolean } => ({ selectedTaskId: taskId, showHistory });

function manual(tasks = [aTask('t1'), aTask('t2', { dependencyTaskIds: ['t1'] })], over: Partial<Omit<PanelSnapshot, 'type'>> = {}, paused = false, issue: IssueFields = {}): PanelSnapshot {
	return aSnapshot(anIssue(tasks, { dispatchPaused: paused, ...issue }), over);
}

/** The controls the panel draws for a snapshot (the Host derived them; the snapshot carries them). */
function issueControls(s: PanelSnapshot): IssueControls {
	return derivePanelModel(s, ui).controls;
}

const plan = aManagedSnapshot([]).plan!;
function managedIn(status: NonNullable<PanelSnapshot['plan']>['execution']['status']): PanelSnapshot {
	return aManagedSnapshot([aPlanTask('t1', { status: 'pending_acceptance' }), aPlanTask('t2')], { execution: { ...plan.execution, status } });
}

describe('panel view model', () => {
	describe('issue controls', () => {
		it('offers Pause (not Resume) while dispatch runs, and Resume (not Pause) while paused', () => {
			const running = issueControls(manual());
			assert.deepEqual([running.pause, running.resume], [true, false]);
			const paused = issueControls(manual(undefined, {}, true));
			assert.deepEqual([paused.pause, paused.resume], [false, true]);
			const managedPaused = issueControls(aManagedSnapshot([aPlanTask('t1')], { dispatchPaused: true }));
			assert.deepEqual([managedPaused.pause, managedPaused.resume], [false, true]);
		});

		it('shows Stop while the issue has unpaused, nonterminal work', () => {
			assert.equal(issueControls(manual()).stop, true, 'manual: not-started tasks, unpaused');
			assert.equal(issueControls(aManagedSnapshot([aPlanTask('t1', { status: 'completed' })])).stop, true, 'managed: execution awaiting the source agent');
		});

		it('keeps Stop while a Run is still going, even when paused (pause does not stop Runs)', () => {
			const s = manual([aTask('t1', { status: 'running' })], { runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null })] }, true, { hasRunningRun: true });
			assert.equal(issueControls(s).stop, true);
		});

		it('hides Stop when paused with nothing running, or when no work is left', () => {
			assert.equal(issueControls(manual(undefined, {}, true)).stop, false, 'paused, nothing running');
			const done = manual([aTask('t1', { status: 'completed' }), aTask('t2', { status: 'pending_acceptance' })]);
			assert.equal(issueControls(done).stop, false, 'every task finished (one awaits acceptance)');
			const settled = manual([aTask('t1', { status: 'completed' })], { runs: [aRun('r1', 't1')] }, true, { hasRunningRun: false });
			assert.equal(issueControls(settled).stop, false, 'the only Run has settled');
		});

		it('does not read Stop from one Turn ending: a settled Run does not hide it while work remains', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'completed' }), aPlanTask('t2')], {}, { runs: [aRun('r1', 't1')] });
			assert.equal(issueControls(s).stop, true);
		});

		it('offers nothing for a finished issue or an archived execution', () => {
			const none = { pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, reviewTask: false, integrate: false, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false };
			assert.deepEqual(issueControls(aSnapshot(anIssue([aTask('t1', { status: 'completed' })], { status: 'completed', finished: true }))), none);
			// Before Finish, a manual issue whose work is over offers Finish (the Host's rule, drawn).
			assert.deepEqual(issueControls(aSnapshot(anIssue([aTask('t1', { status: 'completed' })], { status: 'completed' }))), { ...none, finish: true });
			assert.deepEqual(issueControls(managedIn('archived')), none);
		});

		it('offers no issue control for an issue whose source session is gone (as the board), but leaves its tasks\' results to the developer', () => {
			const m = derivePanelModel(managedIn('orphaned_source'), select('t1'));
			assert.deepEqual(m.controls, { pause: false, resume: false, stop: false, confirmGoal: false, requestGoalChanges: false, reviewTask: true, integrate: false, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false });
			assert.equal(m.header.terminal, true);
			// The Host's attention lists t1 as awaiting acceptance: its Accept is offered with it.
			assert.deepEqual(m.header.needsYou.map((t) => t.taskId), ['t1']);
			assert.deepEqual([m.detail!.controls.accept, m.detail!.controls.requestChanges], [true, true]);
		});

		it('offers no review once the issue is closed (archived)', () => {
			const d = derivePanelModel(managedIn('archived'), select('t1')).detail!;
			assert.deepEqual([d.controls.accept, d.controls.requestChanges], [false, false]);
		});

		it('draws exactly the issue and task controls and terminality the Host sent, whatever the tasks and the execution say', () => {
			const sent: IssueControls = { pause: false, resume: true, stop: false, confirmGoal: true, requestGoalChanges: true, reviewTask: false, integrate: false, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false };
			const taskSent: TaskControlsDto = { accept: false, requestChanges: true, openChanges: true, retry: false, updateFromBase: false, edit: false, delete: false };
			const s = managedIn('awaiting_main');
			const plan = s.plan!;
			const m = derivePanelModel({
				...s, issue: { ...s.issue, controls: sent, terminal: true },
				plan: { ...plan, tasks: plan.tasks.map((t) => (t.taskId === 't1' ? { ...t, controls: taskSent } : t)) },
			}, select('t1'));
			assert.deepEqual(m.controls, sent);
			assert.equal(m.header.goalReview, true);
			assert.equal(m.header.terminal, true);
			assert.deepEqual(m.detail!.controls, taskSent, 'a pending task whose Accept the Host withholds');
		});

		it('offers Confirm goal and Request changes at Goal Review only', () => {
			const review = aManagedSnapshot([aPlanTask('t1', { status: 'completed' })], {
				execution: { ...plan.execution, status: 'pending_goal_review' },
				activeCheckpoint: aCheckpoint(5, { kind: 'all_tasks_terminal', requiresGoalReview: true }),
			});
			const c = issueControls(review);
			assert.deepEqual([c.confirmGoal, c.requestGoalChanges], [true, true]);
			assert.equal(derivePanelModel(review, ui).header.goalReview, true);
			const before = issueControls(aManagedSnapshot([aPlanTask('t1', { status: 'completed' })]));
			assert.deepEqual([before.confirmGoal, before.requestGoalChanges], [false, false]);
		});
	});

	describe('task detail', () => {
		it('offers Accept and Request changes for a task pending acceptance', () => {
			const s = manual([aTask('t1', { status: 'pending_acceptance' })]);
			const d = derivePanelModel(s, select('t1')).detail!;
			assert.deepEqual([d.controls.accept, d.controls.requestChanges], [true, true]);
		});

		it('shows the Host\'s reason when a task is pending acceptance again, in the detail and on its graph node', () => {
			const s = manual([aTask('t1', { status: 'pending_acceptance', reopenedReason: 'changed after acceptance' }), aTask('t2')]);
			const m = derivePanelModel(s, select('t1'));
			assert.equal(m.detail!.reopenedReason, 'changed after acceptance');
			assert.equal(m.graph.nodes.find((n) => n.taskId === 't1')!.statusLabel, 'Awaiting acceptance · changed after acceptance');
			assert.equal(m.graph.nodes.find((n) => n.taskId === 't2')!.statusLabel, 'Not started');
			assert.equal(derivePanelModel(s, select('t2')).detail!.reopenedReason, '');
		});

		it('offers neither for other statuses or for superseded history', () => {
			for (const status of ['not_started', 'running', 'completed', 'failed', 'canceled'] as const) {
				const d = derivePanelModel(manual([aTask('t1', { status })]), select('t1')).detail!;
				assert.deepEqual([d.controls.accept, d.controls.requestChanges], [false, false], status);
			}
			const old = aManagedSnapshot([aPlanTask('t1', { status: 'pending_acceptance', supersededAtUnixMs: 5, supersededByTaskId: 't2' }), aPlanTask('t2')]);
			const d = derivePanelModel(old, select('t1', true)).detail!;
			assert.deepEqual([d.controls.accept, d.controls.requestChanges], [false, false]);
		});

		it('lists runs newest first with outcome labels, durations, usage and Stop notes with answers', () => {
			const s = manual([aTask('t1', { status: 'running' })], {
				runs: [
					aRun('r1', 't1', { status: 'canceled', outcome: 'cancellation', outcomeLabel: 'Interrupted after 2m 03s — you stopped this', durationMs: 123_000, createdAtUnixMs: 1,
						stopNotes: [{ eventId: 'e1', reason: 'person', answer: 'took', requestedAtUnixMs: 1, answeredAtUnixMs: 2 }],
						usage: { inputTokens: 1200, outputTokens: 30, cacheReadTokens: 0, cacheWriteTokens: 0 } }),
					aRun('r2', 't1', { status: 'running', outcome: null, outcomeLabel: null, durationMs: 62_000, createdAtUnixMs: 5, completedAtUnixMs: 0 }),
				],
			});
			const d = derivePanelModel(s, select('t1')).detail!;
			assert.deepEqual(d.runs.map((r) => r.runId), ['r2', 'r1']);
			assert.equal(d.runs[0]!.outcomeLabel, 'Running for 1m 02s');
			assert.equal(d.runs[0]!.canStop, true);
			assert.equal(d.runs[1]!.outcomeLabel, 'Interrupted after 2m 03s — you stopped this');
			assert.equal(d.runs[1]!.durationLabel, '2m 03s');
			assert.equal(d.runs[1]!.canStop, false);
			assert.match(d.runs[1]!.stopNotes[0]!.text, /Stop by you: took effect/);
			assert.match(d.runs[1]!.usageLabel, /1,200 in · 30 out/);
			assert.match(d.usageLabel, /1,200 in/);
		});

		it('shows "Stopping…" for a running Run whose person Stop has not ended it yet', () => {
			const s = manual([aTask('t1', { status: 'running' })], {
				runs: [aRun('r1', 't1', { status: 'running', outcome: null, outcomeLabel: null, durationMs: 5_000,
					stopNotes: [{ eventId: 'e1', reason: 'person', answer: null, requestedAtUnixMs: 1, answeredAtUnixMs: 0 }] })],
			});
			const r = derivePanelModel(s, select('t1')).detail!.runs[0]!;
			assert.equal(r.stopping, true);
			assert.match(r.outcomeLabel, /^Stopping…/);
		});

		it('draws a Run\'s Stop and "Stopping…" exactly as the Host sent them, whatever its status and Stop notes say', () => {
			const running = { status: 'running' as const, outcome: null, outcomeLabel: null, durationMs: 5_000, completedAtUnixMs: 0 };
			const s = manual([aTask('t1', { status: 'running' })], {
				runs: [
					aRun('r1', 't1', { ...running, createdAtUnixMs: 5, stopping: true, controls: { stop: false } }),
					aRun('r0', 't1', { createdAtUnixMs: 1, controls: { stop: true } }),
				],
			});
			const [r1, r0] = derivePanelModel(s, select('t1')).detail!.runs;
			assert.deepEqual([r1!.canStop, r1!.stopping, r1!.outcomeLabel], [false, true, 'Stopping… (running for 5s)']);
			assert.deepEqual([r0!.canStop, r0!.stopping], [true, false]);
		});

		it('shows the blocker, launch settings and "Open changes" for a task whose Run recorded its base commit', () => {
			const s = manual([aTask('t0', { status: 'running' }), aTask('t1', { dependencyTaskIds: ['t0'], model: 'opus', executionDirectory: '/wt/t1', baseCommit: 'b0' })], {
				runs: [aRun('r1', 't1', { executionDirectory: '/wt/t1', baseCommit: 'b0' })],
			});
			const d = derivePanelModel(s, select('t1')).detail!;
			assert.match(d.blocker ?? '', /dependency/);
			assert.deepEqual(d.launch.find(([k]) => k === 'Model'), ['Model', 'opus']);
			assert.equal(d.controls.openChanges, true);
			assert.equal(derivePanelModel(s, select('t0')).detail!.controls.openChanges, false);
		});

		describe('review changes (the latest Run\'s, as the Host recorded them)', () => {
			const pending = (...runs: ReturnType<typeof aRun>[]): PanelSnapshot => manual([aTask('t1', { status: 'pending_acceptance' })], { runs });
			const worktreeRun = { inWorktree: true, baseCommit: 'b0', resultCommit: 'r9', executionDirectory: '/wt/t1' };

			it('lists the files the latest Run changed with their +/− counts, binary files as "binary"', () => {
				const s = pending(
					aRun('r1', 't1', { ...worktreeRun, createdAtUnixMs: 1, changedFiles: [{ path: 'old.txt', added: 9, deleted: 9, binary: false }] }),
					aRun('r2', 't1', { ...worktreeRun, createdAtUnixMs: 5, changedFiles: [
						{ path: 'src/a.ts', added: 12, deleted: 3, binary: false },
						{ path: 'img/logo.png', added: 0, deleted: 0, binary: true },
						{ path: 'one.txt', added: 1, deleted: 0, binary: false },
					] }));
				assert.deepEqual(derivePanelModel(s, select('t1')).detail!.changes, {
					kind: 'files',
					files: [
						{ path: 'src/a.ts', countsLabel: '+12 \u22123', countsSpoken: '12 lines added, 3 deleted' },
						{ path: 'img/logo.png', countsLabel: 'binary', countsSpoken: 'binary file' },
						{ path: 'one.txt', countsLabel: '+1 \u22120', countsSpoken: '1 line added, 0 deleted' },
					],
				});
			});

			it('says a Run in the shared folder may include other changes, instead of a file list', () => {
				const s = pending(aRun('r1', 't1', { inWorktree: false, baseCommit: 'b0', resultCommit: '', changedFiles: [] }));
				assert.deepEqual(derivePanelModel(s, select('t1')).detail!.changes,
					{ kind: 'sharedFolder', message: 'Worked in the shared folder: its changes may include other changes' });
			});

			it('says "No files changed" for a worktree Run whose result is its base', () => {
				const s = pending(aRun('r1', 't1', { ...worktreeRun, resultCommit: 'b0', changedFiles: [] }));
				assert.deepEqual(derivePanelModel(s, select('t1')).detail!.changes, { kind: 'noChanges', message: 'No files changed' });
			});

			it('does not call a worktree Run without a recorded result "No files changed"', () => {
				const s = pending(aRun('r1', 't1', { ...worktreeRun, resultCommit: '', changedFiles: [] }));
				assert.equal(derivePanelModel(s, select('t1')).detail!.changes?.kind, 'notRecorded');
			});

			it('shows nothing before a Run or while the latest one runs', () => {
				assert.equal(derivePanelModel(pending(), select('t1')).detail!.changes, null);
				const running = pending(aRun('r1', 't1', { ...worktreeRun, status: 'running', outcome: null, outcomeLabel: null, resultCommit: '' }));
				assert.equal(derivePanelModel(running, select('t1')).detail!.changes, null);
			});
		});

		it('shows no blocker for a managed task that already ran (task_not_started only means "cannot schedule again")', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'pending_acceptance', blockerReason: 'task_not_started' })]);
			assert.equal(derivePanelModel(s, select('t1')).detail!.blocker, null);
		});

		it('is null when nothing (or a vanished task) is selected', () => {
			assert.equal(derivePanelModel(manual(), ui).detail, null);
			assert.equal(derivePanelModel(manual(), select('gone')).detail, null);
		});
	});

	describe('history', () => {
		// Only a managed plan has history (issue/get leaves superseded tasks out).
		const tasks = [
			aPlanTask('t1', { status: 'failed', supersededAtUnixMs: 9, supersededByTaskId: 't1b' }),
			aPlanTask('t1b', { sortIndex: 1 }),
			aPlanTask('t2', { dependencyTaskIds: ['t1b'], sortIndex: 2 }),
		];
		const history = (): PanelSnapshot => aManagedSnapshot(tasks);

		it('takes superseded history from the Host\'s flag, not from the task\'s fields', () => {
			// A replacement pointer on a task the Host does not call superseded: drawn as an active task.
			const s = aManagedSnapshot([aPlanTask('t1', { supersededByTaskId: 't1b', superseded: false }), aPlanTask('t1b', { sortIndex: 1 })]);
			const g = derivePanelModel(s, ui).graph;
			assert.deepEqual(g.nodes.map((n) => [n.taskId, n.superseded]), [['t1', false], ['t1b', false]]);
			assert.equal(g.hiddenHistoryCount, 0);
		});

		it('hides superseded tasks by default and counts them', () => {
			const g = derivePanelModel(history(), ui).graph;
			assert.deepEqual(g.nodes.map((n) => n.taskId), ['t1b', 't2']);
			assert.equal(g.hiddenHistoryCount, 1);
			assert.deepEqual(g.edges, [{ from: 't1b', to: 't2', kind: 'dependency' }]);
		});

		it('shows them behind the toggle, with the replacement edge and link', () => {
			const m = derivePanelModel(history(), select('t1', true));
			assert.deepEqual(m.graph.nodes.map((n) => [n.taskId, n.superseded]), [['t1', true], ['t1b', false], ['t2', false]]);
			assert.ok(m.graph.edges.some((e) => e.from === 't1' && e.to === 't1b' && e.kind === 'replacement'));
			assert.deepEqual(m.detail!.replacedBy, { taskId: 't1b', title: 'Task t1b', statusLabel: 'Not started' });
			const replacement = derivePanelModel(history(), select('t1b', true)).detail!;
			assert.deepEqual(replacement.replaces.map((t) => t.taskId), ['t1']);
		});
	});

	describe('execution header', () => {
		it('shows the active checkpoint, the pending backlog and wake history grouped by checkpoint', () => {
			const active = aCheckpoint(3, { kind: 'task_settled', graphRevision: 4, subjectTaskId: 't1' });
			const pending = aCheckpoint(4, { kind: 'task_failed', status: 'pending', graphRevision: 4 });
			const wake = aWake(`<!-- TUTTI_MODE_CHECKPOINT_WAKE {"v":1,"kind":"task_settled","issueId":"i1","checkpointId":"c3","graphRevision":4} -->\nTask t1 settled.`,
				{ checkpointId: active.checkpointId, status: 'dispatched' });
			const h = derivePanelModel(aManagedSnapshot([aPlanTask('t1')], { activeCheckpoint: active, checkpoints: [pending, active], activeWake: wake }), ui).header;
			assert.deepEqual(h.activeCheckpoint && [h.activeCheckpoint.kind, h.activeCheckpoint.sequence, h.activeCheckpoint.graphRevision], ['task_settled', 3, 4]);
			assert.deepEqual(h.backlog.map((c) => c.sequence), [4]);
			assert.deepEqual(h.wakeHistory.map((g) => [g.checkpoint.sequence, g.wakes.map((w) => w.compact)]), [[3, ['Task settled · revision 4']], [4, []]]);
			assert.equal(h.sourceAgent, 'Source agent between checkpoints', 'nothing is owed by these facts: the source agent is not at work');
		});

		it("shows the Host's spend against the budget in the header, and each Run's cost (unknown when the Host has none)", () => {
			const issue = anIssue([aTask('t1')]);
			const spent = { ...issue, spend: { ...issue.spend, costUsd: 1.2, budgetUsd: 5, tokens: 8600, budgetTokens: null, unpricedTurns: 1 } };
			const m = derivePanelModel(aSnapshot(spent, { runs: [aRun('r1', 't1', { usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: 0.00035 })] }),
				{ ...ui, selectedTaskId: 't1' });
			assert.equal(m.header.spendLabel, 'Spent $1.20 of $5.00 (+1 Turns of unknown cost) · 8,600 tokens');
			assert.match(m.detail?.runs[0]?.usageLabel ?? '', / · \$0\.00035$/);
			const unknown = derivePanelModel(aSnapshot(issue, { runs: [aRun('r1', 't1', { usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 }, costUsd: null })] }),
				{ ...ui, selectedTaskId: 't1' });
			assert.match(unknown.detail?.runs[0]?.usageLabel ?? '', / · cost unknown$/);
		});

		it('reads a wake without a marker as plain text', () => {
			const w = summarizeWake(aWake('Plain prompt\nbody'));
			assert.deepEqual([w.compact, w.body], ['Plain prompt', 'Plain prompt\nbody']);
		});

		it('draws the marker the Host read, not the prompt\'s first line', () => {
			const w = summarizeWake({ ...aWake('Some first line\nrest'), marker: { kind: 'watchdog', graphRevision: 7 }, body: 'The body' });
			assert.deepEqual([w.compact, w.body], ['Watchdog · revision 7', 'The body']);
		});

		it('shows the paused state and the tasks that need the developer', () => {
			const h = derivePanelModel(manual([aTask('t1', { status: 'pending_acceptance', title: 'Review me' })], {}, true), ui).header;
			assert.equal(h.paused, true);
			assert.deepEqual(h.needsYou.map((t) => [t.taskId, t.title]), [['t1', 'Review me']]);
		});

		it('draws the Host\'s attention in one line, and the hand-back command when the source agent is idle', () => {
			const idle = attentionFor({
				issueStatus: 'in_progress', executionStatus: 'awaiting_main', dispatchPaused: false, tasks: [{ taskId: 't1', status: 'completed' }],
				activeCheckpoint: { kind: 'task_settled', createdAtUnixMs: 900 }, source: { sessionId: 's1', lastContactUnixMs: 100 },
			});
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'completed' })]);
			const h = derivePanelModel({ ...s, issue: { ...s.issue, attention: { ...idle, reasons: idle.reasons.map((r) => ({ ...r, taskIds: [...r.taskIds] })), sourceAgent: idle.sourceAgent && { ...idle.sourceAgent }, runs: [] } } }, ui).header;
			assert.deepEqual(h.attention, { state: 'needs_you', label: 'Needs you: source agent idle', stalled: true });
			// The label says "source agent idle": the command stands beside it, and nothing says it again.
			assert.deepEqual(h.handBack, { command: 'tutti agent resume --session-id s1', why: '' });
			assert.equal(h.sourceAgent, null);
		});

		it('says which call the source agent waits in, and since when', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'pending_acceptance' })]);
			const waiting = { ...s.issue.attention, sourceAgent: { activity: 'waiting' as const, waitingIn: 'await-review' as const, waitingSinceUnixMs: Date.UTC(2026, 0, 1, 14, 3, 5) } };
			const h = derivePanelModel({ ...s, issue: { ...s.issue, attention: waiting } }, ui).header;
			assert.equal(h.sourceAgent, 'Source agent waiting in await-review since 14:03:05Z');
			assert.equal(h.handBack, null);
		});

		it('shows the hand-back command the Host returned for the developer\'s last decision', () => {
			const s = aManagedSnapshot([aPlanTask('t1', { status: 'completed' })]);
			const after = { ...s, view: { ...s.view, handBack: { command: 'tutti agent resume --session-id s1', decision: 'Accept' } } };
			assert.deepEqual(derivePanelModel(after, ui).header.handBack, { command: 'tutti agent resume --session-id s1', why: 'After your Accept: no agent was waiting to hear it' });
			assert.equal(derivePanelModel(s, ui).header.handBack, null);
		});

		it('shows no hand-back command for manual issues and finished executions', () => {
			assert.equal(derivePanelModel(manual(), ui).header.handBack, null);
			assert.equal(derivePanelModel(managedIn('completed'), ui).header.handBack, null);
			assert.equal(derivePanelModel(manual(), ui).header.sourceAgent, null);
		});

	});

	describe('manual readiness', () => {
		it('draws the readiness and blocker the Host sent for a manual issue', () => {
			const s = manual([
				aTask('t1', { status: 'completed', acceptanceState: 'user_accepted' }), aTask('t2', { dependencyTaskIds: ['t1'] }),
				aTask('t3', { dependencyTaskIds: ['t2'] }), aTask('t4', { agentTargetId: '' }),
			]);
			const byId = new Map(panelTasks(s).map((t) => [t.taskId, t]));
			assert.deepEqual([byId.get('t2')!.ready, byId.get('t2')!.blockerReason], [true, '']);
			assert.deepEqual([byId.get('t3')!.ready, byId.get('t3')!.blockerReason], [false, 'dependency_unsatisfied']);
			assert.equal(byId.get('t4')!.blockerReason, 'missing_agent_target');
		});

		it('does not call a task ready whose dependency completed without being accepted (the dispatcher would not start it)', () => {
			const s = manual([aTask('t1', { status: 'completed', acceptanceState: 'agent_claimed' }), aTask('t2', { dependencyTaskIds: ['t1'] })]);
			const t2 = panelTasks(s).find((t) => t.taskId === 't2')!;
			assert.deepEqual([t2.ready, t2.blockerReason], [false, 'dependency_unsatisfied']);
			assert.match(derivePanelModel(s, select('t2')).detail!.blocker ?? '', /dependency/);
		});

		it('draws whatever readiness the Host sent, without re-deriving it', () => {
			const s = manual([aTask('t1', { status: 'running' }), aTask('t2', { dependencyTaskIds: ['t1'] })]);
			const sent = { ...s, issue: { ...s.issue, tasks: s.issue.tasks.map((t) => ({ ...t, ready: true, blockerReason: '' as const })) } };
			assert.deepEqual(panelTasks(sent).map((t) => t.ready), [true, true]);
		});
	});
});
