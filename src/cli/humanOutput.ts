// What a person sees without --json: short text for lists and logs, indented JSON for everything else.
export function formatHuman(method: string, result: unknown): string {
	const r = (typeof result === 'object' && result !== null ? result : {}) as Record<string, unknown>;
	switch (method) {
		case 'run/log':
			return typeof r['data'] === 'string' ? r['data'] : '';
		case 'run/transcript':
			return transcriptText(r['entries']) + approvalLines(r['approvals']);
		case 'issue/list':
			return table(r['issues'], ['issueId', 'status', 'planningSource', 'title'], 'no issues');
		case 'run/list':
			return table(r['runs'], ['runId', 'taskId', 'status', 'outcomeLabel'], 'no runs');
		case 'approval/list':
			return table(Array.isArray(r['approvals']) ? r['approvals'].map((a) => ({ ...fields(a), asks: approvalAsks(a) })) : [],
				['approvalId', 'status', 'runId', 'asks', 'answerLabel'], 'no approvals');
		case 'turn/list':
			return table(r['turns'], ['role', 'issueTitle', 'taskTitle', 'label', 'activity'], 'no agent is at work or waiting');
		case 'agent/list':
			return table(r['agentTargets'], ['id', 'adapter', 'found', 'detail'], 'no agent targets');
		default:
			return `${JSON.stringify(result, null, 2)}\n`;
	}
}

function table(rows: unknown, columns: readonly string[], empty: string): string {
	if (!Array.isArray(rows) || rows.length === 0) {
		return `${empty}\n`;
	}
	const cells = rows.map((row) => columns.map((c) => {
		const value = (row as Record<string, unknown>)[c];
		return value === null || value === undefined ? '' : String(value).replace(/\s+/g, ' ');
	}));
	const widths = columns.map((_, i) => Math.max(...cells.map((line) => line[i]!.length)));
	return cells.map((line) => line.map((cell, i) => (i === line.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd()).join('\n') + '\n';
}

const transcriptMarks: Readonly<Record<string, string>> = { assistant: '', tool: '', edit: 'edited ', error: 'error: ', user: 'sent: ', result: 'result: ', output: '', stderr: 'stderr: ' };

function fields(value: unknown): Record<string, unknown> {
	return (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
}

/** What a request asks: `question: Which color? [Red | Blue]`, or the tool with its command or path (`Bash \`git push\``). */
function approvalAsks(value: unknown): string {
	const approval = fields(value);
	if (approval['kind'] === 'question' && Array.isArray(approval['questions'])) {
		return `question: ${approval['questions'].map((q) => {
			const question = fields(q);
			const options = Array.isArray(question['options']) ? question['options'].map((o) => String(fields(o)['label'] ?? '')) : [];
			return `${String(question['question'] ?? '')}${options.length > 0 ? ` [${options.join(' | ')}]` : ''}`;
		}).join(' / ')}`;
	}
	const input = fields(approval['input']);
	const what = typeof input['command'] === 'string' ? ` \`${input['command']}\`` : typeof input['file_path'] === 'string' ? ` ${input['file_path']}` : '';
	return `${String(approval['tool'] ?? '')}${what}`;
}

/** `approval Bash \`git push\`: denied by the developer at …: use a PR` — one line per approval of the Run. */
function approvalLines(approvals: unknown): string {
	if (!Array.isArray(approvals) || approvals.length === 0) { return ''; }
	return approvals.map((a) => `approval ${approvalAsks(a)}: ${String(fields(a)['answerLabel'] ?? '')}`).join('\n') + '\n';
}

function transcriptText(entries: unknown): string {
	if (!Array.isArray(entries) || entries.length === 0) { return ''; }
	return entries.map((e) => {
		const entry = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
		return `${transcriptMarks[String(entry['kind'])] ?? ''}${String(entry['text'] ?? '')}`;
	}).join('\n') + '\n';
}
