import type { RigFault } from './driver.js';

/**
 * The `onFault` subscribers of one driver. A listener that throws must not stop
 * the others, nor the driver: its error is handed to `onListenerError`.
 */
export class FaultListeners {
  private readonly listeners = new Set<(fault: RigFault) => void>();

  constructor(private readonly onListenerError: (error: unknown) => void = () => undefined) {}

  add(listener: (fault: RigFault) => void): () => void {
    // Wrapped so the same function can subscribe twice and unsubscribe each separately.
    const entry = (fault: RigFault): void => listener(fault);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  emit(fault: RigFault): void {
    for (const l of [...this.listeners]) {
      try {
        l(fault);
      } catch (e) {
        this.onListenerError(e);
      }
    }
  }

  clear(): void {
    this.listeners.clear();
  }
}
