// Sessions and authentication. A bearer token is either the developer's credential or an agent session's token;
// only sha256(token) is ever stored, and the caller is derived from the token alone (never from a flag).
import { createHash, timingSafeEqual } from 'node:crypto';
import { rejection } from '../../core/hints.js';
import type { IdSource, Clock } from '../../core/ports.js';
import type { AgentSession } from '../../core/model.js';
import type { Caller, ParsedParams, Result } from '../../protocol/controlPlane.js';
import type { Store } from '../../store/database.js';
import { issueRepository } from '../../store/repositories/issueRepository.js';
import { sessionRepository } from '../../store/repositories/sessionRepository.js';
import type { HostConfig } from '../config.js';
import { findAgentTarget } from '../agentTargetLookup.js';
import { requireUser } from './callerPolicy.js';
import { mintToken, tokenHash } from '../turns/sessionTokens.js';


/** Constant-time comparison (both sides hashed first, so lengths never leak either). */
function sameSecret(a: string, b: string): boolean {
	return timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());
}

export interface SessionServiceDeps {
	store: Store;
	clock: Clock;
	ids: IdSource;
	config: HostConfig;
	userCredential: string;
}

export class SessionService {
	constructor(private readonly deps: SessionServiceDeps) {}

	/** The caller for a bearer token, or null when the token is unknown. */
	authenticate(token: string | undefined): Caller | null {
		if (token === undefined || token === '') { return null; }
		if (this.deps.userCredential !== '' && sameSecret(token, this.deps.userCredential)) { return { kind: 'user' }; }
		const hash = tokenHash(token);
		const session = this.deps.store.read((r) => sessionRepository.byTokenHash(r, hash));
		return session ? { kind: 'session', sessionId: session.sessionId, role: session.role } : null;
	}

	/** `session/open` (developer only): a new agent session and its token; the store keeps only the hash. */
	async open(params: ParsedParams<'session/open'>, caller: Caller): Promise<Result<'session/open'>> {
		requireUser(caller, 'session open');
		if (params.agentTargetId !== undefined) { findAgentTarget(this.deps.config, params.agentTargetId); }
		const token = mintToken();
		const session: AgentSession = {
			sessionId: this.deps.ids.next('session'),
			role: params.role,
			issueId: params.issueId ?? '',
			taskId: '',
			runId: '',
			agentTargetId: params.agentTargetId ?? '',
			providerSessionId: '',
			createdAtUnixMs: this.deps.clock.now(),
		};
		const hash = tokenHash(token);
		await this.deps.store.transaction((tx) => {
			if (params.issueId !== undefined && !issueRepository.get(tx, params.issueId)) {
				throw rejection('issue_not_found', `Issue ${params.issueId} does not exist.`, { issueId: params.issueId });
			}
			sessionRepository.insert(tx, session, hash);
		});
		return { sessionId: session.sessionId, token, role: session.role };
	}
}
