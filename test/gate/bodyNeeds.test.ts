// Evidence about how much the hidden body will need, from the method's declaration and the
// surface's structured routes (gate/bodyNeeds.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ContextItem, SurfaceEntry } from '../../shared/protocol';
import { bodyNeedEvidence } from '../../server/src/gate/bodyNeeds';
import { returnsNothing } from '../../server/src/gate/bodySize';
import type { Target } from '../../server/src/retrieval/request';

const URI = 'file:///ws/A.java';
const item = (symbols: string[]): ContextItem & { symbols?: string[] } =>
  ({ uri: URI, range: { start: { line: 90, character: 0 }, end: { line: 99, character: 0 } }, text: '…', tokens: 10, score: 1, sources: ['lexical'], untrusted: true, symbols });
const entry = (symbol: string, kind: string, routes: string[], covered = false): SurfaceEntry =>
  ({ symbol, kind, uri: URI, line: 200, internal: true, covered, novelty: 0.5, weight: 0.3, routes });
const method = (sym: Record<string, unknown>): Target =>
  ({ ref: { sym: { id: 'p.A#m(Req)', kind: 'method', annotations: [], params: [{ name: 'r', type: 'Req' }], ...sym } }, owner: { sym: { id: 'p.A' } } }) as unknown as Target;

test('return kind: void, primitive, a workspace type, and whether the context shows any member of it', () => {
  const surface = [entry('p.Res', 'class', ['signature-type']), entry('p.Req', 'class', ['signature-type'])];
  // Whether it returns nothing is the body size model's input (bodySize.ts returnsNothing).
  assert.equal(returnsNothing(method({ returnType: 'void' }).ref.sym), true);
  assert.equal(returnsNothing(method({ kind: 'constructor' }).ref.sym), true);
  assert.equal(returnsNothing(method({ returnType: 'int' }).ref.sym), false);
  const prim = bodyNeedEvidence(surface, [], method({ returnType: 'int' }));
  assert.deepEqual([prim.returnsWorkspaceType, prim.returnTypeBare], [0, 0]);
  const ws = bodyNeedEvidence(surface, [], method({ returnType: 'Res' }));
  assert.deepEqual([ws.returnsWorkspaceType, ws.returnTypeBare], [1, 1]);
  assert.equal(bodyNeedEvidence(surface, [item(['p.Res#of()'])], method({ returnType: 'Res' })).returnTypeBare, 0, 'a member of it is shown');
  assert.equal(bodyNeedEvidence([entry('p.A', 'class', ['signature-type'])], [], method({ returnType: 'A' })).returnTypeBare, 0, 'its own class (a builder returning this) is not a bare type');
  assert.equal(bodyNeedEvidence(surface, [], method({ returnType: 'Res[]' })).returnsWorkspaceType, 1, 'arrays erased');
  // A member type of a generic type names the member type (the written half reads type names the same way).
  assert.equal(bodyNeedEvidence(surface, [], method({ returnType: 'Outer<X>.Res' })).returnsWorkspaceType, 1, 'Outer<X>.Res is Res');
  assert.equal(bodyNeedEvidence(surface, [], method({ returnType: 'java.util.List<Res>' })).returnsWorkspaceType, 0, 'a List of Res is a List');
  assert.equal(bodyNeedEvidence(surface, [], method({ returnType: 'void' })).paramTypesBare, 1, 'Req: a workspace parameter type with no member shown');
  assert.equal(bodyNeedEvidence(surface, [item(['p.Req#id'])], method({ returnType: 'void' })).paramTypesBare, 0);
});

test('a contract, its kin\'s uses and Javadoc names the context does not show', () => {
  const surface = [
    entry('p.B#x()', 'method', ['kin-sub-use', 'sibling-use']),
    entry('p.B#y()', 'method', ['cousin-use'], true),
    entry('p.C#z()', 'method', ['sibling-use']),
    entry('p.D', 'class', ['javadoc-link']),
    entry('p.E#w()', 'method', ['javadoc-name'], true),
  ];
  const f = bodyNeedEvidence(surface, [], method({ returnType: 'void' }));
  assert.deepEqual([f.kinUses, f.kinUsesUnshown, f.javadocUnshown, f.implementsContract], [2, 1, 1, 0]);
  assert.equal(bodyNeedEvidence(surface, [], method({ returnType: 'void', annotations: ['Override'] })).implementsContract, 1);
  assert.equal(bodyNeedEvidence([entry('p.S#m(Req)', 'method', ['overridden'])], [], method({ returnType: 'void' })).implementsContract, 1);
  // Written references are certain needs, not evidence of what is still to write.
  assert.equal(bodyNeedEvidence([{ ...surface[0], written: true }], [], method({ returnType: 'void' })).kinUses, 0);
});
