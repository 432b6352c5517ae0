// A store this machine did not create or open before at this path (knownStores.ts) came with the folder: a clone,
// a copy, a share used from another machine. Nothing of it runs until the developer says so here: before the Host
// answers any request or reconciles anything, every issue's dispatch is paused exactly as the developer's
// `issue pause` does (so a prepared Run, a queued task or a wake of it never starts), and the Host says why.
import type { Caller } from '../protocol/controlPlane.js';
import type { HostApi } from '../protocol/hostApi.js';

/** The first sentence every surface shows (the Host's ready line and log, `hello`, the editor). */
export const storeArrivalHeadline = 'This store came with the folder: nothing runs until you resume.';

export interface StoreArrival {
	/** What the developer is told: the headline, why, and what to do. */
	readonly message: string;
	/** The issues whose dispatch this paused (those already paused or archived are not listed). */
	readonly pausedIssueIds: readonly string[];
}

const developer: Caller = { kind: 'user' };

export function storeArrivalMessage(workspace: string, paused: number): string {
	return `${storeArrivalHeadline} This machine has not opened the Tutti store in ${workspace} before (a clone, a copy, ` +
		`or a store used on another machine), so Tutti paused dispatch of every issue (${paused} newly paused) and starts ` +
		'none of its Runs, wakes or queued tasks; check each issue and the agent targets in .tutti/config.json, then the ' +
		'developer resumes an issue with `tutti issue resume --issue-id ID --as-user` (or Resume in the editor).';
}

/** Pauses every issue that is not archived or paused yet, through the developer's own pause. */
export async function pauseArrivedStore(api: HostApi, workspace: string, log: (line: string) => void): Promise<StoreArrival> {
	const { issues } = await api.handlers['issue/list']({}, developer);
	const pausedIssueIds: string[] = [];
	for (const issue of issues) {
		if (issue.status === 'archived' || issue.dispatchPaused) { continue; }
		try {
			await api.handlers['issue/pause']({ issueId: issue.issueId }, developer);
			pausedIssueIds.push(issue.issueId);
		} catch (error) {
			// A managed issue without an execution is refused a pause, and nothing dispatches it; anything else (a store
			// that refuses writes) fails the Host's start: nothing of this store runs then either.
			if ((error as { reasonCode?: unknown }).reasonCode !== 'execution_not_found') { throw error; }
			log(`issue ${issue.issueId} of the store that came with the folder could not be paused (${(error as Error).message}); nothing can dispatch it without an execution`);
		}
	}
	const message = storeArrivalMessage(workspace, pausedIssueIds.length);
	log(message);
	return { message, pausedIssueIds };
}
