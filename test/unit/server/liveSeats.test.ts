import { describe, expect, it } from 'vitest';
import { LiveSeats } from '../../../src/server/live/liveSeats.js';

describe('live page seats', () => {
  it('let pages in up to the limit per address, then refuse that address only, naming the setting', () => {
    const seats = new LiveSeats({ total: 10, perAddress: 2 });
    expect(typeof seats.take('10.0.0.5')).toBe('function');
    expect(typeof seats.take('10.0.0.5')).toBe('function');
    expect(seats.take('10.0.0.5')).toBe('your address has 2 live pages open, its limit (server.livePerAddress): close one or raise the limit');
    expect(seats.refusal('10.0.0.6')).toBeUndefined();
    expect(seats.open).toBe(2);
  });

  it('refuse every address once the server holds its limit in all, and let one in again when a page leaves', () => {
    const seats = new LiveSeats({ total: 3, perAddress: 2 });
    const a = seats.take('a') as () => void;
    seats.take('b');
    seats.take('c');
    expect(seats.refusal('d')).toBe('the server has 3 live pages open, its limit (server.liveMax): close one or raise the limit');
    a();
    expect(seats.refusal('d')).toBeUndefined();
    expect(seats.open).toBe(2);
  });

  it('give a seat back once however often its page says it left (close and error both fire)', () => {
    const seats = new LiveSeats({ total: 5, perAddress: 1 });
    const first = seats.take('a') as () => void;
    seats.take('b');
    first();
    first();
    expect(seats.open).toBe(1);
    expect(seats.refusal('b')).toMatch(/livePerAddress/);
    expect(typeof seats.take('a')).toBe('function');
  });
});
