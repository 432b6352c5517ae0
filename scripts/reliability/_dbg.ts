import { startHost, standardTargets } from '../../test/integration/harness.js';
import { call } from './kit.js';
(async () => {
	const host = await startHost({ config: (g) => ({ agentTargets: standardTargets(g), maxParallelRuns: 8 }) });
	const src = await call(host, 'session/open', { role: 'source' }, 'user');
	const token = { token: (src as any).result.token };
	const c = await call(host, 'plan/create', { title: 't', content: 'c', requestId: 'r1' }, token);
	const issueId = (c as any).result.issueId;
	let g: any = await call(host, 'plan/get', { issueId }, token);
	console.log(JSON.stringify(g.result.allowedActions), g.result.activeCheckpoint?.kind, g.result.execution.graphRevision);
	const m = await call(host, 'plan/mutate', { issueId, checkpointId: g.result.activeCheckpoint.checkpointId, expectedGraphRevision: g.result.execution.graphRevision, requestId: 'm1', operationsJson: JSON.stringify([{ kind: 'add', task: { taskId: 'a', title: 'a', agentTargetId: 'ok' } }]) }, token);
	console.log(JSON.stringify(m).slice(0, 300));
	g = await call(host, 'plan/get', { issueId }, token);
	console.log(JSON.stringify(g.result.allowedActions), g.result.readyTaskIds, g.result.activeCheckpoint?.kind);
	await host.dispose();
})();
