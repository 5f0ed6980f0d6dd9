import { describe, expect, it } from 'vitest';
import { D8Reader } from '../../src/vision/d8/d8Reader.js';
import { formatReaderMetrics, metricItemsOf, readerMetrics } from '../../src/vision/readerMetrics.js';
import { defaultProfilePath, readProfileFile } from '../../src/vision-io/profileFile.js';
import { drawD8 } from './d8Fixtures.js';

describe('a die larger than the profile was calibrated for', () => {
  it('is declined with the die-size cause, and counted under it in the declines by cause', async () => {
    // The shipped profile reads dice of about 59-86 px across; this one is 110 px.
    const reader = new D8Reader(await readProfileFile(defaultProfilePath('xwing')));
    const read = reader.read({ image: drawD8('hit', 0.3, { size: 110, side: 160 }), sizePx: 110 });
    expect(read.status).toBe('unreadable');
    expect(read.cause).toBe('die-size');
    expect(read.reason).toMatch(/px across; the profile was calibrated for/);
    const m = readerMetrics(metricItemsOf([{ group: 'g', truth: 'red-hit', read }]));
    expect(m.perClass.find((c) => c.className === 'red-hit')?.causes).toEqual({ 'die-size': 1 });
    expect(formatReaderMetrics(m)).toMatch(/declined by cause: face\s+die-size\n\s+red-hit\s+1/);
  });
});
