// The New Issue form: its validation (shared by the webview and the Host), its planner choices, and the Host-side
// controller (init after ready, every message checked, the chosen agent checked against the Host's list, one
// create, failures back to the form which stays open).
import { strict as assert } from 'node:assert';
import { NewIssueFormController, type NewIssueFormEffects } from '../../../src/extension/panels/newIssueFormController.js';
import type { FormAgentTarget, NewIssueFormValues, NewIssueToWebview } from '../../../src/protocol/newIssueForm.js';
import { parseNewIssueToHost, validateNewIssueForm } from '../../../src/protocol/newIssueForm.js';
import { defaultPlanner, plannerOf, plannerOptions, plannerValue, runsTasksOnly } from '../../../webview/newIssue/plannerChoice.js';

const targets: FormAgentTarget[] = [
	{ id: 'opus', adapter: 'claude', found: true, canPlan: true, detail: '/usr/bin/claude' },
	{ id: 'gone', adapter: 'codex', found: false, canPlan: true, detail: 'codex: not on PATH' },
	{ id: 'make', adapter: 'command', found: true, canPlan: false, detail: 'found make' },
];
const valid: NewIssueFormValues = { title: 'Fix login', goal: 'Users stay logged in.', planner: { kind: 'agent', agentTargetId: 'opus' }, autoAccept: false };

