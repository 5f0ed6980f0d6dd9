/**
 * Stopping `serve` while a client holds a connection it has sent nothing on (a browser opens some ahead of need):
 * the server closes it at once. Node's own close took such a connection for a request under way and waited for its
 * headers to time out, answering it 408 a minute or more later, and the stop waited with it.
 */
import { once } from 'node:events';
import { connect } from 'node:net';
import { expect, it } from 'vitest';
import { startTestServer } from './support/testServer.js';

it('closes a connection no request came on when it stops, rather than waiting for the connection to time out', async () => {
  const s = await startTestServer();
  const socket = connect(Number(new URL(s.url).port), '127.0.0.1');
  await once(socket, 'connect');
  let heard = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (heard += d));
  const closed = once(socket, 'close');
  await s.close();
  await closed;
  // Node's timeout would have answered "HTTP/1.1 408 Request Timeout" before closing it.
  expect(heard).toBe('');
});
