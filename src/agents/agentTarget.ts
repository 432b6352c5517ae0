// The one check of an agent target's own fields. Config loading runs it on every target when the Host reads its
// settings (src/host/config.ts), and every adapter runs it before it builds a process, so a target is held to the
// same rules whether it came from `.tutti/config.json`, the VS Code setting, or anywhere else.
import { DomainError } from '../core/errors.js';
import type { AgentTargetConfig } from '../core/runs/runProcessPort.js';

export type AgentAdapterName = AgentTargetConfig['adapter'];

/** One thing wrong with a target: where (a path inside the target) and what, in words that name the field. */
export interface TargetProblem {
	path: (string | number)[];
	problem: string;
}

/** Environment variable names the agent process can receive: letters, digits and _, not starting with a digit. */
const envName = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A target written the right way, per adapter: the example every target error shows. */
const examples: Record<AgentAdapterName, string> = {
	command: '{"id":"sh","adapter":"command","argv":["sh","./agent.sh"]}',
	claude: '{"id":"claude","adapter":"claude","allowedTools":["Bash(tutti:*)","Bash(npm test:*)"]}',
	codex: '{"id":"codex","adapter":"codex","model":"gpt-5.5","env":{"OPENAI_BASE_URL":"http://127.0.0.1:8080/v1"}}',
};

/** Every problem of `target` (empty: it may be started). Values are checked as they are, whatever their declared type. */
export function agentTargetProblems(target: AgentTargetConfig): TargetProblem[] {
	const problems: TargetProblem[] = [];
	const add = (path: (string | number)[], problem: string): void => { problems.push({ path, problem }); };
	const fields = target as unknown as Record<string, unknown>;
	if (target.adapter === 'command') {
		const argv = fields['argv'];
		if (!Array.isArray(argv) || argv.length === 0) {
			add(['argv'], 'a "command" target needs "argv": a non-empty array, the exact argument vector (no shell unless "shell": true)');
		} else {
			stringList(argv, ['argv'], add, { nonEmpty: true });
			if (typeof argv[0] === 'string' && argv[0].trim() === '') { add(['argv', 0], 'the executable (argv[0]) is empty'); }
		}
	} else {
		if (fields['argv'] !== undefined || fields['shell'] !== undefined) {
			add(['argv'], '"argv" and "shell" are for "command" targets; a claude or codex target takes "path" (the executable) and "args" (extra arguments)');
		}
		const file = fields['path'];
		if (file !== undefined) {
			if (typeof file !== 'string' || file.trim() === '') { add(['path'], '"path" is empty'); } else { noNul(file, ['path'], '"path"', add); }
		}
	}
	const protocol = fields['protocol'];
	if (protocol !== undefined && target.adapter !== 'codex') {
		add(['protocol'], '"protocol" is for codex targets ("app-server" or "exec")');
	} else if (protocol !== undefined && protocol !== 'app-server' && protocol !== 'exec') {
		add(['protocol'], '"protocol" must be "app-server" or "exec"');
	}
	const asked = target.adapter === 'claude' || (target.adapter === 'codex' && protocol !== 'exec');
	if (!asked && fields['approvals'] !== undefined) {
		add(['approvals'], '"approvals" is for claude and codex app-server targets (codex exec runs under its sandbox setting and is not asked per call)');
	}
	if (fields['args'] !== undefined) { stringList(fields['args'], ['args'], add, { nonEmpty: false }); }
	if (fields['allowedTools'] !== undefined) { stringList(fields['allowedTools'], ['allowedTools'], add, { nonEmpty: true }); }
	for (const key of ['model', 'cwd'] as const) {
		const value = fields[key];
		if (value === undefined) { continue; }
		if (typeof value !== 'string' || value === '') { add([key], `"${key}" must be a non-empty string`); } else { noNul(value, [key], `"${key}"`, add); }
	}
	const env = fields['env'];
	if (env !== undefined) {
		if (typeof env !== 'object' || env === null || Array.isArray(env)) {
			add(['env'], '"env" must be an object of NAME: "value" pairs');
		} else {
			for (const [name, value] of Object.entries(env)) {
				if (!envName.test(name)) {
					add(['env', name], `environment variable '${name}' is not a valid name (letters, digits and _, not starting with a digit)`);
				} else if (typeof value !== 'string' || value.includes('\0')) {
					add(['env', name], `environment variable '${name}' must be a string without NUL characters`);
				}
			}
		}
	}
	return problems;
}

function stringList(value: unknown, path: (string | number)[], add: (path: (string | number)[], problem: string) => void, rule: { nonEmpty: boolean }): void {
	const what = `"${String(path[0])}"`;
	if (!Array.isArray(value) || !value.every((item) => typeof item === 'string')) {
		add(path, `${what} must be an array of strings`);
		return;
	}
	value.forEach((item: string, index) => {
		if (rule.nonEmpty && item === '') { add([...path, index], `${what} must not contain empty strings`); }
		noNul(item, [...path, index], what, add);
	});
}

function noNul(value: string, path: (string | number)[], what: string, add: (path: (string | number)[], problem: string) => void): void {
	if (value.includes('\0')) { add(path, `${what} must not contain NUL characters`); }
}

/** The error for a target (or a Turn of it) that cannot be started: names the target, the problem, and how to fix it. */
export function invalidAgentTarget(target: AgentTargetConfig, problem: string, next?: string): DomainError {
	const example = examples[target.adapter] ?? examples.command;
	return new DomainError(
		'invalid_input',
		`Agent target '${target.id}' cannot be started: ${problem}.`,
		next ?? `Fix the target in the tutti.agentTargets setting (headless: .tutti/config.json), e.g. ${example}, then run \`tutti agent list --json\`.`,
		{ agentTargetId: target.id },
	);
}

/** Throws invalidAgentTarget for the first problem of `target`, or when it is not a target of `adapter`. */
export function checkAgentTarget(target: AgentTargetConfig, adapter: AgentAdapterName): void {
	if (target.adapter !== adapter) {
		throw invalidAgentTarget(target, `it uses the '${String(target.adapter)}' adapter, not '${adapter}'`);
	}
	const first = agentTargetProblems(target)[0];
	if (first !== undefined) {
		throw invalidAgentTarget(target, first.problem);
	}
}

/** The target's own environment additions, after checkAgentTarget. */
export function targetEnv(target: AgentTargetConfig): Record<string, string> {
	return { ...(target.env ?? {}) };
}

/** A Turn's own value (a model, a prompt) must not carry NUL either: argv cannot. */
export function turnValue(target: AgentTargetConfig, what: string, value: string): string {
	if (value.includes('\0')) { throw invalidAgentTarget(target, `${what} must not contain NUL characters`); }
	return value;
}

/** A Turn's extra arguments (Tutti's own, such as the Stop hook's settings), held to the rule of the target's args. */
export function turnExtraArgs(target: AgentTargetConfig, args: readonly string[] | undefined): string[] {
	return (args ?? []).map((arg) => turnValue(target, '"extraArgs"', arg));
}
