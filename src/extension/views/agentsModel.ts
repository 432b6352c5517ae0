// The Agents view as plain data: every agent at work or waiting, grouped by issue, as the Host listed them
// (`turn/list`: state, words and controls are the Host's). This only arranges them and formats elapsed time, tokens
// and cost. vscode-free (unit-tested in test/unit/extension/agentsModel.test.ts).
import type { AgentTurnDto } from '../../protocol/dto.js';

export interface AgentItem {
	readonly key: string;
	/** Read by the commands run on the item (commandArgs.ts): the issue, and the worker's Run. */
	readonly issueId: string;
	readonly runId: string;
	readonly state: AgentTurnDto['state'];
	/** The task's title for a worker; "Source agent" or "Reviewer" for a session. */
	readonly label: string;
	/** "Working · 1m 05s · 12.3k tokens · $0.42". */
	readonly description: string;
	readonly tooltip: string;
	/** `agent:<role>:<state>` plus the Host's controls `:stopRun`, `:stopSource`, `:transcript`. */
	readonly contextValue: string;
}

export interface AgentIssueGroup {
	readonly issueId: string;
	readonly title: string;
	readonly agents: readonly AgentItem[];
}

const roleNames: Readonly<Record<AgentTurnDto['role'], string>> = { source: 'Source agent', reviewer: 'Reviewer', worker: 'Worker' };

/** "4s", "1m 05s", "2h 03m". */
export function elapsed(ms: number): string {
	const s = Math.max(0, Math.floor(ms / 1000));
	if (s < 60) { return `${s}s`; }
	const m = Math.floor(s / 60);
	if (m < 60) { return `${m}m ${String(s % 60).padStart(2, '0')}s`; }
	return `${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/** "850 tokens", "12.3k tokens", "1.2M tokens". */
export function tokenCount(n: number): string {
	if (n < 1000) { return `${n} token${n === 1 ? '' : 's'}`; }
	if (n < 1_000_000) { return `${(n / 1000).toFixed(1)}k tokens`; }
	return `${(n / 1_000_000).toFixed(1)}M tokens`;
}

/** "$0.42"; "cost unknown" when a model's price is not known. */
export function costText(usd: number | null): string {
	return usd === null ? 'cost unknown' : `$${usd.toFixed(2)}`;
}

export function agentItem(turn: AgentTurnDto, nowUnixMs: number): AgentItem {
	const since = elapsed(nowUnixMs - turn.sinceUnixMs);
	const label = turn.role === 'worker' ? turn.taskTitle : roleNames[turn.role];
	const flags = [turn.controls.stopRun ? 'stopRun' : '', turn.controls.stopSource ? 'stopSource' : '', turn.controls.transcript ? 'transcript' : ''].filter((f) => f !== '');
	return {
		key: turn.key, issueId: turn.issueId, runId: turn.runId, state: turn.state, label,
		description: [turn.label, since, tokenCount(turn.tokens), costText(turn.costUsd)].join(' · '),
		tooltip: [
			`${label} (${roleNames[turn.role].toLowerCase()}${turn.agentTargetId ? `, agent target ${turn.agentTargetId}` : ''})`,
			`Issue: ${turn.issueTitle}`,
			`${turn.label} for ${since}`,
			`${tokenCount(turn.tokens)} · ${costText(turn.costUsd)}`,
			turn.activity !== '' ? `Last: ${turn.activity}` : '',
		].filter((l) => l !== '').join('\n'),
		contextValue: ['agent', turn.role, turn.state, ...flags].join(':'),
	};
}

/** The agents by issue, in the Host's order (issues by title; in an issue, source, reviewer, then workers). */
export function agentGroups(turns: readonly AgentTurnDto[], nowUnixMs: number): AgentIssueGroup[] {
	const groups = new Map<string, { title: string; agents: AgentItem[] }>();
	for (const turn of turns) {
		const group = groups.get(turn.issueId) ?? { title: turn.issueTitle, agents: [] };
		group.agents.push(agentItem(turn, nowUnixMs));
		groups.set(turn.issueId, group);
	}
	return [...groups].map(([issueId, g]) => ({ issueId, title: g.title, agents: g.agents }));
}
