// The command a follow-up hands the source agent (issue 4 "Next steps after completion"): a new managed issue
// whose content is the developer's text. Pure; every value is filled in (no placeholders).
import { planIssueCreateCommand } from './commands.js';
import type { FollowUpFact } from './facts.js';

const titleLimit = 80;

/** The new issue's title: "Follow-up: " and the text's first line, shortened. */
export function followUpTitle(text: string): string {
	const firstLine = text.trim().split(/\r?\n/, 1)[0]?.trim() ?? '';
	const short = firstLine.length > titleLimit ? `${firstLine.slice(0, titleLimit - 1).trimEnd()}…` : firstLine;
	return `Follow-up: ${short === '' ? 'next step' : short}`;
}

/** Deterministic, so running the command twice replays the same create. */
export function followUpRequestId(followUpId: string): string {
	return `create-${followUpId}`;
}

/**
 * Angle brackets would read as a placeholder to the response validator (and to a model): the command carries
 * them as ‹ › while the exact text travels in the response's `note`.
 */
function withoutAngleBrackets(value: string): string {
	return value.replace(/</g, '‹').replace(/>/g, '›');
}

export function followUpCommand(followUp: FollowUpFact): string {
	const title = withoutAngleBrackets(followUpTitle(followUp.text));
	const content = withoutAngleBrackets(followUp.text);
	return planIssueCreateCommand(title, content, followUpRequestId(followUp.followUpId));
}
