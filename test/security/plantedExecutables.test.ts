// Security: executables a repository ships in `.tutti/` never run. A clone can deliver `.tutti/bin/sh`, `claude`,
// `codex` and `tutti`; the Host used to put `<workspace>/.tutti/bin` first on every agent's PATH, so those ran in
// place of the developer's own. Now the `tutti` shim lives in the Host's private 0700 directory outside the
// workspace, a target's executable is resolved before that directory goes in front of PATH (never in `.tutti/`,
// never in a relative PATH entry), and an executable inside `.tutti/` is refused.
import { strict as assert } from 'node:assert';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join, relative } from 'node:path';
import { type AgentTarget, type HostHandle, manualIssue, startHost, standardTargets } from '../integration/harness.js';
import { addManualTask, modeOf, octal, settledRunOf } from './securityKit.js';

const planted = ['sh', 'claude', 'codex', 'tutti', 'node'] as const;

/** A planted executable: records that it ran (it must never) and exits 0, as a harmless stand-in would. */
function plantedScript(marks: string, name: string): string {
	return `#!/bin/sh\necho "$0 $*" > '${join(marks, `planted-${name}`)}'\nexit 0\n`;
}

/** The developer's own stand-in agent (claude/codex): records its argv and PATH, then exits. */
function developerAgent(marks: string, name: string): string {
	return `#!${process.execPath}\nrequire('fs').writeFileSync(${JSON.stringify(join(marks, `real-${name}.json`))}, JSON.stringify({ argv: process.argv.slice(2), path: process.env.PATH }));\n`;
}

function isInside(path: string, dir: string): boolean {
	const rel = relative(dir, path);
	return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
}

