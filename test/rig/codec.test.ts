import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crc16, crcField } from '../../src/rig/protocol/crc16.js';
import { decodeLine } from '../../src/rig/protocol/decode.js';
import { encodeCommand } from '../../src/rig/protocol/encode.js';
import { LineSplitter } from '../../src/rig/protocol/lineSplitter.js';
import { isNewerSeq, nextSeq } from '../../src/rig/protocol/sequence.js';

const seal = (body: string): string => `${body}*${crcField(body)}`;

describe('CRC-16/CCITT-FALSE', () => {
  it('gives the standard check value 0x29B1 for "123456789"', () => {
    expect(crc16('123456789')).toBe(0x29b1);
    expect(crc16(new Uint8Array())).toBe(0xffff);
  });
});

describe('encodeCommand', () => {
  it('writes seq, verb, arguments and the CRC of the bytes before the star', () => {
    const line = encodeCommand(12, 'light', ['128']);
    expect(line).toBe(`12 light 128*${crcField('12 light 128')}\n`);
  });

  it('refuses a seq of 0, a verb with capitals and arguments with spaces', () => {
    expect(() => encodeCommand(0, 'ping')).toThrow(RangeError);
    expect(() => encodeCommand(1, 'Ping')).toThrow(RangeError);
    expect(() => encodeCommand(1, 'config', ['rig=a b'])).toThrow(RangeError);
  });
});

describe('decodeLine', () => {
  it('reads an ok reply with its fields', () => {
    const d = decodeLine(seal('1 ok fw=0.1.0 proto=1 rig=rig-01'));
    expect(d).toMatchObject({ kind: 'ok', seq: 1, fields: { fw: '0.1.0', proto: '1', rig: 'rig-01' } });
  });

  it('reads err replies, with "-" meaning the board could not trust the seq', () => {
    expect(decodeLine(seal('7 err 20 jam'))).toMatchObject({ kind: 'err', seq: 7, code: 20, name: 'jam' });
    expect(decodeLine(seal('- err 1 bad_crc'))).toMatchObject({ kind: 'err', seq: null, code: 1 });
    expect(decodeLine(seal('9 err 9 seq_stale last=22'))).toMatchObject({ fields: { last: '22' } });
  });

  it('reads push lines: banner, fault and limit', () => {
    expect(decodeLine(seal('! boot fw=0.1.0 proto=1 reset=watchdog'))).toMatchObject({
      kind: 'push',
      event: 'boot',
      fields: { reset: 'watchdog' },
    });
    expect(decodeLine(seal('! fault 23 deadman seq=4'))).toMatchObject({ event: 'fault', words: ['23', 'deadman'], fields: { seq: '4' } });
    expect(decodeLine(seal('! limit pressed'))).toMatchObject({ event: 'limit', words: ['pressed'] });
  });

  it('reports a flipped bit as a CRC failure and a \\r\\n ending as a normal line', () => {
    const good = seal('3 ok light=255');
    expect(decodeLine(good.replace('255', '254'))).toMatchObject({ kind: 'invalid', reason: 'bad_crc' });
    expect(decodeLine(`${good}\r`)).toMatchObject({ kind: 'ok', seq: 3 });
    expect(decodeLine('hello')).toMatchObject({ kind: 'invalid', reason: 'bad_syntax' });
    expect(decodeLine(seal('0 ok'))).toMatchObject({ kind: 'invalid', reason: 'bad_syntax' });
  });
});

describe('sequence numbers', () => {
  it('wrap from 65535 to 1 and count as newer across the wrap', () => {
    expect(nextSeq(65535)).toBe(1);
    expect(isNewerSeq(1, 65535)).toBe(true);
    expect(isNewerSeq(65535, 1)).toBe(false);
    expect(isNewerSeq(5, 5)).toBe(false);
    expect(isNewerSeq(30000, 1)).toBe(true);
  });
});

describe('LineSplitter with the decoder, fed random chunks and garbage (seeded)', () => {
  const validLines = fc.constantFrom(
    seal('1 ok fw=0.1.0 proto=1'),
    seal('2 err 7 busy'),
    seal('! limit pressed'),
    seal('- err 2 bad_syntax'),
    seal('65535 ok t=123'),
  );

  it('recovers every valid line however the byte stream is split, with \\n or \\r\\n', () => {
    fc.assert(
      fc.property(fc.array(validLines, { minLength: 1, maxLength: 20 }), fc.boolean(), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1 }), (lines, crlf, cuts) => {
        const stream = Buffer.from(lines.map((l) => l + (crlf ? '\r\n' : '\n')).join(''), 'latin1');
        const splitter = new LineSplitter(200);
        const got: string[] = [];
        let at = 0;
        for (let i = 0; at < stream.length; i++) {
          const size = cuts[i % cuts.length] ?? 1;
          for (const { line } of splitter.push(stream.subarray(at, at + size))) got.push(line);
          at += size;
        }
        expect(got).toEqual(lines);
        expect(got.map((l) => decodeLine(l).kind).every((k) => k !== 'invalid')).toBe(true);
      }),
      { seed: 20261122, numRuns: 300 },
    );
  });

  it('never throws on random bytes, reports garbage as invalid lines and still finds the valid lines around it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(validLines.map((l) => ({ valid: true, bytes: Buffer.from(l, 'latin1') })), fc.uint8Array({ maxLength: 300 }).map((b) => ({ valid: false, bytes: Buffer.from(b) }))), { maxLength: 15 }),
        fc.integer({ min: 1, max: 64 }),
        (parts, chunk) => {
          const stream = Buffer.concat(parts.flatMap((p) => [p.bytes, Buffer.from('\n')]));
          const splitter = new LineSplitter(200);
          const decoded = [];
          for (let at = 0; at < stream.length; at += chunk) {
            for (const { line, overlong } of splitter.push(stream.subarray(at, at + chunk))) {
              const d = decodeLine(line);
              if (overlong) expect(d.kind).toBe('invalid');
              decoded.push(d);
            }
          }
          const valid = decoded.filter((d) => d.kind !== 'invalid').map((d) => d.raw);
          const expected = parts.filter((p) => p.valid).map((p) => p.bytes.toString('latin1'));
          // Random garbage can contain newlines and so split differently, but it cannot forge a CRC-valid
          // line except by chance: the valid lines must all be found, in order.
          expect(valid.filter((v) => expected.includes(v))).toEqual(expected);
        },
      ),
      { seed: 4242, numRuns: 300 },
    );
  });
});
