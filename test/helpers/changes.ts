import { createLocalChangeBus, type ChangeBus } from '../../src/services/changes.ts';

export interface CountingChangeBus {
  bus: ChangeBus;
  /** Takes the listeners the server keeps for itself (its caches empty on every change) as the zero: call once it started. */
  settle(): void;
  /** The listeners added since `settle()`: one per live subscription, so a test sees it set up and, once closed, let go. */
  subscribers(): number;
}

/** An in-process change bus that counts its listeners, for the subscription tests over SSE and WebSocket. */
export function countingChangeBus(): CountingChangeBus {
  let listening = 0;
  let own = 0;
  const local = createLocalChangeBus();
  const bus: ChangeBus = {
    ...local,
    onChange: (listener) => {
      listening++;
      const off = local.onChange(listener);
      return () => {
        listening--;
        off();
      };
    },
  };
  return { bus, settle: () => void (own = listening), subscribers: () => listening - own };
}
