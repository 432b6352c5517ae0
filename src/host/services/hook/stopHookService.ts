// `hook/stop`: the Stop hook of an agent Tutti launched. The session comes from the caller's token only (never a
// guess among several); the owed command comes from the same derivation as `agent resume`. Fails open: any
// internal problem allows the stop.
import { owedBySession } from '../../../core/next/owed.js';
import type { Clock } from '../../../core/ports.js';
import type { Caller, Result } from '../../../protocol/controlPlane.js';
import type { Store } from '../../../store/database.js';
import type { Tx } from '../../../store/tx.js';
import { issueFactsRepository } from '../../../store/repositories/issueFactsRepository.js';
import { stopHookBudgetRepository, type StopHookBudget } from '../../../store/repositories/stopHookBudgetRepository.js';
import { decideStop } from './stopHookBudget.js';

/** Where budgets persist (replaceable in tests to prove the fail-open rule). */
export interface StopHookBudgetStore {
	get(tx: Tx, sessionId: string): StopHookBudget | undefined;
	put(tx: Tx, budget: StopHookBudget, nowUnixMs: number): void;
	delete(tx: Tx, sessionId: string): void;
}

export interface StopHookServiceDeps {
	store: Store;
	clock: Clock;
	budgets?: StopHookBudgetStore;
	log?: (line: string) => void;
}

const allow: Result<'hook/stop'> = { decision: 'allow' };

export class StopHookService {
	constructor(private readonly deps: StopHookServiceDeps) {}

	async stop(caller: Caller): Promise<Result<'hook/stop'>> {
		if (caller.kind !== 'session') { return allow; }
		const budgets = this.deps.budgets ?? stopHookBudgetRepository;
		const sessionId = caller.sessionId;
		try {
			const now = this.deps.clock.now();
			return await this.deps.store.transaction((tx) => {
				const facts = issueFactsRepository.ofSession(tx, sessionId);
				if (facts === undefined) { return allow; }
				const step = decideStop(sessionId, owedBySession(facts), budgets.get(tx, sessionId), now);
				if (step.persist === null) {
					budgets.delete(tx, sessionId);
				} else {
					budgets.put(tx, step.persist, now);
				}
				return step.decision;
			});
		} catch (error) {
			// A budget that cannot be persisted would make the loop unbounded: allow instead.
			this.deps.log?.(`stop hook of ${sessionId} allowed the stop after an internal failure: ${error instanceof Error ? error.message : String(error)}`);
			return allow;
		}
	}
}
