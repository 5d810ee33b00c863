// Surface routes fitted by bench/surface-fit: what like-named siblings use, same-name methods of
// unrelated types (and what they use), and the per-method scaling of the estimates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dependencySurface, MAX_ESTIMATED_P, MAX_MASS_SCALE, normalizedMass, SURFACE_MASS, surfaceCandidates } from '../../server/src/gate/surface';
import { buildIndex, targetAt } from './helpers';

const TEXT = '/ws/src/com/acme/text/TextTools.java';
const FILES: Record<string, string> = {
  [TEXT]: `package com.acme.text;

import com.acme.chars.CharTools;

public class TextTools {
    public static String chompLine(String s) {
        return Marks.strip(s, Marks.CR);
    }

    public static String chopLine(String s) {
        return Marks.cut(s);
    }

    public static boolean isBlank(CharSequence s) {
        $0
    }

    public static String chompTail(String s) {

    }

    public static int size(String s) {
        return Lengths.of(s);
    }
}
`,
  '/ws/src/com/acme/text/Marks.java': `package com.acme.text;

public class Marks {
    public static final char CR = '\\r';
    public static String strip(String s, char c) { return s; }
    public static String cut(String s) { return s; }
}
`,
  '/ws/src/com/acme/text/Lengths.java': `package com.acme.text;

public class Lengths {
    public static int of(String s) { return s.length(); }
}
`,
  '/ws/src/com/acme/chars/CharTools.java': `package com.acme.chars;

public class CharTools {
    public static boolean isBlank(char c) {
        return Spaces.isSpace(c);
    }
}
`,
  '/ws/src/com/acme/chars/Spaces.java': `package com.acme.chars;

public class Spaces {
    public static boolean isSpace(char c) { return c == ' '; }
}
`,
};

/** The cursor marked `$0` in the TextTools fixture, and the index with the marker removed. */
async function fixtureAt(name: string) {
  const text = FILES[TEXT];
  const lines = text.split('\n');
  const files = { ...FILES, [TEXT]: text.replace('$0', '') };
  const index = await buildIndex(files);
  const line = lines.findIndex((l) => l.includes(`${name}(`)) + 1;
  return { index, target: targetAt(index, TEXT, line, 8) };
}

const routesOf = (cands: { symbol: string; reasons: { reason: string }[] }[], id: string) => (cands.find((c) => c.symbol === id)?.reasons ?? []).map((r) => r.reason);

test('what a like-named sibling uses weighs by how alike the names are', async () => {
  const { index, target } = await fixtureAt('chompTail');
  const cands = surfaceCandidates(index, target, '\n    \n}');
  const alike = (id: string) => cands.find((c) => c.symbol === id)?.reasons.find((r) => r.reason === 'used by a like-named member')?.w ?? 0;
  // chompLine shares "chomp" with chompTail (Jaccard 1/3); chopLine and size share no word part with it.
  assert.ok(alike('com.acme.text.Marks#strip(String,char)') > 0, routesOf(cands, 'com.acme.text.Marks#strip(String,char)').join('; '));
  assert.ok(alike('com.acme.text.Marks#CR') > 0);
  assert.equal(alike('com.acme.text.Marks#cut(String)'), 0);
  assert.equal(alike('com.acme.text.Lengths#of(String)'), 0);
  // All of them stay reachable as plain sibling use.
  assert.match(routesOf(cands, 'com.acme.text.Marks#cut(String)').join(';'), /used by other members/);
  // On the surface, the like-named sibling's helper outranks the unrelated sibling's.
  const surface = new Map(dependencySurface(index, target, '\n    \n}').map((e) => [e.symbol, e.weight]));
  assert.ok(surface.get('com.acme.text.Marks#strip(String,char)')! > surface.get('com.acme.text.Lengths#of(String)')!);
});

test('a same-name method of an unrelated type and what it uses are on the surface', async () => {
  const { index, target } = await fixtureAt('isBlank');
  assert.equal(target.ref.sym.id, 'com.acme.text.TextTools#isBlank(CharSequence)');
  const cands = surfaceCandidates(index, target, '\n    \n}');
  assert.deepEqual(routesOf(cands, 'com.acme.chars.CharTools#isBlank(char)').filter((r) => r.startsWith('same-name method elsewhere')), ['same-name method elsewhere']);
  assert.deepEqual(routesOf(cands, 'com.acme.chars.Spaces#isSpace(char)'), ['used by a same-name method elsewhere']);
  // Not for a name nobody else declares.
  const other = await fixtureAt('size');
  assert.ok(!surfaceCandidates(other.index, other.target, '\n    \n}').some((c) => c.reasons.some((r) => r.reason.includes('same-name method elsewhere'))));
});

test('estimates are scaled to the expected count of needed symbols per method; evidence is kept', () => {
  const many = new Array(40).fill(0.2);
  const scaled = normalizedMass(many, many.map(() => false));
  assert.ok(Math.abs(scaled.reduce((a, b) => a + b, 0) - SURFACE_MASS) < 1e-9);
  // A small surface is scaled up, at most MAX_MASS_SCALE times, never above MAX_ESTIMATED_P.
  assert.deepEqual(normalizedMass([0.1, 0.05], [false, false]), [0.1 * MAX_MASS_SCALE, 0.05 * MAX_MASS_SCALE]);
  assert.equal(normalizedMass([0.6, 0.6, 0.5], [false, false, false]).every((p) => p <= MAX_ESTIMATED_P), true);
  // Partial-body evidence is neither scaled nor counted, and with it estimates are only scaled down.
  assert.deepEqual(normalizedMass([0.99, 0.1, 0.05], [true, false, false]), [0.99, 0.1, 0.05]);
  const down = normalizedMass([0.99, ...many], [true, ...many.map(() => false)]);
  assert.equal(down[0], 0.99);
  assert.ok(Math.abs(down.slice(1).reduce((a, b) => a + b, 0) - SURFACE_MASS) < 1e-9);
  assert.deepEqual(normalizedMass([], []), []);
});