describe('New Issue form', () => {
	describe('validation', () => {
		it('accepts a complete form, and a manual issue without a goal', () => {
			assert.deepEqual(validateNewIssueForm(valid), { ok: true, values: valid });
			const manual = { ...valid, goal: '', planner: { kind: 'manual' } };
			assert.deepEqual(validateNewIssueForm(manual), { ok: true, values: manual });
		});

		it('names each wrong field once: blank title, missing goal for an agent, no planner, too long', () => {
			assert.deepEqual(validateNewIssueForm({ ...valid, title: '   ', goal: ' ', planner: null }), {
				ok: false,
				errors: {
					title: 'Give the issue a title (the goal in a few words).',
					planner: 'Choose who plans this issue.',
				},
			});
			assert.deepEqual(validateNewIssueForm({ ...valid, goal: '\n', planner: { kind: 'terminal' } }), {
				ok: false, errors: { goal: 'Describe the goal: the source agent plans the tasks from it.' },
			});
			const long = validateNewIssueForm({ ...valid, title: 'x'.repeat(501), goal: 'y'.repeat(100_001) });
			assert.deepEqual(long, { ok: false, errors: { title: 'The title is too long (at most 500 characters).', goal: 'The goal is too long (at most 100,000 characters).' } });
			assert.deepEqual(validateNewIssueForm({ ...valid, planner: { kind: 'agent', agentTargetId: '' } }), { ok: false, errors: { planner: 'Choose who plans this issue.' } });
		});

		it('the Host refuses malformed messages (unknown keys, planner kinds, a missing autoAccept)', () => {
			assert.equal(parseNewIssueToHost({ type: 'submit', values: valid }).ok, true);
			for (const bad of [
				{ type: 'submit', values: { ...valid, extra: 1 } },
				{ type: 'submit', values: { ...valid, planner: { kind: 'robot' } } },
				{ type: 'submit', values: { title: 'x', goal: '', planner: { kind: 'manual' } } },
				{ type: 'ready', protocol: 2 },
				'submit',
			]) {
				assert.equal(parseNewIssueToHost(bad).ok, false, JSON.stringify(bad));
			}
		});
	});

	describe('planner choices', () => {
		it('lists the agents that can plan (a missing one disabled), then my own agent, then manual, then those that only run tasks; values round-trip', () => {
			const options = plannerOptions(targets);
			assert.deepEqual(options.map((o) => [o.value, o.disabled]), [['agent:opus', false], ['agent:gone', true], ['terminal', false], ['manual', false], ['agent:make', true]]);
			assert.match(options[1]!.description, /^Not found: codex: not on PATH\./);
			assert.deepEqual([options[4]!.label, options[4]!.description], ['Agent "make" (command) — runs tasks', runsTasksOnly], 'listed as one that runs tasks, as the Host says');
			for (const p of [{ kind: 'agent', agentTargetId: 'a:b' }, { kind: 'terminal' }, { kind: 'manual' }] as const) {
				assert.deepEqual(plannerOf(plannerValue(p)), p);
			}
			assert.equal(plannerOf('agent:'), null);
			assert.equal(plannerOf(null), null);
		});

		it('selects the previous choice while it is offered, else the first agent found, else manual', () => {
			const options = plannerOptions(targets);
			assert.equal(defaultPlanner(options, 'terminal'), 'terminal');
			assert.equal(defaultPlanner(options, 'agent:gone'), 'agent:opus');
			assert.equal(defaultPlanner(options, null), 'agent:opus');
			assert.equal(defaultPlanner(plannerOptions([]), null), 'manual');
		});
	});

	describe('NewIssueFormController', () => {
		interface Fx { posted: NewIssueToWebview[]; created: NewIssueFormValues[]; closed: number; warnings: string[] }
		function setup(over: Partial<NewIssueFormEffects> = {}): { controller: NewIssueFormController; fx: Fx } {
			const fx: Fx = { posted: [], created: [], closed: 0, warnings: [] };
			const controller = new NewIssueFormController(
				{ postMessage: async (m) => { fx.posted.push(m); return true; }, close: () => { fx.closed++; } },
				{
					agentTargets: async () => targets,
					autoAcceptDefault: () => true,
					create: async (values) => { fx.created.push(values); return 'issue-1'; },
					addAgent: async () => undefined,
					warn: (m) => { fx.warnings.push(m); },
					...over,
				});
			return { controller, fx };
		}

		it('answers ready with the agent targets and the auto-accept default', async () => {
			const { controller, fx } = setup();
			await controller.receive({ type: 'ready', protocol: 1 });
			assert.deepEqual(fx.posted, [{ type: 'init', agentTargets: targets, autoAcceptDefault: true }]);
		});

		it('creates once, then closes; a second submit does nothing', async () => {
			const { controller, fx } = setup();
			await controller.receive({ type: 'submit', values: valid });
			await controller.receive({ type: 'submit', values: valid });
			assert.deepEqual(fx.created, [valid]);
			assert.deepEqual(fx.posted, [{ type: 'busy' }]);
			assert.equal(fx.closed, 1);
			assert.equal(controller.createdIssueId, 'issue-1');
		});

		it('refuses an agent the Host does not know, cannot find or says cannot plan, without creating', async () => {
			const { controller, fx } = setup();
			await controller.receive({ type: 'submit', values: { ...valid, planner: { kind: 'agent', agentTargetId: 'nope' } } });
			await controller.receive({ type: 'submit', values: { ...valid, planner: { kind: 'agent', agentTargetId: 'gone' } } });
			await controller.receive({ type: 'submit', values: { ...valid, planner: { kind: 'agent', agentTargetId: 'make' } } });
			assert.deepEqual(fx.created, []);
			assert.deepEqual(fx.posted.map((m) => m.type === 'failed' ? Object.keys(m.errors ?? {}) : m.type), [['planner'], ['planner'], ['planner']]);
			const last = fx.posted.at(-1);
			assert.match(last?.type === 'failed' ? last.message : '', /^Agent target "make" runs tasks; it cannot plan an issue\./);
			assert.equal(fx.closed, 0);
		});

		it('a failed create goes back to the form, which stays open and may submit again', async () => {
			let attempts = 0;
			const { controller, fx } = setup({ create: async () => { attempts++; if (attempts === 1) { throw new Error('The Host is restarting.'); } return 'issue-2'; } });
			await controller.receive({ type: 'submit', values: valid });
			assert.deepEqual(fx.posted, [{ type: 'busy' }, { type: 'failed', message: 'The Host is restarting.' }]);
			assert.equal(fx.closed, 0);
			await controller.receive({ type: 'submit', values: valid });
			assert.equal(fx.closed, 1);
		});

		it('an invalid message is refused and reported, nothing is created', async () => {
			const { controller, fx } = setup();
			await controller.receive({ type: 'submit', values: { ...valid, title: '' } });
			await controller.receive({ type: 'rm -rf' });
			assert.deepEqual(fx.created, []);
			assert.equal(fx.warnings.length, 2);
			assert.deepEqual(fx.posted.map((m) => m.type), ['failed', 'failed']);
		});

		it('Cancel closes; Add agent runs the command and sends the choices again', async () => {
			let added = 0;
			const { controller, fx } = setup({ addAgent: async () => { added++; } });
			await controller.receive({ type: 'addAgent' });
			assert.deepEqual([added, fx.posted.map((m) => m.type)], [1, ['init']]);
			await controller.receive({ type: 'cancel' });
			assert.equal(fx.closed, 1);
		});
	});
});
