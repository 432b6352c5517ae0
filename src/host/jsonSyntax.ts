// Where a JSON text first breaks, as a line and a column: Node's JSON.parse names an offset for some errors and none
// for others ("Unexpected token ']'"), so a refused config.json is located by this small scanner of the JSON grammar.

export interface TextPosition {
	/** 1-based. */
	readonly line: number;
	/** 1-based, in UTF-16 code units. */
	readonly column: number;
}

class SyntaxStop {
	constructor(readonly offset: number) {}
}

const numberPattern = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The offset of the first character that makes `text` invalid JSON (its length: it ended too early); undefined: valid. */
export function jsonSyntaxErrorOffset(text: string): number | undefined {
	let i = 0;
	const stop = (): never => { throw new SyntaxStop(i); };
	const skipSpace = (): void => {
		while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) { i++; }
	};
	const string = (): void => {
		i++; // the opening quote
		for (;;) {
			if (i >= text.length) { stop(); }
			const c = text.charCodeAt(i);
			if (c === 0x22) { i++; return; }
			if (c < 0x20) { stop(); }
			if (c !== 0x5c) { i++; continue; }
			i++;
			if (i < text.length && '"\\/bfnrt'.includes(text[i]!)) { i++; continue; }
			if (text[i] !== 'u') { stop(); }
			i++;
			for (let k = 0; k < 4; k++, i++) {
				if (!/[0-9a-fA-F]/.test(text[i] ?? '')) { stop(); }
			}
		}
	};
	const value = (): void => {
		skipSpace();
		const c = text[i];
		if (c === '{') {
			i++;
			skipSpace();
			if (text[i] === '}') { i++; return; }
			for (;;) {
				skipSpace();
				if (text[i] !== '"') { stop(); }
				string();
				skipSpace();
				if (text[i] !== ':') { stop(); }
				i++;
				value();
				skipSpace();
				if (text[i] === ',') { i++; continue; }
				if (text[i] === '}') { i++; return; }
				stop();
			}
		}
		if (c === '[') {
			i++;
			skipSpace();
			if (text[i] === ']') { i++; return; }
			for (;;) {
				value();
				skipSpace();
				if (text[i] === ',') { i++; continue; }
				if (text[i] === ']') { i++; return; }
				stop();
			}
		}
		if (c === '"') { string(); return; }
		for (const literal of ['true', 'false', 'null']) {
			if (text.startsWith(literal, i)) { i += literal.length; return; }
		}
		numberPattern.lastIndex = i;
		if (numberPattern.exec(text) === null) { stop(); }
		i = numberPattern.lastIndex;
	};
	try {
		value();
		skipSpace();
		return i < text.length ? i : undefined;
	} catch (error) {
		if (error instanceof SyntaxStop) { return error.offset; }
		if (error instanceof RangeError) { return undefined; } // nested too deep to scan: the parse error says enough
		throw error;
	}
}

/** The line and column of `offset` in `text`. */
export function positionAt(text: string, offset: number): TextPosition {
	let line = 1;
	let lineStart = 0;
	for (let k = 0; k < offset && k < text.length; k++) {
		if (text[k] === '\n') { line++; lineStart = k + 1; }
	}
	return { line, column: offset - lineStart + 1 };
}
