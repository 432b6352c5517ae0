// Migration 021: what the checks said at each integration — the checks that ran on the integrated commit, their exit
// codes, durations and output tails, or that the developer skipped them — kept with the integration's history row so
// `tutti issue get` shows what ran at the integrated commit. '' for integrations recorded before. Forward-only.
export const migration021 = `
ALTER TABLE integrations ADD COLUMN checks_json TEXT NOT NULL DEFAULT '';
`;
