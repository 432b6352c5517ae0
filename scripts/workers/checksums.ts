// Demo workers `checksum` and `verify`: a sha256 manifest of the corpus, then an independent check of it.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, numberParam, outputDir } from './taskInput.js';

function sha256Of(file: string): string {
	return createHash('sha256').update(readFileSync(file)).digest('hex');
}

function corpusFiles(cwd: string): string[] {
	return readdirSync(corpusDir(cwd)).filter((name) => name.endsWith('.txt')).sort();
}

export function writeManifest(cwd: string): number {
	const files: Record<string, string> = {};
	for (const name of corpusFiles(cwd)) {
		files[name] = sha256Of(join(corpusDir(cwd), name));
	}
	writeFileSync(join(outputDir(cwd), 'checksums.json'), JSON.stringify({ algorithm: 'sha256', files }, null, '\t'));
	process.stdout.write(`checksum: manifest of ${Object.keys(files).length} files\n`);
	return 0;
}

/** Exits 1 when the manifest does not describe exactly `expectedFiles` files whose content still matches. */
export function verifyManifest(cwd: string, params: Record<string, unknown>): number {
	const manifestPath = join(outputDir(cwd), 'checksums.json');
	if (!existsSync(manifestPath)) {
		process.stderr.write(`verify: no manifest at ${manifestPath}\n`);
		return 1;
	}
	const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { files: Record<string, string> };
	const names = Object.keys(manifest.files);
	const expected = numberParam(params, 'expectedFiles', names.length);
	if (names.length !== expected) {
		process.stderr.write(`verify: expected ${expected} files in the manifest, found ${names.length}\n`);
		return 1;
	}
	const mismatched = names.filter((name) => sha256Of(join(corpusDir(cwd), name)) !== manifest.files[name]);
	if (mismatched.length > 0) {
		process.stderr.write(`verify: checksum mismatch for ${mismatched.join(', ')}\n`);
		return 1;
	}
	writeFileSync(join(outputDir(cwd), 'verify.json'), JSON.stringify({ verified: names.length, ok: true }, null, '\t'));
	process.stdout.write(`verify: ${names.length} files match the manifest\n`);
	return 0;
}
