// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1500,1800,2000,2500 --doc-p 0.05 --l2 10,30,100
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 14043 weighed candidates, 362 needed; AUROC 0.885 pooled,
// 0.760–0.956 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docP by contract recall where recall holds within one standard error. Scores:
// recall 0.878, full coverage 0.845, needed declarations' Javadocs shown 0.537,
// contract recall 0.733, 1605 median tokens, line noise 0.928.

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 1800,
  docP: 0.05,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee', 'by unusedImport'],
  beta: [-0.9105, 0.1711, 0.0679, 0.1121, 0.1418, -0.2776, -0.0788, 0.3905, -0.0341, -0.6817, 0.1401, 0.0138, -0.0311, -0.1869, -0.1869, -0.3496, 0.0193, 0.0579, 0.2798, -0.0176, 0.0138, -0.0474, -0.2603, 0.5042, -0.2424, -0.1352, 0.1202, 0.3909, -0.2687, -0.0007, -0.1198, 0.023, -0.0965, -0.0536, -0.1348, 0.2005, 0.429, -0.0497, -0.0348, -0.2646, 0.1322, -0.2367, -0.072, 0.0464, 0.1177, 0, 0.0009, -0.1576, 0.072, -0.0962, 0.0355, 0.3113, 0.5546],
};
