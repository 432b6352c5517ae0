// How a `plan issue mutate` operation is written, in the words every malformed one is answered with. Plain text
// without zod: the CLI says it for operations that are not JSON, the method table for every other malformed one.

/** The actionable message for any malformed entry: it names `kind` and `task`, the keys agents get wrong. */
export const operationsShapeMessage =
	'entries must use kind add, update, rework, or supersede; op and replacement are not supported — ' +
	'write {"kind":"rework","taskId":"<old>","task":{"taskId":"<new>","title":"…"}} or {"kind":"supersede","taskId":"<id>"}';

/** The message for `--operations-json` text that is not JSON at all. */
export function operationsNotJsonMessage(parseError: string): string {
	return `--operations-json is not valid JSON (${parseError}): ${operationsShapeMessage}`;
}
