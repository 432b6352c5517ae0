// Pins codex app-server's protocol as Tutti uses it: the projection of the pinned CLI's generated JSON schema onto
// every method and field in src/agents/codexAppServerProtocol.ts (codexProtocolPin.ts) must equal the checked-in
// copy, so a Codex upgrade that renames, retypes or drops any of them fails here, loudly, before any Run does.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { generatedSchema, pinFile, projectCodexProtocol } from './codexProtocolPin.js';
import { pinnedVersions } from './agentKit.js';

describe(`codex app-server ${pinnedVersions.codex}: the protocol Tutti uses is pinned`, function () {
	this.timeout(60_000);
	let projection: string;
	before(() => { projection = projectCodexProtocol(generatedSchema()); });

	it('the generated schema, projected onto what Tutti sends and reads, equals the checked-in copy', () => {
		assert.equal(projection, readFileSync(pinFile, 'utf8'),
			'codex app-server changed a method or field Tutti uses: review src/agents/codexAppServerProtocol.ts against the diff, '
			+ 'then rewrite the copy with `node --import tsx test/agents/codexProtocolPin.ts --write`.');
	});

	it('every method and field Tutti uses exists in it, and every value Tutti sends is one the schema allows', () => {
		assert.deepEqual(projection.split('\n').filter((l) => l.includes('MISSING')), []);
		const line = (prefix: string): string => projection.split('\n').find((l) => l.startsWith(`${prefix}: `))?.slice(prefix.length + 2) ?? '';
		assert.match(line('thread/start params.approvalPolicy'), /enum\([^)]*never[^)]*on-request/);
		assert.match(line('thread/start params.sandbox'), /enum\(danger-full-access\|read-only\|workspace-write\)/);
		assert.match(line('item/commandExecution/requestApproval result(CommandExecutionRequestApprovalResponse).decision'), /enum\(accept\|acceptForSession\|cancel\|decline\)/);
		assert.match(line('turn/completed params.turn.status'), /^enum\(completed\|failed\|inProgress\|interrupted\), required$/);
	});
});
