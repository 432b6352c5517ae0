// Migration: work that leaves its tree. A worktree Run's outside changes — what changed in the developer's checkout
// (HEAD, tracked paths) and in local branches other than its own while it ran — recorded with its result, as a
// JSON array of names ('[]' when none, and for Runs recorded before this migration); an index for "the Runs live
// since t" that the attribution reads, and a partial index of the (rare) Runs that have outside changes, which every
// attention read looks up. Forward-only.
export const migration016 = `
ALTER TABLE run_commits ADD COLUMN outside_changes_json TEXT NOT NULL DEFAULT '[]';
CREATE INDEX runs_updated ON runs(updated_at);
CREATE INDEX run_commits_outside ON run_commits(run_id) WHERE outside_changes_json != '[]';
`;
