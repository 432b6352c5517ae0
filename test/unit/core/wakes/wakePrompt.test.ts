import { strict as assert } from 'node:assert';
import { wakePrompt, type WakePromptInput } from '../../../../src/core/wakes/wakePrompt.js';
import { parseWakeMarker, wakeMarkerLine } from '../../../../src/core/wakes/wakeMarker.js';
import { checkpointKinds } from '../../../../src/core/model.js';
import type { CheckpointKind } from '../../../../src/core/model.js';
import { mutationOperations } from '../../../../src/protocol/operations.js';

const C = 'tutti-execution:I1:checkpoint:run:R7';
function prompt(kind: CheckpointKind, over: Partial<WakePromptInput> = {}): string {
	return wakePrompt({
		issueId: 'I1', issueTitle: 'Ship the\nfeature', graphRevision: 3,
		checkpoint: { checkpointId: C, kind, sequence: 4, subjectTaskId: kind.startsWith('task_') ? 'T5' : '', subjectRunId: kind.startsWith('task_') ? 'R7' : '' },
		...over,
	});
}

/** Every `--operations-json '…'` argument in a text, parsed. */
function operationExamples(text: string): unknown[] {
	return [...text.matchAll(/--operations-json '([^']*)'/g)].map((m) => JSON.parse(m[1]!));
}

