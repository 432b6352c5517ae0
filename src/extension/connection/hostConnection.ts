// Which Host this window talks to, and how: it owns the store (the Host runs in this extension host), another
// window owns it (read-only viewer: every call goes to the owner's socket), or there is no store yet.
// vscode-free: the extension edge shows the state (context key, welcome view, board message).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ReasonedError } from '../../core/errors.js';
import { Emitter, type Event } from '../../core/events.js';
import type { Disposable } from '../../core/lifecycle.js';
import type { HostConfig } from '../../host/config.js';
import { type HostScripts, type RunningHost, startHost } from '../../host/host.js';
import { isKnownWorkspace, knownStoresDir } from '../../host/knownStores.js';
import type { HostClient } from '../client/hostClient.js';
import { InProcessClient } from '../client/inProcessClient.js';
import { SocketClient } from '../client/socketClient.js';
import type { StoreLocation } from '../settings/tuttiSettings.js';
import { ownerEndpoint } from './ownerEndpoint.js';

export type ConnectionState =
	| { readonly kind: 'noFolder' }
	| { readonly kind: 'noStore'; readonly workspace: string }
	/** The folder has a store this machine never created or opened here (it came with the folder): nothing starts by itself. */
	| { readonly kind: 'unknownStore'; readonly workspace: string }
	| { readonly kind: 'starting'; readonly workspace: string }
	| { readonly kind: 'owner'; readonly workspace: string; readonly host: RunningHost; readonly client: HostClient }
	| { readonly kind: 'viewer'; readonly workspace: string; readonly ownerPid: number | undefined; readonly socketPath: string; readonly client: HostClient }
	| { readonly kind: 'failed'; readonly workspace: string; readonly message: string };

export type ConnectionKind = ConnectionState['kind'];

export interface HostConnectionOptions {
	/** The workspace folder, or undefined when the window has none. */
	readonly workspace: string | undefined;
	/** Read at every start, so a restart picks up changed settings. */
	readonly hostSettings: () => { config: HostConfig; store: StoreLocation };
	/** The bundled supervisor and CLI (default: startHost's own default, dist/ beside the bundle). */
	readonly scripts?: HostScripts;
	readonly log: (line: string) => void;
	/** Whether this machine created or opened a store in the folder before (default: its known-stores record). */
	readonly knownHere?: (realWorkspace: string) => boolean;
}

/**
 * Whether a window opening a folder starts its Host by itself: only where there is a store that this machine
 * created or opened before (src/host/knownStores.ts). A store that came with the folder waits for the developer's
 * "Start in Folder" (which opens it with every issue paused); a folder without a store waits as before.
 */
export function autoStartDecision(hasStoreFiles: boolean, knownHere: boolean): 'connect' | 'noStore' | 'unknownStore' {
	if (!hasStoreFiles) { return 'noStore'; }
	return knownHere ? 'connect' : 'unknownStore';
}

/** Another Host holds the store lease (a store, domain or call error with that reason). */
export function isStoreLocked(error: unknown): boolean {
	return error instanceof ReasonedError && error.reasonCode === 'store_locked';
}

/** The pid named by a `store_locked` error (its details, else its message). */
function lockOwnerPid(error: unknown): number | undefined {
	const details = (error as { details?: { owner?: { pid?: unknown } } }).details;
	if (typeof details?.owner?.pid === 'number') {
		return details.owner.pid;
	}
	const match = /pid (\d+)/.exec(error instanceof Error ? error.message : '');
	return match ? Number(match[1]) : undefined;
}

/** Whether the folder already has a store (its database or journal). */
export function hasStore(store: StoreLocation): boolean {
	const stem = store.fileName.replace(/\.[^.]*$/, '');
	return fs.existsSync(store.file) || fs.existsSync(path.join(store.dir, `${stem}.journal`));
}

export class HostConnection implements Disposable {
	readonly #changed = new Emitter<ConnectionState>();
	readonly onDidChange: Event<ConnectionState> = this.#changed.event;
	readonly #options: HostConnectionOptions;
	#state: ConnectionState;
	#pending: Promise<ConnectionState> | undefined;
	#disposed = false;

	constructor(options: HostConnectionOptions) {
		this.#options = options;
		this.#state = options.workspace === undefined ? { kind: 'noFolder' } : { kind: 'noStore', workspace: realPath(options.workspace) };
	}

	get state(): ConnectionState {
		return this.#state;
	}

	/** The client for the current Host, or undefined when there is none. */
	get client(): HostClient | undefined {
		return this.#state.kind === 'owner' || this.#state.kind === 'viewer' ? this.#state.client : undefined;
	}

