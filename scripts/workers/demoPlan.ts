// The demo's scripted plan: the agent targets the demo configures and the task graph its orchestrator adds.
// Shared by scripts/demo.ts (which writes the targets) and scripts/orchestrator.ts (which plans with them).

export interface PlannedTask {
	taskId: string;
	title: string;
	content: string;
	agentTargetId: string;
	dependencyTaskIds: string[];
}

/** One `command` target per worker; each runs `node <dist/demo.js> worker <id>`. */
export const demoTargetIds = ['generate', 'wordcount', 'letters', 'checksum', 'verify', 'index', 'report'] as const;

function content(text: string, params: Record<string, unknown>): string {
	return `${text}\n\nparams: ${JSON.stringify(params)}\n`;
}

const corpusFiles = 5;

export const demoPlan: readonly PlannedTask[] = [
	{
		taskId: 'generate', title: 'Generate the text corpus', agentTargetId: 'generate', dependencyTaskIds: [],
		content: content('Write a deterministic corpus under demo-output/corpus.', { files: corpusFiles, wordsPerFile: 4000, seed: 7, paceMs: 300 }),
	},
	{
		taskId: 'wordcount', title: 'Count words per file', agentTargetId: 'wordcount', dependencyTaskIds: ['generate'],
		content: content('Count words per file and overall; write demo-output/wordcount.json.', { paceMs: 500 }),
	},
	{
		taskId: 'letters', title: 'Letter frequencies', agentTargetId: 'letters', dependencyTaskIds: ['generate'],
		content: content('Count letter frequencies; write demo-output/letters.json.', { paceMs: 700 }),
	},
	{
		taskId: 'checksum', title: 'Checksum manifest', agentTargetId: 'checksum', dependencyTaskIds: ['generate'],
		content: content('Write a sha256 manifest of the corpus to demo-output/checksums.json.', { paceMs: 300 }),
	},
	{
		taskId: 'verify', title: 'Verify the manifest', agentTargetId: 'verify', dependencyTaskIds: ['checksum'],
		// Deliberately wrong: the corpus has 5 files. The orchestrator reworks this task once.
		content: content('Verify every checksum and that the manifest lists 6 files.', { expectedFiles: corpusFiles + 1, paceMs: 200 }),
	},
	{
		taskId: 'index', title: 'Index the top words', agentTargetId: 'index', dependencyTaskIds: ['wordcount'],
		content: content('List the ten most frequent words; write demo-output/index.json.', { top: 10, paceMs: 300 }),
	},
	{
		taskId: 'report', title: 'Compile the report', agentTargetId: 'report', dependencyTaskIds: ['index', 'letters', 'verify'],
		content: content('Compile demo-output/REPORT.md from every result.', { paceMs: 200 }),
	},
];

/** The one task the demo expects to fail, and the sparse rework that fixes it (new id + corrected content only). */
export const plannedRework = {
	failingTaskId: 'verify',
	replacement: {
		taskId: 'verify-fixed',
		title: 'Verify the manifest (5 files)',
		content: content('Verify every checksum and that the manifest lists the 5 generated files.', { expectedFiles: corpusFiles, paceMs: 200 }),
	},
} as const;

export const demoIssue = {
	title: 'Analyse a text corpus',
	content: 'Generate a small corpus, compute word and letter statistics, checksum and verify it, and compile a report.',
} as const;
