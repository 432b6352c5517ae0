import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
	boardActions, boardGroupLabels, boardGroupOf, buildBoard, needsYouMessage, needsYouReasons, newlyNeedingYou, statusSummary, toBoardIssue,
} from '../../../src/extension/views/boardModel.js';
import type { ExecutionSummary } from '../../../src/extension/changes/workspaceState.js';
import { execution, issue, managedIssue } from './dtoBuilders.js';
import { attentionFor } from '../attentionFixture.js';
import type { IssueDto } from '../../../src/protocol/dto.js';

const none = new Map<string, ExecutionSummary>();

describe('extension/boardModel', () => {
	describe('groups', () => {
		it('puts a fresh issue with tasks not started under Planned', () => {
			assert.equal(boardGroupOf(issue('A', { counts: { notStarted: 2 } })), 'planned');
		});
		it('puts an issue with a running task under Agent working', () => {
			assert.equal(boardGroupOf(issue('A', { counts: { running: 1 } })), 'agentWorking');
		});
		it('draws exactly the state the Host sent, whatever the counts say', () => {
			const sent = (state: IssueDto['attention']['state']): IssueDto => ({ ...issue('A', { counts: { running: 1 } }), attention: { ...issue('A').attention, state, label: state } });
			assert.deepEqual(
				(['needs_you', 'agent_working', 'waiting_on_agent', 'paused', 'not_started', 'planned', 'done'] as const).map((state) => boardGroupOf(sent(state))),
				['needsYou', 'agentWorking', 'waitingOnAgent', 'paused', 'notStarted', 'planned', 'done'],
			);
		});
		it('puts a paused issue under Paused even while a Run still runs', () => {
			assert.equal(boardGroupOf(issue('A', { status: 'in_progress', dispatchPaused: true, counts: { running: 1 } })), 'paused');
		});
		it('puts a manual issue held back before its first Run under Not started, named as the Host names it', () => {
			const item = toBoardIssue(issue('A', { dispatchPaused: true, counts: { notStarted: 1 } }), undefined);
			assert.deepEqual([item.group, item.stateLabel, boardGroupLabels[item.group]], ['notStarted', 'Not started', 'Not started']);
			assert.equal(statusSummary(buildBoard([issue('A', { dispatchPaused: true, counts: { notStarted: 1 } })], none)), '1 not started');
		});
		it('puts tasks awaiting acceptance, a goal review, an orphaned source and manual failures under Needs you, above Paused', () => {
			assert.equal(boardGroupOf(issue('A', { dispatchPaused: true, counts: { pendingAcceptance: 1 } })), 'needsYou');
			assert.equal(boardGroupOf(managedIssue('A', 'pending_goal_review')), 'needsYou');
			assert.equal(boardGroupOf(managedIssue('A', 'orphaned_source')), 'needsYou');
			assert.equal(boardGroupOf(issue('A', { counts: { failed: 1, completed: 1 } })), 'needsYou');
		});
		it('puts completed and archived issues (or executions) under Done, whatever else they count', () => {
			assert.equal(boardGroupOf(issue('A', { status: 'completed', counts: { pendingAcceptance: 1 } })), 'done');
			assert.equal(boardGroupOf(issue('A', { status: 'archived' })), 'done');
			assert.equal(boardGroupOf(managedIssue('A', 'archived', { status: 'in_progress' })), 'done');
			assert.equal(boardGroupOf(managedIssue('A', 'archiving', { status: 'in_progress' })), 'done');
			assert.deepEqual(needsYouReasons(issue('A', { status: 'completed', counts: { pendingAcceptance: 1 } })), []);
		});
	});

	describe('items', () => {
		it('shows progress as completed / active tasks (the DTO already excludes superseded tasks)', () => {
			const item = toBoardIssue(issue('A', { counts: { completed: 3, running: 1, notStarted: 1 } }), undefined);
			assert.deepEqual(item.progress, { done: 3, total: 5, label: '3/5' });
			assert.equal(item.description, '3/5 tasks · Working on t1');
		});
		it('shows the disk its trees use in the Host\'s words (description and tooltip), nothing before a measurement', () => {
			const measured = { ...issue('A', { counts: { completed: 2 } }), worktreeDisk: { bytes: 12_300_000, trees: 2, measuredAtUnixMs: 5, label: '2 trees · 12.3 MB' } };
			const item = toBoardIssue(measured, undefined);
			assert.match(item.description, / · 2 trees · 12\.3 MB$/);
			assert.match(item.tooltip, /\nWorktrees: 2 trees · 12\.3 MB on disk$/);
			const unmeasured = toBoardIssue(issue('A', { counts: { completed: 2 } }), undefined);
			assert.doesNotMatch(`${unmeasured.description}\n${unmeasured.tooltip}`, /tree/);
		});
		it('says "no tasks" for an empty issue', () => {
			assert.equal(toBoardIssue(issue('A'), undefined).description, 'no tasks');
		});
		it('lists the reasons it needs you as badges, goal review first', () => {
			const item = toBoardIssue(managedIssue('A', 'pending_goal_review', { counts: { pendingAcceptance: 2, completed: 1 } }), undefined);
			assert.deepEqual(item.needsYou, ['goal review', '2 tasks to accept']);
			assert.match(item.description, /goal review · 2 tasks to accept$/);
			assert.match(item.contextValue, /:needsYou/);
			assert.match(item.contextValue, /:managed/);
		});
		it('says how many tasks changed after their acceptance, as the Host lists them', () => {
			const attention = attentionFor({
				issueStatus: 'open', executionStatus: null, dispatchPaused: false, changedAfterAcceptance: ['a'],
				tasks: [{ taskId: 'a', status: 'pending_acceptance' }, { taskId: 'b', status: 'completed' }],
			});
			const item = toBoardIssue({ ...issue('A', { counts: { pendingAcceptance: 1, completed: 1 }, attention }), changedAfterAcceptanceTaskIds: ['a'] }, undefined);
			assert.deepEqual(item.needsYou, ['1 task to accept (1 changed after acceptance)']);
		});
		it('names the execution and its active checkpoint in the tooltip', () => {
			const item = toBoardIssue(managedIssue('A', 'awaiting_main'), execution({ activeCheckpoint: { kind: 'task_settled', sequence: 3, graphRevision: 4 }, pendingCheckpoints: 2 }));
			assert.match(item.tooltip, /Execution: awaiting main · checkpoint task settled #3 \(revision 4\) · 2 pending/);
		});
	});

	describe('actions (the Host\'s controls, drawn)', () => {
		it('offers Pause and Stop for unpaused work, Resume (and Stop while Runs run) when paused', () => {
			assert.deepEqual(boardActions(issue('A', { counts: { notStarted: 1 } })), { canPause: true, canResume: false, canStop: true });
			assert.deepEqual(boardActions(issue('A', { status: 'in_progress', dispatchPaused: true, counts: { notStarted: 1 } })), { canPause: false, canResume: true, canStop: false });
			assert.deepEqual(boardActions(issue('A', { status: 'in_progress', dispatchPaused: true, counts: { running: 1 } })), { canPause: false, canResume: true, canStop: true });
		});
		it('flags the Host\'s other controls in the contextValue (Start, Add Task, Finish, Follow Up, Stop Source, Switch to self)', () => {
			const draft = toBoardIssue(issue('A', { dispatchPaused: true, counts: { notStarted: 1 } }), undefined);
			assert.deepEqual([draft.actions.canResume, draft.contextValue], [false, 'issue:start:addTask']);
			const completed = toBoardIssue(managedIssue('B', 'completed', { status: 'completed', counts: { completed: 1 } }), undefined);
			assert.equal(completed.contextValue, 'issue:managed:finish:followUp');
			const working = toBoardIssue(managedIssue('C', 'awaiting_main', { counts: { running: 1 } }), undefined);
			assert.equal(working.contextValue, 'issue:pause:stop:managed:sourceStop:running');
			assert.doesNotMatch(working.contextValue, /:start/);
		});
		it('keeps Stop while a managed execution is working even with no task left to start', () => {
			assert.equal(boardActions(managedIssue('A', 'awaiting_main', { counts: { completed: 2 } })).canStop, true);
			assert.equal(boardActions(managedIssue('A', 'pending_goal_review', { counts: { completed: 2 } })).canStop, false);
		});
		it('offers no Pause and no Stop for an issue whose source session is gone (the panel offers none either)', () => {
			const orphaned = toBoardIssue(managedIssue('A', 'orphaned_source', { status: 'in_progress', counts: { notStarted: 1, completed: 1 } }), undefined);
			assert.deepEqual(orphaned.actions, { canPause: false, canResume: false, canStop: false });
			assert.equal(orphaned.contextValue, 'issue:managed:needsYou');
			assert.deepEqual(orphaned.needsYou, ['source agent gone']);
		});
		it('draws exactly the controls the Host sent, whatever the counts say', () => {
			const sent = { ...issue('A', { counts: { notStarted: 1 } }), controls: { pause: false, resume: true, stop: false, confirmGoal: false, requestGoalChanges: false, reviewTask: false, integrate: false, addTask: false, start: false, finish: false, followUp: false, stopSource: false, switchReviewToSelf: false, runOutput: false, combinedChanges: false } };
			assert.deepEqual(boardActions(sent), { canPause: false, canResume: true, canStop: false });
			assert.equal(toBoardIssue(sent, undefined).contextValue, 'issue:resume');
		});
		it('flags Accept Task, Request changes, Confirm goal and Integrate from the Host\'s controls, not from "needs you"', () => {
			const review = toBoardIssue(managedIssue('A', 'pending_goal_review', { counts: { pendingAcceptance: 1, completed: 1 } }), undefined);
			assert.equal(review.contextValue, 'issue:pause:managed:needsYou:reviewTask:requestChanges:confirmGoal:sourceStop');
			const goalOnly = toBoardIssue(managedIssue('B', 'pending_goal_review', { counts: { completed: 2 } }), undefined);
			assert.equal(goalOnly.contextValue, 'issue:pause:managed:needsYou:requestChanges:confirmGoal:sourceStop');
			// Needs you for a failure only: nothing to accept, no goal to confirm.
			const failed = toBoardIssue(issue('C', { counts: { failed: 1 } }), undefined);
			assert.match(failed.contextValue, /:needsYou/);
			assert.doesNotMatch(failed.contextValue, /:reviewTask|:requestChanges|:confirmGoal/);
			// A gone source session leaves its tasks' results to the developer; an archived issue nothing.
			const orphaned = toBoardIssue(managedIssue('E', 'orphaned_source', { status: 'in_progress', counts: { pendingAcceptance: 1 } }), undefined);
			assert.equal(orphaned.contextValue, 'issue:managed:needsYou:reviewTask:requestChanges');
			const archived = toBoardIssue(managedIssue('F', 'archived', { status: 'in_progress', counts: { pendingAcceptance: 1 } }), undefined);
			assert.doesNotMatch(archived.contextValue, /:reviewTask|:requestChanges/);
			const sent = { ...issue('D'), controls: { ...issue('D').controls, pause: false, addTask: false, integrate: true } };
			assert.equal(toBoardIssue(sent, undefined).contextValue, 'issue:integrate');
		});
		it('offers nothing for a finished issue, and encodes the actions in the contextValue', () => {
			assert.deepEqual(boardActions(issue('A', { status: 'completed' })), { canPause: false, canResume: false, canStop: false });
			assert.equal(toBoardIssue(issue('A', { counts: { notStarted: 1 } }), undefined).contextValue, 'issue:pause:stop:addTask');
			assert.equal(toBoardIssue(issue('A', { status: 'completed' }), undefined).contextValue, 'issue');
		});
	});

	describe('buildBoard', () => {
		it('returns every group in board order, newest first inside a group, with the counts for the badge and status bar', () => {
			const board = buildBoard([
				issue('old', { updatedAtUnixMs: 1, counts: { running: 2 } }),
				issue('new', { updatedAtUnixMs: 5, counts: { running: 1 } }),
				issue('acc', { counts: { pendingAcceptance: 1 } }),
				issue('done', { status: 'completed', counts: { completed: 1 } }),
			], none);
			assert.deepEqual(board.groups.map((g) => g.label), ['Needs you', 'Agent working', 'Waiting on agent', 'Paused', 'Not started', 'Planned', 'Done']);
			assert.deepEqual(board.groups[1]!.issues.map((i) => i.issueId), ['new', 'old']);
			assert.equal(board.needsYouCount, 1);
			assert.equal(board.runningRunCount, 3);
			assert.equal(statusSummary(board), '1 needs you · 2 agent working');
			assert.equal(statusSummary(buildBoard([], none)), 'nothing needs you');
		});
	});

	describe('notifications', () => {
		it('reports an issue once when it starts needing you, not again while the reason stays', () => {
			const before = buildBoard([issue('A', { counts: { running: 1 } })], none);
			const after = buildBoard([issue('A', { counts: { pendingAcceptance: 1 } })], none);
			assert.deepEqual(newlyNeedingYou(before, after).map((i) => i.issueId), ['A']);
			const later = buildBoard([issue('A', { counts: { pendingAcceptance: 2 } })], none);
			assert.deepEqual(newlyNeedingYou(after, later), []);
		});
		it('reports a new reason for an issue that already needed you', () => {
			const before = buildBoard([managedIssue('A', 'awaiting_main', { counts: { pendingAcceptance: 1 } })], none);
			const after = buildBoard([managedIssue('A', 'pending_goal_review', { counts: { pendingAcceptance: 1 } })], none);
			assert.deepEqual(newlyNeedingYou(before, after).map((i) => i.issueId), ['A']);
		});
		it('reports everything that needs you on the first state', () => {
			assert.equal(newlyNeedingYou(undefined, buildBoard([issue('A', { counts: { pendingAcceptance: 1 } })], none)).length, 1);
		});
		it('words the message for one and for several issues', () => {
			const board = buildBoard([issue('A', { title: 'Fix login', counts: { pendingAcceptance: 1 } }), issue('B', { title: 'Docs', counts: { failed: 1 } })], none);
			const items = board.groups[0]!.issues;
			assert.equal(needsYouMessage([items.find((i) => i.issueId === 'A')!]), 'Tutti: "Fix login" needs you: 1 task to accept');
			assert.match(needsYouMessage(items), /^Tutti: 2 issues need you: /);
		});
	});
});

describe('extension/boardModel: the board\'s menus per issue', () => {
	interface Menu { command: string; when: string; group?: string }
	const manifest = JSON.parse(readFileSync(join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as { contributes: { menus: { 'view/item/context': Menu[] } } };
	/** The commands VS Code shows for a board item with this context value: each `viewItem =~ /…/` clause evaluated. */
	function menuOf(contextValue: string): string[] {
		return [...new Set(manifest.contributes.menus['view/item/context']
			.filter((m) => m.when.startsWith('view == tutti.issueBoard && '))
			.filter((m) => {
				const rx = /viewItem =~ \/(.*)\/$/.exec(m.when);
				assert.ok(rx, `every board menu item is driven by the item's context value: ${m.when}`);
				return new RegExp(rx[1]!).test(contextValue);
			})
			.map((m) => m.command.replace(/^tutti\./, '')))].sort();
	}

	it('offers only what the Host says applies to the issue under the cursor', () => {
		const unstarted = toBoardIssue(issue('A', { dispatchPaused: true, counts: { notStarted: 1 } }), undefined);
		assert.deepEqual(menuOf(unstarted.contextValue), ['addTask', 'exportIssue', 'openIssue', 'startIssue']);
		const goal = toBoardIssue({ ...managedIssue('G', 'pending_goal_review', { counts: { completed: 1 } }), controls: { ...managedIssue('G', 'pending_goal_review').controls, combinedChanges: true, runOutput: true } }, undefined);
		assert.deepEqual(menuOf(goal.contextValue), ['confirmGoal', 'exportIssue', 'openIssue', 'openIssueChanges', 'openRunOutput', 'pauseIssue', 'requestChanges', 'stopSourceSession']);
		const running = toBoardIssue({ ...issue('R', { status: 'in_progress', counts: { running: 1 } }), controls: { ...issue('R', { counts: { running: 1 } }).controls, runOutput: true } }, undefined);
		assert.deepEqual(menuOf(running.contextValue), ['addTask', 'exportIssue', 'openIssue', 'openRunOutput', 'pauseIssue', 'sendRunMessage', 'stopIssue']);
		for (const item of [unstarted, running]) {
			for (const absent of ['confirmGoal', 'integrateIssue', 'finishIssue', 'followUpIssue', 'acceptTask', 'openIssueChanges']) {
				assert.ok(!menuOf(item.contextValue).includes(absent.replace(/^tutti\./, '')), `${item.issueId}: ${absent}`);
			}
		}
	});
});
