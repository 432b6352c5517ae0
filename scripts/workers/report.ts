// Demo worker `report`: compiles the other workers' results into demo-output/REPORT.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputDir } from './taskInput.js';
import type { WordCountReport } from './textStats.js';

function readJson<T>(cwd: string, name: string): T {
	return JSON.parse(readFileSync(join(outputDir(cwd), name), 'utf8')) as T;
}

export function compileReport(cwd: string): number {
	const wordcount = readJson<WordCountReport>(cwd, 'wordcount.json');
	const letters = readJson<Record<string, number>>(cwd, 'letters.json');
	const index = readJson<{ word: string; count: number }[]>(cwd, 'index.json');
	const verify = readJson<{ verified: number; ok: boolean }>(cwd, 'verify.json');
	const topLetters = Object.entries(letters).sort((a, b) => b[1] - a[1]).slice(0, 5);
	const lines = [
		'# Corpus report',
		'',
		`- Files: ${Object.keys(wordcount.files).length}, words: ${wordcount.total}`,
		`- Checksums verified: ${verify.verified} (${verify.ok ? 'ok' : 'NOT ok'})`,
		`- Top words: ${index.slice(0, 5).map((t) => `${t.word} (${t.count})`).join(', ')}`,
		`- Top letters: ${topLetters.map(([l, n]) => `${l} (${n})`).join(', ')}`,
		'',
		'| file | words |',
		'|---|---|',
		...Object.entries(wordcount.files).map(([name, n]) => `| ${name} | ${n} |`),
		'',
	];
	writeFileSync(join(outputDir(cwd), 'REPORT.md'), lines.join('\n'));
	process.stdout.write(`report: wrote REPORT.md (${wordcount.total} words, ${verify.verified} files verified)\n`);
	return 0;
}
