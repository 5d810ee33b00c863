// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,1500,1800,2000,2500,3000 --doc-value 100,300,1000 --l2 1,3,10,30,100 --imports masked
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13833 weighed candidates, 340 needed; L2 penalty λ 100 (of 1, 3, 10, 30, 100: the best mean AUROC leaving one corpus out); AUROC 0.881 pooled,
// 0.779–0.956 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docValue, where recall holds within one standard error, the best contract recall within 1200 median tokens, else the cheapest.
// Scores:
// recall 0.814, full coverage 0.821, needed declarations' Javadocs shown 0.410,
// contract recall 0.643, 1427 median tokens, line noise 0.938.
// Frontier (median tokens → recall): 906→0.743 (value 1000)  1248→0.792 (value 1500)  1427→0.814 (value 1800)  1523→0.822 (value 2000)  1836→0.826 (value 2500)  2022→0.834 (value 3000).

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 1800,
  docValue: 100,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'log uses in file', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.619, 0.1497, 0.1122, 0.0058, 0.1402, -0.0744, -0.0445, 0.0878, 0.0311, -0.5868, 0.0342, 0.0325, 0.0006, -0.0712, -0.0712, -0.1805, -0.0338, -0.0167, 0.0971, -0.0355, 0.0522, -0.013, -0.1474, 0.2266, -0.1183, -0.0198, 0.221, 0.1947, 0.3414, -0.0809, -0.0002, -0.0343, 0.0018, -0.0185, 0.0341, -0.0332, 0.1214, 0.2449, -0.0146, -0.0109, -0.0805, 0.1266, -0.0477, 0.0124, 0.0325, 0.0454, 0, 0.0315, -0.0406, 0.0523, -0.0259, 0.0345, 0.2122],
};
