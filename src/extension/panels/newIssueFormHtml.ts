// The New Issue form's page: the shared strict page (webviewPage.ts) around native labelled controls (keyboard
// accessible as they are) and the regions the script fills.
import { webviewPage } from './webviewPage.js';

export interface NewIssueFormHtmlInput {
	readonly cspSource: string;
	readonly scriptUri: string;
	readonly styleUri: string;
	readonly nonce: string;
}

export function newIssueFormHtml(p: NewIssueFormHtmlInput): string {
	return webviewPage({ ...p, title: 'New Issue' }, `<main>
<h1>New issue</h1>
<form id="new-issue-form" novalidate aria-describedby="form-error">
<div id="form-error" role="alert" hidden></div>
<div class="field">
<label for="issue-title">Title <span class="hint">(the goal in a few words)</span></label>
<input type="text" id="issue-title" name="title" maxlength="500" autocomplete="off" placeholder="Fix the login flow" aria-describedby="title-error" required>
<p id="title-error" class="error" hidden></p>
</div>
<div class="field">
<label for="issue-goal">Goal <span class="hint">(what done looks like; Markdown)</span></label>
<textarea id="issue-goal" name="goal" rows="8" maxlength="100000" placeholder="Users stay logged in across restarts; the session timeout test passes." aria-describedby="goal-error goal-hint"></textarea>
<p id="goal-hint" class="hint">Ctrl+Enter creates the issue.</p>
<p id="goal-error" class="error" hidden></p>
</div>
<fieldset id="planner" aria-describedby="planner-error">
<legend>Who plans it</legend>
<div id="planner-options" role="radiogroup" aria-label="Who plans it"><p class="hint">Loading the agent targets…</p></div>
<button type="button" id="add-agent" class="link">Add an agent…</button>
<p id="planner-error" class="error" hidden></p>
</fieldset>
<div class="field checkbox">
<input type="checkbox" id="issue-auto-accept" name="autoAccept" aria-describedby="auto-accept-hint autoAccept-error">
<label for="issue-auto-accept">Auto-accept finished tasks</label>
</div>
<p id="auto-accept-hint" class="hint">Off: you review each task's result (Accept / Request changes) before the tasks after it start.</p>
<p id="autoAccept-error" class="error" hidden></p>
<div class="actions">
<button type="submit" id="create" class="primary">Create issue</button>
<button type="button" id="cancel">Cancel</button>
</div>
</form>
</main>`);
}
