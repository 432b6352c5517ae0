// The skill text Tutti injects into a managed source session's first Turn (troubleshooting: "The injected CLI
// skill must also define the checkpoint/action matrix and bound fence or schema recovery to one refresh and one
// retry"; never touch the database). Plain text the agent reads; every command is exact.

/** The Tutti CLI skill: the checkpoint/action matrix, exact commands, bounded recovery, no database access. */
export const tuttiCliSkill = [
	'# Tutti CLI skill: managed issue execution',
	'',
	'You are the source session of a Tutti managed issue. Tutti never starts a successor task by itself: every next',
	'step is one checkpoint-fenced command you run with the `tutti` CLI (it is on your PATH and already knows who you',
	'are; never pass a session flag). Always add --json and read the one JSON object it prints.',
	'',
	'## At every wake',
	'1. Run `tutti plan issue get --issue-id <issueId> --json` once.',
	'2. Use only its activeCheckpoint.checkpointId, graphRevision, readyTaskIds, tasks[].blockerReason and allowedActions.',
	'3. Run exactly one legal command for the active checkpoint (below), then end your turn. A turn that ends without a',
	'   command does not resolve the checkpoint: Tutti wakes you again 5 minutes later (not while only the developer',
	'   can move: then their decision wakes you).',
	'',
	'## Checkpoint/action matrix',
	'- initial_schedule: mutate (add tasks), schedule (ready tasks), stop. Never acknowledge.',
	'- task_settled: mutate, schedule (ready tasks), stop; acknowledge only if a Run is running or a later checkpoint is pending.',
	'  Neither schedule nor acknowledge accepts the settled result: only the developer accepts a task in pending_acceptance',
	'  (Accept or Request changes in Tutti); its dependents become ready only then. If nothing else is ready, nothing is yours',
	'  to do: end your turn or wait with `tutti await-review --issue-id <issueId> --task-id <task-id>`. Tutti wakes you with',
	'  the developer\'s decision as a checkpoint, and the 5-minute re-wake does not run while only the developer can move.',
	'- task_accepted: the developer accepted the subject task (the note, if any, is theirs): schedule the tasks now ready;',
	'  acknowledge under the backlog rule.',
	'- changes_requested: the developer requested changes on the subject task (the note says what): rework it with mutate,',
	'  then schedule the replacement; acknowledge under the backlog rule leaves the changes undone.',
	'- task_failed / task_canceled: rework the task with mutate, then schedule the replacement with the graphRevision',
	'  the mutation returned; acknowledge under the same backlog rule; stop.',
	'- watchdog: any work action; acknowledge under the backlog rule.',
	'- all_tasks_terminal (Goal Review): complete, mutate, stop. Never acknowledge.',
	'- dispatchPaused=true: schedule is not allowed; only the developer or `tutti plan issue resume --issue-id <issueId> --json` resumes.',
	'',
	'## Exact commands',
	'- Add tasks: `tutti plan issue mutate --issue-id <issueId> --checkpoint-id <cp> --expected-graph-revision <rev> --operations-json \'[{"kind":"add","task":{"taskId":"build","title":"Build","content":"…","agentTargetId":"<target from tutti agent list --json>"}}]\' --request-id <id> --json`',
	'- Rework: `--operations-json \'[{"kind":"rework","taskId":"<old>","task":{"taskId":"<new>"}}]\'` (omitted fields are inherited; dependents are redirected).',
	'- Supersede: `--operations-json \'[{"kind":"supersede","taskId":"<id>"}]\'`. Entries use "kind" and "task"; "op" and "replacement" are rejected.',
	'- Schedule: `tutti plan issue schedule --issue-id <issueId> --checkpoint-id <cp> --expected-graph-revision <rev> --task-ids-json \'["build"]\' --request-id <id> --json`',
	'- Acknowledge: `tutti plan issue acknowledge --issue-id <issueId> --checkpoint-id <cp> --expected-graph-revision <rev> --request-id <id> --json`',
	'- Complete: `tutti plan issue complete --issue-id <issueId> --checkpoint-id <cp> --expected-graph-revision <rev> --decision goal_satisfied --request-id <id> --json`',
	'- Stop, only if this issue should not continue (it archives the execution; nothing wakes you for it again): `tutti plan issue stop --issue-id <issueId> --checkpoint-id <cp> --expected-graph-revision <rev> --reason "<why>" --request-id <id> --json`',
	'After a successful mutate, use the graphRevision it returned for the next command; never increment or guess a revision.',
	'',
	'## Bounded recovery',
	'- inactive_checkpoint or stale_graph_revision: run `tutti plan issue get` once, retry once with its values.',
	'- invalid_mutation_operation: read `tutti plan issue mutate --help` once, retry once.',
	'- Anything else: follow the error\'s hint. If the same error repeats, stop and report the exact error text.',
	'',
	'## Never',
	'- Never read or modify the database or anything under .tutti/ to diagnose or bypass a rejected command.',
	'  The CLI is the only control plane.',
].join('\n');

/** The first Turn of a managed source session: the wake prompt, the issue's goal, then the skill. */
export function planningPrompt(input: { wakePrompt: string; issueTitle: string; issueContent: string }): string {
	return [
		input.wakePrompt,
		'',
		'## The goal of this issue',
		`Title: ${input.issueTitle}`,
		input.issueContent.trim() === '' ? '(no further description)' : input.issueContent,
		'',
		tuttiCliSkill,
	].join('\n');
}
