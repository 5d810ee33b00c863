// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,1500,2000,2500,3000 --doc-value 300,100,1000 --l2 1,3,10,30,100
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13489 weighed candidates, 337 needed; L2 penalty λ 30 (of 1, 3, 10, 30, 100: the best mean AUROC leaving one corpus out); AUROC 0.882 pooled,
// 0.763–0.960 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docValue at the knee of contract recall against median tokens where recall holds
// within one standard error. Scores:
// recall 0.863, full coverage 0.821, needed declarations' Javadocs shown 0.583,
// contract recall 0.745, 1602 median tokens, line noise 0.936.
// Frontier (median tokens → recall): 980→0.792 (value 1000)  1366→0.841 (value 1500)  1602→0.863 (value 2000)  1792→0.875 (value 2500)  2002→0.878 (value 3000).

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 2000,
  docValue: 300,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.0565, 0.1831, 0.1197, -0.0168, 0.1834, -0.241, -0.0457, 0.2621, 0.0246, -0.695, 0.1147, 0.0296, -0.0258, -0.1593, -0.1593, -0.3132, -0.0271, 0.0166, 0.0393, 0.0293, 0.0408, -0.0398, -0.135, 0.3965, -0.1754, -0.0794, 0.3973, 0.3863, -0.2346, -0.0007, -0.1214, 0.0162, -0.0916, -0.0862, -0.1202, 0.2078, 0.5495, -0.0403, -0.0271, -0.2307, 0.2501, -0.1527, 0.0166, 0.0509, 0.1211, 0, 0.0097, -0.1246, 0.0958, -0.094, 0.0301, 0.3138],
};
