// Packing's member model, fitted on validation splits pooled across every development corpus (and
// its injected variant), never on a test split. Written by `npm run fit:retrieval`
// (bench/retrieval-fit.bench.ts); regenerate, do not hand-edit.
//
// Fitted by: npm run fit:retrieval -- --tasks 40 --validation 12 --value 1000,1500,2000,2500,3000 --doc-p 0.05,0.02 --l2 1,3,10,30,100
// 84 validation tasks (7 corpora: commons-lang3, jsoup, ant, antlr4-runtime, commons-collections4, commons-lang3-injected, jsoup-injected).
// Model: 13489 weighed candidates, 337 needed; AUROC 0.882 pooled,
// 0.763–0.960 leaving one corpus out. value: the knee of pooled recall against
// median tokens; docP by contract recall where recall holds within one standard error. Scores:
// recall 0.826, full coverage 0.786, needed declarations' Javadocs shown 0.470,
// contract recall 0.676, 1623 median tokens, line noise 0.927.

import type { Packing } from './memberModel';

export const PACKING: Packing = {
  value: 1500,
  docP: 0.05,
  columns: ['bias', 'log score', 'share of reference', 'membership share', 'log own score', 'lexical share', 'api share', 'graph share', 'similar share', 'log rank', 'type', 'field or constant', 'constructor', 'same file', 'cursor type group', 'log tokens', 'javadoc', 'static', 'log group candidates', 'log file declarations', 'share of top score', 'share of type best', 'log rank in type', 'type ranked', 'log type members', 'name words in query', 'structural type', 'used by like-named sibling', 'by bodyRef', 'by secondHop', 'by caller', 'by sameClass', 'by overload', 'by overloadUses', 'by supertype', 'by superMember', 'by popularity', 'by outerType', 'by outerMember', 'by signatureType', 'by signatureMember', 'by fieldTypeMember', 'by globalPopular', 'by javadocLink', 'by javadocName', 'by queryName', 'by declaresTerm', 'by mentionsTerm', 'by namedTerm', 'by description', 'by similarCode', 'by similarCallee'],
  beta: [-1.0727, 0.1828, 0.1199, -0.0169, 0.1834, -0.2412, -0.0454, 0.2615, 0.0251, -0.6947, 0.1108, 0.02, -0.0234, -0.1593, -0.1593, -0.3014, -0.0308, 0.0126, 0.0385, 0.0293, 0.0409, -0.0405, -0.1347, 0.3977, -0.1736, -0.08, 0.3975, 0.3858, -0.2348, -0.0007, -0.1212, 0.0155, -0.0913, -0.0867, -0.1207, 0.2075, 0.5486, -0.0404, -0.0273, -0.231, 0.2518, -0.1526, 0.0176, 0.0509, 0.1211, 0, 0.0099, -0.1252, 0.0958, -0.0943, 0.0307, 0.3146],
};
