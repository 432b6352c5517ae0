// The planner radio values of the New Issue form, both ways (pure): "agent:<id>", "terminal", "manual".
import type { FormAgentTarget, NewIssuePlanner } from '../../src/protocol/newIssueForm.js';

export function plannerValue(p: NewIssuePlanner): string {
	return p.kind === 'agent' ? `agent:${p.agentTargetId}` : p.kind;
}

/** The planner a radio value means; null for nothing chosen or a value no option has. */
export function plannerOf(value: string | null): NewIssuePlanner | null {
	if (value === 'terminal' || value === 'manual') { return { kind: value }; }
	if (value !== null && value.startsWith('agent:') && value.length > 'agent:'.length) { return { kind: 'agent', agentTargetId: value.slice('agent:'.length) }; }
	return null;
}

export interface PlannerOption {
	readonly value: string;
	readonly label: string;
	readonly description: string;
	readonly disabled: boolean;
	/** A target that runs tasks but cannot plan: listed, not choosable, and readable (not drawn as disabled). */
	readonly runsTasks: boolean;
}

const adapterNames: Readonly<Record<FormAgentTarget['adapter'], string>> = { claude: 'Claude Code', codex: 'Codex', command: 'command' };

/** The words of a target the Host says cannot plan (a command target): it is listed, so the developer sees why. */
export const runsTasksOnly = 'Runs tasks: it runs one program whose exit code decides, so it cannot plan an issue. Tasks can run on it.';

/**
 * The options in order: the agent targets that can plan, then "my own agent in a terminal", then manual tasks, then
 * the targets that only run tasks (listed as such, not choosable).
 */
export function plannerOptions(targets: readonly FormAgentTarget[]): PlannerOption[] {
	const option = (t: FormAgentTarget): PlannerOption => ({
		value: `agent:${t.id}`,
		label: t.canPlan ? `Agent "${t.id}" (${adapterNames[t.adapter]})` : `Agent "${t.id}" (${adapterNames[t.adapter]}) — runs tasks`,
		description: !t.canPlan ? runsTasksOnly
			: t.found ? 'Tutti launches it as the source agent, wakes it at every checkpoint, and it plans and drives the tasks.' : `Not found${t.detail ? `: ${t.detail}` : ''}. Fix its path in the tutti.agentTargets setting.`,
		disabled: !t.found || !t.canPlan,
		runsTasks: !t.canPlan,
	});
	return [
		...targets.filter((t) => t.canPlan).map(option),
		{ value: 'terminal', label: 'My own agent in a terminal', description: 'Tutti opens an agent terminal holding the source session; your agent plans there with `tutti`.', disabled: false, runsTasks: false },
		{ value: 'manual', label: 'Manual tasks', description: 'You add the tasks in the issue panel, then Start; Tutti runs each as it becomes ready.', disabled: false, runsTasks: false },
		...targets.filter((t) => !t.canPlan).map(option),
	];
}

/** The option to select: the previous choice if still offered, else the first agent that was found, else manual. */
export function defaultPlanner(options: readonly PlannerOption[], previous: string | null): string {
	const usable = options.filter((o) => !o.disabled);
	if (previous !== null && usable.some((o) => o.value === previous)) { return previous; }
	return usable.find((o) => o.value.startsWith('agent:'))?.value ?? 'manual';
}
