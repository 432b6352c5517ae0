// The Host's composition root (headless and, later, inside VS Code): store, config, endpoint, Run processes,
// domain services and the control-plane server, started in order and closed in reverse (the store last).
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { connectionLimitsFromEnv } from '../control-plane/connectionGate.js';
import { ControlPlaneServer } from '../control-plane/server.js';
import { removeQuietly } from '../control-plane/privateFiles.js';
import { DomainError } from '../core/errors.js';
import type { Event } from '../core/events.js';
import { type Clock, type IdSource, systemClock } from '../core/ports.js';
import { Store } from '../store/database.js';
import { issueRepository } from '../store/repositories/issueRepository.js';
import type { HostApi } from '../protocol/hostApi.js';
import { withTargetDefaults } from '../core/runs/targetDefaults.js';
import { isGitWorkTree } from './worktrees/git.js';
import { type HostConfig, type HostConfigFile, readHostConfigFile } from './config.js';
import { type ConfigFingerprint, configChange, fingerprintConfig } from './configFingerprint.js';
import { endpointEnvironment, prepareEndpoint, writeUserCredential } from './endpoint.js';
import { isKnownStore, knownStoreConfig, knownStoresDir, recordKnownStore } from './knownStores.js';
import { hostShimDir } from './runs/cliShim.js';
import { type StartPause, type StartPauseReason, pauseAtStart } from './storeArrival.js';
import { ProcessRunner } from './runs/processRunner.js';
import { createHostServices } from './services/hostServices.js';

export interface StartHostOptions {
	workspace: string;
	clock?: Clock;
	/** The environment the endpoint is derived from and Runs inherit (default process.env). */
	env?: NodeJS.ProcessEnv;
	/** The supervisor and CLI scripts; default dist/ next to this bundle, or src/ through tsx when running from source. */
	scripts?: HostScripts;
	/** Diagnostic lines of the server and the services (default stderr). */
	log?: (line: string) => void;
	/** Settings to use instead of `.tutti/config.json` (VS Code passes its `tutti.*` settings here). */
	configOverride?: HostConfig;
	/** The database file's name inside `.tutti/` (default `tutti.sqlite`; VS Code's `tutti.storePath`). */
	storeFileName?: string;
	/** `.tutti/config.json` as the caller already read and validated it: the Host starts with exactly these bytes. */
	configFile?: HostConfigFile;
	/** This start applies a config.json that changed while the previous Host of this process ran (configReload.ts). */
	configReload?: boolean;
}

export interface HostScripts {
	supervisorScript: string;
	cliScript: string;
	/** Node arguments before either script (e.g. `--import <tsx>` from source). */
	nodeArgs: string[];
}

export interface RunningHost {
	/** The workspace's real path. */
	readonly workspace: string;
	readonly tuttiDir: string;
	readonly socketPath: string;
	readonly discoveryFile: string;
	readonly userTokenPath: string;
	/** The developer's credential (what `--as-user` sends). */
	readonly userToken: string;
	readonly pid: number;
	readonly config: HostConfig;
	/** The fingerprint of the `.tutti/config.json` bytes it started with (undefined: VS Code's settings instead). */
	readonly configFingerprint: ConfigFingerprint | undefined;
	readonly api: HostApi;
	/**
	 * Set when every issue was paused as the Host started: the store came with the folder (not created or opened on
	 * this machine at this path before), or `.tutti/config.json` changed since its Host last started here.
	 */
	readonly startPause: StartPause | undefined;
	/** Fires after every durable write transaction, from any caller (CLI, agents, this window's UI). */
	readonly onDidCommit: Event<{ version: number }>;
	/** Fires when an agent session begins or ends a bounded wait, or makes a call (in memory, no commit). */
	readonly onDidChangeContacts: Event<void>;
	/** Resolves once the dispatch passes, launches, Stops and settlements started so far are done (tests, demo). */
	whenIdle(): Promise<void>;
	/** Stops accepting requests, stops the services and the Run watcher, then closes the store. Idempotent. */
	close(): Promise<void>;
}

