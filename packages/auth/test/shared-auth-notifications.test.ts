import { describe, expect, it } from 'vitest';
import type { AuthNotifications } from '../src/resource-server/auth-notifications.ts';
import { sharedAuthNotifications } from '../src/resource-server/shared-auth-notifications.ts';

/** A source that records its subscriptions and lets the test play the listener. */
function fakeSource() {
  const state = {
    subscriptions: 0,
    unsubscriptions: 0,
    message: (_payload: string) => {},
    lost: () => {},
    listening: () => {},
  };
  const source: AuthNotifications = {
    subscribe(onMessage, onLost, onListening) {
      state.subscriptions += 1;
      state.message = onMessage;
      state.lost = onLost;
      state.listening = onListening;
      return async () => {
        state.unsubscriptions += 1;
      };
    },
  };
  return { source, state };
}

function recorder() {
  const events: string[] = [];
  return {
    events,
    handlers: [
      (payload: string) => events.push(`message ${payload}`),
      () => events.push('lost'),
      () => events.push('listening'),
    ] as const,
  };
}

describe('sharedAuthNotifications', () => {
  it('subscribes the source once, fans every event out, and tells a late subscriber it listens', async () => {
    const { source, state } = fakeSource();
    const shared = sharedAuthNotifications(source);
    const first = recorder();
    const second = recorder();
    const stopFirst = shared.subscribe(...first.handlers);
    state.listening();
    const stopSecond = shared.subscribe(...second.handlers);
    state.message('user:usr_1');
    state.lost();
    expect(state.subscriptions).toBe(1);
    expect(first.events).toEqual(['listening', 'message user:usr_1', 'lost']);
    expect(second.events).toEqual(['listening', 'message user:usr_1', 'lost']);

    await stopFirst();
    expect(state.unsubscriptions).toBe(0);
    state.message('reset');
    expect(first.events).toHaveLength(3);
    await stopSecond();
    expect(state.unsubscriptions).toBe(1);
  });

  it('subscribes the source again after the last subscriber left, not listening until it says so', async () => {
    const { source, state } = fakeSource();
    const shared = sharedAuthNotifications(source);
    const stop = shared.subscribe(...recorder().handlers);
    state.listening();
    await stop();
    const again = recorder();
    shared.subscribe(...again.handlers);
    expect(state.subscriptions).toBe(2);
    expect(again.events).toEqual([]);
    state.listening();
    expect(again.events).toEqual(['listening']);
  });
});
