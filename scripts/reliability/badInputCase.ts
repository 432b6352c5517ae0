// Bad input: fuzzed CLI argument vectors (real CLI processes), fuzzed `--operations-json` (socket, plus a sample
// through the CLI), raw socket abuse (malformed HTTP, huge bodies, wrong content types, slow and idle clients) and
// fuzzed webview messages (the zod parsers of src/protocol/webview.ts). No crash, no hang, and the store is
// unchanged: `issue list`, `issue get` and `plan issue get` (real CLI) are byte-identical before and after.
import { readFileSync } from 'node:fs';
import * as net from 'node:net';
import fc from 'fast-check';
import { commandTable } from '../../src/cli/commandTable.js';
import { userTokenPathForSocket } from '../../src/ipc/endpointPaths.js';
import { parsePersistedState, parseToHost, parseToWebview } from '../../src/protocol/webview.js';
import { expectOk, requestId, standardTargets, startHost, type HostHandle } from '../../test/integration/harness.js';
import { call, CaseResult, prng, sleep } from './kit.js';

export interface BadInputOptions {
	cliRuns: number;
	operationsRuns: number;
	webviewRuns: number;
	seed: number;
}

/** Commands that create, wait for a long time by design, or read stdin: not fuzzed (the store must stay unchanged). */
const skipped = new Set(['session open', 'issue create', 'plan issue create', 'await-review', 'plan issue await', 'next-action', 'agent resume',
	'finish', 'hook stop', 'session state']);

export async function badInputCase(options: BadInputOptions): Promise<CaseResult> {
	const result = new CaseResult('Bad input');
	const started = Date.now();
	const host = await startHost({ config: (gateDir) => ({ agentTargets: standardTargets(gateDir), maxParallelRuns: 4 }) });
	try {
		const source = await call(host, 'session/open', { role: 'source' }, 'user');
		if (!source.ok) {
			throw new Error('session/open failed');
		}
		const token = (source.result as { token: string }).token;
		const created = await call(host, 'plan/create', { title: 'Fuzz target', content: 'c', requestId: requestId('fuzz') }, { token });
		const manual = await call(host, 'issue/create', { title: 'Fuzz manual' }, 'user');
		if (!created.ok || !manual.ok) {
			throw new Error('setup failed');
		}
		const issueId = (created.result as { issueId: string }).issueId;
		const manualId = (manual.result as { issueId: string }).issueId;
		await call(host, 'task/add', { issueId: manualId, taskId: 'keep', title: 'Keep me' }, 'user');
		const ops = JSON.stringify([{ kind: 'add', task: { taskId: 'a', title: 'A', agentTargetId: 'ok' } }, { kind: 'add', task: { taskId: 'b', title: 'B', agentTargetId: 'ok', dependencyTaskIds: ['a'] } }]);
		const snap0 = expectOk<{ activeCheckpoint: { checkpointId: string }; execution: { graphRevision: number } }>(await host.cli(['plan', 'issue', 'get', '--issue-id', issueId, '--json'], { token }));
		expectOk(await host.cli(['plan', 'issue', 'mutate', '--issue-id', issueId, '--checkpoint-id', snap0.activeCheckpoint.checkpointId,
			'--expected-graph-revision', String(snap0.execution.graphRevision), '--request-id', requestId('fuzz'), '--operations-json', ops, '--json'], { token }));

		const before = await storeView(host, issueId, manualId);
		await cliFuzz(host, options, result, issueId, token);
		await operationsFuzz(host, options, result, issueId, token);
		await socketAbuse(host, result);
		webviewFuzz(options, result);
		result.check(host.running, 'the Host died during the bad-input case');
		const after = await storeView(host, issueId, manualId);
		result.check(after === before, 'the store changed under bad input (issue list / issue get / plan issue get differ)');
		result.figure('store before/after (issue list, issue get, plan issue get)', after === before ? 'identical' : 'DIFFERENT');
	} finally {
		await host.dispose().catch(() => undefined);
	}
	result.durationMs = Date.now() - started;
	return result;
}

