// Small statistics helpers shared by the benchmarks (medians and percentiles, never assertions).
export function median(xs: readonly number[]): number {
	return percentile(xs, 50);
}

export function percentile(xs: readonly number[], p: number): number {
	if (xs.length === 0) { return NaN; }
	const sorted = [...xs].sort((a, b) => a - b);
	const at = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
	return sorted[at]!;
}

export function timeMs(fn: () => void): number {
	const start = process.hrtime.bigint();
	fn();
	return Number(process.hrtime.bigint() - start) / 1e6;
}

export function fmtMs(ms: number): string {
	return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : ms < 100 ? `${ms.toFixed(2)} ms` : `${ms.toFixed(0)} ms`;
}
