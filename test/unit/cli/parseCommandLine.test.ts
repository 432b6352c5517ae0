// argv → {method, params} for every command, and structured errors (exit 2) for everything malformed.
import * as assert from 'node:assert/strict';
import { type CommandSpec, type FlagSpec, commandTable } from '../../../src/cli/commandTable.js';
import { type Invocation, applyInput } from '../../../src/cli/invocation.js';
import { parseCommandLine } from '../../../src/cli/parseCommandLine.js';
import { methods } from '../../../src/protocol/controlPlane.js';

function sampleArgs(flag: FlagSpec): string[] {
	const name = `--${flag.name}`;
	switch (flag.kind) {
		case 'string': return [name, `v-${flag.name}`];
		case 'positiveInt': return [name, '3'];
		case 'nonNegativeInt': return [name, '0'];
		case 'bool': return flag.param === null ? [name] : [`${name}=false`];
		case 'list': return [name, 'a', name, 'b'];
		case 'jsonStringArray': return [name, '["a","b"]'];
		case 'jsonObject': return [name, '{"command":"ls"}'];
		case 'jsonArray': return [name, '[{"argv":["true"]}]'];
		case 'jsonOperations': return [name, '[{"kind":"supersede","taskId":"a"}]'];
		case 'choice': return [name, flag.choices![0]!];
		case 'optionalValue': return flag.choices ? [name, flag.choices[flag.choices.length - 1]!] : [name, `v-${flag.name}`];
		case 'budgetUsd': return [name, '2.50'];
		case 'budgetTokens': return [name, 'none'];
	}
}

/** Every flag of the command's own method ('all'; not the ones that switch to an alternative method), or only the required ones. */
function argvFor(spec: CommandSpec, which: 'all' | 'required'): string[] {
	const switches = new Set((spec.alternatives ?? []).map((a) => a.flag));
	const flags = spec.flags.filter((f) => which === 'all' ? !switches.has(f.name) && (f.methods === undefined || f.methods.includes(spec.method)) : f.required);
	return [...spec.path, ...flags.flatMap(sampleArgs)];
}

function expectCall(invocation: Invocation): Extract<Invocation, { kind: 'call' }> {
	assert.equal(invocation.kind, 'call', JSON.stringify(invocation));
	return invocation as Extract<Invocation, { kind: 'call' }>;
}

function expectError(invocation: Invocation): Extract<Invocation, { kind: 'error' }> {
	assert.equal(invocation.kind, 'error', JSON.stringify(invocation));
	return invocation as Extract<Invocation, { kind: 'error' }>;
}

