// What the panel shows of the latest Run while it works: its readable transcript (read by the Host from the Run's
// stream) and the message box of its agent, with what was sent to it. Pure.
import { formatCount, transcriptKindLabel } from './format.js';
import type { PanelTranscript, RunDto, TranscriptEntryDto } from './snapshotTypes.js';

export interface TranscriptEntryModel {
	readonly kind: TranscriptEntryDto['kind'];
	/** What kind of line it is, in words ("Agent", "Ran", "Edited", "stderr", …). */
	readonly label: string;
	/** The kind changes here (the first line, or another kind than the line before): the label is drawn only then. */
	readonly showLabel: boolean;
	readonly text: string;
}

export interface TranscriptModel {
	readonly runId: string;
	readonly entries: readonly TranscriptEntryModel[];
	/** "Showing the latest 300 of 1,204 entries", or ''. */
	readonly omittedLabel: string;
	readonly live: boolean;
	/** The last lines the Run wrote to stderr (its failure card shows them); empty when none. */
	readonly stderrTail: readonly string[];
}

export interface MessagesModel {
	readonly runId: string;
	/** What a message does now, from the Host's `messagesWhileRunning`. */
	readonly hint: string;
	readonly sent: readonly { readonly messageId: string; readonly text: string; readonly stateLabel: string }[];
}

const messageStateLabels = { queued: 'queued for the next turn', sent: 'sent, not echoed yet', delivered: 'delivered' } as const;

const messageHints = {
	'into-turn': 'It reaches the agent while it works',
	'queued-until-turn-ends': 'It starts the agent\u2019s next turn (this agent reads no messages while it works)',
} as const;

/** The transcript of the latest Run, when the snapshot carries that Run's. */
export function transcriptModel(t: PanelTranscript | null | undefined, latest: RunDto | undefined): TranscriptModel | null {
	if (!t || !latest || t.runId !== latest.runId) { return null; }
	return {
		runId: t.runId,
		entries: t.entries.map((e, i) => ({ kind: e.kind, label: transcriptKindLabel[e.kind], showLabel: i === 0 || t.entries[i - 1]!.kind !== e.kind, text: e.text })),
		omittedLabel: t.omittedCount > 0 ? `Showing the latest ${formatCount(t.entries.length)} of ${formatCount(t.entries.length + t.omittedCount)} entries` : '',
		live: !t.done,
		stderrTail: t.stderrTail ?? [],
	};
}

/** The message box, while the Host says the latest Run's agent takes messages (it says so only while the Run runs). */
export function messagesModel(r: RunDto | undefined): MessagesModel | null {
	if (!r || r.messagesWhileRunning === undefined || r.messagesWhileRunning === 'not-accepted') { return null; }
	return {
		runId: r.runId, hint: messageHints[r.messagesWhileRunning],
		sent: (r.messages ?? []).map((m) => ({ messageId: m.messageId, text: m.text, stateLabel: messageStateLabels[m.state] })),
	};
}
