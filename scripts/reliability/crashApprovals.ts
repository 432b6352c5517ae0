// Crash, approvals lane: `asker` Runs (agentKit.ts) ask the developer through the real `tutti mcp` and wait while
// the Host is killed -9; the lane answers pending requests over the socket (allow or deny, sometimes two answers
// racing for one request) around the kills. Checked through the CLI (`approval list`): an acknowledged answer is
// there after every restart, with the same time (answered once); two racing answers never both succeed. At the end
// every request is answered or expired, each Run asked once for its one tool call, and its agent received exactly
// the recorded answer (and ended accordingly). "Received" is what the asker itself wrote down on getting the reply
// of its `approve` call (agentKit.ts, `<taskId>.answers`). A failure of that check prints the request as recorded,
// what the agent wrote down, and every line the Host logged about the request or its Run, across all its restarts.
import type { ApprovalDto } from '../../src/protocol/approvals.js';
import type { HostHandle } from '../../test/integration/harness.js';
import { askerAnswers, askerPids } from './agentKit.js';
import { cliApprovals, received } from './approvalsCase.js';
import { call, type CaseResult, cliRunList, type Reply, sleep } from './kit.js';

export class ApprovalLane {
	#issueId = '';
	readonly #tasks = new Set<string>();
	/** approvalId → the status its acknowledged answer set. */
	readonly #answered = new Map<string, 'allowed' | 'denied'>();
	/** approvalId → `status@answeredAt` first seen settled through the CLI: it may never change. */
	readonly #firstSeen = new Map<string, string>();
	#seq = 0;
	#races = 0;
	#twice = 0;
	#lost = 0;

	constructor(private readonly host: HostHandle, private readonly result: CaseResult) {}

	async open(): Promise<void> {
		const r = await call(this.host, 'issue/create', { title: 'Crash workload (approvals)', autoAccept: true }, 'user');
		if (!r.ok) { throw new Error(`issue/create: ${r.message}`); }
		this.#issueId = (r.result as { issueId: string }).issueId;
	}

