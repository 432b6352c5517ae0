// Session tokens: a Turn's session gets a fresh one at every launch, and the store keeps only its hash.
import { createHash, randomBytes } from 'node:crypto';

/** A fresh bearer token: 32 random bytes, hex. */
export function mintToken(): string {
	return randomBytes(32).toString('hex');
}

/** What the store keeps instead of a token. */
export function tokenHash(token: string): string {
	return createHash('sha256').update(token, 'utf8').digest('hex');
}
