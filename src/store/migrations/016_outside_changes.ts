// Migration: work that leaves its tree. A worktree Run's outside changes — what changed in the developer's checkout
// (HEAD, tracked paths) and in local branches other than its own while it ran — recorded with its result, as a
// JSON array of names ('[]' when none, and for Runs recorded before this migration); and an index for "the Runs
// live since t" that the attribution reads. Forward-only.
export const migration016 = `
ALTER TABLE run_commits ADD COLUMN outside_changes_json TEXT NOT NULL DEFAULT '[]';
CREATE INDEX runs_completed ON runs(completed_at);
`;
