// Demo workers `wordcount`, `letters` and `index`: real text statistics over the generated corpus.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { corpusDir, numberParam, outputDir } from './taskInput.js';

function corpusFiles(cwd: string): string[] {
	return readdirSync(corpusDir(cwd)).filter((name) => name.endsWith('.txt')).sort();
}

function readCorpusFile(cwd: string, name: string): string {
	return readFileSync(join(corpusDir(cwd), name), 'utf8');
}

export interface WordCountReport {
	files: Record<string, number>;
	total: number;
	frequencies: Record<string, number>;
}

export function countWords(cwd: string): number {
	const report: WordCountReport = { files: {}, total: 0, frequencies: {} };
	for (const name of corpusFiles(cwd)) {
		const words = readCorpusFile(cwd, name).split(/\s+/).filter((word) => word.length > 0);
		report.files[name] = words.length;
		report.total += words.length;
		for (const word of words) {
			report.frequencies[word] = (report.frequencies[word] ?? 0) + 1;
		}
	}
	writeFileSync(join(outputDir(cwd), 'wordcount.json'), JSON.stringify(report, null, '\t'));
	process.stdout.write(`wordcount: ${report.total} words in ${Object.keys(report.files).length} files\n`);
	return 0;
}

export function countLetters(cwd: string): number {
	const letters: Record<string, number> = {};
	for (const name of corpusFiles(cwd)) {
		for (const ch of readCorpusFile(cwd, name)) {
			if (ch >= 'a' && ch <= 'z') {
				letters[ch] = (letters[ch] ?? 0) + 1;
			}
		}
	}
	writeFileSync(join(outputDir(cwd), 'letters.json'), JSON.stringify(letters, null, '\t'));
	const top = Object.entries(letters).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([l, n]) => `${l}=${n}`);
	process.stdout.write(`letters: most frequent ${top.join(', ')}\n`);
	return 0;
}

export function indexTopWords(cwd: string, params: Record<string, unknown>): number {
	const wordcount = JSON.parse(readFileSync(join(outputDir(cwd), 'wordcount.json'), 'utf8')) as WordCountReport;
	const top = Object.entries(wordcount.frequencies)
		.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
		.slice(0, numberParam(params, 'top', 10))
		.map(([word, count]) => ({ word, count }));
	writeFileSync(join(outputDir(cwd), 'index.json'), JSON.stringify(top, null, '\t'));
	process.stdout.write(`index: top words ${top.slice(0, 5).map((t) => t.word).join(', ')}\n`);
	return 0;
}
