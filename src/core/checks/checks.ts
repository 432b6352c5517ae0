// Checks: fixed commands the developer configures (workspace, agent target, issue, task) that verify a task's result.
// A task runs the union of its layers, one check after another, each bounded by its timeout. What they find is the
// *verified* fact, kept apart from *reported* (how the agent's process ended) and *accepted* (by whom, at which
// commit). Pure: the shapes, the union, and the words every surface shows (the UIs render these, never re-derive).

/** One check as the Host runs it (a name always set; `shell` only with a one-element argv, the command line). */
export interface CheckSpec {
	readonly name: string;
	readonly argv: readonly string[];
	readonly shell: boolean;
	readonly timeoutSeconds: number;
}

/** A check as written in a setting or a `--checks-json` (name, shell and timeout may be left out). */
export interface CheckInput {
	readonly name?: string | undefined;
	readonly argv: readonly string[];
	readonly shell?: boolean | undefined;
	readonly timeoutSeconds?: number | undefined;
}

export const defaultCheckTimeoutSeconds = 600;
/** A check's name when none is given: its command line, at most this long. */
const derivedNameMax = 60;

export function checkName(input: CheckInput): string {
	const given = (input.name ?? '').trim();
	if (given !== '') { return given; }
	const line = input.argv.join(' ').replace(/\s+/g, ' ').trim();
	return line.length > derivedNameMax ? `${line.slice(0, derivedNameMax - 1)}…` : line;
}

export function normalizeCheck(input: CheckInput): CheckSpec {
	return { name: checkName(input), argv: [...input.argv], shell: input.shell === true, timeoutSeconds: input.timeoutSeconds ?? defaultCheckTimeoutSeconds };
}

/** Where a check comes from, in the order a task's union takes them. */
export const checkLayers = ['workspace', 'target', 'issue', 'task'] as const;
export type CheckLayer = (typeof checkLayers)[number];

function commandKey(check: Pick<CheckSpec, 'argv' | 'shell'>): string {
	return JSON.stringify([check.shell, check.argv]);
}

/**
 * The checks a task runs: every layer's, in layer order (workspace, target, issue, task); the same command (argv and
 * shell) named in two layers runs once, at its first place, with the first layer's name and the longest timeout.
 */
export function unionChecks(layers: readonly (readonly CheckSpec[])[]): CheckSpec[] {
	const out: CheckSpec[] = [];
	const at = new Map<string, number>();
	for (const layer of layers) {
		for (const check of layer) {
			const key = commandKey(check);
			const index = at.get(key);
			if (index === undefined) {
				at.set(key, out.length);
				out.push({ ...check, argv: [...check.argv] });
			} else if (check.timeoutSeconds > out[index]!.timeoutSeconds) {
				out[index] = { ...out[index]!, timeoutSeconds: check.timeoutSeconds };
			}
		}
	}
	return out;
}

/** Stored statuses of a verification; `none` (no checks to run) is said, never stored. */
export const verificationStatuses = ['running', 'passed', 'failed'] as const;
export type VerificationStatus = (typeof verificationStatuses)[number];
export type VerifiedState = VerificationStatus | 'none';

/** What the checks looked at: an exact commit (a worktree Run's result), or the shared folder as it was. */
export type VerificationSubject = 'commit' | 'folder';

/** How one check ended. */
export interface CheckResult {
	readonly index: number;
	readonly name: string;
	/** null: no exit code (timed out, killed, or it could not start). */
	readonly exitCode: number | null;
	readonly signal: string;
	readonly timedOut: boolean;
	/** Why it could not start ('' when it did). */
	readonly error: string;
	readonly durationMs: number;
	/** The last lines of its output (bounded). */
	readonly outputTail: string;
	readonly startedAtUnixMs: number;
	readonly endedAtUnixMs: number;
	/** How many earlier starts of this check a Host restart interrupted (each ran again; this result is recorded once). */
	readonly interrupted: number;
}

export function checkPassed(result: Pick<CheckResult, 'exitCode' | 'timedOut' | 'error'>): boolean {
	return result.exitCode === 0 && !result.timedOut && result.error === '';
}

/** "exit 1", "timed out after 600 s", "killed by SIGKILL", "could not start: …" */
export function checkEndText(result: Pick<CheckResult, 'exitCode' | 'signal' | 'timedOut' | 'error' | 'durationMs'>, timeoutSeconds?: number): string {
	if (result.error !== '') { return `could not start: ${result.error}`; }
	if (result.timedOut) { return `timed out after ${timeoutSeconds ?? Math.round(result.durationMs / 1000)} s`; }
	if (result.exitCode !== null) { return `exit ${result.exitCode}`; }
	return `killed by ${result.signal || 'a signal'}`;
}

/** A verification as the labels need it. */
export interface VerificationFacts {
	readonly status: VerificationStatus;
	readonly subject: VerificationSubject;
	readonly commit: string;
	readonly checks: readonly CheckSpec[];
	readonly results: readonly CheckResult[];
	/** The tree moved on from this commit (a rework's result, a commit after acceptance): its answer is old. */
	readonly stale: boolean;
	/** Why the verification failed without a check failing ('' otherwise), e.g. the tree was not at the commit. */
	readonly problem: string;
}

