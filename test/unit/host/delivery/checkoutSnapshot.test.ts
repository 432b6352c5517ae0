import { strict as assert } from 'node:assert';
import { parseStatusV2 } from '../../../../src/host/delivery/checkoutSnapshot.js';

describe('host/delivery/checkoutSnapshot', () => {
	it('reads HEAD, the branch and each tracked entry (paths with spaces, renames, unmerged)', () => {
		const out = [
			'# branch.oid 1111111111111111111111111111111111111111', '# branch.head main',
			'1 .M N... 100644 100644 100644 aaaa aaaa with space.txt',
			'2 R. N... 100644 100644 100644 bbbb bbbb R100 new name.txt', 'old name.txt',
			'u UU N... 100644 100644 100644 100644 c1 c2 c3 both.txt', '',
		].join('\0');
		const read = parseStatusV2(out);
		assert.equal(read.head, '1111111111111111111111111111111111111111');
		assert.equal(read.branch, 'main');
		assert.deepEqual([...read.entries.keys()], ['with space.txt', 'new name.txt', 'both.txt']);
		assert.equal(read.entries.get('with space.txt'), '1 .M N... 100644 100644 100644 aaaa aaaa');
	});

	it('a detached HEAD and a repository before its first commit', () => {
		assert.deepEqual(parseStatusV2('# branch.oid (initial)\0# branch.head (detached)\0'), { head: '', branch: '', entries: new Map() });
	});
});
