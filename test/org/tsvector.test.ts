// Publishing by COPY sends the search words' tsvector made here (org/tsvector.ts): it must be
// exactly what the server's to_tsvector('simple', words) makes, whenever it is made here at all.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { searchWords } from '../../server/src/org/facts';
import { simpleTsvector } from '../../server/src/org/tsvector';
import { mulberry32 } from '../../scripts/lib/prng.mjs';

const CHARS = 'abcxyzABCXYZe0123456789_$';

describe('simpleTsvector', () => {
  it("equals PostgreSQL's to_tsvector('simple', words) on the search words of random identifiers", async () => {
    const { PGlite } = await import('@electric-sql/pglite');
    const pg = await PGlite.create();
    try {
      const rand = mulberry32(1818);
      let made = 0, left = 0;
      for (let n = 0; n < 600; n++) {
        const ids: string[] = [];
        for (let k = Math.floor(rand() * 12); k >= 0; k--) {
          let id = '';
          for (let len = 1 + Math.floor(rand() * 10); len > 0; len--) id += CHARS[Math.floor(rand() * CHARS.length)];
          ids.push(/^[0-9]/.test(id) ? `v${id}` : id);
        }
        const words = searchWords(ids.join(' '));
        const ours = simpleTsvector(words);
        if (ours === undefined) { left++; continue; }
        made++;
        const r = await pg.query<{ server: string; ours: string }>(`SELECT to_tsvector('simple', $1)::text AS server, $2::tsvector::text AS ours`, [words, ours]);
        assert.equal(r.rows[0].ours, r.rows[0].server, words);
      }
      // These identifiers are made to be odd (digit runs after '_'); still most come out here.
      assert.ok(made > left, `${made} made here, ${left} left to the server`);
      for (const words of ['', 'a', '007 00', 'x'.repeat(2048)]) {
        const ours = simpleTsvector(words);
        if (ours === undefined) continue;
        const r = await pg.query<{ server: string; ours: string }>(`SELECT to_tsvector('simple', $1)::text AS server, $2::tsvector::text AS ours`, [words, ours]);
        assert.equal(r.rows[0].ours, r.rows[0].server, words);
      }
      assert.equal(simpleTsvector('1e5x'), undefined);
      assert.equal(simpleTsvector('x'.repeat(2048)), undefined);
    } finally {
      await pg.close();
    }
  });
});
