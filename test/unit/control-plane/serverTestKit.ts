// A control-plane server on a real temporary Unix socket, and a plain HTTP client for it.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { ControlPlaneServer, type ControlPlaneServerOptions } from '../../../src/control-plane/server.js';
import type { HostApi } from '../../../src/protocol/hostApi.js';

export interface TestServer {
	server: ControlPlaneServer;
	dir: string;
	socketPath: string;
	discoveryFile: string;
	logs: string[];
	/** Closes the server and removes the directory. */
	close(): Promise<void>;
}

export function makeTempDir(prefix = 'tutti-cp-'): string {
	// Short base: socket paths must stay under ~104 bytes.
	return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export async function startTestServer(api: HostApi, options: Partial<ControlPlaneServerOptions> = {}): Promise<TestServer> {
	const dir = makeTempDir();
	fs.chmodSync(dir, 0o700);
	const socketPath = path.join(dir, 'cp.sock');
	const discoveryFile = path.join(dir, 'discovery', 'ws.json');
	const logs: string[] = [];
	const server = await ControlPlaneServer.listen({
		api, socketPath, log: (line) => logs.push(line), discovery: { file: discoveryFile, workspace: api.workspace }, ...options,
	});
	return {
		server, dir, socketPath, discoveryFile, logs,
		close: async () => {
			await server.close();
			fs.rmSync(dir, { recursive: true, force: true });
		},
	};
}

export interface RawReply {
	status: number;
	headers: http.IncomingHttpHeaders;
	text: string;
	/** The parsed body, or undefined when it is not JSON. */
	json: unknown;
}

export function request(socketPath: string, options: { method?: string; path: string; headers?: Record<string, string>; body?: string | Buffer }): Promise<RawReply> {
	return new Promise((resolve, reject) => {
		const req = http.request({ socketPath, method: options.method ?? 'POST', path: options.path, headers: options.headers, agent: false }, (res) => {
			const chunks: Buffer[] = [];
			res.on('data', (c: Buffer) => chunks.push(c));
			res.on('end', () => {
				const text = Buffer.concat(chunks).toString('utf8');
				let json: unknown;
				try { json = JSON.parse(text); } catch { json = undefined; }
				resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
			});
		});
		req.on('error', reject);
		req.end(options.body);
	});
}

/** POST /v1/<method> with a bearer token and a JSON body. */
export function call(socketPath: string, method: string, params: unknown, token?: string): Promise<RawReply> {
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (token) {
		headers['authorization'] = `Bearer ${token}`;
	}
	return request(socketPath, { path: `/v1/${method}`, headers, body: JSON.stringify(params) });
}
