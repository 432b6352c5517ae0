// Reads a request body up to a byte cap; past the cap it stops reading (the caller answers 413 and closes).
import type { IncomingMessage } from 'node:http';

export type BodyResult =
	| { kind: 'ok'; text: string }
	| { kind: 'too_large' }
	/** The client went away before the body ended: there is nobody to answer. */
	| { kind: 'aborted' };

export function readBody(req: IncomingMessage, capBytes: number): Promise<BodyResult> {
	const declared = Number(req.headers['content-length']);
	if (Number.isFinite(declared) && declared > capBytes) {
		return Promise.resolve({ kind: 'too_large' });
	}
	return new Promise((resolve) => {
		const chunks: Buffer[] = [];
		let size = 0;
		let settled = false;
		const finish = (result: BodyResult): void => {
			if (settled) {
				return;
			}
			settled = true;
			req.off('data', onData);
			req.off('end', onEnd);
			req.off('error', onAbort);
			req.off('close', onAbort);
			resolve(result);
		};
		const onData = (chunk: Buffer): void => {
			size += chunk.length;
			if (size > capBytes) {
				req.pause();
				finish({ kind: 'too_large' });
				return;
			}
			chunks.push(chunk);
		};
		const onEnd = (): void => finish({ kind: 'ok', text: Buffer.concat(chunks).toString('utf8') });
		const onAbort = (): void => finish({ kind: 'aborted' });
		req.on('data', onData);
		req.on('end', onEnd);
		req.on('error', onAbort);
		req.on('close', onAbort);
	});
}
