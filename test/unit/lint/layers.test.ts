// Lint is the layer table: for every forbidden edge of the import table, a probe import placed in the importing
// layer's folder must be refused by eslint.config.mjs, and one allowed edge per layer must pass (so the refusals
// are not a rule that refuses everything). The probes are linted through the ESLint Node API as if they were
// files at those paths (`lintText` with `filePath` resolves the same config a file there gets), so nothing is
// written into src/ where a concurrent build, typecheck or lint would pick it up.
import { strict as assert } from 'node:assert';
import * as path from 'node:path';
import { ESLint } from 'eslint';

const repoRoot = path.resolve(__dirname, '../../..');

interface Probe {
	/** The probe's path, relative to the repository root. */
	file: string;
	/** The module specifier it imports. */
	from: string;
}

const probe = (file: string, from: string): Probe => ({ file, from });

/** Every edge the table forbids that the code could plausibly grow (the sixteen first). */
const forbidden: Probe[] = [
	probe('src/core/probe.ts', '../host/host.js'),
	probe('src/core/graph/probe.ts', '../../protocol/controlPlane.js'),
	probe('src/protocol/probe.ts', '../core/errors.js'),
	probe('src/protocol/probe.ts', 'node:fs'),
	probe('src/store/probe.ts', '../host/host.js'),
	probe('src/store/repositories/probe.ts', '../../control-plane/server.js'),
	probe('src/agents/probe.ts', '../host/config.js'),
	probe('src/supervisor/probe.ts', '../host/runs/processRunner.js'),
	probe('src/control-plane/probe.ts', '../store/database.js'),
	probe('src/control-plane/probe.ts', '../host/host.js'),
	probe('src/host/probe.ts', '../extension/extension.js'),
	probe('src/host/services/wakes/probe.ts', '../../../extension/services.js'),
	// The lifecycles below the control-plane services never reach up into them.
	probe('src/host/runs/probe.ts', '../services/contracts.js'),
	probe('src/host/wakes/probe.ts', '../services/sourceSessions/sourceSessionStop.js'),
	probe('src/host/turns/probe.ts', '../services/sessionService.js'),
	probe('src/host/runs/messages/probe.ts', '../../services/runQueries.js'),
	probe('src/host/checkpoints/probe.ts', '../services/plan/planContext.js'),
	probe('src/host/wakes/probe.ts', '../../extension/extension.js'),
	probe('src/cli/probe.ts', '../agents/claude.js'),
	probe('src/cli/probe.ts', '../supervisor/supervise.js'),
	probe('webview/issuePanel/probe.ts', '../../src/extension/extension.js'),
	probe('src/cli/probe.ts', '../core/errors.js'),
	probe('src/cli/probe.ts', '../store/database.js'),
	// The rest of the table.
	probe('src/core/probe.ts', 'node:path'),
	probe('src/core/probe.ts', 'zod'),
	probe('src/core/probe.ts', '../store/database.js'),
	probe('src/core/probe.ts', '../ipc/endpointPaths.js'),
	probe('src/protocol/probe.ts', '../store/database.js'),
	probe('src/protocol/probe.ts', '../ipc/endpointPaths.js'),
	probe('src/store/probe.ts', '../protocol/controlPlane.js'),
	probe('src/store/probe.ts', 'zod'),
	probe('src/agents/probe.ts', '../supervisor/supervise.js'),
	probe('src/agents/probe.ts', '../control-plane/server.js'),
	probe('src/control-plane/probe.ts', '../agents/claude.js'),
	probe('src/cli/probe.ts', '../host/host.js'),
	probe('src/cli/probe.ts', '../control-plane/server.js'),
	probe('src/cli/probe.ts', 'sql.js'),
	probe('src/ipc/probe.ts', '../protocol/controlPlane.js'),
	probe('src/ipc/probe.ts', 'zod'),
	probe('src/host/probe.ts', '../cli/main.js'),
	probe('src/host/probe.ts', 'vscode'),
	probe('src/agents/probe.ts', 'fs'),
	probe('webview/issuePanel/probe.ts', '../../src/core/model.js'),
	probe('webview/shared/probe.ts', 'node:fs'),
];

/** At least one allowed edge per layer, including the ones the ipc layer exists for. */
const allowed: Probe[] = [
	probe('src/core/graph/probe.ts', '../errors.js'),
	probe('src/protocol/probe.ts', 'zod'),
	probe('src/store/probe.ts', '../core/errors.js'),
	probe('src/store/probe.ts', 'sql.js'),
	probe('src/host/services/probe.ts', '../../store/database.js'),
	probe('src/host/services/probe.ts', '../runs/runLifecycle.js'),
	probe('src/host/runs/probe.ts', '../turns/turnLifecycle.js'),
	probe('src/host/wakes/probe.ts', '../checkpoints/checkpointSteps.js'),
	probe('src/agents/probe.ts', '../core/runs/runProcessPort.js'),
	probe('src/supervisor/probe.ts', '../ipc/postToHost.js'),
	probe('src/supervisor/probe.ts', '../agents/codexAppServerClient.js'),
	probe('src/control-plane/probe.ts', '../protocol/controlPlane.js'),
	probe('src/cli/probe.ts', '../protocol/controlPlane.js'),
	probe('src/cli/probe.ts', '../ipc/postToHost.js'),
	probe('src/cli/probe.ts', 'node:http'),
	probe('src/ipc/probe.ts', 'node:http'),
	probe('webview/issuePanel/probe.ts', '../../src/protocol/webview.js'),
	probe('src/extension/probe.ts', '../host/host.js'),
	probe('src/extension/probe.ts', 'vscode'),
];

async function refusals(eslint: ESLint, p: Probe): Promise<string[]> {
	const code = `import * as probed from '${p.from}';\nexport const used = probed;\n`;
	const [result] = await eslint.lintText(code, { filePath: path.join(repoRoot, p.file) });
	assert.ok(result, `eslint returned no result for ${p.file}`);
	return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint: the layer table (eslint.config.mjs)', function () {
	this.timeout(60_000);
	let eslint: ESLint;
	before(() => {
		eslint = new ESLint({ cwd: repoRoot });
	});

	for (const p of forbidden) {
		it(`refuses ${p.file} importing ${p.from}`, async () => {
			const messages = await refusals(eslint, p);
			assert.equal(messages.length, 1, `expected one refusal, got ${JSON.stringify(messages)}`);
		});
	}

	for (const p of allowed) {
		it(`allows ${p.file} importing ${p.from}`, async () => {
			assert.deepEqual(await refusals(eslint, p), []);
		});
	}
});