	/** Maybe adds an asker task, then answers pending requests until `dead()`. */
	async lane(dead: () => boolean, acked: (r: Reply) => boolean, random: () => number, addTask: boolean): Promise<void> {
		if (addTask) {
			const taskId = `ask${this.#seq++}`;
			if (acked(await call(this.host, 'task/add', { issueId: this.#issueId, taskId, title: `Ask ${taskId}`, agentTargetId: 'asker' }, 'user'))) {
				this.#tasks.add(taskId);
			}
		}
		while (!dead()) {
			const list = await call(this.host, 'approval/list', { issueId: this.#issueId, status: 'pending' }, 'user');
			if (!list.ok) { acked(list); continue; }
			for (const a of (list.result as { approvals: ApprovalDto[] }).approvals) {
				if (dead() || this.#answered.has(a.approvalId) || random() < 0.4) { continue; }
				await this.#answer(a, random() < 0.6, random() < 0.15, acked);
			}
			await sleep(30 + random() * 50);
		}
	}

	async #answer(a: ApprovalDto, allow: boolean, race: boolean, acked: (r: Reply) => boolean): Promise<void> {
		const params = { approvalId: a.approvalId, ...(allow ? { allow: true } : { deny: true, message: 'crash campaign: denied' }) };
		const replies = await Promise.all((race ? [params, { approvalId: a.approvalId, deny: true, message: 'the racing answer' }] : [params])
			.map((p) => call(this.host, 'approval/answer', p, 'user')));
		if (race) { this.#races++; }
		const ok = replies.filter((r) => r.ok);
		if (ok.length > 1) {
			this.#twice++;
			this.result.fail(`approval ${a.approvalId}: two racing answers were both acknowledged`);
		}
		for (const r of replies) {
			if (r.ok) {
				acked(r);
				this.#answered.set(a.approvalId, (r.result as { approval: ApprovalDto }).approval.status as 'allowed' | 'denied');
			} else if (r.reasonCode !== 'approval_answered') {
				acked(r);
			}
		}
	}

	/** After a restart: every acknowledged answer is there, and nothing settled changed. */
	async verify(point: number): Promise<void> {
		if (this.#issueId === '') { return; }
		// Copied before the read: an answer acknowledged while it runs is not expected from it.
		const answered = new Map(this.#answered);
		this.#check(await cliApprovals(this.host, this.#issueId), answered, `point ${point}`);
	}

	#check(approvals: ApprovalDto[], answered: ReadonlyMap<string, string>, where: string): void {
		const byId = new Map(approvals.map((a) => [a.approvalId, a]));
		for (const [approvalId, status] of answered) {
			const a = byId.get(approvalId);
			if (a?.status !== status) {
				this.#lost++;
				this.result.fail(`${where}: approval ${approvalId} was answered (${status}, acknowledged) and is ${a?.status ?? 'missing'} now`);
			}
		}
		for (const a of approvals) {
			if (a.status === 'pending') { continue; }
			const fact = `${a.status}@${a.answeredAtUnixMs}`;
			const before = this.#firstSeen.get(a.approvalId);
			if (before !== undefined && before !== fact) {
				this.#twice++;
				this.result.fail(`${where}: approval ${a.approvalId} was ${before} and is ${fact} now (answered twice)`);
			}
			this.#firstSeen.set(a.approvalId, fact);
		}
	}

	/** For a failure: the request as recorded, what its agent wrote down, and the Host's log lines about it or its Run. */
	#story(a: ApprovalDto, taskId: string): string {
		const pids = askerPids(this.host.gateDir, taskId);
		const acknowledged = this.#answered.get(a.approvalId);
		const logged = this.host.stderrLines.filter((line) => line.startsWith('--- Host start') || line.includes(a.approvalId) || line.includes(a.runId));
		// Only the starts around the request's lines (a start line alone says nothing).
		const shown = logged.filter((line, i) => !line.startsWith('--- Host start') || (logged[i + 1] !== undefined && !logged[i + 1]!.startsWith('--- Host start')));
		return [
			'',
			`    recorded: ${a.status}, answer '${a.answer}' by '${a.answeredBy}' at ${a.answeredAtUnixMs > 0 ? new Date(a.answeredAtUnixMs).toISOString() : '-'}, message '${a.message}'; requested at ${new Date(a.requestedAtUnixMs).toISOString()}; run ${a.runId}`,
			`    the lane's acknowledged answer: ${acknowledged ?? 'none'}; the agent's answers file: ${askerAnswers(this.host.gateDir, taskId).map((x) => JSON.stringify(x)).join(' | ') || 'empty'}; MCP servers it started: ${pids?.servers ?? '?'}`,
			`    the Host's log lines of approval ${a.approvalId} and run ${a.runId}:`,
			...(shown.length > 0 ? shown.slice(-80).map((line) => `      ${line}`) : ['      (none)']),
		].join('\n');
	}

	/**
	 * Answers what is still pending until every asker task has a settled Run (bounded), then checks each Run's one
	 * request. Tasks still queued for a slot count too: on a fast machine the points add askers faster than the lane
	 * answers them, and every waiting asker holds a slot.
	 */
	async finish(): Promise<void> {
		const deadline = Date.now() + 300_000;
		const count = (): boolean => true;
		for (;;) {
			const runs = await cliRunList(this.host, this.#issueId);
			const settled = (taskId: string): boolean => runs.some((r) => r.taskId === taskId && r.outcome !== null);
			if ((runs.every((r) => r.outcome !== null) && [...this.#tasks].every(settled)) || Date.now() > deadline) { break; }
			const list = await call(this.host, 'approval/list', { issueId: this.#issueId, status: 'pending' }, 'user');
			for (const a of list.ok ? (list.result as { approvals: ApprovalDto[] }).approvals : []) {
				await this.#answer(a, true, false, count);
			}
			await sleep(200);
		}
		const [runs, approvals] = await Promise.all([cliRunList(this.host, this.#issueId), cliApprovals(this.host, this.#issueId)]);
		this.#check(approvals, this.#answered, 'at the end');
		const endings = new Map<string, number>();
		let pendingDead = 0;
		for (const taskId of this.#tasks) {
			const where = `at the end: asker ${taskId}`;
			const taskRuns = runs.filter((r) => r.taskId === taskId);
			this.result.check(taskRuns.length === 1, `${where}: ${taskRuns.length} Runs`);
			const run = taskRuns[0];
			if (!run) { continue; }
			this.result.check(run.outcome !== null, `${where}: Run ${run.runId} never settled`);
			const mine = approvals.filter((a) => a.runId === run.runId);
			const answers = askerAnswers(this.host.gateDir, taskId);
			this.result.check(mine.length <= 1, `${where}: ${mine.length} requests for one tool call`);
			const a = mine[0];
			const ending = a ? a.status : 'no request (its launch was cut)';
			endings.set(ending, (endings.get(ending) ?? 0) + 1);
			if (!a) {
				this.result.check(answers.length === 0 && run.outcome !== 'success', `${where}: no request, yet the agent received ${answers.length} answers and the Run ended ${run.outcome}`);
				continue;
			}
			const told = answers.map(received).join(', ') || 'nothing';
			if (a.status === 'pending') {
				pendingDead++;
				this.result.fail(`${where}: approval ${a.approvalId} still pending (Run ${run.outcome ?? 'running'})${this.#story(a, taskId)}`);
			} else if (a.status === 'allowed' || a.status === 'denied') {
				const expected = a.status === 'allowed' ? 'allow' : `deny: ${a.message}`;
				if (answers.length !== 1 || received(answers[0]!) !== expected) {
					if (answers.length > 1) { this.#twice++; } else { this.#lost++; }
					this.result.fail(`${where}: approval ${a.approvalId} ${a.status} (${a.message}), but its agent received ${told}${this.#story(a, taskId)}`);
				}
				this.result.check(run.outcome === (a.status === 'allowed' ? 'success' : 'failure'), `${where}: approval ${a.approvalId} ${a.status}, Run ended ${run.outcome}`);
			} else if (!(answers.length === 0 || (answers.length === 1 && answers[0]!.behavior === 'deny'))) {
				this.result.fail(`${where}: approval ${a.approvalId} ${a.status}, yet its agent received ${told}${this.#story(a, taskId)}`);
			}
		}
		this.result.figure('approvals: asker Runs / requests by final status', `${this.#tasks.size} / ${[...endings].map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
		this.result.figure('approvals: answers acknowledged / two answers raced for one request', `${this.#answered.size} / ${this.#races}`);
		this.result.figure('approvals answered twice / acknowledged answers lost / pending for an ended Run', `${this.#twice} / ${this.#lost} / ${pendingDead}`);
	}
}
