// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,1500,1800,2000,2500,3000 --doc-value 100,300,1000 --l2 1,3,10,30,100
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13833 weighed candidates, 340 needed; L2 penalty λ 100 (of 1, 3, 10, 30, 100: the best mean AUROC leaving one corpus out); AUROC 0.879 pooled,
// 0.785–0.955 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docValue at the knee of contract recall against median tokens where recall holds
// within one standard error. Scores:
// recall 0.856, full coverage 0.821, needed declarations' Javadocs shown 0.597,
// contract recall 0.746, 1754 median tokens, line noise 0.941.
// Frontier (median tokens → recall): 934→0.763 (value 1000)  1339→0.822 (value 1500)  1527→0.839 (value 1800)  1655→0.856 (value 2000)  1884→0.868 (value 2500)  2113→0.870 (value 3000).

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 2000,
  docValue: 300,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.5325, 0.185, 0.1147, -0.005, 0.1811, -0.0944, -0.0669, 0.14, 0.0213, -0.6165, 0.0616, 0.0589, -0.0058, -0.0568, -0.0568, -0.1953, -0.0413, -0.0136, 0.1468, 0.0038, 0.064, -0.0056, -0.1855, 0.2266, -0.1482, -0.053, 0.244, 0.2375, -0.0703, -0.0002, -0.0424, 0.002, -0.0394, 0.0361, -0.0304, 0.1153, 0.372, -0.0124, -0.0096, -0.0707, 0.1276, -0.0597, 0.0081, 0.0238, 0.0394, 0, 0.0163, -0.0592, 0.0385, -0.075, -0.0082, 0.2129],
};
