// Done means delivered: an issue whose accepted work (task commits in its worktrees) is not on a branch yet is
// Ready to integrate, not Done, until the developer integrates it or chooses Finish without integrating (recorded,
// and shown "not integrated"). "Accepted" and "integrated" stay two facts: this rule only reads both. Pure.
import { attentionStateNames as names } from '../attention/vocabulary.js';
import type { StatusCounts } from './issueStatus.js';

export interface DeliveryFacts {
	/** Some active task's accepted commit is not integrated (accepted after the last integration, or never). */
	readonly unintegrated: boolean;
	/** The branch of the last integration ('' before any). */
	readonly integratedInto: string;
	/** The developer recorded Finish. */
	readonly finished: boolean;
}

/**
 * `nothing_to_integrate`: no accepted work lives in a worktree (tasks that ran in the shared folder changed it
 * directly); `ready_to_integrate`: accepted work waits for the developer's integrate; `integrated`: every accepted
 * commit is integrated; `not_integrated`: the developer finished without integrating it.
 */
export const deliveryStates = ['nothing_to_integrate', 'ready_to_integrate', 'integrated', 'not_integrated'] as const;
export type Delivery = (typeof deliveryStates)[number];

export function deliveryOf(facts: DeliveryFacts): Delivery {
	if (facts.unintegrated) { return facts.finished ? 'not_integrated' : 'ready_to_integrate'; }
	return facts.integratedInto !== '' ? 'integrated' : 'nothing_to_integrate';
}

/** The attention label of a Done issue: "Done", "Done · integrated into main", "Done · not integrated". */
export function doneLabel(facts: DeliveryFacts | undefined): string {
	if (facts === undefined) { return names.done; }
	switch (deliveryOf(facts)) {
		case 'integrated': return `${names.done} · integrated into ${facts.integratedInto}`;
		case 'not_integrated': return `${names.done} · not integrated`;
		case 'ready_to_integrate':
		case 'nothing_to_integrate': return names.done;
	}
}

/** A manual issue's work is over: it has tasks and each active one is completed or canceled (nothing runs, waits or failed). */
export function manualWorkOver(counts: StatusCounts): boolean {
	const open = counts.notStarted + counts.running + counts.pendingAcceptance + counts.failed;
	return open === 0 && counts.completed + counts.canceled > 0;
}

/**
 * Tree cleanup (Finish's removal, `tutti worktree prune`) applies to a finished issue: the developer recorded Finish,
 * or it was stopped, or it is closed with nothing waiting to be integrated. An issue Ready to integrate keeps its trees.
 */
export function cleanupAllowed(facts: { readonly finished: boolean; readonly stopped: boolean; readonly closed: boolean; readonly delivery: Delivery }): boolean {
	return facts.finished || facts.stopped || (facts.closed && facts.delivery !== 'ready_to_integrate');
}
