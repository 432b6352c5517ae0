// The machine-local record of the stores this machine created or opened, outside every workspace: a store a
// folder brought with it (a clone, a copy, a share used from another machine) is not in it, so the Host opens it
// with every issue paused (storeArrival.ts) and the extension does not start a Host in that folder by itself.
//
// `<state>/tutti/known-stores/<key of the workspace's real path>/<key of the store id>.json`, directories 0700 and
// files 0600, where <state> is $XDG_STATE_HOME, else ~/.local/state (%LOCALAPPDATA% on Windows). The store id is the
// random id written into the store when it was created: a copy carries it, but it only counts at the path and on
// the machine that recorded it, and no repository can write into this directory. One file per store, written
// atomically: Hosts of different workspaces never contend for one file. A record also keeps the fingerprint of the
// `.tutti/config.json` the Host last started with (configFingerprint.ts): a config that changed since (a pull, an
// agent's edit) pauses the store as an arrival does.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensurePrivateDirectory, writePrivateFile } from '../control-plane/privateFiles.js';
import type { ConfigFingerprint } from './configFingerprint.js';

/** Where the record lives for this environment (pass the Host's env; process.env by default). */
export function knownStoresDir(env: Readonly<Record<string, string | undefined>> = process.env, platform: NodeJS.Platform = process.platform): string {
	const absolute = (value: string | undefined): string | undefined => (value && path.isAbsolute(value) ? value : undefined);
	const state = platform === 'win32'
		? absolute(env['LOCALAPPDATA']) ?? path.join(absolute(env['USERPROFILE']) ?? os.homedir(), 'AppData', 'Local')
		: absolute(env['XDG_STATE_HOME']) ?? path.join(absolute(env['HOME']) ?? os.homedir(), '.local', 'state');
	return path.join(state, 'tutti', 'known-stores');
}

function key(text: string): string {
	return createHash('sha256').update(text).digest('hex').slice(0, 32);
}

function workspaceDir(recordDir: string, realWorkspace: string): string {
	return path.join(recordDir, key(realWorkspace));
}

function storeFile(recordDir: string, realWorkspace: string, storeId: string): string {
	return path.join(workspaceDir(recordDir, realWorkspace), `${key(`${realWorkspace}\0${storeId}`)}.json`);
}

interface KnownStoreRecord {
	workspace: string;
	recordedAtUnixMs: number;
	/** The config.json the Host last started with (absent: never recorded, e.g. only VS Code's settings were used). */
	config?: ConfigFingerprint;
}

function isHashMap(value: unknown): value is Record<string, string> {
	return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((v) => typeof v === 'string');
}

function configOf(value: unknown): ConfigFingerprint | undefined {
	const c = value as Partial<ConfigFingerprint> | undefined;
	return typeof c === 'object' && c !== null && typeof c.sha256 === 'string' && isHashMap(c.settings) && isHashMap(c.agentTargets)
		? { sha256: c.sha256, settings: c.settings, agentTargets: c.agentTargets } : undefined;
}

function readRecord(file: string): KnownStoreRecord | undefined {
	try {
		const value = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<KnownStoreRecord>;
		if (typeof value.workspace !== 'string' || typeof value.recordedAtUnixMs !== 'number') { return undefined; }
		const config = configOf(value.config);
		return { workspace: value.workspace, recordedAtUnixMs: value.recordedAtUnixMs, ...(config !== undefined ? { config } : {}) };
	} catch {
		return undefined;
	}
}

/** Whether this machine created or opened the store with this id at this path (the workspace's real path). */
export function isKnownStore(recordDir: string, realWorkspace: string, storeId: string): boolean {
	return readRecord(storeFile(recordDir, realWorkspace, storeId))?.workspace === realWorkspace;
}

/** Whether this machine ever created or opened a store in this folder (the extension's "start by itself" test). */
export function isKnownWorkspace(recordDir: string, realWorkspace: string): boolean {
	const dir = workspaceDir(recordDir, realWorkspace);
	let names: string[];
	try {
		names = fs.readdirSync(dir);
	} catch {
		return false;
	}
	return names.some((name) => name.endsWith('.json') && readRecord(path.join(dir, name))?.workspace === realWorkspace);
}

/** The fingerprint of the config.json the Host of this known store last started with (undefined: none recorded). */
export function knownStoreConfig(recordDir: string, realWorkspace: string, storeId: string): ConfigFingerprint | undefined {
	const record = readRecord(storeFile(recordDir, realWorkspace, storeId));
	return record?.workspace === realWorkspace ? record.config : undefined;
}

/**
 * Records the store as this machine's own at this path (idempotent), and with `config` the fingerprint of the
 * config.json its Host starts with (replacing the one recorded before).
 */
export function recordKnownStore(recordDir: string, realWorkspace: string, storeId: string, nowUnixMs: number, config?: ConfigFingerprint): void {
	const file = storeFile(recordDir, realWorkspace, storeId);
	const known = readRecord(file);
	const mine = known?.workspace === realWorkspace ? known : undefined;
	if (mine !== undefined && (config === undefined || mine.config?.sha256 === config.sha256)) { return; }
	const tuttiStateDir = path.dirname(recordDir);
	ensurePrivateDirectory(tuttiStateDir);
	ensurePrivateDirectory(recordDir);
	ensurePrivateDirectory(workspaceDir(recordDir, realWorkspace));
	const kept = config ?? mine?.config;
	const record: KnownStoreRecord = {
		workspace: realWorkspace, recordedAtUnixMs: mine?.recordedAtUnixMs ?? nowUnixMs, ...(kept !== undefined ? { config: kept } : {}),
	};
	writePrivateFile(file, `${JSON.stringify(record)}\n`);
}
