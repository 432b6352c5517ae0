// Typed reads of sql.js row values (the store returns loosely typed rows).
import type { Row, SqlValue } from '../tx.js';

export function str(row: Row, column: string): string {
	const v: SqlValue | undefined = row[column];
	return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v);
}

export function num(row: Row, column: string): number {
	const v = row[column];
	return typeof v === 'number' ? v : typeof v === 'string' && v !== '' ? Number(v) : 0;
}

export function numOrNull(row: Row, column: string): number | null {
	const v = row[column];
	return v === null || v === undefined ? null : typeof v === 'number' ? v : Number(v);
}

export function bool(row: Row, column: string): boolean {
	return num(row, column) !== 0;
}

export function flag(value: boolean): number {
	return value ? 1 : 0;
}