export function shortCommit(commit: string): string {
	return commit.slice(0, 7);
}

/** The first check that did not pass, with its result. */
export function failingCheck(v: Pick<VerificationFacts, 'results'>): CheckResult | undefined {
	return [...v.results].sort((a, b) => a.index - b.index).find((r) => !checkPassed(r));
}

/** "at abc1234", or "on the shared folder as it was (not a commit)". */
function whereSeen(v: Pick<VerificationFacts, 'subject' | 'commit'>): string {
	return v.subject === 'commit' ? `at ${shortCommit(v.commit)}` : 'on the shared folder as it was (not a commit)';
}

/** The one line every surface shows for a verification (null: no checks to run). */
export function verificationLabel(v: VerificationFacts | null): string {
	if (v === null) { return 'No checks: none are configured for this task'; }
	const stale = v.stale ? ` (stale: the tree moved on from ${shortCommit(v.commit)})` : '';
	switch (v.status) {
		case 'passed':
			return `Checks passed ${whereSeen(v)}${stale}`;
		case 'failed': {
			const failing = failingCheck(v);
			if (failing === undefined) { return `Checks failed ${whereSeen(v)}: ${v.problem || 'no check passed'}${stale}`; }
			const spec = v.checks[failing.index];
			return `Checks failed: ${failing.name} (${checkEndText(failing, spec?.timeoutSeconds)})${v.subject === 'folder' ? ` ${whereSeen(v)}` : ''}${stale}`;
		}
		case 'running': {
			const done = v.results.length;
			const current = v.checks[done];
			return `Checks running ${whereSeen(v)}: ${current?.name ?? 'finishing'} (${Math.min(done + 1, v.checks.length)} of ${v.checks.length})`;
		}
	}
}

/** Each check's state in a verification, in order. */
export type CheckState = 'passed' | 'failed' | 'running' | 'pending' | 'not_run';

export function checkStates(v: Pick<VerificationFacts, 'status' | 'checks' | 'results'>): CheckState[] {
	const byIndex = new Map(v.results.map((r) => [r.index, r] as const));
	let failedSeen = false;
	return v.checks.map((_spec, i) => {
		const result = byIndex.get(i);
		if (result !== undefined) {
			const passed = checkPassed(result);
			if (!passed) { failedSeen = true; }
			return passed ? 'passed' : 'failed';
		}
		if (v.status !== 'running' || failedSeen) { return 'not_run'; }
		return i === v.results.length ? 'running' : 'pending';
	});
}

/** One check's line: "test: passed in 2.3 s", "test: exit 1 after 0.8 s", "lint: not run (an earlier check failed)". */
export function checkLine(spec: CheckSpec, state: CheckState, result: CheckResult | undefined): string {
	switch (state) {
		case 'passed': return `${spec.name}: passed in ${seconds(result?.durationMs ?? 0)}`;
		case 'failed': return `${spec.name}: ${result ? checkEndText(result, spec.timeoutSeconds) : 'failed'} after ${seconds(result?.durationMs ?? 0)}`;
		case 'running': return `${spec.name}: running`;
		case 'pending': return `${spec.name}: waiting`;
		case 'not_run': return `${spec.name}: not run (an earlier check failed)`;
	}
}

function seconds(ms: number): string {
	return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** What the checks said when a task was accepted (stored with the acceptance; '' on acceptances older than checks). */
export const acceptanceCheckStates = ['passed', 'failed', 'running', 'none', 'stale'] as const;
export type AcceptanceCheckState = (typeof acceptanceCheckStates)[number];

/** The state an acceptance records from the task's verification at that moment. */
export function acceptanceCheckState(v: Pick<VerificationFacts, 'status' | 'stale'> | null): AcceptanceCheckState {
	if (v === null) { return 'none'; }
	return v.stale ? 'stale' : v.status;
}

/** "Accepted by you at abc1234 — its checks had failed", "Accepted automatically at abc1234 (checks passed)". */
export function acceptanceLabel(by: 'developer' | 'auto', commit: string, checks: AcceptanceCheckState | ''): string {
	const who = by === 'developer' ? 'Accepted by you' : 'Accepted automatically';
	const where = commit !== '' ? ` at ${shortCommit(commit)}` : ' (shared folder: no commit)';
	switch (checks) {
		case 'passed': return `${who}${where} (checks passed)`;
		case 'failed': return `${who}${where} — its checks had failed`;
		case 'running': return `${who}${where} — before its checks finished`;
		case 'stale': return `${who}${where} — its checks were of an older commit`;
		case 'none': return `${who}${where} (no checks configured)`;
		case '': return `${who}${where}`;
	}
}

/** The last `maxLines` lines of `text`, at most `maxChars` characters (from the end). */
export function outputTail(text: string, maxLines = 30, maxChars = 4000): string {
	const lines = text.replace(/\r\n/g, '\n').trimEnd().split('\n');
	const kept = lines.slice(-maxLines).join('\n');
	return kept.length > maxChars ? `…${kept.slice(-(maxChars - 1))}` : kept;
}
