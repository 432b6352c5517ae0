// Makes a test workspace a git repository with one commit (worktree Runs need a base commit): a README, and a
// .gitignore keeping Tutti's store, the gate files and the workspace settings out of it. Does nothing when the
// workspace is a repository already.
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export function ensureGitRepository(workspace: string): void {
	if (existsSync(join(workspace, '.git'))) { return; }
	const git = (...args: string[]): void => { execFileSync('git', args, { cwd: workspace, stdio: 'ignore' }); };
	writeFileSync(join(workspace, '.gitignore'), '.tutti/\n.gates/\n.vscode/\n');
	writeFileSync(join(workspace, 'README.md'), '# A project\n');
	git('init', '-q', '-b', 'main');
	git('config', 'user.name', 'UI Test');
	git('config', 'user.email', 'ui@example.test');
	git('add', '-A');
	git('commit', '-q', '-m', 'initial');
}
