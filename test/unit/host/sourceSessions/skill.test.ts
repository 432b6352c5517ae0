// The skill injected into a managed source session says exactly what each command does: only the developer
// accepts a task in review, and the developer's decision wakes the agent.
import { strict as assert } from 'node:assert';
import { tuttiCliSkill } from '../../../../src/host/wakes/skill.js';

describe('the Tutti CLI skill', () => {
	it('never says that scheduling or acknowledging accepts a result', () => {
		assert.doesNotMatch(tuttiCliSkill, /\(accepts the result\)|accepts this result|also accepts/);
		assert.match(tuttiCliSkill, /only the developer accepts/i);
	});

	it('names the bounded wait for a review and the checkpoint the decision brings', () => {
		assert.match(tuttiCliSkill, /tutti await-review --issue-id <issueId> --task-id <task-id>/);
		assert.match(tuttiCliSkill, /- task_accepted: /);
		assert.match(tuttiCliSkill, /Request changes/);
	});

	it("teaches that a budget is the developer's: never raised by the agent, which tells them and waits", () => {
		assert.match(tuttiCliSkill, /budget_exceeded/);
		assert.match(tuttiCliSkill, /budget_unavailable/);
		assert.match(tuttiCliSkill, /never run `tutti issue update` yourself/);
		assert.match(tuttiCliSkill, /tutti plan issue await --issue-id <issueId>/);
	});
});
