/**
 * The bytes of SQLite's table of tables (`sqlite_master`), read and written without SQLite: salvage's way into a store
 * whose own table of tables is damaged. SQLite then cannot say where any table's rows start (and refuses the whole
 * schema for one garbled entry), though the rows themselves may be whole. Every page of the file is looked at for
 * cells that read as schema entries, wherever they are (a damaged first page orphans the leaves it pointed to), and a
 * fresh first page naming the tables found is written into salvage's own copy of the file.
 *
 * File format: https://www.sqlite.org/fileformat2.html (b-tree pages, cells, records, varints, the freelist).
 */

/** One entry of a table of tables, as a cell of some page holds it. */
export interface SchemaEntry {
  readonly type: string;
  readonly name: string;
  readonly rootpage: number;
  /** The CREATE statement, when the cell holds all of it (a long one spills onto pages not followed here). */
  readonly sql: string | undefined;
  /** The page the entry was found on. */
  readonly page: number;
}

/** The file's layout, from its 100-byte header. */
export interface FileLayout {
  readonly pageSize: number;
  /** Bytes at the end of each page that are not b-tree content. */
  readonly reserved: number;
}

const HEADER = 100;
const LEAF_TABLE = 0x0d;
const INTERIOR_TABLE = 0x05;
const SCHEMA_TYPES = new Set(['table', 'index', 'view', 'trigger']);

export function fileLayout(header: Uint8Array): FileLayout | undefined {
  if (header.length < HEADER || Buffer.from(header.subarray(0, 16)).toString('latin1') !== 'SQLite format 3\0') return undefined;
  const raw = (header[16] as number) * 256 + (header[17] as number);
  const pageSize = raw === 1 ? 65536 : raw;
  if (pageSize < 512 || (pageSize & (pageSize - 1)) !== 0) return undefined;
  return { pageSize, reserved: header[20] as number };
}

/** A big-endian base-128 varint at `at`: its value and length, or undefined past `end`. */
function varint(b: Uint8Array, at: number, end: number): { value: number; length: number } | undefined {
  let value = 0;
  for (let i = 0; i < 9; i++) {
    if (at + i >= end) return undefined;
    const byte = b[at + i] as number;
    if (i === 8) return { value: value * 256 + byte, length: 9 };
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return { value, length: i + 1 };
  }
  return undefined;
}

function encodeVarint(value: number): number[] {
  const out = [value & 0x7f];
  for (let v = Math.floor(value / 128); v > 0; v = Math.floor(v / 128)) out.unshift((v & 0x7f) | 0x80);
  return out;
}

type Value = string | number | null | undefined;

/** The first `count` values of the record at `at` (up to `end`, the cell's bytes on this page); undefined if it does not decode. */
function recordValues(b: Uint8Array, at: number, end: number, count: number): Value[] | undefined {
  const size = varint(b, at, end);
  if (size === undefined || size.value < 2 || at + size.value > end) return undefined;
  const types: number[] = [];
  for (let p = at + size.length; p < at + size.value && types.length < count; ) {
    const t = varint(b, p, at + size.value);
    if (t === undefined) return undefined;
    types.push(t.value);
    p += t.length;
  }
  if (types.length < count) return undefined;
  const values: Value[] = [];
  let p = at + size.value;
  for (const t of types) {
    const intBytes = [0, 1, 2, 3, 4, 6, 8][t];
    if (t === 0) values.push(null);
    else if (t === 8 || t === 9) values.push(t - 8);
    else if (intBytes !== undefined) {
      if (p + intBytes > end) return undefined;
      let v = (b[p] as number) & 0x80 ? -1 : 0;
      for (let i = 0; i < intBytes; i++) v = v * 256 + (b[p + i] as number);
      values.push(v);
      p += intBytes;
    } else if (t >= 12) {
      const n = Math.floor((t - 12) / 2);
      // A text cut off by the page's end (the rest spilled onto overflow pages) reads as undefined.
      values.push(p + n <= end && t % 2 === 1 ? Buffer.from(b.subarray(p, p + n)).toString('utf8') : undefined);
      p += n;
    } else return undefined; // a float, or a reserved type: not a schema entry
  }
  return values;
}

/** The bytes of a cell's payload kept on its own page (SQLite's rule for a table leaf). */
function localPayload(payload: number, usable: number): number {
  const max = usable - 35;
  if (payload <= max) return payload;
  const min = Math.floor(((usable - 12) * 32) / 255) - 23;
  const k = min + ((payload - min) % (usable - 4));
  return k <= max ? k : min;
}

/** The type byte of a page's b-tree header (page 1's header follows the file header). */
const pageType = (page: Uint8Array, pageNo: number): number => page[pageNo === 1 ? HEADER : 0] ?? 0;