describe('core/wakes/wakePrompt', () => {
	it('checks_failed: reported success, the failing check with its output tail, and the agent\'s choices (rework, or leave it to the developer)', () => {
		const text = prompt('checks_failed', {
			checkpoint: { checkpointId: C, kind: 'checks_failed', sequence: 4, subjectTaskId: 'T5', subjectRunId: 'R7' },
			subjectVerification: { label: 'Checks failed: test (exit 1)', failing: { name: 'test', end: 'exit 1', outputTail: 'ok 1\nnot ok 2 parser\n' } },
		});
		assert.match(text, /\nTask T5 \(run R7\) reported success, but the developer's checks failed on its result\.\nVerified: Checks failed: test \(exit 1\)\.\nFailing check: test \(exit 1\)\. The last lines of its output:\n> ok 1\n> not ok 2 parser\n/);
		assert.match(text, /"kind":"rework","taskId":"T5"/);
		assert.match(text, /no command of yours changes, drops or skips them/);
		assert.match(text, /ask the developer/);
	});

	it('starts with the exact marker line, then a blank line', () => {
		const lines = prompt('task_failed').split('\n');
		assert.equal(lines[0], '<!-- TUTTI_MODE_CHECKPOINT_WAKE {"v":1,"kind":"task_failed","issueId":"I1","checkpointId":"tutti-execution:I1:checkpoint:run:R7","graphRevision":3} -->');
		assert.equal(lines[1], '');
	});

	it('the marker round-trips through parseWakeMarker; malformed markers are not cards', () => {
		const parsed = parseWakeMarker(prompt('watchdog'));
		assert.deepEqual(parsed?.marker, { v: 1, kind: 'watchdog', issueId: 'I1', checkpointId: C, graphRevision: 3 });
		assert.match(parsed!.body, /^A durable Tutti checkpoint needs your decision\./);
		assert.equal(parseWakeMarker('hello'), null);
		assert.equal(parseWakeMarker('<!-- TUTTI_MODE_CHECKPOINT_WAKE {"v":2} -->\nx'), null);
		assert.equal(parseWakeMarker('<!-- TUTTI_MODE_CHECKPOINT_WAKE {nope} -->'), null);
		const sneaky = wakeMarkerLine({ kind: 'watchdog', issueId: 'a-->b', checkpointId: 'c', graphRevision: 1 });
		assert.equal(sneaky.indexOf('-->'), sneaky.length - 3, 'an id cannot close the comment early');
		assert.equal(parseWakeMarker(sneaky)?.marker.issueId, 'a-->b');
	});

	for (const kind of checkpointKinds) {
		describe(kind, () => {
			const text = prompt(kind);

			it('names the issue, checkpoint, kind and revision, and that no successor starts by itself', () => {
				assert.match(text, /^Issue: I1 — Ship the feature$/m);
				assert.match(text, new RegExp(`^Checkpoint: ${C}$`, 'm'));
				assert.match(text, new RegExp(`^Kind: ${kind} \\(sequence 4\\)$`, 'm'));
				assert.match(text, /^Graph revision: 3$/m);
				assert.match(text, /Tutti does not start a successor task by itself/);
			});

			it('asks for plan issue get first and gives the exact schedule command', () => {
				assert.ok(text.indexOf('tutti plan issue get --issue-id I1 --json') < text.indexOf('tutti plan issue schedule'));
				assert.ok(text.includes(`tutti plan issue schedule --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --task-ids-json '["<task-id>"]' --request-id cp4-r3-schedule --json`));
			});

			it('gives supersede AND rework examples that use kind and task and pass the strict operations schema', () => {
				const examples = operationExamples(text);
				const kinds = examples.flatMap((e) => (e as { kind: string }[]).map((o) => o.kind));
				assert.ok(kinds.includes('supersede') && kinds.includes('rework'), kinds.join(','));
				for (const e of examples) { mutationOperations.parse(e); }
				assert.ok(!/"op"\s*:|"replacement"\s*:/.test(text), 'never teaches the rejected aliases');
				assert.match(text, /"op" and "replacement" are not supported/);
				assert.ok(text.includes(`tutti plan issue mutate --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --operations-json`));
			});

			it('explains sparse rework inheritance, dependency redirect, and scheduling with the returned revision', () => {
				assert.match(text, /sparse rework inherits every omitted field from the old task: agentTargetId, modelPlanId, model, permissionModeId, reasoningEffort, executionDirectory and dependencyTaskIds/);
				assert.match(text, /redirects the dependencies of active not-started tasks from the old taskId to the new one in the same mutation/);
				assert.match(text, /returns a new graphRevision: use exactly that number/);
			});

			it('states the control-plane rule, bounded recovery and the stop command', () => {
				assert.match(text, /The Tutti CLI is the only control plane; never read or modify the database/);
				assert.match(text, /run `tutti plan issue get --issue-id I1 --json` once and retry once/);
				assert.match(text, /If the same error repeats, stop and report the exact error/);
				assert.ok(text.includes(`tutti plan issue stop --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --reason 'the source agent decided this issue should not continue' --request-id cp4-r3-stop --json`));
			});

			it('has no placeholders other than task ids', () => {
				const placeholders = new Set([...text.matchAll(/<[^<>!\s][^<>]*>/g)].map((m) => m[0]));
				for (const p of placeholders) { assert.ok(p === '<task-id>', `unexpected placeholder ${p}`); }
			});
		});
	}

	it('task_failed says why the Run failed right after the headline (a merge conflict names its paths); other kinds do not', () => {
		const why = 'Could not start: merging a and b conflicts in src/x.ts, README.md';
		const lines = prompt('task_failed', { subjectError: `${why}\n(details)` }).split('\n');
		const head = lines.findIndex((l) => l === 'Task T5 (run R7) failed.');
		assert.equal(lines[head + 1], `Why: ${why} (details)`);
		assert.ok(!prompt('task_failed').includes('Why:'), 'no error: no line');
		assert.ok(!prompt('task_settled', { subjectError: why }).includes('Why:'));
		assert.ok(prompt('task_failed', { subjectError: 'x'.repeat(2_000) }).includes(`Why: ${'x'.repeat(599)}…`), 'bounded');
	});

	it('task_failed / task_canceled: rework the subject with an exact sparse command, schedule with the returned revision, acknowledge under the backlog rule', () => {
		for (const kind of ['task_failed', 'task_canceled'] as const) {
			const text = prompt(kind);
			assert.match(text, new RegExp(`The ${kind === 'task_failed' ? 'failed' : 'canceled'} task T5 cannot be updated or scheduled again`));
			assert.ok(text.includes(`--operations-json '[{"kind":"rework","taskId":"T5","task":{"taskId":"T5-rework-4"}}]'`));
			assert.ok(text.includes('[{"kind":"supersede","taskId":"T5"}]'));
			assert.match(text, /schedule the replacement at this same checkpoint .* using the graphRevision the mutation returned/);
			assert.ok(text.includes(`tutti plan issue acknowledge --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --request-id cp4-r3-acknowledge --json`));
			assert.match(text, /If another Run is still running or a later checkpoint is pending/);
			assert.doesNotMatch(text, /plan issue complete/);
		}
	});

	it('task_settled in review: only the developer accepts; scheduling or acknowledging does not; the decision wakes the agent', () => {
		const text = prompt('task_settled', { subjectAwaitsReview: true });
		assert.match(text, /Task T5 \(run R7\) finished/);
		assert.match(text, /only the developer accepts it/);
		assert.match(text, /Scheduling other tasks or acknowledging this checkpoint does not accept it/);
		assert.match(text, /Tutti wakes you with a new checkpoint that says what the developer decided/);
		assert.ok(text.includes('tutti await-review --issue-id I1 --task-id T5'), 'the bounded wait for that review');
		assert.ok(text.includes('tutti plan issue acknowledge --issue-id I1'));
		assert.doesNotMatch(text, /accepts this result/);
		assert.doesNotMatch(text, /plan issue complete/);
	});

	it('task_settled accepted already (autoAccept): its dependents may be ready; no text claims a command accepts it', () => {
		const text = prompt('task_settled', { subjectAwaitsReview: false });
		assert.match(text, /already accepted/);
		assert.doesNotMatch(text, /accepts this result|await-review/);
	});

	it('task_accepted: says the developer accepted the task, quotes the note, schedules the ready tasks', () => {
		const text = prompt('task_accepted', { checkpoint: { checkpointId: C, kind: 'task_accepted', sequence: 4, subjectTaskId: 'T5', subjectRunId: 'R7', note: 'Nice work.' } });
		assert.match(text, /The developer accepted the result of task T5 \(run R7\)/);
		assert.ok(text.includes('> Nice work.'));
		assert.ok(text.includes(`tutti plan issue schedule --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3`));
		assert.match(text, /If readyTaskIds is empty/);
		assert.match(text, /The developer's note:\n> Nice work\./);
		assert.doesNotMatch(prompt('task_accepted'), /developer's note/, 'no empty note section without a note');
	});

	it('all_tasks_terminal: complete --decision goal_satisfied, never acknowledge', () => {
		const text = prompt('all_tasks_terminal');
		assert.ok(text.includes(`tutti plan issue complete --issue-id I1 --checkpoint-id ${C} --expected-graph-revision 3 --decision goal_satisfied --request-id cp4-r3-complete --json`));
		assert.match(text, /Do not use acknowledge for Goal Review/);
		assert.doesNotMatch(text, /tutti plan issue acknowledge/);
	});

	it('initial_schedule: how to add tasks, and do not acknowledge initial scheduling or Goal Review', () => {
		const text = prompt('initial_schedule');
		assert.match(text, /Do not acknowledge initial scheduling or Goal Review/);
		assert.match(text, /\{"kind":"add","task":\{…\}\} with task\.taskId, task\.title and task\.agentTargetId/);
		assert.doesNotMatch(text, /tutti plan issue acknowledge|plan issue complete/);
	});

	it('watchdog: choose an action now; acknowledge under the backlog rule', () => {
		const text = prompt('watchdog');
		assert.match(text, /No checkpoint command arrived for 5 minutes/);
		assert.ok(text.includes('tutti plan issue acknowledge --issue-id I1'));
	});

	it('kind defaults to the checkpoint kind; an explicit kind wins', () => {
		assert.equal(prompt('task_settled'), prompt('task_settled', { kind: 'task_settled' }));
		assert.match(prompt('task_settled', { kind: 'watchdog' }).split('\n')[0]!, /"kind":"watchdog"/);
	});

	it('quotes ids for the shell', () => {
		const text = wakePrompt({ issueId: 'my issue', issueTitle: 't', graphRevision: 1, checkpoint: { checkpointId: 'c 1', kind: 'initial_schedule', sequence: 1, subjectTaskId: '', subjectRunId: '' } });
		assert.ok(text.includes("tutti plan issue get --issue-id 'my issue' --json"));
		assert.ok(text.includes("--checkpoint-id 'c 1'"));
	});
});
