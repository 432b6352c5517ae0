// Dispatches `node dist/demo.js worker <name>`: the programs the demo's and the tests' command targets run.
import { compileReport } from './report.js';
import { verifyManifest, writeManifest } from './checksums.js';
import { generateCorpus } from './corpus.js';
import { runGateWorker } from './gate.js';
import { numberParam, paramsOf, readStdin, sleep } from './taskInput.js';
import { countLetters, countWords, indexTopWords } from './textStats.js';

type Job = (cwd: string, params: Record<string, unknown>) => number;

const demoJobs: Record<string, Job> = {
	generate: generateCorpus,
	wordcount: (cwd) => countWords(cwd),
	letters: (cwd) => countLetters(cwd),
	index: indexTopWords,
	checksum: (cwd) => writeManifest(cwd),
	verify: verifyManifest,
	report: (cwd) => compileReport(cwd),
};

export const workerNames: readonly string[] = ['gate', ...Object.keys(demoJobs)];

/** Runs one worker by name and resolves to its exit code (64 for an unknown name, 70 for a crash). */
export async function runWorker(name: string | undefined): Promise<number> {
	if (name === 'gate') {
		return runGateWorker(process.env);
	}
	const job = name === undefined ? undefined : demoJobs[name];
	if (!job) {
		process.stderr.write(`unknown worker ${JSON.stringify(name)}; known: ${workerNames.join(', ')}\n`);
		return 64;
	}
	const params = paramsOf(await readStdin());
	// A short pause keeps the demo's parallel waves visible; the work itself is real and usually faster.
	await sleep(numberParam(params, 'paceMs', 0));
	try {
		return job(process.cwd(), params);
	} catch (error) {
		process.stderr.write(`${name}: ${error instanceof Error ? error.message : String(error)}\n`);
		return 70;
	}
}
