// The README ships inside the .vsix. `vsce package` refuses a README with a relative link when package.json names no
// repository ("The link 'docs/…' will be broken"), so the README names repository files as code, never as links.
import { strict as assert } from 'node:assert';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const readme = readFileSync(join(__dirname, '..', '..', '..', 'README.md'), 'utf8');

/** Markdown links and images whose target is neither absolute (scheme://), a mailto: nor an in-page #anchor. */
function relativeLinks(markdown: string): string[] {
	const links = [...markdown.matchAll(/!?\[[^\]]*\]\(([^)\s]+)[^)]*\)/g)].map((match) => match[1] ?? '');
	return links.filter((target) => !/^([a-z][a-z0-9+.-]*:|#)/i.test(target));
}

describe('README', () => {
	it('has no relative links (vsce package refuses them)', () => {
		assert.deepEqual(relativeLinks(readme), []);
	});

	it('the check sees a relative link', () => {
		assert.deepEqual(relativeLinks('see [the map](docs/architecture.md) and [VS Code](https://code.visualstudio.com)'), ['docs/architecture.md']);
	});
});
