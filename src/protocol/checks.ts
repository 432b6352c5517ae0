// Checks on the wire: how a check is written (settings, `--checks-json`) and what a verification looks like to every
// reader (`run get`, `issue get`, `plan issue get`, the board and the panel). The words come from the Host.
import { z } from 'zod';

/** At most this many checks per layer (workspace, target, issue, task). */
export const maxChecksPerLayer = 50;

/**
 * One check: a fixed argv (no shell unless `shell: true`, then argv is one command line), an optional name (default:
 * the command line) and a timeout (default 600 s).
 */
export const checkInput = z.strictObject({
	name: z.string().trim().min(1).max(100).optional(),
	argv: z.array(z.string().min(1).max(4096)).min(1).max(200),
	shell: z.boolean().optional(),
	timeoutSeconds: z.number().int().min(1).max(86_400).optional(),
}).superRefine((check, ctx) => {
	if (check.shell === true && check.argv.length !== 1) {
		ctx.addIssue({ code: 'custom', path: ['argv'], message: 'with "shell": true, argv is exactly one command line, e.g. ["npm test && npm run lint"]' });
	}
});
export type CheckInputDto = z.infer<typeof checkInput>;

export const checksInput = z.array(checkInput).max(maxChecksPerLayer);

export const verificationStatus = z.enum(['running', 'passed', 'failed', 'none']);
export const checkState = z.enum(['passed', 'failed', 'running', 'pending', 'not_run']);

export const checkResultDto = z.object({
	name: z.string(),
	argv: z.array(z.string()),
	shell: z.boolean(),
	timeoutSeconds: z.number().int(),
	state: checkState,
	/** null until it ended, and when it ended without one (timed out, killed, could not start). */
	exitCode: z.number().int().nullable(),
	timedOut: z.boolean(),
	durationMs: z.number().int(),
	/** The last lines of its output ('' until it ended); the whole output is in the Run's stderr log. */
	outputTail: z.string(),
	/** Earlier starts of this check that a Host restart interrupted (it ran again; recorded once). */
	interrupted: z.number().int(),
	/** "test: exit 1 after 0.8 s". */
	label: z.string(),
});

/**
 * The *verified* fact of a Run: the developer's checks at an exact commit (a worktree Run's result) or on the shared
 * folder as it was. `none`: the task has no checks.
 */
export const verificationDto = z.object({
	status: verificationStatus,
	subject: z.enum(['commit', 'folder', '']),
	/** The commit the checks ran at ('' for the shared folder and for none). */
	commit: z.string(),
	/** "Checks passed at abc1234", "Checks failed: test (exit 1)", "Checks running at abc1234: lint (2 of 2)". */
	label: z.string(),
	/** The tree has moved on from this commit (a rework, a commit after acceptance): this answer is old. */
	stale: z.boolean(),
	/** Host starts that (re)began these checks (2 after a restart interrupted them). */
	attempts: z.number().int(),
	checks: z.array(checkResultDto),
	startedAtUnixMs: z.number().int(),
	completedAtUnixMs: z.number().int(),
});
export type VerificationDto = z.infer<typeof verificationDto>;

/** The *accepted* fact of a task: by whom, at which commit, and what its checks said then. */
export const acceptanceDto = z.object({
	by: z.enum(['developer', 'auto']),
	commit: z.string(),
	checks: z.enum(['passed', 'failed', 'running', 'none', 'stale', '']),
	acceptedAtUnixMs: z.number().int(),
	/** "Accepted by you at abc1234 — its checks had failed". */
	label: z.string(),
});
export type AcceptanceDto = z.infer<typeof acceptanceDto>;

/** How `tutti issue integrate` verified the integrated commit. */
export const integrationChecksDto = z.object({
	/** `skipped`: the developer's `--skip-checks`; `none`: the issue has no checks. */
	status: z.enum(['passed', 'skipped', 'none']),
	/** "Checks passed at abc1234 (2 checks)", "Checks skipped by the developer (--skip-checks)". */
	label: z.string(),
	checks: z.array(checkResultDto),
	/** The branch had commits the tasks' verified work never saw (`from`: the branch as they saw it, `to`: as it was merged into). */
	branchMoved: z.object({ from: z.string(), to: z.string(), label: z.string() }).optional(),
});
