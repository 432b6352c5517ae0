// The one request every client sends the Host: `POST /v1/<method>` over its socket, JSON body, optional bearer
// token. Node only (no zod, no protocol): the CLI, the supervisor, the extension's viewer client and tests share
// it, and each reads the reply its own way (the CLI passes the result text through, the extension validates it).
import { request as httpRequest } from 'node:http';

export interface HostReply {
	status: number;
	body: string;
}

export interface HostRequest {
	socketPath: string;
	/** The method name, e.g. `await/review` (sent as `/v1/await/review`). */
	method: string;
	/** The JSON text of the params. */
	body: string;
	/** Sent as `Authorization: Bearer <token>` when set. */
	token?: string | undefined;
	/**
	 * Wall-clock bound on the whole exchange (connect, send, reply): past it the request is destroyed and the promise
	 * rejects with code `ETIMEDOUT`, however the Host behaves (silent, or trickling bytes).
	 */
	timeoutMs: number;
}

/** Rejects with the socket error; its `code` tells a connect failure (ENOENT, ECONNREFUSED…) from a broken exchange. */
export function postToHost(request: HostRequest): Promise<HostReply> {
	return new Promise((resolve, reject) => {
		const headers: Record<string, string | number> = {
			'content-type': 'application/json',
			'content-length': Buffer.byteLength(request.body),
			'connection': 'close',
		};
		if (request.token) {
			headers['authorization'] = `Bearer ${request.token}`;
		}
		const req = httpRequest({ socketPath: request.socketPath, path: `/v1/${request.method}`, method: 'POST', headers, agent: false, host: 'tutti' }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (chunk: Buffer) => chunks.push(chunk));
			res.on('end', () => { clearTimeout(deadline); resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }); });
			res.on('error', (error) => { clearTimeout(deadline); reject(error); });
		});
		const deadline = setTimeout(() => {
			req.destroy(Object.assign(new Error(`the Host did not answer ${request.method} within ${formatMs(request.timeoutMs)}`), { code: 'ETIMEDOUT' }));
		}, request.timeoutMs);
		req.on('error', (error) => { clearTimeout(deadline); reject(error); });
		req.end(request.body);
	});
}

function formatMs(ms: number): string {
	return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