	/**
	 * Connects if the folder has a store this machine knows (owner, or viewer when another window owns it); otherwise
	 * `noStore`, or `unknownStore` for a store that came with the folder (autoStartDecision).
	 */
	start(): Promise<ConnectionState> {
		return this.#serialize(async () => {
			if (this.#state.kind === 'noFolder') {
				return this.#state;
			}
			const workspace = this.#state.workspace;
			const hasStoreFiles = hasStore(this.#options.hostSettings().store);
			const knownHere = this.#options.knownHere ?? ((ws: string) => isKnownWorkspace(knownStoresDir(), ws));
			const decision = autoStartDecision(hasStoreFiles, hasStoreFiles && knownHere(workspace));
			if (decision !== 'connect') {
				if (decision === 'unknownStore' && this.#state.kind !== 'unknownStore') {
					this.#options.log(`${workspace} has a Tutti store this machine has not opened before: nothing starts until "Tutti: Start in Folder"`);
				}
				return this.#set({ kind: decision, workspace });
			}
			return this.#connect(workspace);
		});
	}

	/** Creates the store if needed and connects ("Start Tutti in this folder"). */
	startInFolder(): Promise<ConnectionState> {
		return this.#serialize(async () => (this.#state.kind === 'noFolder' ? this.#state : this.#connect(this.#state.workspace)));
	}

	/** Closes this window's Host (if it owns one) and connects again, e.g. after the settings changed. */
	restart(): Promise<ConnectionState> {
		return this.#serialize(async () => {
			if (this.#state.kind === 'noFolder') {
				return this.#state;
			}
			const workspace = this.#state.workspace;
			await this.#closeHost();
			return hasStore(this.#options.hostSettings().store) ? this.#connect(workspace) : this.#set({ kind: 'noStore', workspace });
		});
	}

	/** A viewer lost its owner: try to take the store over (or find the new owner). */
	ownerLost(): Promise<ConnectionState> {
		return this.#serialize(async () => (this.#state.kind === 'viewer' ? this.#connect(this.#state.workspace) : this.#state));
	}

	async #connect(workspace: string): Promise<ConnectionState> {
		if (this.#state.kind === 'owner') {
			return this.#state;
		}
		if (this.#state.kind !== 'viewer') {
			this.#set({ kind: 'starting', workspace });
		}
		const { config, store } = this.#options.hostSettings();
		try {
			const host = await startHost({
				workspace, configOverride: config, storeFileName: store.fileName, scripts: this.#options.scripts,
				log: (line) => this.#options.log(`host: ${line}`),
			});
			if (this.#disposed) {
				await host.close();
				return this.#state;
			}
			this.#options.log(`this window owns the store in ${host.tuttiDir} (socket ${host.socketPath})`);
			if (host.startPause !== undefined) { this.#options.log(host.startPause.message); }
			return this.#set({ kind: 'owner', workspace, host, client: new InProcessClient(host.api) });
		} catch (error) {
			if (isStoreLocked(error)) {
				const endpoint = ownerEndpoint(workspace);
				const ownerPid = endpoint.pid ?? lockOwnerPid(error);
				const current = this.#state;
				if (current.kind === 'viewer' && current.socketPath === endpoint.socketPath && current.ownerPid === ownerPid) {
					return current; // still the same owner: nothing changed
				}
				this.#options.log(`another Host (pid ${ownerPid ?? '?'}) owns the store; this window is a read-only viewer over ${endpoint.socketPath}`);
				return this.#set({ kind: 'viewer', workspace, ownerPid, socketPath: endpoint.socketPath, client: new SocketClient(endpoint) });
			}
			const message = error instanceof Error ? error.message : String(error);
			this.#options.log(`starting the Host failed: ${message}`);
			return this.#set({ kind: 'failed', workspace, message });
		}
	}

	#set(state: ConnectionState): ConnectionState {
		this.#state = state;
		this.#changed.fire(state);
		return state;
	}

	/** One start/restart at a time; a call made meanwhile runs after it. */
	#serialize(body: () => Promise<ConnectionState>): Promise<ConnectionState> {
		const run = async (): Promise<ConnectionState> => (this.#disposed ? this.#state : body());
		const next = (this.#pending ?? Promise.resolve(this.#state)).then(run, run);
		this.#pending = next;
		return next;
	}

	async #closeHost(): Promise<void> {
		const state = this.#state;
		if (state.kind === 'owner') {
			this.#set({ kind: 'starting', workspace: state.workspace });
			await state.host.close();
		}
	}

	/** Closes the Host this window owns; every acknowledged write is already durable. */
	async close(): Promise<void> {
		this.#disposed = true;
		await this.#pending?.catch(() => undefined);
		const state = this.#state;
		if (state.kind === 'owner') {
			await state.host.close();
		}
		this.#changed.dispose();
	}

	dispose(): void {
		void this.close();
	}
}

function realPath(dir: string): string {
	try {
		return fs.realpathSync(dir);
	} catch {
		return path.resolve(dir);
	}
}
