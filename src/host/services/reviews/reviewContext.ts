// What the developer's review decisions need: the store, the clock, the Host settings and the dispatcher's trigger.
import type { Clock } from '../../../core/ports.js';
import type { Store } from '../../../store/database.js';
import type { HostConfig } from '../../config.js';

export interface ReviewContext {
	store: Store;
	clock: Clock;
	config: HostConfig;
}