async function storeView(host: HostHandle, issueId: string, manualId: string): Promise<string> {
	const [list, manual, plan] = await Promise.all([
		host.cli(['issue', 'list', '--json'], { asUser: true }),
		host.cli(['issue', 'get', '--issue-id', manualId, '--json'], { asUser: true }),
		host.cli(['plan', 'issue', 'get', '--issue-id', issueId, '--full', '--json'], { asUser: true }),
	]);
	return [list, manual, plan].map((r) => JSON.stringify(expectOk(r))).join('\n');
}

const nastyValues = ['', ' ', '-', '--', '--json', '0', '-1', '1e309', 'NaN', '99999999999999999999', 'true', 'null', '[]', '{}', '["a"', '../../etc/passwd',
	'/etc', 'a\u0001b', '\u202e\u0301', '😀'.repeat(50), 'x'.repeat(20_000), '$(rm -rf /)', '`id`', '{"kind":"add"}', '[{"op":"add"}]', 'no-such-issue'];

async function cliFuzz(host: HostHandle, options: BadInputOptions, result: CaseResult, issueId: string, token: string): Promise<void> {
	const random = prng(options.seed);
	const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
	const commands = commandTable.filter((c) => !skipped.has(c.path.join(' ')));
	const exits = new Map<number, number>();
	let crashes = 0;
	const queue = Array.from({ length: options.cliRuns }, (_, i) => i);
	const worker = async (): Promise<void> => {
		for (let i = queue.shift(); i !== undefined; i = queue.shift()) {
			const command = pick(commands);
			const args: string[] = [...command.path];
			for (const flag of command.flags) {
				if (random() < 0.6) {
					const value = flag.name.endsWith('issue-id') && random() < 0.3 ? `${issueId}x` : pick(nastyValues);
					args.push(random() < 0.5 ? `--${flag.name}=${value}` : `--${flag.name}`, ...(random() < 0.8 ? [value] : []));
				}
			}
			if (random() < 0.3) {
				args.push(`--${pick(['bogus', 'operations-json', 'as-user', 'help', 'json'])}`, pick(nastyValues));
			}
			if (random() < 0.7) {
				args.push('--json');
			}
			if (random() < 0.2) {
				args.splice(Math.floor(random() * args.length), 0, pick(nastyValues));
			}
			// Never the real issue id with a real fence: these calls must not be able to write.
			const r = await host.cli(args, random() < 0.5 ? { asUser: true } : { token });
			exits.set(r.code, (exits.get(r.code) ?? 0) + 1);
			const crashed = r.code > 2 || /\n\s+at .+\(.*:\d+:\d+\)/.test(r.stderr) || /TypeError|ReferenceError|RangeError/.test(r.stderr);
			if (crashed) {
				crashes++;
				result.fail(`CLI fuzz ${i}: crash (exit ${r.code}) on ${JSON.stringify(args).slice(0, 300)}: ${r.stderr.slice(0, 300)}`);
			}
			if (args.includes('--json') && r.code !== 0 && !args.includes('--help') && !r.error) {
				result.fail(`CLI fuzz ${i}: --json failure without an error envelope (exit ${r.code}) on ${JSON.stringify(args).slice(0, 200)}: ${r.stdout.slice(0, 200)}${r.stderr.slice(0, 200)}`);
			}
		}
	};
	await Promise.all([worker(), worker(), worker()]);
	result.figure('CLI argument vectors fuzzed (real CLI)', `${options.cliRuns}: exits ${[...exits].sort().map(([c, n]) => `${c}×${n}`).join(', ')}, ${crashes} crashes`);
}

