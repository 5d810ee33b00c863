// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,1500,1800,2000,2500,3000 --doc-value 100,300,1000 --l2 1,3,10,30,100 --imports masked
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13589 weighed candidates, 340 needed; L2 penalty λ 100 (of 1, 3, 10, 30, 100: the best mean AUROC leaving one corpus out); AUROC 0.881 pooled,
// 0.777–0.955 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docValue, where recall holds within one standard error, the best contract recall within 1200 median tokens, else the cheapest.
// Scores:
// recall 0.809, full coverage 0.821, needed declarations' Javadocs shown 0.410,
// contract recall 0.640, 1239 median tokens, line noise 0.935.
// Frontier (median tokens → recall): 905→0.751 (value 1000)  1239→0.809 (value 1500)  1397→0.819 (value 1800)  1523→0.824 (value 2000)  1770→0.831 (value 2500)  1936→0.841 (value 3000).

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 1500,
  docValue: 100,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'log uses in file', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.5775, 0.1479, 0.1098, 0.0069, 0.1378, -0.0759, -0.0431, 0.0835, 0.0354, -0.5914, 0.0318, 0.038, 0.0006, -0.0726, -0.0726, -0.1812, -0.0438, -0.0146, 0.0902, -0.0286, 0.0509, -0.0123, -0.1485, 0.2195, -0.1176, -0.0172, 0.2181, 0.195, 0.3381, -0.0803, -0.0002, -0.0342, 0.0022, -0.0185, 0.0344, -0.0332, 0.1194, 0.2382, -0.0145, -0.0112, -0.0799, 0.1294, -0.0479, 0.0096, 0.0326, 0.0452, 0, 0.0315, -0.0424, 0.0521, -0.0248, 0.0343, 0.2138],
};
