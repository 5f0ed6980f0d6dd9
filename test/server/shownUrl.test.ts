import type { NetworkInterfaceInfo } from 'node:os';
import { describe, expect, it } from 'vitest';
import { serve, simServeConfig } from '../../src/server/serve.js';
import { shownUrl } from '../../src/server/security/shownUrl.js';
import { API_TOKEN } from './support/testServer.js';

const nic = (address: string, family: 'IPv4' | 'IPv6', internal = false): NetworkInterfaceInfo =>
  ({ address, family, internal, netmask: '', mac: '', cidr: null, ...(family === 'IPv6' ? { scopeid: 0 } : {}) }) as NetworkInterfaceInfo;
const machine = { lo: [nic('127.0.0.1', 'IPv4', true), nic('::1', 'IPv6', true)], eth0: [nic('fe80::1', 'IPv6'), nic('fd00::2', 'IPv6'), nic('192.168.1.20', 'IPv4')] };

describe('the address a server says it is at', () => {
  it('names the host it was given when that is one address', () => {
    expect(shownUrl('127.0.0.1', 8080, machine)).toEqual({ url: 'http://127.0.0.1:8080' });
    expect(shownUrl('192.168.1.20', 8080, machine)).toEqual({ url: 'http://192.168.1.20:8080' });
    expect(shownUrl('::1', 8080, machine)).toEqual({ url: 'http://[::1]:8080' });
  });

  it("names one of the machine's network addresses for every interface, not 0.0.0.0, and the loopback one for this machine", () => {
    expect(shownUrl('0.0.0.0', 8080, machine)).toEqual({ url: 'http://192.168.1.20:8080', local: 'http://127.0.0.1:8080' });
    expect(shownUrl('::', 8080, { eth0: [nic('fe80::1', 'IPv6'), nic('fd00::2', 'IPv6')] })).toEqual({ url: 'http://[fd00::2]:8080', local: 'http://localhost:8080' });
    // No network at all: this machine only.
    expect(shownUrl('0.0.0.0', 8080, { lo: machine.lo })).toEqual({ url: 'http://127.0.0.1:8080' });
  });

  it('serve on 0.0.0.0 answers at the address it prints', async () => {
    const logs: string[] = [];
    const running = await serve({ config: simServeConfig('d6', { clock: 'simulated' }), dbPath: ':memory:', host: '0.0.0.0', port: 0, tokens: { api: API_TOKEN }, log: (m) => logs.push(m) });
    try {
      expect(running.url).not.toContain('0.0.0.0');
      const page = await fetch(`${running.url}/`);
      expect(page.status).toBe(200);
      expect(logs.find((l) => l.startsWith('Listening on 0.0.0.0'))).toMatch(/\(from this machine: http:\/\/127\.0\.0\.1:\d+\)/);
    } finally {
      await running.close();
    }
  });
});
