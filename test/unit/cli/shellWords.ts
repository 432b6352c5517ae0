// POSIX shell words of a printed command, for tests that parse what Tutti prints.

/** POSIX shell words; unquoted shell operators (|, ;, &, <, >) are an error: pasted, they would not run one command. */
export function shellWords(command: string): string[] {
	const words: string[] = [];
	let word: string | null = null;
	for (let i = 0; i < command.length; i++) {
		const c = command[i]!;
		if (c === "'") {
			const end = command.indexOf("'", i + 1);
			if (end < 0) { throw new Error(`unterminated ' in ${command}`); }
			word = (word ?? '') + command.slice(i + 1, end);
			i = end;
		} else if (c === '"') {
			let j = i + 1;
			let text = '';
			for (; j < command.length && command[j] !== '"'; j++) {
				if (command[j] === '\\' && j + 1 < command.length && '"\\$`'.includes(command[j + 1]!)) { j++; }
				text += command[j];
			}
			if (j >= command.length) { throw new Error(`unterminated " in ${command}`); }
			word = (word ?? '') + text;
			i = j;
		} else if (c === '\\') {
			word = (word ?? '') + (command[i + 1] ?? '');
			i++;
		} else if (/\s/.test(c)) {
			if (word !== null) { words.push(word); word = null; }
		} else if ('|;&<>()$`'.includes(c)) {
			throw new Error(`unquoted shell operator ${c} in ${command}`);
		} else {
			word = (word ?? '') + c;
		}
	}
	if (word !== null) { words.push(word); }
	return words;
}