/** Always ends with one invalid operation, so by all-or-nothing no batch may change the graph. */
function operationsArbitrary(): fc.Arbitrary<string> {
	const task = fc.record({
		taskId: fc.oneof(fc.constant('a'), fc.constant('b'), fc.string({ maxLength: 12 })),
		title: fc.oneof(fc.string(), fc.constant(undefined)),
		agentTargetId: fc.oneof(fc.constant('ok'), fc.constant('nope'), fc.string()),
		dependencyTaskIds: fc.oneof(fc.array(fc.constantFrom('a', 'b', 'x', 'self')), fc.anything()),
	}, { requiredKeys: [] });
	const op = fc.oneof(
		fc.record({ kind: fc.constantFrom('add', 'update', 'rework', 'supersede', 'delete', 'op', ''), taskId: fc.oneof(fc.constantFrom('a', 'b', 'zz'), fc.anything()), task }, { requiredKeys: ['kind'] }),
		fc.record({ op: fc.constantFrom('add', 'replace'), replacement: task }),
		fc.anything(),
	);
	const invalidTail = fc.constantFrom({ kind: 'op' }, { op: 'add' }, { kind: 'add', task: { taskId: 'a', title: 'dup', agentTargetId: 'ok' } },
		{ kind: 'supersede', taskId: 'no-such-task' }, { kind: 'add', task: { taskId: 'c', title: 'C', agentTargetId: 'ok', dependencyTaskIds: ['c'] } },
		{ kind: 'add', task: { taskId: 'd', title: 'D', agentTargetId: 'ok' }, extra: 1 });
	return fc.oneof(
		fc.tuple(fc.array(op, { maxLength: 6 }), invalidTail).map(([ops, tail]) => JSON.stringify([...ops, tail])),
		fc.string().map((s) => `[${s}`),
		fc.constantFrom('{}', 'null', '"add"', '[', '[]'.repeat(1), '['.repeat(10_000) + ']'.repeat(10_000), JSON.stringify(Array(5000).fill({ kind: 'op' })), '\u0000', '[{"kind":"add","task":{"taskId":"a","__proto__":{"x":1}}}]'),
	);
}

function parsedOrText(text: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		return text;
	}
}

async function operationsFuzz(host: HostHandle, options: BadInputOptions, result: CaseResult, issueId: string, token: string): Promise<void> {
	const snapshot = await call(host, 'plan/get', { issueId }, { token });
	if (!snapshot.ok) {
		throw new Error('plan/get failed');
	}
	const s = snapshot.result as { activeCheckpoint: { checkpointId: string }; execution: { graphRevision: number } };
	const fence = { issueId, checkpointId: s.activeCheckpoint.checkpointId, expectedGraphRevision: s.execution.graphRevision };
	const samples = fc.sample(operationsArbitrary(), { numRuns: options.operationsRuns, seed: options.seed });
	const reasons = new Map<string, number>();
	let accepted = 0;
	for (const [i, operationsJson] of samples.entries()) {
		if (operationsJson.length === 0 || operationsJson.length > 1_000_000) {
			continue;
		}
		// An argument vector cannot carry a NUL byte (the OS ends the string there): such a batch goes over the socket.
		const viaCli = i % 25 === 0 && !operationsJson.includes('\0');
		let reasonCode: string;
		if (viaCli) {
			const r = await host.cli(['plan', 'issue', 'mutate', '--issue-id', issueId, '--checkpoint-id', fence.checkpointId, '--expected-graph-revision',
				String(fence.expectedGraphRevision), '--request-id', requestId('opsfuzz'), '--operations-json', operationsJson, '--json'], { token });
			reasonCode = r.code === 0 ? 'ACCEPTED' : r.error?.reasonCode ?? `no envelope (exit ${r.code})`;
			result.check(r.code === 0 || r.code === 1 || r.code === 2, `operations fuzz ${i} (CLI): exit ${r.code}`);
		} else {
			// The socket carries the operations as JSON; text that is not JSON goes as a string, which the method table refuses too.
			const r = await call(host, 'plan/mutate', { ...fence, requestId: requestId('opsfuzz'), operations: parsedOrText(operationsJson) }, { token }, 15_000);
			reasonCode = r.ok ? 'ACCEPTED' : r.reasonCode;
			if (!r.ok) {
				result.check(r.message !== '' && r.hint !== '', `operations fuzz ${i}: ${r.reasonCode} without message or hint`);
			}
		}
		if (reasonCode === 'ACCEPTED') {
			accepted++;
			result.fail(`operations fuzz ${i}: a batch with an invalid operation was accepted: ${operationsJson.slice(0, 300)}`);
		}
		result.check(reasonCode !== 'transport' && reasonCode !== 'internal', `operations fuzz ${i}: ${reasonCode} on ${operationsJson.slice(0, 200)}`);
		reasons.set(reasonCode, (reasons.get(reasonCode) ?? 0) + 1);
	}
	result.figure('`--operations-json` batches fuzzed (each holds ≥1 invalid op or is malformed)', `${samples.length} (every 25th via the CLI): ${[...reasons].map(([r, n]) => `${r} ×${n}`).join(', ')}; ${accepted} accepted`);
}

