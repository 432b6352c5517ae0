// The Tutti side of the peer benchmark: a Host with the same 1,000-task graph twice, as a manual issue (read with
// `tutti issue get`, changed with `tutti issue task update`) and as a managed issue (`tutti plan issue get` gives
// readyTaskIds, Tutti's "next"). Set up through the socket directly; the timed calls are whole CLI processes.
import { type BenchHost, startBenchHost } from './hostFixture.js';
import { type PeerTask, tuttiTaskId } from './peerGraph.js';

export interface TuttiPeerFixture {
	readonly host: BenchHost;
	readonly manualIssueId: string;
	readonly managedIssueId: string;
	/** Current dependency lists of the manual issue's tasks (kept in step with add-dependency runs). */
	readonly deps: Map<number, number[]>;
}

export async function startTuttiPeerFixture(graph: readonly PeerTask[]): Promise<TuttiPeerFixture> {
	const host = await startBenchHost({ agentTargets: [{ id: 'sh', adapter: 'command', argv: [process.execPath, '-e', '0'] }] });
	try {
		const manual = await host.call<{ issueId: string }>('issue/create', { title: 'Peer bench (manual)', content: 'same graph as task-master' });
		await host.call('issue/pause', { issueId: manual.issueId });
		for (const t of graph) {
			await host.call('task/add', {
				issueId: manual.issueId, taskId: tuttiTaskId(t.n), title: `Task ${t.n}`, content: `Implement part ${t.n} of the feature`,
				dependencyTaskIds: t.deps.map(tuttiTaskId),
			});
		}
		const session = await host.call<{ token: string }>('session/open', { role: 'source' });
		const created = await host.call<{ issueId: string; checkpointId: string; graphRevision: number }>('plan/create',
			{ title: 'Peer bench (managed)', content: 'same graph as task-master', requestId: 'peer-create' }, session.token);
		const operations = graph.map((t) => ({
			kind: 'add', task: { taskId: tuttiTaskId(t.n), title: `Task ${t.n}`, content: `Implement part ${t.n} of the feature`, agentTargetId: 'sh', dependencyTaskIds: t.deps.map(tuttiTaskId) },
		}));
		await host.call('plan/mutate', {
			issueId: created.issueId, checkpointId: created.checkpointId, expectedGraphRevision: created.graphRevision, requestId: 'peer-mutate',
			operations: operations,
		}, session.token);
		return { host, manualIssueId: manual.issueId, managedIssueId: created.issueId, deps: new Map(graph.map((t) => [t.n, [...t.deps]])) };
	} catch (error) {
		await host.stop();
		throw error;
	}
}
