// The headless Host follows `.tutti/config.json` while it runs, as VS Code's Host follows its settings: a saved
// change with other settings restarts the Host in this process (Runs go on, their supervisors are separate
// processes), and that start is the ordinary one, so its config-change rule pauses every issue until the developer
// resumes. A file that does not parse or validate is refused, named with its line and column or its setting's path,
// and the Host keeps the config it runs with. Only the same settings written differently (spacing, key order)
// change nothing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type HostConfigFile, hostConfigFromBytes, hostConfigPath, readHostConfigBytes } from './config.js';
import { configChange, fingerprintConfig } from './configFingerprint.js';
import { type RunningHost, type StartHostOptions, startHost } from './host.js';

/** Quiet time after the last event before the file is read: an editor's save is several events. */
const settleMs = 150;
/** Events that never stop (a tool rewriting the file in a loop) still get the file read this often. */
const maxDelayMs = 2000;
/** What the Host's log says once it runs with a changed config.json again (tests wait for it). */
export const configAppliedLine = 'the Host runs with the changed .tutti/config.json';

export interface ConfigFollowingOptions {
	/** How the Host starts (config.json is read here, so no configOverride). */
	readonly start: Omit<StartHostOptions, 'configOverride' | 'configFile' | 'configReload'>;
	readonly log: (line: string) => void;
	/** Neither the changed nor the previous config could start a Host again: the process has none left and should end. */
	readonly onLost: (error: unknown) => void;
}

export class ConfigFollowingHost {
	#host: RunningHost;
	/** The file the running Host started with. */
	#file: HostConfigFile;
	/** The SHA-256 of the bytes read last (applied, refused, or the same settings): an unchanged file is not read again. */
	#lastSeen: string;
	#watcher: fs.FSWatcher | undefined;
	#timer: NodeJS.Timeout | undefined;
	#firstEventAt: number | undefined;
	#applying: Promise<void> = Promise.resolve();
	#closed = false;
	readonly #configPath: string;

	private constructor(private readonly options: ConfigFollowingOptions, host: RunningHost, file: HostConfigFile) {
		this.#host = host;
		this.#file = file;
		this.#lastSeen = fingerprintConfig(file.bytes).sha256;
		this.#configPath = hostConfigPath(host.tuttiDir);
	}

	/** Starts the Host with `.tutti/config.json` (a broken file fails the start, as before) and watches the file. */
	static async start(options: ConfigFollowingOptions): Promise<ConfigFollowingHost> {
		// Read here and handed to the Host, so what is compared later is exactly what it started with.
		const configPath = hostConfigPath(path.resolve(options.start.workspace, '.tutti'));
		const file = hostConfigFromBytes(readHostConfigBytes(configPath), configPath);
		const host = await startHost({ ...options.start, configFile: file });
		const following = new ConfigFollowingHost(options, host, file);
		following.#watch();
		return following;
	}

	/** The Host running now (a new object after each applied change). */
	get current(): RunningHost {
		return this.#host;
	}

	/** Stops watching, lets a restart under way finish, then closes the Host. Idempotent. */
	async close(): Promise<void> {
		this.#closed = true;
		this.#watcher?.close();
		this.#watcher = undefined;
		clearTimeout(this.#timer);
		await this.#applying;
		await this.#host.close();
	}

	#watch(): void {
		try {
			// The folder, not the file: an editor or `git pull` that replaces the file by a rename is seen too.
			this.#watcher = fs.watch(this.#host.tuttiDir, { persistent: false }, (_event, name) => {
				if (name === null || name === 'config.json') { this.#schedule(); }
			});
			this.#watcher.on('error', (error) => {
				this.options.log(`${this.#configPath} is no longer watched (${error.message}): restart \`tutti host\` to apply a change`);
				this.#watcher?.close();
				this.#watcher = undefined;
			});
		} catch (error) {
			this.options.log(`${this.#configPath} cannot be watched (${(error as Error).message}): restart \`tutti host\` to apply a change`);
		}
	}

	#schedule(): void {
		if (this.#closed) { return; }
		const now = Date.now();
		this.#firstEventAt ??= now;
		clearTimeout(this.#timer);
		this.#timer = setTimeout(() => {
			this.#firstEventAt = undefined;
			this.#applying = this.#applying.then(() => this.#apply()).catch((error: unknown) => {
				this.options.log(`applying ${this.#configPath} failed: ${error instanceof Error ? error.message : String(error)}`);
			});
		}, Math.max(0, Math.min(settleMs, this.#firstEventAt + maxDelayMs - now)));
	}

	async #apply(): Promise<void> {
		if (this.#closed) { return; }
		let file: HostConfigFile;
		let sha256: string;
		try {
			const bytes = readHostConfigBytes(this.#configPath);
			sha256 = fingerprintConfig(bytes).sha256;
			if (sha256 === this.#lastSeen) { return; }
			this.#lastSeen = sha256;
			file = hostConfigFromBytes(bytes, this.#configPath);
		} catch (error) {
			this.options.log(`refused the change: ${error instanceof Error ? error.message : String(error)}\n` +
				'The Host keeps running with the config it had; fix the file and save it again.');
			return;
		}
		const changed = configChange(fingerprintConfig(this.#file.bytes), fingerprintConfig(file.bytes));
		if (changed === undefined) {
			this.options.log(`${this.#configPath} was saved with the same settings: nothing to apply`);
			return;
		}
		this.options.log(`${this.#configPath} changed (${changed}): restarting the Host to apply it (Runs go on)`);
		await this.#host.close();
		try {
			this.#host = await startHost({ ...this.options.start, configFile: file, configReload: true });
			this.#file = file;
			this.options.log(`${configAppliedLine} (socket ${this.#host.socketPath})`);
		} catch (error) {
			this.options.log(`starting the Host with the changed config failed (${(error as Error).message}); starting it with the config it had`);
			try {
				this.#host = await startHost({ ...this.options.start, configFile: this.#file, configReload: true });
			} catch (again) {
				this.options.log(`starting the Host again failed: ${(again as Error).message}`);
				this.options.onLost(again);
			}
		}
	}
}
