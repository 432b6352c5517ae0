// Queued messages: append-only and durable; paused is derived from person Stops vs. later Resumes.
import { strict as assert } from 'node:assert';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'mocha';
import { appendQueueEntry, queueFilePath, readQueue } from '../../../../src/host/runs/messages/queueFile.js';
import { deriveQueueState, nextDeliverable, type QueueEntry } from '../../../../src/host/runs/messages/queueState.js';

const msg = (messageId: string, at = 1): QueueEntry => ({ type: 'message', messageId, text: `text ${messageId}`, atUnixMs: at });

describe('run message queue', () => {
	it('is not paused without person Stops; messages keep their order', () => {
		const state = deriveQueueState([msg('m1'), msg('m2'), msg('m3')], [{ eventId: 's1', reason: 'host' }]);
		assert.equal(state.paused, false);
		assert.deepEqual(state.pending.map((m) => m.messageId), ['m1', 'm2', 'm3']);
		assert.equal(nextDeliverable(state)?.messageId, 'm1');
	});

	it('a person Stop pauses it until a Resume covers that Stop; a later Stop pauses again', () => {
		const stops = [{ eventId: 's1', reason: 'person' }];
		const paused = deriveQueueState([msg('m1')], stops);
		assert.deepEqual([paused.paused, paused.pausedByStopEventIds], [true, ['s1']]);
		assert.equal(nextDeliverable(paused), null, 'nothing is delivered while paused');
		assert.deepEqual(paused.pending.map((m) => m.messageId), ['m1'], 'paused messages are kept');

		const resumed: QueueEntry[] = [msg('m1'), { type: 'resume', eventId: 'r1', resumesStopEventIds: ['s1'], atUnixMs: 2 }, msg('m2')];
		assert.equal(deriveQueueState(resumed, stops).paused, false);
		const again = deriveQueueState(resumed, [...stops, { eventId: 's2', reason: 'person' }]);
		assert.deepEqual([again.paused, again.pausedByStopEventIds], [true, ['s2']]);
	});

	it('delivered messages leave the pending list; duplicates of an id are one message', () => {
		const state = deriveQueueState([msg('m1'), msg('m2'), msg('m1', 9), { type: 'delivered', messageId: 'm1', atUnixMs: 3 }], []);
		assert.deepEqual(state.all.map((m) => [m.messageId, m.atUnixMs]), [['m1', 1], ['m2', 1]]);
		assert.deepEqual(state.pending.map((m) => m.messageId), ['m2']);
	});

	it('the file is append-only and survives a torn last line', () => {
		const dir = mkdtempSync(join(tmpdir(), 'tutti-queue-'));
		try {
			assert.deepEqual(readQueue(dir), []);
			appendQueueEntry(dir, msg('m1'));
			appendFileSync(queueFilePath(dir), '{"type":"message","messageId":"torn');
			appendQueueEntry(dir, msg('m2'));
			assert.deepEqual(readQueue(dir).map((e) => (e.type === 'message' ? e.messageId : e.type)), ['m1', 'm2']);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
