// Every `tutti <noun> <verb>` command: its control-plane method, its flags (and the param each fills) and its
// help examples. Pure data; src/cli/parseCommandLine.ts turns it into a commander program.
import type { Method } from '../protocol/controlPlane.js';

export type FlagKind =
	/** Any string, passed as is (empty allowed; the Host checks lengths). */
	| 'string'
	/** A whole number ≥ 1. */
	| 'positiveInt'
	/** A whole number ≥ 0. */
	| 'nonNegativeInt'
	/** `--flag`, `--flag=true|false` or `--flag true|false`. */
	| 'bool'
	/** Repeatable: every occurrence adds one value. */
	| 'list'
	/** A JSON array of strings, e.g. `--task-ids-json '["a","b"]'`. */
	| 'jsonStringArray'
	/** A JSON object, e.g. `--input-json '{"command":"npm test"}'`. */
	| 'jsonObject'
	/** A JSON array (its items' shape is the Host's to check), e.g. `--checks-json '[{"argv":["npm","test"]}]'`. */
	| 'jsonArray'
	/**
	 * Plan operations as JSON (`--operations-json`): sent as parsed, the Host's method table checks their shape; text
	 * that is not JSON is refused here as a malformed operation, in the words the Host uses for any other.
	 */
	| 'jsonOperations'
	/** One of `choices`. */
	| 'choice'
	/**
	 * `--flag` alone (→ `bare`, or true without one) or `--flag VALUE` (→ the value, one of `choices` when given):
	 * `--push` / `--push origin`, `--squash` / `--squash issue`.
	 */
	| 'optionalValue'
	/** A budget in USD: a decimal number ≥ 0 (`5`, `2.50`), or `none` (→ null: no USD budget). */
	| 'budgetUsd'
	/** A budget in tokens: a whole number ≥ 0, or `none` (→ null: no token budget). */
	| 'budgetTokens';

export interface FlagSpec {
	/** The kebab-case flag without dashes: `issue-id`. */
	name: string;
	/** The params key it fills, or null for a CLI-only flag (read from the invocation's `options`). */
	param: string | null;
	kind: FlagKind;
	description: string;
	/** The placeholder shown in help: `<id>`. */
	valueName?: string;
	required?: boolean;
	choices?: readonly string[];
	/** An optionalValue flag given alone means this value (absent: true). */
	bare?: string;
	/** Only with these methods (a command whose alternative flag calls another method refuses it with that one). */
	methods?: readonly Method[];
	/**
	 * The value may also come from stdin (`--<name> -`) or from a file (`--<file> PATH`): the two flags fill the same
	 * param, exactly one of them is given, and the text gets the same checks and the same request cap.
	 */
	file?: string;
}

/** A flag that makes the command call another method (`plan issue get --full` → plan/get). */
export interface AlternativeMethod {
	flag: string;
	method: Method;
}

/**
 * Reads the developer makes from their own terminal without \`--as-user\`: with no session token in the environment,
 * the CLI sends the user credential for these methods only (a write still needs \`--as-user\` or a session token).
 */
export const developerReadMethods: ReadonlySet<Method> = new Set<Method>(['issue/list', 'issue/get', 'run/get', 'run/log']);

export interface CommandSpec {
	/** Words after `tutti`: ['plan', 'issue', 'get']. */
	path: readonly string[];
	method: Method;
	summary: string;
	flags: readonly FlagSpec[];
	/** Complete example command lines (shown under "Examples:" in --help). */
	examples: readonly string[];
	/** More help text after the examples. */
	details?: string;
	/** Not listed in help (used by Tutti's own processes). */
	hidden?: boolean;
	/** Flags that call another method instead of `method`; at most one of them per call. */
	alternatives?: readonly AlternativeMethod[];
}

const issueId: FlagSpec = { name: 'issue-id', param: 'issueId', kind: 'string', valueName: '<id>', required: true, description: 'the issue' };
const runId: FlagSpec = { name: 'run-id', param: 'runId', kind: 'string', valueName: '<id>', required: true, description: 'the Run' };
const requestId: FlagSpec = {
	name: 'request-id', param: 'requestId', kind: 'string', valueName: '<id>', required: true,
	description: 'your idempotency key: resending the same request with it replays the first result (replayed:true)',
};
const questionAnswerFlag: FlagSpec = {
	name: 'answer', param: 'answers', kind: 'list', valueName: '<text>',
	description: "an agent's question: the answer (several questions: <question id>=<answer>, the flag once per question)",
};
const fenceFlags: readonly FlagSpec[] = [
	issueId,
	{ name: 'checkpoint-id', param: 'checkpointId', kind: 'string', valueName: '<id>', required: true, description: 'activeCheckpoint.checkpointId from `tutti plan issue get`' },
	{ name: 'expected-graph-revision', param: 'expectedGraphRevision', kind: 'positiveInt', valueName: '<n>', required: true, description: 'graphRevision from `tutti plan issue get` (or from your last mutate); never guess it' },
	requestId,
];
const autoAccept: FlagSpec = { name: 'auto-accept', param: 'autoAccept', kind: 'bool', valueName: '[bool]', description: "accept finished tasks without asking the developer (from an agent session only where the developer's default already does)" };
const budgetFlags: readonly FlagSpec[] = [
	{ name: 'budget-usd', param: 'budgetUsd', kind: 'budgetUsd', valueName: '<usd>', description: 'stop starting work once the issue has spent this many US dollars (none: no USD budget)' },
	{ name: 'budget-tokens', param: 'budgetTokens', kind: 'budgetTokens', valueName: '<n>', description: 'stop starting work once its Turns used this many tokens, input + output + cache (none: no token budget)' },
];
const budgetHelp = `Budgets: the issue's agent Turns (worker Runs, source wakes, reviewer Turns) count their usage and cost (the
agent's own figure, else the tutti.modelPrices price of the model). At or over a budget the issue starts nothing more
(a Turn already running finishes) and shows "budget reached: $X of $Y"; the developer raises it with
\`tutti issue update --issue-id ISSUE --budget-usd N --as-user\` and the issue goes on. Without --budget-usd the
tutti.defaultBudgetUsd setting applies (none: no USD budget; from an agent session only the developer may go above it).`;
const autoAcceptHelp = `Auto-accept: a new issue auto-accepts its finished tasks as the autoAcceptDefault setting says (off unless the
developer turned it on); --auto-accept on create may only ask for less from an agent session (false, or true where the setting
is on). Only the developer changes it later: \`tutti issue update --issue-id ISSUE --auto-accept true|false --as-user\`.`;
const permissionHelp = `Permission mode: an agent session may leave it out (the target's default: codex workspace-write, claude default,
or what the target's own args choose) or narrow it (codex read-only; claude plan, dontAsk); a wider one, or --auto-accept on an
issue that asks the developer, is the developer's (run with --as-user), and an agent's request for it is refused (forbidden).`;
const content = (required: boolean): FlagSpec => ({ name: 'content', param: 'content', kind: 'string', valueName: '<text>', required, description: 'the body (Markdown)' });
const title = (required: boolean): FlagSpec => ({ name: 'title', param: 'title', kind: 'string', valueName: '<text>', required, description: 'a short title' });
const launchFlags: readonly FlagSpec[] = [
	{ name: 'agent-target-id', param: 'agentTargetId', kind: 'string', valueName: '<id>', description: 'who runs the task (an id from `tutti agent list --json`)' },
	{ name: 'depends-on', param: 'dependencyTaskIds', kind: 'list', valueName: '<task-id>', description: 'a task that must finish first (repeat the flag for several)' },
	{ name: 'model', param: 'model', kind: 'string', valueName: '<name>', description: 'the model the agent should use' },
	{ name: 'permission-mode-id', param: 'permissionModeId', kind: 'string', valueName: '<id>', description: "the agent's permission mode" },
	{ name: 'reasoning-effort', param: 'reasoningEffort', kind: 'string', valueName: '<level>', description: "the agent's reasoning effort" },
	{ name: 'execution-directory', param: 'executionDirectory', kind: 'string', valueName: '<dir>', description: 'working directory, relative to the workspace' },
	autoAccept,
];

