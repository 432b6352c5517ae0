// The supervisor's side of a codex app-server Turn (docs/codex-app-server.md). The supervisor owns the server's
// stdin and stdout, so it speaks its JSON-RPC (src/agents/codexAppServerSession.ts) while the Host may be down:
//   - every line the server writes is appended to stdout.log as it arrives, where the Host reads the Turn's facts;
//   - the Run's input.jsonl entries (the prompt, then messages sent while the Turn runs) start the turn and are steered
//     into it; a message counts as echoed once the turn shows it (its userMessage item), and input closes at the
//     turn's end; a `close` entry (a person's Stop) interrupts the turn;
//   - Tutti's Stop hook runs here at each completed turn (app-server runs no untrusted hook);
//   - a worker Turn's approval requests and questions are asked of the developer as the Run's approvals
//     (codexApprovalBridge.ts); anything else the thread asks is declined;
//   - when the session is over, the server's stdin is closed: it exits, ending any command still running, and the
//     supervisor records the exit as for every agent.
// A Codex that has no `app-server` (it ends before answering `initialize` and its `app-server --help` is not the
// app-server's) is reported as such, and the caller runs the same Turn as `codex exec`.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { ftruncateSync, writeSync } from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { CodexAppServerClient, type ServerRequestHandlers } from '../agents/codexAppServerClient.js';
import {
	type CodexAppServerPlan, CodexAppServerSession, type StopHookInput, type StopHookVerdict,
} from '../agents/codexAppServerSession.js';
import { codexSessionFailureLine } from '../agents/codexStream.js';
import { approvalHandlers, hostApprovalCall } from './codexApprovalBridge.js';
import { LiveInputPump, type LiveInputSink } from './liveInputPump.js';

export interface CodexAppServerRunOptions {
	runDir: string;
	plan: CodexAppServerPlan;
	/** The server process (stdin and stdout are pipes). */
	child: ChildProcess & { stdin: Writable; stdout: Readable };
	/** stdout.log, open for appending. */
	stdoutFd: number;
	/** The agent's environment (the Stop hook command runs with it). */
	env: Record<string, string>;
	/** How long `initialize`, `thread/*` and `turn/*` requests wait (default 60 s). */
	requestTimeoutMs?: number;
	/** How long the server gets to exit after its stdin closed, before SIGTERM and then SIGKILL (default 5 s each). */
	exitGraceMs?: number;
}

export interface CodexAppServerRun {
	pump: LiveInputPump;
	/** Resolves when the session is over: `unavailable` when this Codex has no app-server (nothing was recorded). */
	done: Promise<'ran' | 'unavailable'>;
}

/** How long the Stop hook command may run (as Claude Code gives it). */
const stopHookTimeoutMs = 60_000;

/** Runs Tutti's Stop hook command as Codex runs hooks: a shell command, the hook input on stdin, a JSON verdict on stdout. */
export function runStopHookCommand(command: string, input: StopHookInput, env: Record<string, string>, cwd: string): Promise<StopHookVerdict> {
	return new Promise((resolve) => {
		let out = '';
		const child = spawn('/bin/sh', ['-c', command], { cwd, env, stdio: ['pipe', 'pipe', 'ignore'] });
		const timer = setTimeout(() => child.kill('SIGKILL'), stopHookTimeoutMs);
		child.stdout.setEncoding('utf8').on('data', (c: string) => { out += c; });
		child.stdin.on('error', () => undefined);
		child.stdin.end(JSON.stringify(input));
		child.once('error', () => { clearTimeout(timer); resolve({ block: false }); });
		child.once('close', (code) => {
			clearTimeout(timer);
			try {
				const verdict = JSON.parse(out.trim() || '{}') as { decision?: unknown; reason?: unknown };
				resolve(code === 0 && verdict.decision === 'block' && typeof verdict.reason === 'string' && verdict.reason !== ''
					? { block: true, reason: verdict.reason } : { block: false });
			} catch {
				resolve({ block: false });
			}
		});
	});
}

