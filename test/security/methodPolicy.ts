// Who may call each control-plane method: the promise the security tests check (developerActions.test.ts calls
// every method with agent tokens; agentTexts.test.ts knows the developer's commands from it).
import type { Method } from '../../src/protocol/controlPlane.js';

/** Who may call a method: the developer only, or agents too (possibly with developer-only variants, listed apart). */
export type Policy = 'developer' | 'agent';

/**
 * The promise, method by method. `agent` methods may still have developer-only variants (a budget, a pause, a
 * source target): those are listed in `calls` with policy 'developer'.
 */
export const policy: Record<Method, Policy> = {
	'hello': 'agent', 'agent/list': 'agent', 'session/state': 'agent', 'agent/resume': 'agent', 'hook/stop': 'agent',
	'issue/create': 'agent', 'issue/get': 'agent', 'issue/list': 'agent', 'issue/update': 'agent',
	'task/add': 'agent', 'task/update': 'agent', 'task/delete': 'agent',
	'plan/create': 'agent', 'plan/get': 'agent', 'plan/getCompact': 'agent', 'plan/getTask': 'agent', 'plan/schedule': 'agent', 'plan/mutate': 'agent',
	'plan/acknowledge': 'agent', 'plan/complete': 'agent', 'plan/stop': 'agent', 'plan/resume': 'agent', 'plan/pause': 'agent',
	'goalReview/verdict': 'agent',
	'run/get': 'agent', 'run/list': 'agent', 'run/log': 'agent', 'run/transcript': 'agent', 'run/report': 'agent', 'run/queue': 'agent',
	'await/review': 'agent', 'await/checkpoint': 'agent', 'await/next-action': 'agent',
	'approval/request': 'agent', 'approval/wait': 'agent', 'approval/list': 'agent',
	'issue/changes': 'agent', 'turn/list': 'agent',
	// Developer decisions.
	'session/open': 'developer', 'session/stop': 'developer',
	'issue/pause': 'developer', 'issue/resume': 'developer', 'issue/stop': 'developer', 'issue/setChecks': 'developer',
	'issue/integrate': 'developer', 'issue/finish': 'developer', 'issue/followUp': 'developer',
	'review/accept': 'developer', 'review/requestChanges': 'developer', 'goal/confirm': 'developer', 'goal/requestChanges': 'developer',
	'goalReview/switchToSelf': 'developer',
	'run/stop': 'developer', 'run/send': 'developer', 'run/resume-queue': 'developer', 'worktree/remove': 'developer', 'worktree/prune': 'developer',
	'task/retry': 'developer', 'task/updateFromBase': 'developer',
	'approval/answer': 'developer', 'question/answer': 'developer',
};

