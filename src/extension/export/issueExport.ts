// "Export Issue": an issue with its tasks, its managed plan (if any) and its Runs, as JSON or Markdown.
// Pure formatting, no vscode (unit-tested in test/unit/extension/issueExport.test.ts).
import type { IssueWithTasksDto, PlanSnapshotDto, RunDto, TaskDto } from '../../protocol/dto.js';
import { pausedNote } from '../pausedNote.js';

export type ExportFormat = 'json' | 'markdown';

export interface IssueExport {
	readonly exportedAtUnixMs: number;
	readonly issue: IssueWithTasksDto;
	/** Managed issues only; its tasks include superseded history. */
	readonly plan: PlanSnapshotDto | null;
	readonly runs: readonly RunDto[];
}

export const exportFormatVersion = 1;

export function exportAsJson(data: IssueExport): string {
	return `${JSON.stringify({ format: 'tutti-issue-export', version: exportFormatVersion, ...data }, null, '\t')}\n`;
}

/** A table cell: one line, pipes escaped. */
function cell(text: string): string {
	const flat = text.replace(/\r?\n/g, ' ').replace(/\|/g, '\\|').trim();
	return flat === '' ? '—' : flat;
}

function iso(unixMs: number): string {
	return unixMs > 0 ? new Date(unixMs).toISOString() : '—';
}

/** 2m 03s, 45s, 1h 02m. */
export function formatDuration(ms: number): string {
	const total = Math.max(0, Math.round(ms / 1000));
	const h = Math.floor(total / 3600);
	const m = Math.floor((total % 3600) / 60);
	const s = total % 60;
	if (h > 0) {
		return `${h}h ${String(m).padStart(2, '0')}m`;
	}
	return m > 0 ? `${m}m ${String(s).padStart(2, '0')}s` : `${s}s`;
}

function taskTable(tasks: readonly TaskDto[]): string[] {
	const lines = ['| Task | Title | Status | Depends on | Agent |', '|---|---|---|---|---|'];
	for (const t of tasks) {
		lines.push(`| \`${cell(t.taskId)}\` | ${cell(t.title)} | ${cell(t.status.replace(/_/g, ' '))} | ${cell(t.dependencyTaskIds.join(', '))} | ${cell(t.agentTargetId)} |`);
	}
	return lines;
}

function runSection(runs: readonly RunDto[]): string[] {
	if (runs.length === 0) {
		return ['_No runs._'];
	}
	const lines: string[] = [];
	for (const run of runs) {
		const outcome = run.outcomeLabel ?? (run.status === 'running' ? `Running for ${formatDuration(run.durationMs)}` : run.status);
		lines.push(`### Run \`${run.runId}\` — task \`${run.taskId}\``, '', `- Outcome: ${outcome}`, `- Agent: ${run.agentTargetId || '—'}`, `- Started: ${iso(run.startedAtUnixMs)}`);
		if (run.summary) {
			lines.push(`- Summary: ${cell(run.summary)}`);
		}
		if (run.errorMessage) {
			lines.push(`- Error: ${cell(run.errorMessage)}`);
		}
		const u = run.usage;
		if (u.inputTokens + u.outputTokens > 0) {
			lines.push(`- Usage: ${u.inputTokens} input, ${u.outputTokens} output, ${u.cacheReadTokens} cache read, ${u.cacheWriteTokens} cache write tokens`);
		}
		for (const note of run.stopNotes) {
			lines.push(`- Stop (${note.reason}) at ${iso(note.requestedAtUnixMs)}: ${note.answer ?? 'no answer yet'}`);
		}
		lines.push('');
	}
	return lines;
}

export function exportAsMarkdown(data: IssueExport): string {
	const { issue, plan, runs } = data;
	const active = plan ? plan.tasks.filter((t) => t.supersededAtUnixMs === 0) : issue.tasks;
	const history = plan ? plan.tasks.filter((t) => t.supersededAtUnixMs !== 0) : [];
	const lines = [
		`# ${issue.title}`,
		'',
		`- Issue: \`${issue.issueId}\` (${issue.planningSource === 'tutti' ? 'managed' : 'manual'})`,
		`- Status: ${issue.status.replace(/_/g, ' ')}${issue.dispatchPaused ? ` (${pausedNote(issue)})` : ''}`,
		`- Progress: ${issue.counts.completed}/${issue.taskCount} tasks completed`,
		`- Exported: ${iso(data.exportedAtUnixMs)}`,
	];
	if (plan) {
		const cp = plan.activeCheckpoint;
		lines.push(`- Execution: ${plan.execution.status.replace(/_/g, ' ')}, graph revision ${plan.execution.graphRevision}`);
		lines.push(`- Active checkpoint: ${cp ? `${cp.kind.replace(/_/g, ' ')} #${cp.sequence} (revision ${cp.graphRevision})` : 'none'}`);
	}
	lines.push('', '## Goal', '', issue.content.trim() === '' ? '_No description._' : issue.content.trim(), '', '## Tasks', '');
	lines.push(...(active.length > 0 ? taskTable(active) : ['_No tasks._']));
	if (history.length > 0) {
		lines.push('', '## Superseded tasks', '', '| Task | Title | Replaced by |', '|---|---|---|');
		for (const t of history) {
			lines.push(`| \`${cell(t.taskId)}\` | ${cell(t.title)} | ${t.supersededByTaskId ? `\`${cell(t.supersededByTaskId)}\`` : '—'} |`);
		}
	}
	lines.push('', '## Runs', '', ...runSection(runs));
	return `${lines.join('\n').trimEnd()}\n`;
}

export function formatIssueExport(data: IssueExport, format: ExportFormat): string {
	return format === 'json' ? exportAsJson(data) : exportAsMarkdown(data);
}

/** A file name for the save dialog: `issue-<slug>.md` / `.json`. */
export function exportFileName(issue: { issueId: string; title: string }, format: ExportFormat): string {
	const slug = issue.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60) || issue.issueId;
	return `${slug}.${format === 'json' ? 'json' : 'md'}`;
}
