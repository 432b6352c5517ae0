import { strict as assert } from 'node:assert';
import { isLiveRun, isStopping, type RunControlFacts, runControls } from '../../../../src/core/runs/runControls.js';
import { runOutcomes, stopAnswers, taskStatuses } from '../../../../src/core/model.js';

const running: RunControlFacts = { status: 'running', outcome: null, stopNotes: [] };

describe('core/runs/runControls', () => {
	it('a Run is live, and can be stopped, while it starts or runs without an outcome', () => {
		const live = taskStatuses.filter((status) => isLiveRun({ status, outcome: null }));
		assert.deepEqual(live, ['not_started', 'running']);
		for (const outcome of runOutcomes) {
			assert.equal(isLiveRun({ status: 'running', outcome }), false, `running with outcome ${outcome}`);
		}
		for (const status of taskStatuses) {
			assert.equal(runControls({ ...running, status }).stop, live.includes(status), status);
		}
	});

	it('Stopping while a person\'s Stop is unanswered or took effect, on a live Run only', () => {
		const table: [StopAnswerOrNull, boolean][] = [
			[null, true], ['took', true], ['end-owed', true], ['declined', false], ['interrupt-unconfirmed', false], ['no-effect', false],
		];
		assert.deepEqual(table.slice(1).map(([a]) => a), [...stopAnswers], 'every answer is in the table');
		for (const [answer, stopping] of table) {
			assert.equal(isStopping({ ...running, stopNotes: [{ reason: 'person', answer }] }), stopping, String(answer));
			assert.equal(isStopping({ ...running, status: 'canceled', outcome: 'cancellation', stopNotes: [{ reason: 'person', answer }] }), false, `settled, ${String(answer)}`);
		}
	});

	it('a Stop by Tutti (host, evict) is not the developer\'s "Stopping…"; an earlier Stop that took still counts after a later one did nothing', () => {
		assert.equal(isStopping({ ...running, stopNotes: [{ reason: 'host', answer: null }, { reason: 'evict', answer: 'took' }] }), false);
		assert.equal(isStopping({ ...running, stopNotes: [{ reason: 'person', answer: 'took' }, { reason: 'person', answer: 'no-effect' }] }), true);
	});
});

type StopAnswerOrNull = (typeof stopAnswers)[number] | null;
