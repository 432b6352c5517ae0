// A byte count as people read it: "12.3 MB", "640 KB", "0 B" (decimal units, as file managers show them). Pure.
const units = ['B', 'KB', 'MB', 'GB', 'TB'] as const;

export function formatBytes(bytes: number): string {
	let value = bytes;
	let unit = 0;
	while (value >= 1000 && unit < units.length - 1) { value /= 1000; unit += 1; }
	return unit === 0 ? `${bytes} B` : `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}