/** Whether `file` is a Codex that has `app-server` (its help for it is the app-server's own). */
export function hasAppServer(file: string, env: Record<string, string>): boolean {
	const help = spawnSync(file, ['app-server', '--help'], { env, encoding: 'utf8', timeout: 15_000, stdio: ['ignore', 'pipe', 'pipe'] });
	return help.status === 0 && /Usage: \S*codex\S* app-server/.test(help.stdout ?? '');
}

/** A Turn whose approvals are not the developer's (a wake Turn, or approvals off): whatever the thread asks is declined. */
function declineHandlers(): ServerRequestHandlers {
	return {
		'item/commandExecution/requestApproval': async () => ({ decision: 'decline' }),
		'item/fileChange/requestApproval': async () => ({ decision: 'decline' }),
		'item/permissions/requestApproval': async () => ({ permissions: {}, scope: 'turn' }),
		'item/tool/requestUserInput': async (p) => ({ answers: Object.fromEntries(p.questions.map((q) => [q.id, { answers: ['No one can answer this now; go on without it.'] }])) }),
	};
}

export function runCodexAppServer(o: CodexAppServerRunOptions): CodexAppServerRun {
	let sink: LiveInputSink | undefined;
	let answeredInitialize = false;
	const exited = new Promise<void>((resolve) => { if (o.child.exitCode !== null || o.child.signalCode !== null) { resolve(); } else { o.child.once('exit', () => resolve()); } });
	const writeOut = (line: string): void => { writeSync(o.stdoutFd, `${line}\n`); };
	const call = o.plan.askDeveloper === true && (o.env.TUTTI_RUN_ID ?? '') !== '' ? hostApprovalCall(o.env) : undefined;
	const handlers = call !== undefined
		? approvalHandlers({ runId: o.env.TUTTI_RUN_ID!, call, session: () => session })
		: declineHandlers();
	const session: CodexAppServerSession = new CodexAppServerSession((notifications) => new CodexAppServerClient({
		input: o.child.stdout, output: o.child.stdin, notifications, handlers,
		onServerLine: (line) => { answeredInitialize ||= line.includes('"userAgent"'); writeOut(line); },
		...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
	}), o.plan, {
		runStopHook: (command, input) => runStopHookCommand(command, input, o.env, o.plan.cwd),
		onUserMessage: (clientId) => sink?.echoed(clientId),
		onInputClosed: () => sink?.closed('result'),
		...(o.requestTimeoutMs !== undefined ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
	});
	const pump = new LiveInputPump({
		runDir: o.runDir,
		channel: (s) => {
			sink = s;
			return {
				send: ({ uuid, text }) => { void session.send(text, uuid); },
				end: (reason) => { if (reason === 'requested') { void session.interrupt().finally(() => session.close('')); } },
			};
		},
	});

	/** Closes the server's stdin (it exits, ending its commands); a server that does not go is signalled. */
	const endServer = async (): Promise<void> => {
		o.child.stdin.end();
		const grace = o.exitGraceMs ?? 5_000;
		for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
			const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), grace).unref())]);
			if (gone) { return; }
			try { process.kill(-(o.child.pid ?? 0), signal); } catch { /* already gone */ }
		}
	};

	const done = (async (): Promise<'ran' | 'unavailable'> => {
		try {
			await session.open();
		} catch {
			const end = await session.done;
			await endServer();
			if (!answeredInitialize && !hasAppServer(o.child.spawnfile, o.env)) {
				ftruncateSync(o.stdoutFd, 0); // whatever it printed is not this Turn's stream
				return 'unavailable';
			}
			writeOut(codexSessionFailureLine(end.failure));
			return 'ran';
		}
		pump.start();
		const end = await session.done;
		if (end.failure !== '') { writeOut(codexSessionFailureLine(end.failure)); }
		await endServer();
		return 'ran';
	})();
	return { pump, done };
}