/** Whether a page is a table b-tree page (a leaf or an interior page), as a table's root page must be. */
export const isTablePage = (page: Uint8Array, pageNo: number): boolean => [LEAF_TABLE, INTERIOR_TABLE].includes(pageType(page, pageNo));

/** Every cell of a table-leaf page that reads as a schema entry (type, name, table name, root page, sql). */
export function schemaEntriesOf(page: Uint8Array, pageNo: number, layout: FileLayout): SchemaEntry[] {
  if (pageType(page, pageNo) !== LEAF_TABLE) return [];
  const hdr = pageNo === 1 ? HEADER : 0;
  const usable = layout.pageSize - layout.reserved;
  const cells = (page[hdr + 3] as number) * 256 + (page[hdr + 4] as number);
  const found: SchemaEntry[] = [];
  for (let i = 0; i < cells; i++) {
    const ptr = hdr + 8 + 2 * i;
    if (ptr + 2 > usable) break;
    const at = (page[ptr] as number) * 256 + (page[ptr + 1] as number);
    if (at < hdr + 8 || at >= usable) continue;
    const payload = varint(page, at, usable);
    const rowid = payload === undefined ? undefined : varint(page, at + payload.length, usable);
    if (payload === undefined || rowid === undefined) continue;
    const start = at + payload.length + rowid.length;
    const values = recordValues(page, start, Math.min(usable, start + localPayload(payload.value, usable)), 5);
    if (values === undefined) continue;
    const [type, name, , rootpage, sql] = values;
    if (typeof type !== 'string' || !SCHEMA_TYPES.has(type) || typeof name !== 'string' || typeof rootpage !== 'number') continue;
    found.push({ type, name, rootpage, sql: typeof sql === 'string' ? sql : undefined, page: pageNo });
  }
  return found;
}

/** The pages on the freelist (their old content is no schema, whatever it reads as), from the header and trunk pages. */
export function freelistPages(header: Uint8Array, readPage: (n: number) => Uint8Array | undefined, pageCount: number): Set<number> {
  const u32 = (b: Uint8Array, at: number): number => (((b[at] as number) << 24) >>> 0) + ((b[at + 1] as number) << 16) + ((b[at + 2] as number) << 8) + (b[at + 3] as number);
  const pages = new Set<number>();
  let trunk = u32(header, 32);
  while (trunk >= 2 && trunk <= pageCount && !pages.has(trunk)) {
    pages.add(trunk);
    const page = readPage(trunk);
    if (page === undefined) break;
    const leaves = u32(page, 4);
    for (let i = 0; i < leaves && 8 + 4 * i + 4 <= page.length; i++) pages.add(u32(page, 8 + 4 * i));
    trunk = u32(page, 0);
  }
  return pages;
}

/**
 * A first page for the file: its own 100-byte header (marked as a rollback-journal file, since the copy has no
 * write-ahead log), then one leaf of the table of tables holding `tables`. Undefined when they do not fit on one page.
 */
export function firstPage(header: Uint8Array, layout: FileLayout, tables: readonly { name: string; rootpage: number; sql: string }[]): Uint8Array | undefined {
  const page = new Uint8Array(layout.pageSize);
  page.set(header.subarray(0, HEADER));
  page[18] = 1;
  page[19] = 1;
  const usable = layout.pageSize - layout.reserved;
  let content = usable;
  for (const [i, t] of tables.entries()) {
    const texts = ['table', t.name, t.name].map((s) => Buffer.from(s, 'utf8'));
    const sql = Buffer.from(t.sql, 'utf8');
    const serials = [...texts.map((b) => 13 + 2 * b.length), 4, 13 + 2 * sql.length].flatMap(encodeVarint);
    const root = [(t.rootpage >>> 24) & 0xff, (t.rootpage >>> 16) & 0xff, (t.rootpage >>> 8) & 0xff, t.rootpage & 0xff];
    const body = [...texts.flatMap((b) => [...b]), ...root, ...sql];
    const record = [...encodeVarint(serials.length + 1), ...serials, ...body];
    const cell = [...encodeVarint(record.length), ...encodeVarint(i + 1), ...record];
    content -= cell.length;
    if (record.length > usable - 35 || content < HEADER + 8 + 2 * tables.length) return undefined;
    page.set(cell, content);
    page[HEADER + 8 + 2 * i] = content >> 8;
    page[HEADER + 8 + 2 * i + 1] = content & 0xff;
  }
  page[HEADER] = LEAF_TABLE;
  page[HEADER + 1] = 0;
  page[HEADER + 2] = 0;
  page[HEADER + 3] = tables.length >> 8;
  page[HEADER + 4] = tables.length & 0xff;
  page[HEADER + 5] = (content >> 8) & 0xff; // 65536 is written as 0, as the format says
  page[HEADER + 6] = content & 0xff;
  page[HEADER + 7] = 0;
  return page;
}
