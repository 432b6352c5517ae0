// `Tutti: Integrate Issue` (issueId): merges the issue's accepted task commits into its base branch through the
// Host (`issue/integrate`), the same call as `tutti issue integrate`. While some tasks are not accepted yet it
// offers to integrate only the accepted ones; every other refusal shows the Host's message and hint. With the
// panel's Push checkbox the branch then goes to its upstream (a failed push keeps the integration and says so).
import * as vscode from 'vscode';
import type { Result } from '../../protocol/controlPlane.js';
import { HostCallError } from '../client/hostClient.js';
import { type ActionContext, runAction } from './actionContext.js';
import { type CommandArgs, issueIdOf, pushOf } from './commandArgs.js';
import { pickIssue } from './pickers.js';

export function integrateIssue(ctx: ActionContext, args: CommandArgs): Promise<Result<'issue/integrate'> | undefined> {
	return runAction(ctx, 'Integrate', async () => {
		const issueId = issueIdOf(args) ?? await pickIssue(ctx.services, 'Integrate the accepted work of which issue?', (i) => i.baseCommit !== '');
		if (issueId === undefined) {
			return undefined;
		}
		const client = ctx.services.client();
		const push = pushOf(args);
		const integrate = (acceptedOnly: boolean): Promise<Result<'issue/integrate'>> => Promise.resolve(vscode.window.withProgress(
			{ location: vscode.ProgressLocation.Notification, title: 'Tutti: integrating…' },
			() => client.call('issue/integrate', { issueId, ...(acceptedOnly ? { acceptedOnly: true } : {}), ...(push ? { push: true as const } : {}) })));
		let result: Result<'issue/integrate'>;
		try {
			result = await integrate(false);
		} catch (e) {
			if (!(e instanceof HostCallError) || e.reasonCode !== 'not_integrable' || !/not accepted yet/.test(e.message)) { throw e; }
			const choice = await vscode.window.showWarningMessage(e.message, { modal: true }, 'Integrate Accepted Only');
			if (choice !== 'Integrate Accepted Only') {
				return undefined;
			}
			result = await integrate(true);
		}
		const how = result.fastForward ? 'fast-forward' : 'merge commit';
		void vscode.window.showInformationMessage(
			`Tutti: integrated ${result.mergedTaskIds.length} task${result.mergedTaskIds.length === 1 ? '' : 's'} into ${result.into} (${how} ${result.integratedCommit.slice(0, 10)})${result.workspaceMoved ? '; your workspace moved with it' : ''}${result.pushed ? `; pushed to ${result.pushed.remote}/${result.pushed.branch}` : ''}.`);
		return result;
	});
}
