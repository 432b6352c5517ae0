// Best-effort notice to the Host that a Run started or exited (`POST /v1/run/report`). Nothing depends on it:
// the Host's runner also watches the Run directory, so every failure here is ignored. Goes through src/ipc (node
// only), never src/protocol: that would bundle zod into every supervisor.
import { postToHost } from '../ipc/postToHost.js';

export async function reportToHost(
	env: Readonly<Record<string, string | undefined>>,
	runId: string,
	event: 'started' | 'exited',
	timeoutMs = 1000,
): Promise<void> {
	const socketPath = env.TUTTI_IPC_HOOK;
	const token = env.TUTTI_SESSION_TOKEN;
	if (!socketPath || !token) { return; }
	try {
		await postToHost({ socketPath, method: 'run/report', body: JSON.stringify({ runId, event }), token, timeoutMs });
	} catch {
		// Best effort: the runner sees the Run directory anyway.
	}
}