const operationsHelp = `--operations-json is one JSON array (or --operations-json - to read it from stdin, --operations-file PATH from a
file: a plan of thousands of tasks fits, up to the Host's 8 MiB request cap); each entry is {"kind", "taskId"?, "task"?} and nothing else
("op" and "replacement" are not supported):
  add        task.taskId, task.title and task.agentTargetId are required
  update     taskId + task with at least one field; only not_started tasks
  rework     taskId (the old task) + task.taskId (the new one); the replacement inherits every field you omit
             (target, model, permission mode, effort, directory, dependencies) and dependents are redirected to it
  supersede  taskId only; the task stays as history
task fields: taskId, title, content, priority (high|medium|low), dueAtUnixMs, agentTargetId, modelPlanId, model,
permissionModeId, reasoningEffort, executionDirectory, dependencyTaskIds, parallelizable, autoAccept.
All operations apply together or not at all; schedule next with the graphRevision this command returns.
A permissionModeId wider than the target's default (codex workspace-write, claude default, or what the target's own args
choose), or autoAccept true on an issue that asks the developer, is refused (forbidden), also when a rework inherits it:
give a narrower mode (or "") and leave autoAccept out; only the developer widens them.`;

export const commandTable: readonly CommandSpec[] = [
	{
		path: ['session', 'open'], method: 'session/open', summary: 'open an agent session and print its token',
		flags: [
			{ name: 'role', param: 'role', kind: 'choice', choices: ['source', 'worker', 'reviewer'], valueName: '<role>', required: true, description: 'source (plans and orchestrates an issue) or worker' },
			{ name: 'issue-id', param: 'issueId', kind: 'string', valueName: '<id>', description: 'bind the session to an issue' },
			{ name: 'agent-target-id', param: 'agentTargetId', kind: 'string', valueName: '<id>', description: 'the agent target the session belongs to' },
		],
		examples: ['tutti session open --role source --as-user --json', 'export TUTTI_SESSION_TOKEN=$(tutti session open --role source --as-user --json | jq -r .token)'],
	},
	{
		path: ['session', 'stop'], method: 'session/stop', summary: 'stop a source session: archive every nonterminal execution it owns (developer action)',
		flags: [{ name: 'session-id', param: 'sessionId', kind: 'string', valueName: '<id>', required: true, description: 'the source session' }],
		examples: ['tutti session stop --session-id SESSION --as-user --json'],
	},
	{
		path: ['agent', 'list'], method: 'agent/list', summary: 'list the agent targets tasks can run on', flags: [],
		examples: ['tutti agent list --json'],
	},
	{
		path: ['turn', 'list'], method: 'turn/list', summary: 'every agent at work or waiting now, across issues: workers, source agents, reviewers', flags: [],
		details: 'Each with its issue, task, state (working, waiting on you, waiting on approval, waiting on its tasks, setting up, stalled), since when, tokens and cost so far, and its latest transcript line.',
		examples: ['tutti turn list --json'],
	},
	{
		path: ['issue', 'create'], method: 'issue/create', summary: 'create a manual issue (the developer or any agent session)',
		flags: [title(true), content(false), autoAccept, { name: 'dispatch-paused', param: 'dispatchPaused', kind: 'bool', valueName: '[bool]', description: 'start nothing until `tutti issue resume` (add the tasks first)' }, ...budgetFlags],
		examples: [
			'tutti issue create --title "Fix the login flow" --content "Users are logged out after 5 min" --as-user --json',
			'tutti issue create --title "Fix the login flow" --budget-usd 5 --budget-tokens 2000000 --as-user --json',
			'tutti issue create --title "Flaky login test" --content "Seen while working on the session timeout" --json',
		],
		details: `${budgetHelp}\n${autoAcceptHelp}`,
	},
	{
		path: ['issue', 'get'], method: 'issue/get', summary: 'show an issue with its tasks',
		flags: [
			issueId,
			{ name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', description: 'only this task (also a superseded one: its history stays readable, with supersededByTaskId)' },
			{ name: 'status', param: 'status', kind: 'choice', choices: ['not_started', 'running', 'pending_acceptance', 'completed', 'failed', 'canceled'], valueName: '<status>', description: 'only the tasks in this status' },
		],
		details: 'Each task with a Run shows three facts, never one word for another: reported (its latest Run, `tutti run get`: how the agent\'s process ended), '
			+ 'verified (verification: passed, failed, running or none, at which commit, each check\'s exit code, duration and output tail; stale once its tree moved on) '
			+ 'and accepted (acceptance: by whom, at which commit, and what its checks said then, e.g. "Accepted by you at abc1234 — its checks had failed"). '
			+ 'integrationChecks says what the checks said at the last `tutti issue integrate` (what ran at the integrated commit, or that you skipped them).\n'
			+ 'A running task whose Run is marked stalled (no activity for its stallSeconds) shows stalled: {lastActivityAtUnixMs, markedAtUnixMs, label}; stalled is not failed.',
		examples: ['tutti issue get --issue-id ISSUE --json', 'tutti issue get --issue-id ISSUE --status running --json', 'tutti issue get --issue-id ISSUE --task-id build --json'],
	},
	{
		path: ['issue', 'integrate'], method: 'issue/integrate', summary: "merge the issue's accepted task commits into a branch (developer action)",
		flags: [
			issueId,
			{ name: 'into', param: 'into', kind: 'string', valueName: '<branch>', description: "the branch to integrate into (default: the issue's base branch)" },
			{ name: 'accepted-only', param: 'acceptedOnly', kind: 'bool', valueName: '[bool]', description: 'integrate what is accepted and leave the other tasks out (default: refuse while a task is not accepted)' },
			{ name: 'push', param: 'push', kind: 'optionalValue', valueName: '[remote]', description: "then push the branch: to this remote, or alone to the branch's upstream (never forced; a failed push keeps the integration and says what to do)" },
			{ name: 'squash', param: 'squash', kind: 'optionalValue', valueName: '[task|issue]', choices: ['task', 'issue'], bare: 'task', description: "new commits instead of the tasks' history: one per task titled by the task (alone or `task`), or one for the issue (`issue`); default keeps the history" },
			{ name: 'skip-checks', param: 'skipChecks', kind: 'bool', valueName: '[bool]', description: "move the branch without running the issue's checks on the integrated commit (your explicit choice; recorded)" },
		],
		details: 'The merge is computed without touching any working tree: a fast-forward when possible, otherwise one merge commit "Integrate <issue title>". '
			+ 'Where the branch is checked out its tracked files must be clean (dirty_workspace names them) and that tree moves to the new commit; untracked files are never touched. '
			+ 'A conflict (merge_conflict) names every conflicting path, changes nothing, and names two ways forward for the task whose work conflicts: '
			+ '`tutti task update-from-base` (a new Run of it merges the branch into its tree), or a merge by hand in its tree (`git -C <tree> merge <branch>`, fix, commit). '
			+ 'A task whose branch moved after you accepted it (such a commit by hand) is pending acceptance again first ("changed after acceptance"): accept it, then integrate. '
			+ "The repository's git hooks do not run (post-merge, reference-transaction, …) unless the developer's setting integrateRunsHooks is on. "
			+ '--squash makes new commits on the branch (tasks in dependency order) instead of keeping every attempt of the tasks. '
			+ 'Before the branch moves, the issue\'s checks (the workspace\'s, the issue\'s and every merged task\'s) run on the integrated commit in a scratch worktree; '
			+ 'a failing check changes nothing and is named with the last lines of its output (not_integrable). --skip-checks moves the branch without them, and the integration records it. '
			+ 'When the branch moved since the tasks were verified (it has commits their verified work never saw), the answer (checks.branchMoved) or the refusal says so: '
			+ '"main moved since the tasks were verified (abc1234 → def5678); the checks ran on the merge". '
			+ '--push checks the remote before anything moves; a push that fails (push_failed) leaves the integration on the local branch and names what to fix.',
		examples: [
			'tutti issue integrate --issue-id ISSUE --as-user --json',
			'tutti issue integrate --issue-id ISSUE --into release/1.2 --accepted-only --as-user --json',
			'tutti issue integrate --issue-id ISSUE --squash --push --as-user --json',
			'tutti issue integrate --issue-id ISSUE --squash issue --push origin --as-user --json',
		],
	},
	{
		path: ['issue', 'changes'], method: 'issue/changes', summary: "the whole issue as one diff: its base commit against its accepted task commits combined",
		flags: [issueId],
		details: 'The accepted commits are combined as `tutti issue integrate` would combine them, in git\'s object database: no branch, worktree or task changes. '
			+ 'Open `git diff BASE COMBINED` with the baseCommit and combinedCommit it prints; when the tasks\' work conflicts, conflictPaths and note name the paths and the tasks.',
		examples: ['tutti issue changes --issue-id ISSUE --json'],
	},
	{
		path: ['issue', 'list'], method: 'issue/list', summary: 'list issues', flags: [],
		examples: ['tutti issue list --json'],
	},
	{
		path: ['issue', 'update'], method: 'issue/update', summary: 'change an issue (on a managed issue only --dispatch-paused=false)',
		flags: [
			issueId, title(false), content(false), ...budgetFlags,
			{ name: 'dispatch-paused', param: 'dispatchPaused', kind: 'bool', valueName: '[bool]', description: 'false resumes dispatch (the compat form of `tutti plan issue resume`: a source session lifts only its own pause, never the developer\'s)' },
			{
				name: 'auto-accept', param: 'autoAccept', kind: 'bool', valueName: '[bool]',
				description: "developer only (also on a managed issue): accept finished tasks without asking the developer (true) or ask for each (false); applies to tasks added later and to the issue's tasks not completed yet",
			},
		],
		examples: [
			'tutti issue update --issue-id ISSUE --title "New title" --json', 'tutti issue update --issue-id ISSUE --dispatch-paused=false --json',
			'tutti issue update --issue-id ISSUE --budget-usd 20 --as-user --json', 'tutti issue update --issue-id ISSUE --budget-tokens none --as-user --json',
			'tutti issue update --issue-id ISSUE --auto-accept false --as-user --json',
		],
		details: `${budgetHelp}\n${autoAcceptHelp}`,
	},
	{
		path: ['issue', 'checks'], method: 'issue/setChecks', summary: 'set the checks of an issue or of one of its tasks (developer action)',
		flags: [
			issueId,
			{ name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', description: 'set this task\'s own checks (default: the issue\'s)' },
			{
				name: 'checks-json', param: 'checks', kind: 'jsonArray', valueName: '<json>', required: true,
				description: 'a JSON array of checks {"name"?, "argv": [...], "shell"?, "timeoutSeconds"?} replacing the ones set there ([] drops them)',
			},
		],
		details: 'A task\'s reported success is verified by running its checks in its tree at its result commit, one after another, each bounded by its timeout (default 600 s); '
			+ 'only passed checks let it be accepted automatically. A task runs the union of the workspace\'s (setting tutti.checks), its agent target\'s, its issue\'s and its own; '
			+ 'a rework keeps the checks of the task it replaces. Checks are the developer\'s: an agent session cannot set, change or drop them.',
		examples: [
			'tutti issue checks --issue-id ISSUE --checks-json \'[{"name":"test","argv":["npm","test"]}]\' --as-user --json',
			'tutti issue checks --issue-id ISSUE --task-id build --checks-json \'[{"argv":["npm run lint && npm run build"],"shell":true,"timeoutSeconds":900}]\' --as-user --json',
		],
	},
	{
		path: ['issue', 'pause'], method: 'issue/pause', summary: 'pause dispatch of new Runs (developer action; only the developer lifts this pause)', flags: [issueId],
		examples: ['tutti issue pause --issue-id ISSUE --as-user --json'],
	},
	{
		path: ['issue', 'resume'], method: 'issue/resume', summary: "resume dispatch (developer action; lifts anyone's pause or stop)", flags: [issueId],
		examples: ['tutti issue resume --issue-id ISSUE --as-user --json'],
	},
	{
		path: ['issue', 'stop'], method: 'issue/stop', summary: "pause dispatch and stop every running Run (developer action; only the developer lifts this pause; the stopped Runs' tokens stop acting)", flags: [issueId],
		examples: ['tutti issue stop --issue-id ISSUE --as-user --json'],
	},
	{
		path: ['issue', 'task', 'add'], method: 'task/add', summary: 'add a task to a manual issue',
		flags: [issueId, title(true), { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', description: "your id for the task; it names the task's git branch and worktree, so: letters, digits, '.', '_' and '-', starting with a letter or digit, at most 120 characters, no '..', not ending in '.' or '.lock' (default: one made from the title, e.g. write-the-tests)" }, content(false), ...launchFlags],
		examples: [
			'tutti issue task add --issue-id ISSUE --task-id build --title "Build" --agent-target-id sh --json',
			'tutti issue task add --issue-id ISSUE --task-id test --title "Test" --agent-target-id sh --depends-on build --json',
			'tutti issue task add --issue-id ISSUE --task-id review --title "Review" --agent-target-id codex --permission-mode-id read-only --json',
		],
		details: permissionHelp,
	},
	{
		path: ['issue', 'task', 'update'], method: 'task/update', summary: 'change a not-started task of a manual issue',
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the task' }, title(false), content(false), ...launchFlags],
		details: `--depends-on replaces the whole dependency list.\n${permissionHelp}`,
		examples: ['tutti issue task update --issue-id ISSUE --task-id test --depends-on build --depends-on lint --json'],
	},
	{
		path: ['issue', 'task', 'delete'], method: 'task/delete', summary: 'delete a not-started task of a manual issue',
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the task' }],
		examples: ['tutti issue task delete --issue-id ISSUE --task-id test --json'],
	},
	{
		path: ['plan', 'issue', 'create'], method: 'plan/create', summary: 'create a managed issue; the calling session becomes its source session',
		flags: [title(true), content(true), requestId, autoAccept, { name: 'developer-confirmation', param: 'developerConfirmation', kind: 'bool', valueName: '[bool]', description: "Goal Review waits for the developer's confirmation (default: the developerConfirmation setting, on; only the developer switches it off)" },
			{ name: 'source-target', param: 'sourceTargetId', kind: 'string', valueName: '<id>', description: 'with --as-user: Tutti starts the source session itself on this agent target' },
			{ name: 'review-target', param: 'reviewTargetId', kind: 'string', valueName: '<id>', description: 'an independent read-only reviewer on this agent target gives an advisory verdict at Goal Review' },
			...budgetFlags],
		examples: [
			'tutti plan issue create --title "Add dark mode" --content "…" --request-id create-1 --json',
			'tutti plan issue create --title "Add dark mode" --content "…" --request-id create-1 --source-target claude --as-user --json',
			'tutti plan issue create --title "Add dark mode" --content "…" --request-id create-1 --source-target claude --budget-usd 10 --as-user --json',
		],
		details: budgetHelp,
	},
	{
		path: ['plan', 'issue', 'get'], method: 'plan/getCompact',
		summary: 'the managed snapshot, compact: checkpoint, graphRevision, readyTaskIds, allowedActions and the tasks you act on now',
		flags: [
			issueId,
			{ name: 'since-revision', param: 'sinceRevision', kind: 'nonNegativeInt', valueName: '<n>', methods: ['plan/getCompact'], description: 'list the tasks changed after this taskRevision (default: the one your last get returned)' },
			{ name: 'full', param: null, kind: 'bool', description: 'the complete snapshot: every task in full, history included (large on big plans)' },
			{ name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', methods: ['plan/getTask'], description: 'that one task in full, with its latest outcomeLabel and resultCommit' },
		],
		alternatives: [{ flag: 'full', method: 'plan/get' }, { flag: 'task-id', method: 'plan/getTask' }],
		details: 'Run this once at every wake and use its activeCheckpoint, graphRevision, readyTaskIds and allowedActions.\n'
			+ 'The default answer stays small at any plan size: tasks holds the checkpoint\'s subject task, the running tasks, the tasks\n'
			+ 'changed since you last read (taskRevision; --since-revision N to choose) and the ready tasks listed, at most 50\n'
			+ '(omittedTaskCount counts the rest); readyTaskIds lists the first 50 ready tasks (readyCount counts them all).\n'
			+ 'Use --task-id T for one task in full and --full only when you need every task.',
		examples: [
			'tutti plan issue get --issue-id ISSUE --json',
			'tutti plan issue get --issue-id ISSUE --task-id build --json',
			'tutti plan issue get --issue-id ISSUE --since-revision 0 --json',
			'tutti plan issue get --issue-id ISSUE --full --json',
		],
	},
	{
		path: ['plan', 'issue', 'schedule'], method: 'plan/schedule', summary: 'start Runs for ready tasks at the active checkpoint',
		flags: [...fenceFlags, { name: 'task-ids-json', param: 'taskIds', kind: 'jsonStringArray', valueName: '<json>', required: true, file: 'task-ids-file', description: 'a non-empty JSON array of task ids from readyTaskIds, at most 10,000 (- reads it from stdin)' }],
		examples: [
			"tutti plan issue schedule --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 3 --task-ids-json '[\"build\",\"lint\"]' --request-id sched-1 --json",
			'tutti plan issue schedule --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 3 --task-ids-file ready.json --request-id sched-2 --json',
		],
	},
	{
		path: ['plan', 'issue', 'mutate'], method: 'plan/mutate', summary: 'add, update, rework or supersede tasks at the active checkpoint',
		flags: [...fenceFlags, { name: 'operations-json', param: 'operations', kind: 'jsonOperations', valueName: '<json>', required: true, file: 'operations-file', description: 'a JSON array of operations (see below); - reads it from stdin' }],
		details: operationsHelp,
		examples: [
			`tutti plan issue mutate --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 3 --request-id mut-1 --json --operations-json '[{"kind":"add","task":{"taskId":"docs","title":"Write docs","agentTargetId":"sh","dependencyTaskIds":["build"]}}]'`,
			`tutti plan issue mutate --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 4 --request-id mut-2 --json --operations-json '[{"kind":"rework","taskId":"test","task":{"taskId":"test-2","title":"Test again"}}]'`,
			`tutti plan issue mutate --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 5 --request-id mut-3 --json --operations-json '[{"kind":"supersede","taskId":"docs"}]'`,
			'tutti plan issue mutate --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 1 --request-id mut-4 --json --operations-file plan.json',
			'tutti plan issue mutate --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 1 --request-id mut-5 --json --operations-json - < plan.json',
		],
	},
	{
		path: ['plan', 'issue', 'acknowledge'], method: 'plan/acknowledge', summary: 'resolve the active checkpoint and move to the next one',
		flags: fenceFlags,
		details: 'Never acknowledge initial_schedule or all_tasks_terminal checkpoints; check allowedActions first.',
		examples: ['tutti plan issue acknowledge --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 3 --request-id ack-1 --json'],
	},
	{
		path: ['plan', 'issue', 'complete'], method: 'plan/complete', summary: 'declare the goal satisfied at the all_tasks_terminal checkpoint',
		flags: [
			...fenceFlags,
			{ name: 'decision', param: 'decision', kind: 'choice', choices: ['goal_satisfied'], valueName: '<decision>', required: true, description: 'goal_satisfied (the only value)' },
			{ name: 'disagreement-reason', param: 'disagreementReason', kind: 'string', valueName: '<text>', description: 'why you complete despite a reviewer verdict other than goal_satisfied' },
		],
		examples: ['tutti plan issue complete --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 7 --decision goal_satisfied --request-id done-1 --json'],
	},
	{
		path: ['plan', 'issue', 'stop'], method: 'plan/stop', summary: 'stop the managed execution and archive it',
		flags: [...fenceFlags, { name: 'reason', param: 'reason', kind: 'string', valueName: '<text>', required: true, description: 'why you stop' }],
		examples: ['tutti plan issue stop --issue-id ISSUE --checkpoint-id CP --expected-graph-revision 3 --request-id stop-1 --reason "goal abandoned by the developer" --json'],
	},
	{
		path: ['plan', 'issue', 'resume'], method: 'plan/resume',
		summary: "resume dispatch of a managed issue the source session paused, then print the compact snapshot (as plan issue get); a pause or stop by the developer stays until the developer resumes it",
		flags: [issueId],
		examples: ['tutti plan issue resume --issue-id ISSUE --json'],
	},
	{
		path: ['plan', 'issue', 'pause'], method: 'plan/pause',
		summary: 'pause dispatch of your managed issue (nothing new starts; running Runs go on), then print the compact snapshot; `tutti plan issue resume` lifts it',
		flags: [issueId],
		examples: ['tutti plan issue pause --issue-id ISSUE --json'],
	},
	{
		path: ['run', 'get'], method: 'run/get', summary: 'show a Run: status, outcome, outcomeLabel, verification, stopNotes, timestamps', flags: [runId],
		details: 'Reported is not verified: outcome and outcomeLabel say how the agent\'s process ended; verification says whether the developer\'s checks passed on its result '
			+ '(status passed, failed, running or none; the commit; each check\'s exit code, duration and output tail; attempts, 2 after a Host restart interrupted them; '
			+ 'stale once its tree moved on). Whether the task was accepted is `tutti issue get --task-id` (acceptance).\n'
			+ 'A worktree Run also shows its commits and outsideChanges: what changed outside its tree and branch while it ran '
			+ "(HEAD and tracked files of the developer's checkout, its .git/config and hooks, other local branches); such a Run is never accepted automatically.\n"
			+ 'A running Run whose agent showed no activity (no output, no tool call, no usage) for stallSeconds (the agent target\'s, else the '
			+ "workspace's stallSeconds in .tutti/config.json or the tutti.stallSeconds setting, default 600; 0: never) shows stalled: "
			+ '{lastActivityAtUnixMs, markedAtUnixMs, label}. Stalled is not failed: the Run goes on, and its next output lifts the mark.',
		examples: ['tutti run get --run-id RUN --json'],
	},
	{
		path: ['run', 'list'], method: 'run/list', summary: "list an issue's Runs", flags: [issueId],
		examples: ['tutti run list --issue-id ISSUE --json'],
	},
	{
		path: ['run', 'stop'], method: 'run/stop', summary: "stop a Run and report whether the stop took (developer action; the Run's worker token stops acting at once)", flags: [runId],
		examples: ['tutti run stop --run-id RUN --as-user --json'],
	},
	{
		path: ['run', 'log'], method: 'run/log', summary: "print a Run's captured output",
		flags: [
			runId,
			{ name: 'stream', param: 'stream', kind: 'choice', choices: ['stdout', 'stderr'], valueName: '<stream>', description: 'stdout (default) or stderr' },
			{ name: 'offset', param: 'offset', kind: 'nonNegativeInt', valueName: '<bytes>', description: 'start at this byte' },
			{ name: 'max-bytes', param: 'maxBytes', kind: 'positiveInt', valueName: '<bytes>', description: 'read at most this many bytes per request' },
			{ name: 'follow', param: null, kind: 'bool', description: 'keep printing new output until the Run ends' },
		],
		details: 'Without --json the raw text is printed; with --follow the raw text is printed as it arrives.',
		examples: ['tutti run log --run-id RUN', 'tutti run log --run-id RUN --stream stderr --follow', 'tutti run log --run-id RUN --offset 0 --max-bytes 65536 --json'],
	},
	{
		path: ['run', 'transcript'], method: 'run/transcript', summary: "print a Run's readable transcript: what the agent said, ran and edited",
		flags: [
			runId,
			{ name: 'offset', param: 'offset', kind: 'nonNegativeInt', valueName: '<bytes>', description: 'start at this byte of the Run\'s stdout' },
			{ name: 'stderr-offset', param: 'stderrOffset', kind: 'nonNegativeInt', valueName: '<bytes>', description: 'start at this byte of the Run\'s stderr' },
			{ name: 'max-bytes', param: 'maxBytes', kind: 'positiveInt', valueName: '<bytes>', description: 'read at most this many bytes of each stream per request' },
		],
		details: 'One line per entry: assistant text, `$ command` for commands, the file for edits, errors, the final result, and what the agent wrote to stderr (marked `stderr:`, in the order it was written). `--json` gives the entries and where to continue (`nextOffset` for stdout, `stderrNextOffset` for stderr); `done` is true once the Run has ended and everything was read. The raw output is `tutti run log`.',
		examples: ['tutti run transcript --run-id RUN', 'tutti run transcript --run-id RUN --offset 0 --stderr-offset 0 --json'],
	},
	{
		path: ['run', 'report'], method: 'run/report', summary: "a Run supervisor's report that its process started or exited", hidden: true,
		flags: [runId, { name: 'event', param: 'event', kind: 'choice', choices: ['started', 'exited'], valueName: '<event>', required: true, description: 'started or exited' }],
		examples: ['tutti run report --run-id RUN --event exited --json'],
	},
	// Bounded waits and lifecycle queries for agents: always one JSON document on stdout, exit 0 while waiting.
	{
		path: ['await-review'], method: 'await/review', summary: "wait (at most 45 s per call) for the developer's review of finished tasks",
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', description: 'wait for this task only' }],
		details: 'Prints one JSON document. state "waiting" with advance_allowed:false means run the command in "next" again now;\n'
			+ 'advance_allowed:true means a decision is there: follow "next". A response without advance_allowed is followed by ok/next.',
		examples: ['tutti await-review --issue-id ISSUE', 'tutti await-review --issue-id ISSUE --task-id build'],
	},
	{
		path: ['plan', 'issue', 'await'], method: 'await/checkpoint', summary: 'wait (at most 45 s per call) for your next checkpoint or the Goal Review',
		flags: [issueId],
		details: 'Prints one JSON document; while state is "waiting", run the command in "next" again.',
		examples: ['tutti plan issue await --issue-id ISSUE'],
	},
	{
		path: ['next-action'], method: 'await/next-action', summary: "after completion: wait (at most 45 s per call) for the developer's follow-up or Finish",
		flags: [issueId],
		details: 'Prints one JSON document; state "finished" means nothing more to run.',
		examples: ['tutti next-action --issue-id ISSUE'],
	},
	{
		path: ['agent', 'resume'], method: 'agent/resume', summary: 'read-only: the exact command this session owes now (no "next" = nothing)',
		flags: [{ name: 'session-id', param: 'sessionId', kind: 'string', valueName: '<id>', description: 'the session (default: the one of TUTTI_SESSION_TOKEN)' }],
		examples: ['tutti agent resume --json', 'tutti agent resume --session-id SESSION --as-user'],
	},
	{
		path: ['session', 'state'], method: 'session/state', summary: 'whether an agent session is waiting, working or idle, and its hand-back command',
		flags: [{ name: 'session-id', param: 'sessionId', kind: 'string', valueName: '<id>', required: true, description: 'the session' }],
		examples: ['tutti session state --session-id SESSION --as-user --json'],
	},
	{
		path: ['finish'], method: 'issue/finish', summary: 'record Finish on an issue whose work is over: nothing more is offered to its agent (developer action)',
		flags: [
			issueId,
			{ name: 'remove-worktrees', param: 'removeWorktrees', kind: 'bool', valueName: '[bool]', description: "also remove the issue's worktrees and merged tutti/<issue>/<task> branches (a tree with uncommitted changes or an unmerged branch is kept, named)" },
			{ name: 'without-integrating', param: 'withoutIntegrating', kind: 'bool', valueName: '[bool]', description: 'finish although accepted work is not integrated (recorded; the issue then reads "not integrated")' },
		],
		details: 'Refused with not_integrated while accepted work is not integrated, unless --without-integrating. '
			+ 'Without --remove-worktrees the answer offers the removal: cleanup.summary says what would go and how much disk it frees.',
		examples: ['tutti finish --issue-id ISSUE --as-user --json', 'tutti finish --issue-id ISSUE --remove-worktrees --as-user --json', 'tutti finish --issue-id ISSUE --without-integrating --as-user --json'],
	},
	{
		path: ['follow-up'], method: 'issue/followUp', summary: "pick a follow-up on a completed issue: the agent's next-action starts it (developer action)",
		flags: [issueId, { name: 'text', param: 'text', kind: 'string', valueName: '<text>', required: true, description: 'what the agent should do next' }],
		details: 'Offered once, by the next `tutti next-action` call; Finish recorded first wins.',
		examples: ['tutti follow-up --issue-id ISSUE --text "Add a dark-mode toggle to the settings page" --as-user --json'],
	},
	{
		path: ['hook', 'stop'], method: 'hook/stop', summary: "the Stop hook of agents Tutti launches (reads the hook's JSON on stdin)", hidden: true,
		flags: [],
		examples: ['tutti hook stop < event.json'],
	},
	{
		path: ['review', 'accept'], method: 'review/accept', summary: "accept a task's result awaiting your review (developer action)",
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the task whose result you decide on (status pending_acceptance)' }, { name: 'note', param: 'note', kind: 'string', valueName: '<text>', description: 'an optional remark kept with the decision' }],
		details: 'Only the developer accepts (an agent token is refused). The task becomes completed / user_accepted and its dependents can run. Accepting the same result again replays the decision (replayed:true).',
		examples: ['tutti review accept --issue-id ISSUE --task-id build --as-user --json'],
	},
	{
		path: ['review', 'request-changes'], method: 'review/requestChanges', summary: "send a task's result back with a note (developer action)",
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the task whose result you decide on (status pending_acceptance)' }, { name: 'note', param: 'note', kind: 'string', valueName: '<text>', required: true, description: 'what should change (sent to the agent that reworks it); must not be empty' }],
		details: 'On a manual issue the task runs again as a new attempt in its own tree: its Run\'s prompt carries your note, the task reads "changes requested" until that Run starts '
			+ '(it is never failed for it), the earlier attempt stays in its history, and integrate takes the attempt you accept. '
			+ 'On a managed issue the task fails and the source agent gets a changes_requested checkpoint carrying the note, and reworks it.',
		examples: ['tutti review request-changes --issue-id ISSUE --task-id build --note "The build must also produce source maps" --as-user --json'],
	},
	{
		path: ['goal', 'confirm'], method: 'goal/confirm', summary: "confirm a managed issue's goal at Goal Review (developer action)", flags: [issueId],
		details: 'Completes the execution and the issue once the source agent declared the goal satisfied (execution.status pending_goal_review).',
		examples: ['tutti goal confirm --issue-id ISSUE --as-user --json'],
	},
	{
		path: ['goal', 'request-changes'], method: 'goal/requestChanges', summary: 'send the goal back to the source agent with a note (developer action)',
		flags: [issueId, { name: 'note', param: 'note', kind: 'string', valueName: '<text>', required: true, description: 'what should change before the goal is met; must not be empty' }],
		details: 'The source agent gets a goal_changes_requested checkpoint carrying the note.',
		examples: ['tutti goal request-changes --issue-id ISSUE --note "Also cover the logout flow" --as-user --json'],
	},
	{
		path: ['goal-review', 'verdict'], method: 'goalReview/verdict', summary: "the independent reviewer's one advisory verdict at Goal Review (reviewer session only)",
		flags: [
			...fenceFlags,
			{ name: 'review-id', param: 'reviewId', kind: 'string', valueName: '<id>', required: true, description: 'the review named in the reviewer prompt' },
			{ name: 'verdict', param: 'verdict', kind: 'choice', choices: ['goal_satisfied', 'more_work_required', 'inconclusive'], valueName: '<verdict>', required: true, description: 'goal_satisfied, more_work_required or inconclusive' },
			{ name: 'summary', param: 'summary', kind: 'string', valueName: '<text>', required: true, description: 'why; shown to the source session' },
		],
		details: 'Exactly one verdict per review; the same request replays. The source session decides whether to complete.',
		examples: ['tutti goal-review verdict --issue-id ISSUE --review-id CP:goal-review:1 --checkpoint-id CP --expected-graph-revision 7 --verdict goal_satisfied --summary "All tasks meet the goal" --request-id CP:goal-review:1:verdict --json'],
	},
	{
		path: ['goal-review', 'switch-to-self'], method: 'goalReview/switchToSelf', summary: 'turn an independent review back to self review (developer action, audited)',
		flags: [issueId, { name: 'reason', param: 'reason', kind: 'string', valueName: '<text>', required: true, description: 'why; recorded for audit' }],
		details: 'Cancels the open reviewer review; the source session then completes on its own judgement.',
		examples: ['tutti goal-review switch-to-self --issue-id ISSUE --reason "The reviewer agent is unavailable today" --as-user --json'],
	},
	// Run messages and worktrees.
	{
		path: ['run', 'send'], method: 'run/send', summary: "queue a message for a running claude/codex Run's agent (developer action)",
		flags: [runId, { name: 'text', param: 'text', kind: 'string', valueName: '<text>', required: true, description: 'the message' }],
		details: 'Messages are kept in order in .tutti/runs/<runId>/queue.jsonl. A person\'s Stop of the Run pauses the queue until `tutti run resume-queue`. Command targets take no input after start and are refused.',
		examples: ['tutti run send --run-id RUN --text "also update the changelog" --as-user --json'],
	},
	{
		path: ['run', 'queue'], method: 'run/queue', summary: "show a Run's queued messages and whether the queue is paused", flags: [runId],
		examples: ['tutti run queue --run-id RUN --json'],
	},
	{
		path: ['run', 'resume-queue'], method: 'run/resume-queue', summary: 'resume a Run\'s message queue paused by a Stop (developer action)', flags: [runId],
		examples: ['tutti run resume-queue --run-id RUN --as-user --json'],
	},
	// Approvals: a tool call an agent may not make without asking waits for the developer's answer.
	{
		path: ['approval', 'list'], method: 'approval/list', summary: "list tool calls and questions waiting for your answer (or an issue's approvals, with their answers)",
		flags: [
			{ name: 'issue-id', param: 'issueId', kind: 'string', valueName: '<id>', description: "every approval of this issue, answered ones included (default: every pending one)" },
			{ name: 'status', param: 'status', kind: 'choice', choices: ['pending', 'allowed', 'denied', 'expired', 'canceled'], valueName: '<status>', description: 'only approvals in this status' },
		],
		details: 'A claude agent whose tool call is outside its allowedTools asks through `tutti mcp`; the call waits until you answer. A codex agent asks the same way, and its questions are listed too (kind "question", with each question and its options).\n'
			+ 'A request whose Run ended shows as expired; one whose Run was stopped as canceled.',
		examples: ['tutti approval list --json', 'tutti approval list --issue-id ISSUE --json', 'tutti approval list --issue-id ISSUE --status denied'],
	},
	{
		path: ['approval', 'answer'], method: 'approval/answer', summary: "answer an agent's tool call: allow it (once or for the rest of the task) or deny it (developer action)",
		flags: [
			{ name: 'approval-id', param: 'approvalId', kind: 'string', valueName: '<id>', required: true, description: 'the request (an approvalId from `tutti approval list`)' },
			{ name: 'allow', param: 'allow', kind: 'bool', valueName: '[bool]', description: 'let the tool call run' },
			{ name: 'deny', param: 'deny', kind: 'bool', valueName: '[bool]', description: 'refuse it; the agent receives --message' },
			{ name: 'for-task', param: 'forTask', kind: 'bool', valueName: '[bool]', description: 'with --allow: also allow later calls of this tool in the same task without asking (recorded on each)' },
			{ name: 'message', param: 'message', kind: 'string', valueName: '<text>', description: 'with --deny: what the agent is told (e.g. what to do instead)' },
			{
				name: 'input-json', param: 'updatedInput', kind: 'jsonObject', valueName: '<json>', file: 'input-file',
				description: "with --allow: the tool runs with this input instead of the agent's (a JSON object shaped like the request's input; - reads it from stdin)",
			},
			questionAnswerFlag,
		],
		details: 'Give exactly one of --allow and --deny (an agent\'s question: --answer, or --deny to decline it). A request is answered once: a second answer is refused (approval_answered) and reports the first.\n'
			+ 'To allow an edited call, give the whole input with --input-json (see `tutti approval list --json` for the agent\'s); the agent sees the tool run with it.\n'
			+ 'A question (kind "question" in `tutti approval list --json`) is answered with --answer; --allow alone picks each question\'s first (recommended) option.\n'
			+ 'Only the developer answers (an agent token is refused).',
		examples: [
			'tutti approval answer --approval-id APPROVAL --allow --as-user --json',
			'tutti approval answer --approval-id APPROVAL --allow --for-task --as-user',
			'tutti approval answer --approval-id APPROVAL --deny --message "Do not push; open a pull request instead" --as-user --json',
			`tutti approval answer --approval-id APPROVAL --allow --input-json '{"command":"npm test -- --grep login"}' --as-user --json`,
			'tutti approval answer --approval-id APPROVAL --answer "Blue" --as-user --json',
		],
	},
	{
		path: ['question', 'answer'], method: 'question/answer', summary: "answer an agent's question (developer action; the same as `tutti approval answer --answer`)",
		flags: [
			{ name: 'approval-id', param: 'approvalId', kind: 'string', valueName: '<id>', required: true, description: 'the question (an approvalId of kind "question" from `tutti approval list`)' },
			{ ...questionAnswerFlag, required: true },
		],
		details: 'The agent receives the answers as the result of its question and goes on. A question is answered once; to decline it, run `tutti approval answer --approval-id APPROVAL --deny --message "…"`.\n'
			+ 'Only the developer answers (an agent token is refused).',
		examples: [
			'tutti question answer --approval-id APPROVAL --answer "Blue" --as-user --json',
			'tutti question answer --approval-id APPROVAL --answer color=Blue --answer size=Large --as-user',
		],
	},
	{
		path: ['approval', 'request'], method: 'approval/request', summary: "ask the developer about one tool call of a Run (what `tutti mcp` sends)", hidden: true,
		flags: [
			runId,
			{ name: 'tool', param: 'tool', kind: 'string', valueName: '<name>', required: true, description: 'the tool' },
			{ name: 'input', param: 'input', kind: 'string', valueName: '<text>', description: 'its input' },
			{ name: 'tool-use-id', param: 'toolUseId', kind: 'string', valueName: '<id>', description: "the agent's id of the call" },
		],
		examples: ['tutti approval request --run-id RUN --tool Bash --input "git push" --json'],
	},
	{
		path: ['approval', 'wait'], method: 'approval/wait', summary: 'wait (at most 45 s per call) for the answer to a request (what `tutti mcp` sends)', hidden: true,
		flags: [{ name: 'approval-id', param: 'approvalId', kind: 'string', valueName: '<id>', required: true, description: 'the request' }],
		examples: ['tutti approval wait --approval-id APPROVAL --json'],
	},
	{
		path: ['task', 'retry'], method: 'task/retry', summary: 'run a failed or canceled task of a manual issue again, as a new attempt in its own tree (developer action)',
		flags: [
			issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the failed or canceled task' },
			{ name: 'note', param: 'note', kind: 'string', valueName: '<text>', description: "what to do differently (goes into the new attempt's prompt)" },
			title(false), content(false), ...launchFlags,
		],
		details: 'Edit and retry: the other flags change the task first, as `tutti issue task update` does for a not-started task (--depends-on replaces '
			+ "the whole list). The task is not_started until its new Run starts (the dispatcher starts it as capacity allows); its earlier Runs stay its history. "
			+ "On a managed issue a failed task is its source agent's to rework (it got that as a checkpoint), so retry is refused there (tutti_issue_managed).",
		examples: [
			'tutti task retry --issue-id ISSUE --task-id build --as-user --json',
			'tutti task retry --issue-id ISSUE --task-id build --note "The network was down; try again" --as-user --json',
			'tutti task retry --issue-id ISSUE --task-id build --agent-target-id claude --content "Build with the new toolchain" --as-user --json',
		],
	},
	{
		path: ['task', 'update-from-base'], method: 'task/updateFromBase', summary: "merge its base branch into an accepted task's work, in a new Run in its own tree (developer action)",
		flags: [
			issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the accepted task to update' },
			{ name: 'into', param: 'into', kind: 'string', valueName: '<branch>', description: "the branch it is integrated into (default: the issue's base branch)" },
		],
		details: 'What integrate refuses with merge_conflict is brought up to date here: the branch and the accepted work integrated before the task are merged '
			+ 'into its tree. The answer says what happens before anything runs: merged cleanly (no agent; the merge is the new result), conflicts its agent '
			+ 'resolves (onMergeConflict "agent": its prompt names the paths), or conflicts left in progress in the tree for you (onMergeConflict "fail": '
			+ 'resolve, `git add`, `git commit`; the task stays accepted until then and integrate shows your commit for review). '
			+ 'A new result is reviewed and accepted again like any change (`tutti review accept`), then `tutti issue integrate` again. '
			+ 'A managed issue\'s task is updated only after its Goal Review (before, it is the source agent\'s).',
		examples: [
			'tutti task update-from-base --issue-id ISSUE --task-id build --as-user --json',
			'tutti task update-from-base --issue-id ISSUE --task-id build --into release/1.2 --as-user --json',
		],
	},
	{
		path: ['worktree', 'remove'], method: 'worktree/remove', summary: "remove a task's git worktree (refused with uncommitted changes; the branch stays)",
		flags: [issueId, { name: 'task-id', param: 'taskId', kind: 'string', valueName: '<id>', required: true, description: 'the task whose worktree to remove' }],
		examples: ['tutti worktree remove --issue-id ISSUE --task-id TASK --as-user --json'],
	},
	{
		path: ['worktree', 'prune'], method: 'worktree/prune', summary: 'remove the worktrees and merged tutti/* branches of finished issues (developer action)',
		flags: [{ name: 'issue-id', param: 'issueId', kind: 'string', valueName: '<id>', description: "only this issue's (refused while it is not finished)" }],
		details: 'A finished issue: Finish recorded, stopped, or closed with nothing waiting to be integrated. '
			+ 'Never removes a tree with uncommitted changes or a Run running in it, nor a branch whose work is not merged: each one kept is named with its reason.',
		examples: ['tutti worktree prune --as-user --json', 'tutti worktree prune --issue-id ISSUE --as-user --json'],
	},
];


/** Descriptions of the command groups (`tutti plan`, `tutti plan issue`, …). */
export const groupSummaries: Readonly<Record<string, string>> = {
	'session': 'agent sessions',
	'agent': 'agent targets',
	'issue': 'manual issues and developer actions',
	'issue task': 'tasks of manual issues',
	'plan': 'managed (tutti) issues',
	'plan issue': 'the source session\'s commands for a managed issue',
	'run': 'Runs (one agent process per scheduled task)',
	'review': "the developer's decisions on task results",
	'task': "the developer's actions on one task: a new attempt (retry) or an update from its base",
	'goal': "the developer's decision at Goal Review",
	'goal-review': "the independent reviewer's verdict at Goal Review",
	'worktree': 'git worktrees of isolated tasks',
	'approval': "agents' tool calls and questions that wait for your answer",
	'question': "agents' questions that wait for your answer",
	'hook': "hooks of the agents Tutti launches (run by the agent CLI, not by hand)",
};

/** The flags every method command also takes. */
export const commonFlagHelp = {
	json: 'print the result as one JSON document on stdout (errors as {"error":{…}} on stdout)',
	asUser: 'act as the developer, with the user credential the Host wrote next to its socket',
} as const;

/** `tutti plan issue get` for a spec. */
export function commandName(path: readonly string[]): string {
	return ['tutti', ...path].join(' ');
}
