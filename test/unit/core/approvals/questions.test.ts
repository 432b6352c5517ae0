// An agent's question (an approval of the tool request_user_input): which approvals read as questions, how the
// developer's answers resolve to each question's, and how an answered question reads.
import { strict as assert } from 'node:assert';
import { describeAnswer } from '../../../../src/core/approvals/approvalRules.js';
import { approvalQuestions, recommendedAnswers, resolveQuestionAnswers } from '../../../../src/core/approvals/questions.js';

const color = { id: 'color', header: 'Color', question: 'Which color?', isOther: true, isSecret: false, options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] };
const name = { id: 'name', header: '', question: 'Your name?', isOther: true, isSecret: false, options: null };

describe('core/approvals/questions', () => {
	it('reads the questions of a request_user_input approval; any other tool, or no readable question, is a tool call', () => {
		assert.deepEqual(approvalQuestions({ tool: 'request_user_input', input: { questions: [color, name] } }), [
			{ id: 'color', header: 'Color', question: 'Which color?', isOther: true, isSecret: false, options: [{ label: 'Red (Recommended)', description: 'warm' }, { label: 'Blue', description: 'cool' }] },
			{ id: 'name', header: '', question: 'Your name?', isOther: true, isSecret: false, options: [] },
		]);
		assert.deepEqual(approvalQuestions({ tool: 'Bash', input: { questions: [color] } }), []);
		assert.deepEqual(approvalQuestions({ tool: 'request_user_input', input: { questions: [{ id: 'x' }, 'text', null, { question: 'no id' }] } }), []);
		assert.deepEqual(approvalQuestions({ tool: 'request_user_input', input: 'Which?' }), []);
		assert.equal(approvalQuestions({ tool: 'request_user_input', input: { questions: [color, { ...color, question: 'again' }] } }).length, 1, 'a repeated id is read once');
	});

	it('resolves answers: the only question takes plain text; several need <id>=<text>; every question needs one', () => {
		const one = approvalQuestions({ tool: 'request_user_input', input: { questions: [color] } });
		const two = approvalQuestions({ tool: 'request_user_input', input: { questions: [color, name] } });
		assert.deepEqual(resolveQuestionAnswers(one, ['Blue']), { ok: true, answers: { color: ['Blue'] } });
		assert.deepEqual(resolveQuestionAnswers(one, ['color=Green']), { ok: true, answers: { color: ['Green'] } });
		assert.deepEqual(resolveQuestionAnswers(one, ['a=b']), { ok: true, answers: { color: ['a=b'] } }, 'text whose prefix is no question id is the text');
		assert.deepEqual(resolveQuestionAnswers(two, ['color=Blue', 'name=Ada=Lovelace']), { ok: true, answers: { color: ['Blue'], name: ['Ada=Lovelace'] } });
		assert.deepEqual(resolveQuestionAnswers(two, ['color=Blue', 'color=Red']).ok, false, 'name has no answer');
		const unnamed = resolveQuestionAnswers(two, ['Blue']);
		assert.equal(unnamed.ok, false);
		assert.match(unnamed.ok ? '' : unnamed.problem, /does not say which question it answers: give each as <question id>=<answer> \(the questions: color, name\)/);
		const missing = resolveQuestionAnswers(two, ['color=Blue']);
		assert.match(missing.ok ? '' : missing.problem, /none was given for 'name' \(Your name\?\)/);
	});

	it('a plain allow takes each recommended option; a question without options cannot be allowed so', () => {
		assert.deepEqual(recommendedAnswers(approvalQuestions({ tool: 'request_user_input', input: { questions: [color] } })), { ok: true, answers: { color: ['Red (Recommended)'] } });
		const open = recommendedAnswers(approvalQuestions({ tool: 'request_user_input', input: { questions: [color, name] } }));
		assert.match(open.ok ? '' : open.problem, /'name' \(Your name\?\) has no options to pick from: give the answer with --answer/);
	});

	it('an answered question reads as answered or declined, not as a tool allowed or denied', () => {
		const base = { status: 'allowed' as const, answer: 'allow_once' as const, answeredBy: 'user' as const, answeredAtUnixMs: Date.UTC(2026, 0, 2, 3, 4, 5), message: '', grantedByApprovalId: '', tool: 'request_user_input' };
		assert.equal(describeAnswer({ ...base, input: { questions: [color] }, updatedInput: { answers: { color: ['Blue'] } } }), 'answered by the developer at 2026-01-02T03:04:05.000Z: Blue');
		assert.equal(describeAnswer({ ...base, input: { questions: [color, name] }, updatedInput: { answers: { color: 'Blue', name: ['Ada'] } } }),
			'answered by the developer at 2026-01-02T03:04:05.000Z: color: Blue; name: Ada');
		assert.equal(describeAnswer({ ...base, input: { questions: [{ ...name, isSecret: true }] }, updatedInput: { answers: { name: ['hunter2'] } } }),
			'answered by the developer at 2026-01-02T03:04:05.000Z: (hidden)');
		assert.equal(describeAnswer({ ...base, status: 'denied', answer: 'deny', input: { questions: [color] }, updatedInput: null, message: 'Pick yourself' }),
			'declined by the developer at 2026-01-02T03:04:05.000Z: Pick yourself');
		assert.equal(describeAnswer({ ...base, tool: 'Bash', input: { command: 'ls' }, updatedInput: null }), 'allowed once by the developer at 2026-01-02T03:04:05.000Z');
		assert.equal(describeAnswer({ ...base, status: 'canceled', answer: '', answeredBy: 'host', input: { questions: [color] }, updatedInput: null, message: 'stopped' }),
			'canceled at 2026-01-02T03:04:05.000Z: stopped');
	});
});
