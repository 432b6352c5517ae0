// The pinned shape of codex app-server's protocol, as far as Tutti uses it: every method and every field named in
// src/agents/codexAppServerProtocol.ts, described by the JSON schema the pinned Codex CLI generates
// (`codex app-server generate-json-schema`). One line per field: its type(s), enum values and whether it is required.
// codexAppServerPin.test.ts compares this projection with the checked-in copy (codexAppServer.pin.txt); after a
// deliberate Codex upgrade, review the diff against the schemas, then rewrite the copy:
//   node --import tsx test/agents/codexProtocolPin.ts --write
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clientNotifications, clientRequests, serverNotifications, serverRequests, threadItem } from '../../src/agents/codexAppServerProtocol.js';
import { codexBin, isolatedEnv, pinnedVersions } from './agentKit.js';

export const pinFile = join(__dirname, 'codexAppServer.pin.txt');

type JsonSchema = Record<string, unknown> | boolean;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The zod (mini) schema's definition, as zod keeps it (`_zod.def`). */
interface ZodDef { type: string; [k: string]: unknown }
function defOf(schema: unknown): ZodDef {
	return (schema as { _zod: { def: ZodDef } })._zod.def;
}

/** Generates the pinned CLI's JSON schema bundle. */
export function generatedSchema(): Json {
	const dir = mkdtempSync(join(tmpdir(), 'tutti-codex-schema-'));
	try {
		execFileSync(codexBin, ['app-server', 'generate-json-schema', '--out', dir], { env: isolatedEnv(dir), stdio: ['ignore', 'ignore', 'pipe'] });
		return JSON.parse(readFileSync(join(dir, 'codex_app_server_protocol.schemas.json'), 'utf8')) as Json;
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

class Projector {
	readonly lines: string[] = [];
	constructor(private readonly root: Json) {}

	/** Follows `$ref` (a JSON pointer into the bundle). */
	resolve(node: JsonSchema): JsonSchema {
		let current = node;
		for (let depth = 0; isObject(current) && typeof current.$ref === 'string' && depth < 50; depth++) {
			let target: unknown = this.root;
			for (const part of current.$ref.replace(/^#\//, '').split('/')) { target = isObject(target) ? target[part] : undefined; }
			if (target === undefined) { throw new Error(`unresolved $ref ${current.$ref}`); }
			current = target as JsonSchema;
		}
		return current;
	}

	/** The alternatives of a node (anyOf / oneOf flattened, refs resolved). */
	variants(node: JsonSchema): JsonSchema[] {
		const n = this.resolve(node);
		if (!isObject(n)) { return [n]; }
		const alternatives = (Array.isArray(n.anyOf) ? n.anyOf : Array.isArray(n.oneOf) ? n.oneOf : undefined) as JsonSchema[] | undefined;
		if (alternatives !== undefined) { return alternatives.flatMap((v) => this.variants(v)); }
		if (Array.isArray(n.allOf)) {
			if (n.allOf.length === 1) { return this.variants(n.allOf[0] as JsonSchema); }
			// An intersection: its object parts merged (properties and required of every part).
			const parts = (n.allOf as JsonSchema[]).flatMap((p) => this.variants(p)).filter(isObject);
			return [{ type: 'object', properties: Object.assign({}, ...parts.map((p) => p.properties ?? {})), required: parts.flatMap((p) => (p.required as string[] | undefined) ?? []) }];
		}
		return [n];
	}

	/** One line's description of a node: its kinds, enum values included. */
	describe(node: JsonSchema): string {
		const kinds = new Set<string>();
		const values = new Set<string>();
		for (const v of this.variants(node)) {
			if (v === true || (isObject(v) && Object.keys(v).filter((k) => k !== 'description' && k !== 'default' && k !== 'title').length === 0)) { kinds.add('any'); continue; }
			if (!isObject(v)) { kinds.add('never'); continue; }
			if (Array.isArray(v.enum)) { for (const e of v.enum as unknown[]) { values.add(String(e)); } continue; }
			const type = v.type ?? (v.properties !== undefined ? 'object' : undefined);
			for (const t of Array.isArray(type) ? type : [type]) { kinds.add(t === undefined ? 'any' : String(t)); }
		}
		if (values.size > 0) { kinds.add(`enum(${[...values].sort().join('|')})`); }
		return [...kinds].sort().join('|');
	}

	/** The object variants that can carry `zodShape` (those whose `type` enum holds its literal `type`, when it has one). */
	objectVariants(node: JsonSchema, zodShape: Record<string, unknown>): Json[] {
		const objects = this.variants(node).filter((v): v is Json => isObject(v) && (v.type === 'object' || isObject(v.properties)));
		const literal = zodShape.type !== undefined && defOf(zodShape.type).type === 'literal' ? (defOf(zodShape.type).values as unknown[])[0] : undefined;
		if (literal === undefined) { return objects; }
		return objects.filter((o) => {
			const t = isObject(o.properties) ? this.resolve(o.properties.type as JsonSchema) : undefined;
			return isObject(t) && Array.isArray(t.enum) && t.enum.includes(literal);
		});
	}

	/** Lines for `zod` read at `path` against the CLI's `node`. */
	project(prefix: string, path: string, zod: unknown, node: JsonSchema | undefined, required: boolean): void {
		const def = defOf(zod);
		if (def.type === 'optional' || def.type === 'nullable') { this.project(prefix, path, def.innerType, node, required); return; }
		const here = `${prefix} ${path}`;
		if (node === undefined) { this.lines.push(`${here}: MISSING`); return; }
		this.lines.push(`${here}: ${this.describe(node)}${required ? ', required' : ''}`);
		switch (def.type) {
			case 'object': {
				const shape = def.shape as Record<string, unknown>;
				const objects = this.objectVariants(node, shape);
				for (const key of Object.keys(shape).sort()) {
					const props = objects.map((o) => (isObject(o.properties) ? o.properties[key] : undefined)).filter((p): p is JsonSchema => p !== undefined);
					const isRequired = objects.length > 0 && objects.every((o) => Array.isArray(o.required) && o.required.includes(key));
					this.project(prefix, `${path}.${key}`, shape[key], props.length === 0 ? undefined : props.length === 1 ? props[0] : { anyOf: props }, isRequired);
				}
				break;
			}
			case 'array': {
				const items = this.variants(node).filter(isObject).map((v) => v.items).filter((i): i is JsonSchema => i !== undefined);
				this.project(prefix, `${path}[]`, def.element, items[0], false);
				break;
			}
			case 'record': {
				const values = this.variants(node).filter(isObject).map((v) => v.additionalProperties).filter((i): i is JsonSchema => i !== undefined && i !== false);
				if (values.length > 0) { this.project(prefix, `${path}{}`, def.valueType, values[0], false); }
				break;
			}
			case 'union': {
				// A discriminated union of objects (thread items): each option against its own variant.
				(def.options as unknown[]).forEach((option) => {
					const o = defOf(option);
					if (o.type !== 'object') { return; }
					const shape = o.shape as Record<string, unknown>;
					const literal = shape.type !== undefined ? String((defOf(shape.type).values as unknown[])[0]) : '?';
					const variants = this.objectVariants(node, shape);
					this.project(prefix, `${path}<${literal}>`, option, variants.length === 0 ? undefined : variants.length === 1 ? variants[0] : { anyOf: variants }, true);
				});
				break;
			}
			default:
				break;
		}
	}

	/** The variant of a method union (`ClientRequest`, `ServerNotification`, …) for `method`, or undefined. */
	methodVariant(unionName: string, method: string): Json | undefined {
		const union = this.resolve({ $ref: `#/definitions/${unionName}` });
		return this.variants(union).filter(isObject).find((v) => {
			const m = isObject(v.properties) ? this.resolve(v.properties.method as JsonSchema) : undefined;
			return isObject(m) && Array.isArray(m.enum) && m.enum.includes(method);
		});
	}

	definition(name: string): JsonSchema | undefined {
		const defs = this.root.definitions as Json;
		const v2 = defs.v2 as Json;
		return (v2[name] ?? defs[name]) as JsonSchema | undefined;
	}
}

/** The projection of the CLI's schema onto what Tutti sends and reads, one line per method and field. */
export function projectCodexProtocol(schema: Json): string {
	const p = new Projector(schema);
	const section = (title: string): void => { p.lines.push('', `## ${title}`); };
	section('client requests (Tutti → app-server): params Tutti sends, results Tutti reads');
	for (const [method, spec] of Object.entries(clientRequests)) {
		const variant = p.methodVariant('ClientRequest', method);
		p.lines.push(`${method}: ${variant === undefined ? 'MISSING' : 'client request'}`);
		const params = variant !== undefined && isObject(variant.properties) ? variant.properties.params as JsonSchema : undefined;
		p.project(method, 'params', spec.params, params, true);
		p.project(method, `result(${spec.resultType})`, spec.result, p.definition(spec.resultType), true);
	}
	section('client notifications');
	for (const method of clientNotifications) {
		p.lines.push(`${method}: ${p.methodVariant('ClientNotification', method) === undefined ? 'MISSING' : 'client notification'}`);
	}
	section('server notifications Tutti reads');
	for (const [method, params] of Object.entries(serverNotifications)) {
		const variant = p.methodVariant('ServerNotification', method);
		p.lines.push(`${method}: ${variant === undefined ? 'MISSING' : 'server notification'}`);
		p.project(method, 'params', params, variant !== undefined && isObject(variant.properties) ? variant.properties.params as JsonSchema : undefined, true);
	}
	section('thread items Tutti reads (in item/started, item/completed)');
	p.project('ThreadItem', 'item', threadItem, p.definition('ThreadItem'), true);
	section('server requests Tutti answers: params Tutti reads, results Tutti sends');
	for (const [method, spec] of Object.entries(serverRequests)) {
		const variant = p.methodVariant('ServerRequest', method);
		p.lines.push(`${method}: ${variant === undefined ? 'MISSING' : 'server request'}`);
		p.project(method, 'params', spec.params, variant !== undefined && isObject(variant.properties) ? variant.properties.params as JsonSchema : undefined, true);
		p.project(method, `result(${spec.resultType})`, spec.result, p.definition(spec.resultType), true);
	}
	return [
		`# codex app-server protocol as Tutti uses it, projected from \`codex app-server generate-json-schema\` of codex-cli ${pinnedVersions.codex}.`,
		'# Generated by `node --import tsx test/agents/codexProtocolPin.ts --write`; do not edit by hand.',
		...p.lines,
		'',
	].join('\n');
}

if (require.main === module && process.argv.includes('--write')) {
	writeFileSync(pinFile, projectCodexProtocol(generatedSchema()));
	process.stdout.write(`wrote ${pinFile}\n`);
}
