// Best-effort notice to the Host that a Run started or exited (`POST /v1/run/report`). Nothing depends on it:
// the Host's runner also watches the Run directory, so every failure here is ignored. Deliberately imports
// nothing from src/protocol (that would bundle zod into every supervisor); the header is `authHeader` there.
import { request } from 'node:http';

export function reportToHost(
	env: Readonly<Record<string, string | undefined>>,
	runId: string,
	event: 'started' | 'exited',
	timeoutMs = 1000,
): Promise<void> {
	const socketPath = env.TUTTI_IPC_HOOK;
	const token = env.TUTTI_SESSION_TOKEN;
	if (!socketPath || !token) { return Promise.resolve(); }
	const body = JSON.stringify({ runId, event });
	return new Promise((resolve) => {
		let done = false;
		const finish = (): void => { if (!done) { done = true; resolve(); } };
		try {
			const req = request({
				socketPath,
				path: '/v1/run/report',
				method: 'POST',
				headers: {
					'content-type': 'application/json',
					'content-length': Buffer.byteLength(body),
					authorization: `Bearer ${token}`,
				},
				timeout: timeoutMs,
			}, (res) => { res.resume(); res.on('end', finish); res.on('error', finish); });
			req.on('timeout', () => { req.destroy(); finish(); });
			req.on('error', finish);
			req.end(body);
		} catch {
			finish();
		}
		setTimeout(finish, timeoutMs + 100).unref();
	});
}