describe('tutti command line → control-plane call', () => {
	it('budget flags: dollars and whole tokens, none removes; anything else is refused by name (exit 2)', () => {
		const call = expectCall(parseCommandLine(['issue', 'update', '--issue-id', 'I1', '--budget-usd', '12.5', '--budget-tokens', '3000', '--as-user']));
		assert.deepEqual(call.params, { issueId: 'I1', budgetUsd: 12.5, budgetTokens: 3000 });
		const none = expectCall(parseCommandLine(['issue', 'create', '--title', 'T', '--budget-usd', 'none']));
		assert.deepEqual(none.params, { title: 'T', budgetUsd: null });
		for (const [flag, value] of [['--budget-usd', '-1'], ['--budget-usd', '$5'], ['--budget-usd', '1e3'], ['--budget-usd', ''], ['--budget-tokens', '2.5'], ['--budget-tokens', 'lots']] as const) {
			const error = expectError(parseCommandLine(['issue', 'update', '--issue-id', 'I1', flag, value]));
			assert.equal(error.exitCode, 2);
			assert.match(error.error.message, new RegExp(`^${flag} must be`), error.error.message);
		}
	});

	for (const spec of commandTable) {
		const name = spec.path.join(' ');
		it(`${name}: every flag maps onto params the Host accepts (${spec.method})`, () => {
			for (const which of ['all', 'required'] as const) {
				const call = expectCall(parseCommandLine([...argvFor(spec, which), '--json']));
				assert.equal(call.method, spec.method);
				assert.equal(call.json, true);
				assert.equal(call.command, `tutti ${name}`);
				const parsed = methods[spec.method].params.safeParse(call.params);
				assert.ok(parsed.success, `${name} (${which}) produced params the schema rejects: ${JSON.stringify(call.params)}`);
				for (const flag of spec.flags.filter((f) => which === 'all' || f.required)) {
					if (flag.param !== null && (flag.methods === undefined || flag.methods.includes(spec.method))) {
						assert.ok(flag.param in call.params, `${name}: --${flag.name} did not reach params.${flag.param}`);
					}
				}
			}
		});

		for (const alternative of spec.alternatives ?? []) {
			it(`${name} --${alternative.flag}: calls ${alternative.method} with params it accepts, and refuses the other method's flags`, () => {
				const flag = spec.flags.find((f) => f.name === alternative.flag)!;
				const required = spec.flags.filter((f) => f.required).flatMap(sampleArgs);
				const call = expectCall(parseCommandLine([...spec.path, ...required, ...sampleArgs(flag), '--json']));
				assert.equal(call.method, alternative.method);
				assert.ok(methods[alternative.method].params.safeParse(call.params).success, JSON.stringify(call.params));
				for (const other of spec.flags.filter((f) => f.methods !== undefined && !f.methods.includes(alternative.method) && f !== flag)) {
					const error = expectError(parseCommandLine([...spec.path, ...required, ...sampleArgs(flag), ...sampleArgs(other), '--json']));
					assert.equal(error.exitCode, 2);
					assert.match(error.error.message, new RegExp(`--${other.name}`));
				}
			});
		}

		it(`${name}: each required flag is required (exit 2, names the flag)`, () => {
			for (const flag of spec.flags.filter((f) => f.required)) {
				const argv = [...spec.path, ...spec.flags.filter((f) => f.required && f !== flag).flatMap(sampleArgs), '--json'];
				const error = expectError(parseCommandLine(argv));
				assert.equal(error.exitCode, 2);
				assert.equal(error.json, true);
				assert.equal(error.error.reasonCode, 'invalid_input');
				assert.match(error.error.message, new RegExp(`--${flag.name}`));
				assert.equal(error.error.hint, `run \`tutti ${name} --help\``);
			}
		});

		it(`${name}: --help shows the flags, --json, --as-user and examples`, () => {
			const help = parseCommandLine([...spec.path, '--help']);
			assert.equal(help.kind, 'help');
			const text = (help as { text: string }).text;
			assert.match(text, new RegExp(`Usage: tutti ${name}`));
			assert.match(text, /--json/);
			assert.match(text, /--as-user/);
			assert.match(text, /Examples:\n {2}tutti /);
			for (const flag of spec.flags) {
				assert.ok(text.includes(`--${flag.name}`), `${name} help lacks --${flag.name}`);
			}
			for (const example of spec.examples) {
				assert.ok(example.includes(`tutti ${name} `), `example of ${name} runs another command: ${example}`);
			}
		});
	}

	it('maps the public surface exactly', () => {
		const cases: Array<[string[], string, Record<string, unknown>]> = [
			[['session', 'open', '--role', 'source', '--as-user', '--json'], 'session/open', { role: 'source' }],
			[['agent', 'list', '--json'], 'agent/list', {}],
			[['issue', 'create', '--title', 'T', '--content', 'C', '--json'], 'issue/create', { title: 'T', content: 'C' }],
			[['issue', 'get', '--issue-id', 'X', '--json'], 'issue/get', { issueId: 'X' }],
			[['issue', 'list', '--json'], 'issue/list', {}],
			[['issue', 'update', '--issue-id', 'X', '--dispatch-paused=false'], 'issue/update', { issueId: 'X', dispatchPaused: false }],
			[['issue', 'update', '--issue-id', 'X', '--dispatch-paused', 'false'], 'issue/update', { issueId: 'X', dispatchPaused: false }],
			[['issue', 'update', '--issue-id', 'X', '--dispatch-paused'], 'issue/update', { issueId: 'X', dispatchPaused: true }],
			[['issue', 'update', '--issue-id', 'X', '--dispatch-paused=TRUE', '--title', 'New'], 'issue/update', { issueId: 'X', dispatchPaused: true, title: 'New' }],
			[['issue', 'pause', '--issue-id', 'X', '--as-user'], 'issue/pause', { issueId: 'X' }],
			[['issue', 'resume', '--issue-id', 'X', '--as-user'], 'issue/resume', { issueId: 'X' }],
			[['issue', 'stop', '--issue-id', 'X', '--as-user'], 'issue/stop', { issueId: 'X' }],
			[['issue', 'task', 'add', '--issue-id', 'X', '--title', 'T', '--task-id', 'a', '--agent-target-id', 'sh', '--depends-on', 'p', '--depends-on', 'q', '--content', 'C', '--json'],
				'task/add', { issueId: 'X', title: 'T', taskId: 'a', agentTargetId: 'sh', dependencyTaskIds: ['p', 'q'], content: 'C' }],
			[['issue', 'task', 'update', '--issue-id', 'X', '--task-id', 'a', '--auto-accept'], 'task/update', { issueId: 'X', taskId: 'a', autoAccept: true }],
			[['issue', 'task', 'delete', '--issue-id', 'X', '--task-id', 'a'], 'task/delete', { issueId: 'X', taskId: 'a' }],
			[['plan', 'issue', 'create', '--title', 'T', '--content', 'C', '--request-id', 'R', '--json'], 'plan/create', { title: 'T', content: 'C', requestId: 'R' }],
			[['plan', 'issue', 'get', '--issue-id', 'X', '--json'], 'plan/getCompact', { issueId: 'X' }],
			[['plan', 'issue', 'get', '--issue-id', 'X', '--since-revision', '7'], 'plan/getCompact', { issueId: 'X', sinceRevision: 7 }],
			[['plan', 'issue', 'get', '--issue-id', 'X', '--full', '--json'], 'plan/get', { issueId: 'X' }],
			[['plan', 'issue', 'get', '--issue-id', 'X', '--task-id', 'a'], 'plan/getTask', { issueId: 'X', taskId: 'a' }],
			[['issue', 'get', '--issue-id', 'X', '--task-id', 'a', '--status', 'running'], 'issue/get', { issueId: 'X', taskId: 'a', status: 'running' }],
			[['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2', '--task-ids-json', '["a","b"]', '--request-id', 'R'],
				'plan/schedule', { issueId: 'X', checkpointId: 'C', expectedGraphRevision: 2, taskIds: ['a', 'b'], requestId: 'R' }],
			[['plan', 'issue', 'mutate', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2', '--operations-json', '[{"op":"x"}]', '--request-id', 'R'],
				'plan/mutate', { issueId: 'X', checkpointId: 'C', expectedGraphRevision: 2, operations: [{ op: 'x' }], requestId: 'R' }],
			[['plan', 'issue', 'acknowledge', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2', '--request-id', 'R'],
				'plan/acknowledge', { issueId: 'X', checkpointId: 'C', expectedGraphRevision: 2, requestId: 'R' }],
			[['plan', 'issue', 'complete', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2', '--request-id', 'R', '--decision', 'goal_satisfied', '--disagreement-reason', 'D'],
				'plan/complete', { issueId: 'X', checkpointId: 'C', expectedGraphRevision: 2, requestId: 'R', decision: 'goal_satisfied', disagreementReason: 'D' }],
			[['plan', 'issue', 'stop', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2', '--request-id', 'R', '--reason', 'done'],
				'plan/stop', { issueId: 'X', checkpointId: 'C', expectedGraphRevision: 2, requestId: 'R', reason: 'done' }],
			[['plan', 'issue', 'resume', '--issue-id', 'X'], 'plan/resume', { issueId: 'X' }],
			[['approval', 'answer', '--approval-id', 'A', '--allow', '--input-json', '{"command":"npm test","timeout":5}'],
				'approval/answer', { approvalId: 'A', allow: true, updatedInput: { command: 'npm test', timeout: 5 } }],
			[['run', 'get', '--run-id', 'R', '--json'], 'run/get', { runId: 'R' }],
			[['run', 'list', '--issue-id', 'X', '--json'], 'run/list', { issueId: 'X' }],
			[['run', 'stop', '--run-id', 'R', '--as-user', '--json'], 'run/stop', { runId: 'R' }],
			[['run', 'log', '--run-id', 'R', '--stream', 'stderr', '--offset', '10', '--max-bytes', '100'], 'run/log', { runId: 'R', stream: 'stderr', offset: 10, maxBytes: 100 }],
		];
		for (const [argv, method, params] of cases) {
			const call = expectCall(parseCommandLine(argv));
			assert.equal(call.method, method, argv.join(' '));
			assert.deepEqual(call.params, params, argv.join(' '));
			assert.equal(call.json, argv.includes('--json'));
			assert.equal(call.asUser, argv.includes('--as-user'));
		}
	});

	it('accepts --flag=value for any flag', () => {
		const call = expectCall(parseCommandLine(['plan', 'issue', 'get', '--issue-id=X', '--json']));
		assert.deepEqual(call.params, { issueId: 'X' });
	});

	it('run log --follow is a CLI option, not a param', () => {
		const call = expectCall(parseCommandLine(['run', 'log', '--run-id', 'R', '--follow']));
		assert.equal(call.follow, true);
		assert.deepEqual(call.params, { runId: 'R' });
	});

	it('tutti host --workspace DIR', () => {
		assert.deepEqual(parseCommandLine(['host', '--workspace', 'some/dir']), { kind: 'host', workspace: 'some/dir', json: false });
		const missing = expectError(parseCommandLine(['host', '--json']));
		assert.equal(missing.exitCode, 2);
		assert.match(missing.error.message, /--workspace/);
	});

	describe('invalid input is a structured error with exit 2', () => {
		const cases: Array<[string, string[], RegExp, string]> = [
			['unknown option', ['plan', 'issue', 'get', '--issue-id', 'X', '--bogus'], /unknown option '--bogus'/, 'tutti plan issue get'],
			['unknown command', ['plan', 'issue', 'gett', '--json'], /unknown command 'gett'/, 'tutti plan issue'],
			['unknown noun', ['bogus'], /unknown command 'bogus'/, 'tutti'],
			['missing value', ['plan', 'issue', 'get', '--issue-id'], /argument missing/, 'tutti plan issue get'],
			['excess argument', ['plan', 'issue', 'get', '--issue-id', 'X', 'extra'], /too many arguments/, 'tutti plan issue get'],
			['bad choice', ['session', 'open', '--role', 'admin'], /admin.*Allowed choices are source, worker, reviewer/, 'tutti session open'],
			['bad decision', ['plan', 'issue', 'complete', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--decision', 'more_work'], /goal_satisfied/, 'tutti plan issue complete'],
			['revision 0', ['plan', 'issue', 'acknowledge', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '0', '--request-id', 'R'], /--expected-graph-revision must be a whole number ≥ 1 \(got "0"\)/, 'tutti plan issue acknowledge'],
			['revision not a number', ['plan', 'issue', 'acknowledge', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '2.5', '--request-id', 'R'], /whole number/, 'tutti plan issue acknowledge'],
			['huge revision', ['plan', 'issue', 'acknowledge', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '99999999999999999999', '--request-id', 'R'], /whole number/, 'tutti plan issue acknowledge'],
			['negative offset', ['run', 'log', '--run-id', 'R', '--offset=-1'], /--offset must be a whole number ≥ 0/, 'tutti run log'],
			['bad bool', ['issue', 'update', '--issue-id', 'X', '--dispatch-paused=nope'], /--dispatch-paused must be true or false \(got "nope"\)/, 'tutti issue update'],
			['task ids not JSON', ['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--task-ids-json', '[a,b]'], /--task-ids-json is not valid JSON/, 'tutti plan issue schedule'],
			['task ids not an array', ['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--task-ids-json', '"a"'], /non-empty JSON array/, 'tutti plan issue schedule'],
			['task ids empty', ['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--task-ids-json', '[]'], /non-empty JSON array/, 'tutti plan issue schedule'],
			['task ids not strings', ['plan', 'issue', 'schedule', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--task-ids-json', '[1]'], /task id strings/, 'tutti plan issue schedule'],
			['edited input not JSON', ['approval', 'answer', '--approval-id', 'A', '--allow', '--input-json', '{command: ls}'], /--input-json is not valid JSON/, 'tutti approval answer'],
			['edited input not an object', ['approval', 'answer', '--approval-id', 'A', '--allow', '--input-json', '["ls"]'], /--input-json must be a JSON object/, 'tutti approval answer'],
			['no subcommand', ['plan'], /tutti plan needs a subcommand/, 'tutti plan'],
			['nothing at all', [], /tutti needs a subcommand/, 'tutti'],
			['option before the command', ['--json', 'issue', 'list'], /unknown option '--json'/, 'tutti'],
		];
		for (const [name, argv, message, command] of cases) {
			it(name, () => {
				const error = expectError(parseCommandLine(argv));
				assert.equal(error.exitCode, 2);
				assert.equal(error.error.reasonCode, 'invalid_input');
				assert.match(error.error.message, message);
				assert.doesNotMatch(error.error.message, /^error:/);
				assert.equal(error.error.hint, `run \`${command} --help\``);
				assert.equal(error.json, argv.includes('--json'));
			});
		}
	});

	it('operations that are not JSON are a malformed operation (exit 2) in the same words inline and from stdin, naming kind and task', () => {
		const mutate = ['plan', 'issue', 'mutate', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R', '--json'];
		const inline = expectError(parseCommandLine([...mutate, '--operations-json', '[{"kind":"add"}']));
		assert.equal(inline.exitCode, 2);
		assert.equal(inline.error.reasonCode, 'invalid_mutation_operation');
		assert.match(inline.error.message, /^--operations-json is not valid JSON \(.+\): entries must use kind add, update, rework, or supersede; op and replacement are not supported/);
		assert.match(inline.error.message, /"task"/);
		assert.equal(inline.error.hint, 'run `tutti plan issue mutate --help`');
		const pending = parseCommandLine([...mutate, '--operations-json', '-']);
		assert.equal(pending.kind, 'call');
		const piped = expectError(applyInput(pending as Extract<Invocation, { kind: 'call' }>, '[{"kind":"add"}'));
		assert.deepEqual(piped, inline);
	});

	it('operations are sent as parsed JSON, whatever their shape: the Host\'s method table checks it', () => {
		const mutate = ['plan', 'issue', 'mutate', '--issue-id', 'X', '--checkpoint-id', 'C', '--expected-graph-revision', '1', '--request-id', 'R'];
		for (const text of ['[{"kind":"supersede","taskId":"a"}]', '{"kind":"add"}', '[]', '"text"']) {
			const call = parseCommandLine([...mutate, '--operations-json', text]);
			assert.equal(call.kind, 'call', text);
			assert.deepEqual((call as Extract<Invocation, { kind: 'call' }>).params['operations'], JSON.parse(text));
		}
	});

	it('suggests the closest command or flag', () => {
		assert.match(expectError(parseCommandLine(['plan', 'issue', 'scedule'])).error.message, /Did you mean schedule\?/);
		assert.match(expectError(parseCommandLine(['issue', 'get', '--isue-id', 'X'])).error.message, /Did you mean --issue-id\?/);
	});

	it('`tutti help [command]` and -h are help (exit 0), a group without its subcommand is an error', () => {
		for (const [argv, usage] of [[['help'], 'tutti'], [['help', 'plan'], 'tutti plan'], [['plan', 'issue', 'help', 'get'], 'tutti plan issue get'], [['-h'], 'tutti']] as const) {
			const help = parseCommandLine(argv);
			assert.equal(help.kind, 'help', argv.join(' '));
			assert.match((help as { text: string }).text, new RegExp(`^Usage: ${usage} \\[options\\]`));
		}
		const group = expectError(parseCommandLine(['issue', 'task']));
		assert.match(group.helpText ?? '', /^Usage: tutti issue task/);
	});

	it('top-level --help lists every noun; hidden commands stay out of help', () => {
		const help = parseCommandLine(['--help']);
		assert.equal(help.kind, 'help');
		const text = (help as { text: string }).text;
		for (const noun of ['host', 'session', 'agent', 'issue', 'plan', 'run']) {
			assert.match(text, new RegExp(`\\n {2}${noun}\\b`));
		}
		const runHelp = (parseCommandLine(['run', '--help']) as { text: string }).text;
		assert.match(runHelp, /^ {2}log\b/m);
		assert.doesNotMatch(runHelp, /^ {2}report\b/m);
	});
});