/** Sends raw bytes; resolves with what came back (or the error), never later than `timeoutMs` (then 'TIMEOUT'). */
function raw(socketPath: string, chunks: (string | Buffer)[], timeoutMs: number, gapMs = 0): Promise<string> {
	return new Promise((resolve) => {
		const socket = net.connect(socketPath);
		let received = '';
		const timer = setTimeout(() => {
			socket.destroy();
			resolve(received === '' ? 'TIMEOUT' : received);
		}, timeoutMs);
		socket.on('data', (d) => { received += d.toString('latin1'); });
		socket.on('error', (e) => {
			clearTimeout(timer);
			// An early answer (413) may still be in flight when our write fails: give it a moment.
			setTimeout(() => resolve(received || `ERROR ${(e as NodeJS.ErrnoException).code}`), 100);
		});
		socket.on('close', () => {
			clearTimeout(timer);
			resolve(received || 'CLOSED');
		});
		socket.on('connect', async () => {
			for (const chunk of chunks) {
				if (socket.destroyed) {
					return;
				}
				socket.write(chunk);
				if (gapMs > 0) {
					await sleep(gapMs);
				}
			}
		});
	});
}

async function socketAbuse(host: HostHandle, result: CaseResult): Promise<void> {
	// Authenticated as the developer, so the bodies get past the credential check and reach the parser.
	const auth = `Authorization: Bearer ${readFileSync(userTokenPathForSocket(host.socket), 'utf8').trim()}\r\n`;
	const body = (text: string, type = 'application/json'): string =>
		`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}Content-Type: ${type}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nConnection: close\r\n\r\n${text}`;
	const huge = 'x'.repeat(3 * 1024 * 1024);
	const cases: [string, (string | Buffer)[], number?][] = [
		['garbage bytes', [Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 256))]],
		['malformed request line', ['HELLO /v1/issue/list HTTP/9.9\r\n\r\n']],
		['headers never end (server headersTimeout)', ['POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n'], 15_000],
		['GET', ['GET /v1/issue/list HTTP/1.1\r\nHost: tutti\r\nConnection: close\r\n\r\n']],
		['unknown path', [body('{}').replace('/v1/issue/list', '/v1/no/such')]],
		['path traversal', [body('{}').replace('/v1/issue/list', '/v1/../../etc/passwd')]],
		['text/plain', [body('{}', 'text/plain')]],
		['multipart', [body('--b\r\n\r\n--b--', 'multipart/form-data; boundary=b')]],
		['not JSON', [body('{"issueId":')]],
		['JSON array', [body('[1,2,3]')]],
		['JSON null', [body('null')]],
		['deep nesting', [body(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)]],
		['invalid UTF-8', [Buffer.concat([Buffer.from(`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}Content-Type: application/json\r\nContent-Length: 4\r\nConnection: close\r\n\r\n`), Buffer.from([0xff, 0xfe, 0xc3, 0x28])])]],
		['content-length lies (short body, then silence)', [`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{}`], 15_000],
		['negative content-length', ['POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\nContent-Length: -5\r\n\r\n{}']],
		['3 MiB body', [`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}Content-Type: application/json\r\nContent-Length: ${huge.length}\r\nConnection: close\r\n\r\n`, huge]],
		['3 MiB chunked body', [`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n`,
			...Array.from({ length: 48 }, () => `10000\r\n${'x'.repeat(0x10000)}\r\n`), '0\r\n\r\n']],
		['100 KiB header', [`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\nX-Big: ${'a'.repeat(100_000)}\r\nContent-Length: 2\r\n\r\n{}`]],
		['2,000 headers', [`POST /v1/issue/list HTTP/1.1\r\nHost: tutti\r\n${auth}${Array.from({ length: 2000 }, (_, i) => `X-H${i}: v\r\n`).join('')}Content-Length: 2\r\n\r\n{}`]],
		['bogus bearer', [body('{}').replace(auth, 'Authorization: Bearer AAAA\r\n').replace('/v1/issue/list', '/v1/issue/create').replace('{}', '{"title":"x"}')]],
	];
	// A valid JSON body under another content type or many harmless headers may be served; nothing else may succeed.
	const lenient = new Set(['text/plain', '2,000 headers']);
	const outcomes: string[] = [];
	for (const [name, chunks, timeout] of cases) {
		const reply = await raw(host.socket, chunks, timeout ?? 10_000);
		const status = /^HTTP\/1\.1 (\d{3})/.exec(reply)?.[1];
		outcomes.push(`${name}: ${status ?? reply.slice(0, 20)}`);
		result.check(reply !== 'TIMEOUT', `socket abuse "${name}": no answer and no close within ${(timeout ?? 10_000) / 1000} s (hang)`);
		result.check(status !== '200' || lenient.has(name), `socket abuse "${name}": answered 200`);
		const alive = await call(host, 'issue/list', {}, 'user', 10_000);
		result.check(alive.ok, `socket abuse "${name}": the Host stopped answering (${alive.ok ? '' : alive.message})`);
	}
	// Slow clients: 50 idle connections and 3 byte-at-a-time senders while a normal client keeps being served.
	const idle = Array.from({ length: 50 }, () => net.connect(host.socket));
	const slow = Array.from({ length: 3 }, () => raw(host.socket, body('{}').split(''), 20_000, 40));
	let served = 0;
	const t0 = Date.now();
	while (Date.now() - t0 < 3000) {
		const r = await call(host, 'issue/list', {}, 'user', 5000);
		if (r.ok) {
			served++;
		} else {
			result.fail(`a normal request failed while slow clients were connected: ${r.message}`);
			break;
		}
	}
	const slowReplies = await Promise.all(slow);
	for (const s of idle) {
		s.destroy();
	}
	outcomes.push(`3 byte-at-a-time clients: ${slowReplies.map((r) => /^HTTP\/1\.1 (\d{3})/.exec(r)?.[1] ?? r.slice(0, 12)).join(', ')}`);
	result.check(served > 0, 'no normal request was served while slow clients were connected');
	result.figure('raw socket requests (answer per case)', outcomes.join('; '));
	result.figure('normal requests served during 3 s of 50 idle + 3 slow connections', served);
}

