// Source-session Stop: the developer stops the source agent. A durable inbox marker is written first; draining it archives
// EVERY nonterminal execution of that session through the recoverable archive flow (not a scan of running Runs) and
// happens before any wake dispatch — also after a restart, so reopening never resumes the old automation.
import { isTerminalExecution } from '../../../core/execution/allowedActions.js';
import { rejection } from '../../../core/hints.js';
import { developerArchiveRequester } from '../../../core/runs/stopRules.js';
import type { Caller, ParsedParams, Result } from '../../../protocol/controlPlane.js';
import { executionRepository } from '../../../store/repositories/executionRepository.js';
import { inboxRepository } from '../../../store/repositories/inboxRepository.js';
import { issueRepository } from '../../../store/repositories/issueRepository.js';
import { sessionRepository } from '../../../store/repositories/sessionRepository.js';
import { turnRepository } from '../../../store/repositories/turnRepository.js';
import { isTurnProcessId } from '../../turns/turnIds.js';
import { requireUser } from '../callerPolicy.js';
import { continueArchive, requestArchive } from '../plan/archiveExecution.js';
import type { PlanContext } from '../plan/planContext.js';

/** The audited reason recorded on every execution a source-session Stop archives. */
export const sourceStopReason = 'the developer stopped the source session';

export interface SourceSessionStopDeps {
	plan: PlanContext;
}

export class SourceSessionStop {
	#draining: Promise<string[]> | undefined;

	constructor(private readonly deps: SourceSessionStopDeps) {}

	/** `session/stop` (developer only): marker first, then interrupt the session's Turns, then drain. */
	async stop(params: ParsedParams<'session/stop'>, caller: Caller): Promise<Result<'session/stop'>> {
		requireUser(caller, 'session stop');
		const ctx = this.deps.plan;
		const markerId = ctx.ids.next('inbox');
		// What this Stop archives: the session's executions still going when its marker is written. Whoever drains the
		// marker (this call, or a wake that sees it first) archives exactly these.
		const going = await ctx.store.transaction((tx) => {
			const session = sessionRepository.get(tx, params.sessionId);
			if (!session) { throw rejection('session_not_found', `Session ${params.sessionId} does not exist.`, {}, { sessionId: params.sessionId }); }
			if (session.role !== 'source') {
				throw rejection('invalid_input', `Session ${params.sessionId} is a ${session.role} session; only a source session can be stopped this way.`, {}, { sessionId: params.sessionId });
			}
			inboxRepository.insert(tx, {
				mutationId: markerId, sessionId: session.sessionId, entityKind: 'stop', entityId: '', createdAtUnixMs: ctx.clock.now(), drainedAtUnixMs: 0,
			});
			return executionRepository.listBySource(tx, session.sessionId).filter((e) => !isTerminalExecution(e.status)).map((e) => e.executionId);
		});
		await this.#interruptSessionTurns(params.sessionId);
		await this.drain();
		const archiving = new Set(ctx.store.read((r) => executionRepository.listBySource(r, params.sessionId)
			.filter((e) => e.status === 'archiving' || e.status === 'archived').map((e) => e.executionId)));
		return { sessionId: params.sessionId, markerId, archivedExecutionIds: going.filter((id) => archiving.has(id)) };
	}

	/** Interrupts every running wake Turn of the session (after its marker is durable). */
	async #interruptSessionTurns(sessionId: string): Promise<void> {
		const ctx = this.deps.plan;
		const open = ctx.store.read((r) => turnRepository.openOfSession(r, sessionId));
		await Promise.all(open.map((t) => t.processId ?? '').filter((id) => isTurnProcessId(id)).map((id) => ctx.processes.interrupt(id)));
	}

	/** Drains every undrained Stop marker (one at a time); returns the executions whose archive it requested. */
	drain(): Promise<string[]> {
		if (this.#draining) { return this.#draining.then(() => this.drain()); }
		this.#draining = this.#drainAll().finally(() => { this.#draining = undefined; });
		return this.#draining;
	}

	async #drainAll(): Promise<string[]> {
		const ctx = this.deps.plan;
		const archived: string[] = [];
		const markers = ctx.store.read((r) => inboxRepository.listUndrained(r));
		for (const marker of markers) {
			const ops = await ctx.store.transaction((tx) => {
				const current = inboxRepository.get(tx, marker.mutationId);
				if (!current || current.drainedAtUnixMs !== 0) { return []; }
				const now = ctx.clock.now();
				const requested: { operationId: string; executionId: string }[] = [];
				if (marker.entityKind === 'stop') {
					for (const execution of executionRepository.listBySource(tx, marker.sessionId)) {
						if (isTerminalExecution(execution.status)) { continue; }
						const issue = issueRepository.get(tx, execution.issueId);
						if (!issue) { continue; }
						const op = requestArchive(tx, {
							issue, execution, operationId: ctx.ids.next('archive'), requestId: `source-stop:${marker.mutationId}`,
							requestedBy: developerArchiveRequester, reason: sourceStopReason, nowUnixMs: now,
						});
						requested.push({ operationId: op.operationId, executionId: execution.executionId });
					}
				}
				inboxRepository.markDrained(tx, marker.mutationId, now);
				return requested;
			});
			// Outside every transaction: Run cancellation may settle Runs synchronously (their settlement is suppressed).
			for (const op of ops) {
				await continueArchive(ctx, op.operationId);
				archived.push(op.executionId);
			}
		}
		return archived;
	}
}
