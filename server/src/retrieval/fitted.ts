// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 8 --value 1000,1500,2000,2500,3000 --doc-value 300,100,1000 --l2 1,3,10,30,100
// 56 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 8870 weighed candidates, 228 needed; L2 penalty λ 100 (of 1, 3, 10, 30, 100: the best mean AUROC leaving one corpus out); AUROC 0.872 pooled,
// 0.742–0.959 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docValue at the knee of contract recall against median tokens where recall holds
// within one standard error. Scores:
// recall 0.843, full coverage 0.821, needed declarations' Javadocs shown 0.605,
// contract recall 0.741, 1534 median tokens, line noise 0.937.
// Frontier (median tokens → recall): 1093→0.779 (value 1000)  1534→0.843 (value 1500)  1889→0.869 (value 2000).

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 1500,
  docValue: 300,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.8671, 0.176, 0.1167, -0.0156, 0.1791, -0.0585, -0.0453, 0.0825, 0.0213, -0.5337, 0.0311, 0.09, -0.0057, -0.0664, -0.0664, -0.1695, 0.0333, -0.0566, 0.1896, 0.0229, 0.0662, 0.0158, -0.1885, 0.202, -0.1515, -0.045, 0.1851, 0.1997, -0.0556, -0.0002, -0.0291, -0.0395, -0.0443, 0.0087, -0.009, 0.113, 0.291, -0.0068, -0.006, -0.0521, 0.0888, -0.0618, -0.0299, 0.0271, 0.0428, 0, 0.0312, -0.0309, 0.0584, -0.0814, -0.021, 0.1724],
};
