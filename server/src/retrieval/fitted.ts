// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,2000,3000 --doc-p 0.05,0.02 --l2 1
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13489 weighed candidates, 337 needed; AUROC 0.883 pooled,
// 0.783–0.955 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docP by contract recall where recall holds within one standard error. Scores:
// recall 0.848, full coverage 0.810, needed declarations' Javadocs shown 0.623,
// contract recall 0.753, 1843 median tokens, line noise 0.929.

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 2000,
  docP: 0.02,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-0.7191, 0.2374, 0.0556, -0.0443, 0.4844, -1.8657, 0.4174, 1.3164, 0.1319, -0.8872, 0.5184, -0.1599, 0.0229, -0.3066, -0.3066, -0.5436, -0.007, 0.1891, 0.0334, -0.0745, -1.1456, -0.0305, -0.9327, -0.0294, -0.5244, -0.3946, -1.3387, 0.4555, 0.844, -0.8353, -0.2582, -1.0266, 0.5897, -0.4553, -0.3676, 0.3955, 0.9119, 0, -0.4819, 0.4753, 0.5762, -0.1803, 0.1884, 0.578],
};
