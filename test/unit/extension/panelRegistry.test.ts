// Closed issue panels release what they registered when they close, not at deactivation: the registry's map and its
// disposables, the controller's subscription to store changes and its timers, and the panel's status-bar message.
// The panel here owns its parts as IssuePanel does (a real IssuePanelController, its own DisposableStore, one slot
// for the "copied" message), with fakes for the webview and the editor only.
import { strict as assert } from 'node:assert';
import { Emitter } from '../../../src/core/events.js';
import { DisposableStore, MutableDisposable, type Disposable } from '../../../src/core/lifecycle.js';
import { IssuePanelController, type CoalesceTimer } from '../../../src/extension/panels/issuePanelController.js';
import type { PanelHostApi } from '../../../src/extension/panels/panelHostApi.js';
import { PanelRegistry } from '../../../src/extension/panels/panelRegistry.js';
import type { IssueWithTasksDto } from '../../../src/protocol/dto.js';
import { anIssue, aTask } from '../webview/builders.js';

/** Store-change subscriptions and timers the panels hold, as the Host and the clock see them. */
class World implements CoalesceTimer {
	readonly listeners = new Set<() => void>();
	readonly timers = new Set<unknown>();
	/** Status-bar messages on screen (a message's disposable takes it away). */
	readonly messages = new Set<string>();
	readonly api: PanelHostApi = {
		issue: async (): Promise<IssueWithTasksDto> => anIssue([aTask('t1')]),
		planSnapshot: async () => null,
		runs: async () => ({ runs: [] }),
		onDidChange: (listener) => {
			this.listeners.add(listener);
			return { dispose: () => { this.listeners.delete(listener); } };
		},
	};
	setTimeout(_fn: () => void, _ms: number): unknown {
		const handle = {};
		this.timers.add(handle);
		return handle;
	}
	clearTimeout(handle: unknown): void { this.timers.delete(handle); }
	statusBarMessage(text: string): Disposable {
		const id = `${text}#${this.messages.size}`;
		this.messages.add(id);
		return { dispose: () => { this.messages.delete(id); } };
	}
	storeChanged(): void { for (const l of [...this.listeners]) { l(); } }
}

/** A panel owning its parts the way IssuePanel does; `close()` is the user closing its tab. */
class OwnedPanel implements Disposable {
	readonly #store = new DisposableStore();
	readonly #closed = this.#store.add(new Emitter<void>());
	readonly #copied = this.#store.add(new MutableDisposable());
	readonly onDidDispose = this.#closed.event;
	readonly controller: IssuePanelController;
	#disposed = false;

	constructor(readonly issueId: string, readonly world: World) {
		const port = { visible: true, postMessage: async (): Promise<boolean> => true, setTitle: (): void => {} };
		const effects = {
			executeCommand: async (): Promise<unknown> => undefined,
			copyToClipboard: async (): Promise<void> => { this.#copied.value = world.statusBarMessage('copied'); },
			warn: (): void => {},
		};
		this.controller = this.#store.add(new IssuePanelController(issueId, world.api, port, effects, { selectedTaskId: null, showHistory: false }, { timer: world }));
	}

	close(): void { this.dispose(); }

	dispose(): void {
		if (this.#disposed) { return; }
		this.#disposed = true;
		this.#closed.fire();
		this.#store.dispose();
	}
}

describe('extension/panelRegistry: closed panels release what they registered', () => {
	it('closing a panel releases it from the registry and ends its subscription, timers and status-bar message at once', async () => {
		const world = new World();
		const registry = new PanelRegistry<OwnedPanel>();
		const a = registry.track(new OwnedPanel('A', world));
		const b = registry.track(new OwnedPanel('B', world));
		await a.controller.receive({ type: 'ready', protocol: 1 });
		await a.controller.receive({ type: 'command/copy', text: 'tutti agent resume --session-id s1' });
		await a.controller.receive({ type: 'command/copy', text: 'tutti agent resume --session-id s1' });
		assert.equal(world.messages.size, 1, 'a second copy replaces the first message instead of piling up');
		world.storeChanged();
		assert.deepEqual([registry.size, registry.heldDisposables, world.listeners.size], [2, 2, 2]);
		assert.ok(world.timers.size > 0, 'a snapshot is scheduled');

		a.close();
		assert.equal(registry.get('A'), undefined);
		assert.equal(registry.get('B'), b);
		assert.deepEqual([registry.size, registry.heldDisposables, world.listeners.size, world.messages.size], [1, 1, 1, 0]);
		world.storeChanged();
		assert.equal(world.timers.size, 1, 'only the open panel schedules a snapshot');

		// Deactivation ends the panel still open.
		registry.dispose();
		assert.deepEqual([registry.size, registry.heldDisposables, world.listeners.size, world.timers.size], [0, 0, 0, 0]);
	});

	it('an issue opened again after its panel closed gets a new panel, and the old one\'s late close changes nothing', () => {
		const world = new World();
		const registry = new PanelRegistry<OwnedPanel>();
		const first = registry.track(new OwnedPanel('A', world));
		first.close();
		const second = registry.track(new OwnedPanel('A', world));
		first.close();
		assert.equal(registry.get('A'), second);
		assert.deepEqual([registry.size, registry.heldDisposables], [1, 1]);
		registry.dispose();
	});
});
