// A fake codex app-server for unit tests: the client's streams on one side, on the other the lines the client wrote
// (parsed) and a way to write the server's lines. No process, no timing: tests await what the client wrote.
import { PassThrough } from 'node:stream';

export type Json = Record<string, unknown>;

export class FakePeer {
	/** The server's stdout (the client reads it). */
	readonly toClient = new PassThrough();
	/** The server's stdin (the client writes it). */
	readonly fromClient = new PassThrough();
	readonly received: Json[] = [];
	readonly #waiters: { pred: (m: Json) => boolean; resolve: (m: Json) => void }[] = [];
	#rest = '';

	constructor() {
		this.fromClient.setEncoding('utf8').on('data', (chunk: string) => {
			this.#rest += chunk;
			let nl: number;
			while ((nl = this.#rest.indexOf('\n')) >= 0) {
				const message = JSON.parse(this.#rest.slice(0, nl)) as Json;
				this.#rest = this.#rest.slice(nl + 1);
				this.received.push(message);
				for (const w of [...this.#waiters]) {
					if (w.pred(message)) { this.#waiters.splice(this.#waiters.indexOf(w), 1); w.resolve(message); }
				}
			}
		});
	}

	/** The next (or an already received) message from the client that satisfies `pred`. */
	next(pred: (m: Json) => boolean): Promise<Json> {
		const seen = this.received.find(pred);
		if (seen !== undefined) { return Promise.resolve(seen); }
		return new Promise((resolve) => { this.#waiters.push({ pred, resolve }); });
	}

	/** The client's request for `method` (the first one not yet taken). */
	async request(method: string, taken = new Set<unknown>()): Promise<Json> {
		return this.next((m) => m.method === method && 'id' in m && !taken.has(m.id));
	}

	send(message: unknown): void {
		this.toClient.write(`${JSON.stringify(message)}\n`);
	}

	answer(request: Json, result: unknown): void {
		this.send({ id: request.id, result });
	}

	end(): void {
		this.toClient.end();
	}
}
