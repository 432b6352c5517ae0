// What came with the folder runs nothing until the developer says so here. Two things a clone, a copy, a pull or an
// agent's edit can deliver without a word from the developer:
// - a store this machine did not create or open before at this path (knownStores.ts): a clone, a copy, a share
//   used from another machine;
// - a `.tutti/config.json` that differs from the one this store's Host last started with here (configFingerprint.ts):
//   it defines the commands agents run (argv, args, path, env, worktreeSetup, …).
// Before the Host answers any request or reconciles anything, every issue's dispatch is then paused exactly as the
// developer's `issue pause` does (so a prepared Run, a queued task or a wake of it never starts; a pause an agent
// held becomes the developer's, which no agent lifts), and the Host says why.
import { ReasonedError } from '../core/errors.js';
import type { Caller } from '../protocol/controlPlane.js';
import type { HostApi } from '../protocol/hostApi.js';

/** The first sentence every surface shows (the Host's ready line and log, `hello`, the editor). */
export const storeArrivalHeadline = 'This store came with the folder: nothing runs until you resume.';
export const configChangeHeadline = '`.tutti/config.json` changed since Tutti last ran here: nothing runs until you resume.';
export const configReloadHeadline = '`.tutti/config.json` changed while Tutti ran: nothing new runs until you resume.';

/** Why the Host paused every issue as it started. */
export type StartPauseReason =
	| { readonly kind: 'arrival'; readonly workspace: string }
	/** `changed`: what differs, in words (configFingerprint.ts configChange); `whileRunning`: the Host restarted to apply it. */
	| { readonly kind: 'configChanged'; readonly workspace: string; readonly changed: string; readonly whileRunning?: boolean };

export interface StartPause {
	readonly reason: StartPauseReason['kind'];
	/** What the developer is told: the headline, why, and what to do. */
	readonly message: string;
	/** The issues whose dispatch this paused (those archived or already paused by the developer are not listed). */
	readonly pausedIssueIds: readonly string[];
}

const developer: Caller = { kind: 'user' };

const developerResumes = 'then the developer resumes an issue with `tutti issue resume --issue-id ID --as-user` (or Resume in the editor).';

export function startPauseMessage(reason: StartPauseReason, paused: number): string {
	if (reason.kind === 'arrival') {
		return `${storeArrivalHeadline} This machine has not opened the Tutti store in ${reason.workspace} before (a clone, a copy, ` +
			`or a store used on another machine), so Tutti paused dispatch of every issue (${paused} newly paused) and starts ` +
			`none of its Runs, wakes or queued tasks; check each issue and the agent targets in .tutti/config.json, ${developerResumes}`;
	}
	return `${reason.whileRunning === true ? configReloadHeadline : configChangeHeadline} What changed: ${reason.changed}. The file defines the commands agents run, and a pull, a ` +
		`checkout or an agent can write it, so Tutti paused dispatch of every issue in ${reason.workspace} (${paused} newly paused) ` +
		`and starts none of its Runs, wakes or queued tasks; read .tutti/config.json (if you changed it yourself, just resume), ${developerResumes}`;
}

/**
 * Pauses every issue that is not archived and not paused by the developer yet, through the developer's own pause
 * (an agent's pause is taken over: then only the developer lifts it).
 */
export async function pauseAtStart(api: HostApi, reason: StartPauseReason, log: (line: string) => void): Promise<StartPause> {
	const { issues } = await api.handlers['issue/list']({}, developer);
	const pausedIssueIds: string[] = [];
	for (const issue of issues) {
		if (issue.status === 'archived' || (issue.dispatchPaused && (issue.pausedBy ?? 'developer') === 'developer')) { continue; }
		try {
			await api.handlers['issue/pause']({ issueId: issue.issueId }, developer);
			pausedIssueIds.push(issue.issueId);
		} catch (error) {
			// A managed issue without an execution is refused a pause, and nothing dispatches it; anything else (a store
			// that refuses writes) fails the Host's start: nothing of this store runs then either.
			if (!(error instanceof ReasonedError && error.reasonCode === 'execution_not_found')) { throw error; }
			log(`issue ${issue.issueId} could not be paused (${(error as Error).message}); nothing can dispatch it without an execution`);
		}
	}
	const message = startPauseMessage(reason, pausedIssueIds.length);
	log(message);
	return { reason: reason.kind, message, pausedIssueIds };
}