type Closer = () => Promise<void> | void;

export async function startHost(options: StartHostOptions): Promise<RunningHost> {
	const env = options.env ?? process.env;
	const clock = options.clock ?? systemClock;
	const workspace = realWorkspace(options.workspace);
	const tuttiDir = path.join(workspace, '.tutti');
	const scripts = options.scripts ?? defaultHostScripts();
	const closers: Closer[] = [];
	const closeAll = async (): Promise<void> => {
		const failures: unknown[] = [];
		for (const close of closers.splice(0).reverse()) {
			try {
				await close();
			} catch (error) {
				failures.push(error);
			}
		}
		if (failures.length > 0) {
			throw failures.length === 1 ? failures[0] : new AggregateError(failures, 'closing the Host failed');
		}
	};
	try {
		fs.mkdirSync(tuttiDir, { recursive: true, mode: 0o700 }); // Store.open tightens an existing one
		// A store this machine creates is recorded as its own before its first file exists (knownStores.ts).
		const knownDir = knownStoresDir(env);
		let created = false;
		const store = await Store.open({
			dir: tuttiDir, fileName: options.storeFileName, now: () => clock.now(),
			beforeCreate: (storeId) => { created = true; recordKnownStore(knownDir, workspace, storeId, Date.now()); },
		});
		closers.push(() => store.close());
		const arrived = !isKnownStore(knownDir, workspace, store.storeId);
		const { configured, configFingerprint } = configAtStart(options, tuttiDir);
		// claude and codex targets default to worktree isolation in a git workspace (targetDefaults.ts).
		const config: HostConfig = { ...configured, agentTargets: withTargetDefaults(configured.agentTargets, isGitWorkTree(workspace)) };
		const endpoint = prepareEndpoint(workspace, endpointEnvironment(env));
		const userToken = writeUserCredential(endpoint.userTokenPath);
		closers.push(() => removeQuietly(endpoint.userTokenPath));
		// The `tutti` shim lives in the Host's private runtime directory, never in the workspace (a clone could plant it).
		const shimDir = hostShimDir(endpoint.runtimeDir);
		const runs = new ProcessRunner({
			workspace, tuttiDir, clock, hostEnv: env,
			supervisorScript: scripts.supervisorScript, cliScript: scripts.cliScript, shimDir, nodeArgs: scripts.nodeArgs,
		});
		closers.push(() => runs.dispose());
		let startPause: StartPause | undefined;
		const services = createHostServices({
			workspace, tuttiDir, store, clock, ids: randomIds, runs, config,
			endpoint: endpoint.socketPath, userCredential: userToken, cliShim: path.join(shimDir, 'tutti'), log: options.log,
			notice: () => (startPause !== undefined && stillPaused(store, startPause) ? startPause.message : undefined),
		});
		closers.push(() => services.dispose());
		const pauseReason = startPauseReason(arrived, created, workspace, configFingerprint, knownStoreConfig(knownDir, workspace, store.storeId),
			options.configReload === true);
		if (pauseReason !== undefined) {
			// Before any request and before reconciliation: nothing the folder brought starts by itself.
			startPause = await pauseAtStart(services.api, pauseReason, options.log ?? ((line) => process.stderr.write(`tutti host: ${line}\n`)));
		}
		// Only once every pause is durable: this machine's record of the store and of the config its Host started with.
		recordKnownStore(knownDir, workspace, store.storeId, Date.now(), configFingerprint);
		const server = await ControlPlaneServer.listen({
			api: services.api, socketPath: endpoint.socketPath, log: options.log,
			discovery: { file: endpoint.discoveryFile, workspace }, connections: connectionLimitsFromEnv(env),
		});
		closers.push(() => server.close());
		await services.start();
		let closing: Promise<void> | undefined;
		return {
			workspace, tuttiDir, config, configFingerprint, userToken, startPause,
			socketPath: endpoint.socketPath, discoveryFile: endpoint.discoveryFile, userTokenPath: endpoint.userTokenPath,
			pid: process.pid,
			api: services.api,
			onDidCommit: store.onDidCommit,
			onDidChangeContacts: services.onDidChangeContacts,
			whenIdle: () => services.whenIdle(),
			close: () => (closing ??= closeAll()),
		};
	} catch (error) {
		await closeAll().catch(() => undefined);
		throw error;
	}
}