function webviewFuzz(options: BadInputOptions, result: CaseResult): void {
	const parsers = [['toHost', parseToHost], ['toWebview', parseToWebview], ['persistedState', parsePersistedState]] as const;
	const valid = fc.constantFrom<unknown>({ type: 'ready', protocol: 1 }, { type: 'run/stop', runId: 'r' }, { type: 'task/requestChanges', taskId: 't', note: 'n' },
		{ type: 'command/copy', text: 'x' }, { type: 'history/toggle', show: true });
	const mutated = fc.tuple(valid, fc.dictionary(fc.string(), fc.anything())).map(([v, extra]) => ({ ...(v as object), ...extra }));
	const input = fc.oneof(fc.anything({ withBoxedValues: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }), mutated, valid);
	let accepted = 0;
	let rejected = 0;
	for (const [name, parse] of parsers) {
		try {
			fc.assert(fc.property(input, (raw) => {
				const r = parse(raw);
				if (r.ok) {
					accepted++;
					// What passes must survive structured clone (postMessage) and re-validate.
					if (!parse(structuredClone(r.value)).ok) {
						throw new Error('an accepted message fails validation after a structured clone');
					}
				} else {
					rejected++;
					if (typeof r.error !== 'string' || r.error === '') {
						throw new Error('a rejection without a message');
					}
				}
			}), { numRuns: options.webviewRuns, seed: options.seed });
		} catch (error) {
			result.fail(`webview ${name}: ${(error as Error).message.slice(0, 400)}`);
		}
	}
	result.figure('webview messages fuzzed (toHost, toWebview, persisted state)', `${options.webviewRuns * parsers.length}: ${accepted} accepted, ${rejected} rejected with a message, 0 throws expected`);
}
