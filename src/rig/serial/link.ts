/**
 * The byte pipe under the serial driver: a serial port, or in tests a wrapper
 * that garbles, drops or delays bytes. Kept this small so a fault-injecting
 * link is a few lines and the driver's logic is tested over the real port.
 */
export interface SerialLink {
  readonly path: string;
  /** Queues bytes (latin1 text) for the wire. */
  write(text: string): void;
  /** Bytes from the board, in whatever chunks they arrive. */
  onData(listener: (chunk: Buffer) => void): void;
  /** The link closed without being asked to (a USB unplug, when the OS reports one). */
  onClose(listener: (error: Error | undefined) => void): void;
  /** Closes the port; safe to call twice. */
  close(): Promise<void>;
}