/**
 * The config the Host starts with and, when it is `.tutti/config.json`, the fingerprint of the very bytes it was
 * parsed from (VS Code passes its settings instead: then the file is not used, and not fingerprinted).
 */
function configAtStart(options: StartHostOptions, tuttiDir: string): { configured: HostConfig; configFingerprint: ConfigFingerprint | undefined } {
	if (options.configOverride !== undefined) { return { configured: options.configOverride, configFingerprint: undefined }; }
	const file = options.configFile ?? readHostConfigFile(tuttiDir);
	return { configured: file.config, configFingerprint: fingerprintConfig(file.bytes) };
}

/**
 * Why every issue is paused as the Host starts, if at all: a store this machine does not know at this path, or a
 * config.json whose settings differ from the ones the known store's Host last started with. A store created by this
 * start has nothing to pause; with VS Code's settings (no fingerprint) the file is not compared.
 */
function startPauseReason(arrived: boolean, created: boolean, workspace: string, current: ConfigFingerprint | undefined,
	recorded: ConfigFingerprint | undefined, whileRunning: boolean): StartPauseReason | undefined {
	if (arrived) { return { kind: 'arrival', workspace }; }
	if (created || current === undefined) { return undefined; }
	const changed = configChange(recorded, current);
	return changed === undefined ? undefined : { kind: 'configChanged', workspace, changed, ...(whileRunning ? { whileRunning } : {}) };
}

/** Whether an issue the start paused is paused still (until then `hello` repeats why). */
function stillPaused(store: Store, pause: StartPause): boolean {
	return store.read((r) => pause.pausedIssueIds.some((issueId) => issueRepository.get(r, issueId)?.dispatchPaused === true));
}

/** Random ids for new rows: `<prefix>-<16 hex>`. */
export const randomIds: IdSource = { next: (prefix) => `${prefix}-${randomBytes(8).toString('hex')}` };

function realWorkspace(workspace: string): string {
	let real: string;
	try {
		real = fs.realpathSync(path.resolve(workspace));
	} catch {
		throw new DomainError('invalid_input', `the workspace ${workspace} does not exist`, 'run `tutti host --workspace DIR` with an existing folder');
	}
	if (!fs.statSync(real).isDirectory()) {
		throw new DomainError('invalid_input', `the workspace ${workspace} is not a folder`, 'run `tutti host --workspace DIR` with an existing folder');
	}
	return real;
}

/**
 * As a bundle (dist/host.js): supervisor.js and cli.js beside it. From source (tsx): the built dist/ bundles when
 * they exist, else src/supervisor/main.ts and src/cli/main.ts run through tsx.
 */
export function defaultHostScripts(): HostScripts {
	if (!__filename.endsWith('.ts')) {
		return { supervisorScript: path.join(__dirname, 'supervisor.js'), cliScript: path.join(__dirname, 'cli.js'), nodeArgs: [] };
	}
	const distDir = path.resolve(__dirname, '..', '..', 'dist');
	const dist = { supervisorScript: path.join(distDir, 'supervisor.js'), cliScript: path.join(distDir, 'cli.js'), nodeArgs: [] };
	if (fs.existsSync(dist.supervisorScript) && fs.existsSync(dist.cliScript)) {
		return dist;
	}
	const srcDir = path.resolve(__dirname, '..');
	const tsx = pathToFileURL(createRequire(__filename).resolve('tsx')).href;
	return { supervisorScript: path.join(srcDir, 'supervisor', 'main.ts'), cliScript: path.join(srcDir, 'cli', 'main.ts'), nodeArgs: ['--import', tsx] };
}
