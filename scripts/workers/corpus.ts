// Demo worker `generate`: writes a small deterministic text corpus for the other workers to analyse.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, numberParam } from './taskInput.js';

const vocabulary = [
	'the', 'of', 'and', 'to', 'a', 'in', 'task', 'graph', 'agent', 'run', 'checkpoint', 'issue', 'review',
	'schedule', 'settle', 'accept', 'rework', 'revision', 'wake', 'source', 'worker', 'stop', 'pause', 'resume',
	'journal', 'snapshot', 'socket', 'host', 'store', 'fence', 'backlog', 'goal', 'plan', 'dependency', 'ready',
	'orchestrate', 'complete', 'history', 'supersede', 'outcome', 'durable', 'replay', 'request', 'session',
];

/** mulberry32: a tiny seeded PRNG so every demo writes the same corpus. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

/** Zipf-like pick: early words are much more frequent, as in real text. */
function pickWord(random: () => number): string {
	const index = Math.floor(vocabulary.length * Math.pow(random(), 2.2));
	return vocabulary[Math.min(index, vocabulary.length - 1)]!;
}

export function generateCorpus(cwd: string, params: Record<string, unknown>): number {
	const files = numberParam(params, 'files', 5);
	const wordsPerFile = numberParam(params, 'wordsPerFile', 4000);
	const dir = corpusDir(cwd);
	mkdirSync(dir, { recursive: true });
	const random = seeded(numberParam(params, 'seed', 7));
	for (let f = 1; f <= files; f++) {
		const lines: string[] = [];
		let line: string[] = [];
		for (let w = 0; w < wordsPerFile; w++) {
			line.push(pickWord(random));
			if (line.length === 12) {
				lines.push(line.join(' '));
				line = [];
			}
		}
		if (line.length > 0) {
			lines.push(line.join(' '));
		}
		writeFileSync(join(dir, `doc-${f}.txt`), `${lines.join('\n')}\n`);
	}
	process.stdout.write(`generate: wrote ${files} files of ${wordsPerFile} words to ${dir}\n`);
	return 0;
}
