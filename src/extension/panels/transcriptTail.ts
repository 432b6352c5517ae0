// The live transcript the issue panel shows for the selected task's latest Run: reads `run/transcript` from where it
// stopped (stdout and stderr each), keeps the newest entries (bounded) and the last stderr lines (the failure card's),
// and says whether the Run is still writing. One Run at a time: selecting another task's Run starts over (the Host
// reads from offset 0 again).
import type { TranscriptEntryDto } from '../../protocol/dto.js';
import { type PanelTranscript, stderrTailMax, transcriptMaxEntries } from '../../protocol/webview.js';
import type { PanelHostApi } from './panelHostApi.js';

/** Reads per refresh: enough to catch up with a few MiB of new output, bounded so a refresh always ends. */
const maxReadsPerRefresh = 8;

export class TranscriptTail {
	#runId = '';
	#entries: TranscriptEntryDto[] = [];
	#stderrTail: string[] = [];
	#omitted = 0;
	#offset = 0;
	#stderrOffset = 0;
	#done = false;

	/** The transcript of `runId` with everything the Host has now, read from where the last call stopped. */
	async read(api: Required<Pick<PanelHostApi, 'transcript'>>, runId: string): Promise<PanelTranscript> {
		if (runId !== this.#runId) {
			this.#runId = runId;
			this.#entries = [];
			this.#stderrTail = [];
			this.#omitted = 0;
			this.#offset = 0;
			this.#stderrOffset = 0;
			this.#done = false;
		}
		for (let i = 0; i < maxReadsPerRefresh && !this.#done; i++) {
			const page = await api.transcript(runId, this.#offset, this.#stderrOffset);
			if (runId !== this.#runId) { break; }
			const progressed = page.nextOffset > this.#offset || page.stderrNextOffset > this.#stderrOffset;
			this.#append(page.entries);
			this.#offset = page.nextOffset;
			this.#stderrOffset = page.stderrNextOffset;
			this.#done = page.done;
			if (!progressed) { break; }
		}
		return {
			runId, entries: [...this.#entries], omittedCount: this.#omitted, done: this.#done,
			...(this.#stderrTail.length > 0 ? { stderrTail: [...this.#stderrTail] } : {}),
		};
	}

	#append(entries: readonly TranscriptEntryDto[]): void {
		this.#entries.push(...entries);
		const over = this.#entries.length - transcriptMaxEntries;
		if (over > 0) {
			this.#entries.splice(0, over);
			this.#omitted += over;
		}
		const stderr = entries.filter((e) => e.kind === 'stderr').map((e) => e.text.slice(0, 2_000));
		if (stderr.length > 0) { this.#stderrTail = [...this.#stderrTail, ...stderr].slice(-stderrTailMax); }
	}
}
