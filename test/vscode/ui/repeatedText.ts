// "No text is repeated" as a check: the first phrase of `size` words that occurs twice in a line of text, ignoring
// case and punctuation (e.g. "Agent working: Source agent working…" beside "Source agent working" repeats
// "source agent working"). Pure, so the unit tier uses it on rendered trees and the UI tier on what the panel shows.
export function repeatedPhrase(text: string, size = 3): string | null {
	const words = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '');
	const seen = new Set<string>();
	for (let i = 0; i + size <= words.length; i++) {
		const phrase = words.slice(i, i + size).join(' ');
		if (seen.has(phrase)) { return phrase; }
		seen.add(phrase);
	}
	return null;
}