describe('security: executables planted in .tutti/ never run', function () {
	this.timeout(60_000);
	let host: HostHandle;
	let marks: string;
	let devBin: string;

	before(async function () {
		marks = mkdtempSync(join(tmpdir(), 'tutti-sec-marks-'));
		devBin = mkdtempSync(join(tmpdir(), 'tutti-sec-devbin-'));
		for (const name of ['claude', 'codex']) {
			writeFileSync(join(devBin, name), developerAgent(marks, name), { mode: 0o755 });
		}
		const devPath = `${devBin}${delimiter}${process.env.PATH ?? ''}`;
		const shScript = [
			`echo "$PATH" > '${join(marks, 'sh-path')}'`,
			`tutti run get --run-id "$TUTTI_RUN_ID" --json > '${join(marks, 'tutti-out.json')}'`,
			`echo ran > '${join(marks, 'real-sh')}'`,
		].join('\n');
		const targets: AgentTarget[] = [
			{ id: 'sh', adapter: 'command', argv: ['sh', '-c', shScript] },
			{ id: 'cc', adapter: 'claude', env: { PATH: devPath } } as unknown as AgentTarget,
			{ id: 'cx', adapter: 'codex', env: { PATH: devPath } } as unknown as AgentTarget,
			{ id: 'inside', adapter: 'command', argv: ['.tutti/bin/node', '-e', 'process.exit(0)'] },
			// A relative PATH entry means "the Run's working directory": repository content.
			{ id: 'relpath', adapter: 'command', argv: ['sh', '-c', `echo ran > '${join(marks, 'real-sh-relpath')}'`], env: { PATH: `.tutti/bin${delimiter}${process.env.PATH ?? ''}` } },
		];
		host = await startHost({ config: (gates) => ({ agentTargets: [...standardTargets(gates), ...targets], maxParallelRuns: 4 }) });
		// What a clone delivers: .tutti/bin with executables named like the developer's own.
		const bin = join(host.workspace, '.tutti', 'bin');
		mkdirSync(bin, { recursive: true });
		for (const name of planted) {
			writeFileSync(join(bin, name), plantedScript(marks, name), { mode: 0o755 });
			chmodSync(join(bin, name), 0o755);
		}
	});

	after(async function () {
		await host?.dispose();
		rmSync(marks, { recursive: true, force: true });
		rmSync(devBin, { recursive: true, force: true });
	});

	function plantedRan(): string[] {
		return readdirSync(marks).filter((n) => n.startsWith('planted-'));
	}

	it('a command target `sh` runs the developer\'s sh, and `tutti` in it is the Host\'s own shim', async function () {
		const issueId = await manualIssue(host, 'Planted sh');
		await addManualTask(host, issueId, 's1', ['--content', 'go', '--agent-target-id', 'sh']);
		const run = await settledRunOf(host, issueId, 's1');
		assert.deepEqual(plantedRan(), [], 'no planted executable ran');
		assert.ok(existsSync(join(marks, 'real-sh')), `the developer's sh ran the script (${run.status}: ${run.errorMessage})`);
		assert.equal(run.status, 'completed', run.errorMessage);
		const got = JSON.parse(readFileSync(join(marks, 'tutti-out.json'), 'utf8')) as { runId?: string };
		assert.equal(got.runId, run.runId, '`tutti` reached the Host as this Run');
	});

	it('the shim directory first on PATH is a 0700 directory of this user outside the workspace, holding only `tutti`', async function () {
		assert.ok(existsSync(join(marks, 'sh-path')), 'the sh test ran first');
		const entries = readFileSync(join(marks, 'sh-path'), 'utf8').trim().split(delimiter);
		const shimDir = entries[0]!;
		assert.ok(!isInside(shimDir, host.workspace), `the shim directory ${shimDir} is outside the workspace ${host.workspace}`);
		assert.equal(octal(modeOf(shimDir)), octal(0o700), 'the shim directory is private');
		assert.equal(statSync(shimDir).uid, process.getuid!(), 'and this user\'s');
		assert.deepEqual(readdirSync(shimDir).filter((n) => !n.startsWith('.')), ['tutti']);
		for (const entry of entries) {
			assert.ok(!isInside(entry, join(host.workspace, '.tutti')), `no PATH entry inside .tutti/ (${entry})`);
		}
	});

	for (const [name, targetId] of [['claude', 'cc'], ['codex', 'cx']] as const) {
		it(`a ${name} target runs the developer's ${name}, whose hooks and tools name no file in the workspace`, async function () {
			const issueId = await manualIssue(host, `Planted ${name}`);
			await addManualTask(host, issueId, `${targetId}1`, ['--content', 'go', '--agent-target-id', targetId]);
			await settledRunOf(host, issueId, `${targetId}1`);
			assert.deepEqual(plantedRan(), [], 'no planted executable ran');
			const realFile = join(marks, `real-${name}.json`);
			assert.ok(existsSync(realFile), `the developer's ${name} ran`);
			const real = JSON.parse(readFileSync(realFile, 'utf8')) as { argv: string[]; path: string };
			for (const arg of real.argv) {
				assert.ok(!arg.includes(join(host.workspace, '.tutti', 'bin')), `no launch argument names .tutti/bin: ${arg.slice(0, 300)}`);
			}
			const shimDir = real.path.split(delimiter)[0]!;
			assert.ok(!isInside(shimDir, host.workspace), `${name} finds \`tutti\` outside the workspace (${shimDir})`);
			assert.ok(real.argv.some((arg) => arg.includes(join(shimDir, 'tutti'))), `the Stop hook runs the private shim ${join(shimDir, 'tutti')}`);
		});
	}

	it('a relative PATH entry (the Run\'s working directory) is never searched for the target\'s executable', async function () {
		const issueId = await manualIssue(host, 'Relative PATH');
		await addManualTask(host, issueId, 'r1', ['--content', 'go', '--agent-target-id', 'relpath']);
		const run = await settledRunOf(host, issueId, 'r1');
		assert.deepEqual(plantedRan(), [], 'the planted sh never ran');
		assert.ok(existsSync(join(marks, 'real-sh-relpath')), `the developer's sh ran (${run.status}: ${run.errorMessage})`);
	});

	it('a target whose executable lies inside .tutti/ is refused with a reason, and never runs', async function () {
		const issueId = await manualIssue(host, 'Inside .tutti');
		await addManualTask(host, issueId, 'in1', ['--content', 'go', '--agent-target-id', 'inside']);
		const run = await settledRunOf(host, issueId, 'in1');
		assert.equal(run.status, 'failed');
		assert.match(run.errorMessage ?? '', /inside .*\.tutti.*never runs an executable it did not write/);
		assert.deepEqual(plantedRan(), [], 'the planted node never ran');
	});
});
