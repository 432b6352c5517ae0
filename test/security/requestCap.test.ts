// Security: the Host's request cap is 8 MiB (8,388,608 bytes), as SECURITY.md says: a body of exactly that size is
// read and answered, one byte more is refused with 413 before it is read, and the Host keeps serving.
import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import { type HostHandle, expectOk, startHost } from '../integration/harness.js';
import { userCredentialOf } from './securityKit.js';

/** 8 MiB, written out here (not imported from the code under test). */
const capBytes = 8 * 1024 * 1024;

/** `issue/list` with `{}` padded by JSON whitespace to `size` bytes, over a raw socket; resolves with the reply text. */
function listWithBodyOf(socketPath: string, token: string, size: number, framing: 'content-length' | 'chunked'): Promise<string> {
	const body = Buffer.alloc(size, 0x20);
	body.write('{}', 0, 'latin1');
	const head = `POST /v1/issue/list HTTP/1.1\r\nhost: tutti\r\ncontent-type: application/json\r\nauthorization: Bearer ${token}\r\nconnection: close\r\n`
		+ (framing === 'content-length' ? `content-length: ${size}\r\n\r\n` : 'transfer-encoding: chunked\r\n\r\n');
	const payload = framing === 'content-length' ? body
		: Buffer.concat([Buffer.from(`${size.toString(16)}\r\n`), body, Buffer.from('\r\n0\r\n\r\n')]);
	return new Promise((resolve) => {
		const socket = net.connect(socketPath);
		let text = '';
		socket.setEncoding('utf8').on('data', (chunk: string) => { text += chunk; });
		socket.on('error', () => { /* the Host closes a refused request while it is still being written */ });
		socket.on('close', () => resolve(text));
		socket.write(head);
		if (framing === 'content-length' && size > capBytes) {
			// Declared over the cap: the Host answers from the head alone, before any byte of the body. Sending the body
			// anyway races the Host's close: the write fails and the socket is gone before the reply is read.
			return;
		}
		socket.write(payload);
	});
}

describe('security: the request cap is 8 MiB', function () {
	let host: HostHandle;
	let token: string;

	before(async function () {
		host = await startHost();
		token = userCredentialOf(host);
	});

	after(async function () {
		await host?.dispose();
	});

	for (const framing of ['content-length', 'chunked'] as const) {
		it(`a body of exactly 8,388,608 bytes is answered; one byte more is refused with 413 (${framing})`, async function () {
			const atCap = await listWithBodyOf(host.socket, token, capBytes, framing);
			assert.match(atCap, /^HTTP\/1\.1 200 /, atCap.slice(0, 300));
			assert.match(atCap, /"ok":true/);
			const over = await listWithBodyOf(host.socket, token, capBytes + 1, framing);
			assert.match(over, /^HTTP\/1\.1 413 /, over.slice(0, 300));
			assert.match(over, /request cap of 8388608 bytes \(8 MiB/, over.slice(0, 600));
			expectOk(await host.cli(['issue', 'list', '--json'], { asUser: true }));
		});
	}
});
