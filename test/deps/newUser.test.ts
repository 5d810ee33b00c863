// The new-user case: a two-file Maven service whose pom depends on an internal ledger
// library in a local repository (jar and -sources.jar, built here with javac and jar). Without the
// library the gate was confident about an empty method whose Javadoc says it records a
// chargeback in the platform ledger; with it, the library's API is in the context and check_code
// knows the real API from a hallucinated one.
import { strict as assert } from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkAt } from '../../server/src/check/service';
import { defaultDependencySettings } from '../../server/src/deps/discover';
import { Indexer } from '../../server/src/index/indexer';
import { defaultSettings, retrieveAt, uriOfPath } from '../../server/src/service';
import { compile, jarOf, jdkMissing, sourcesJarOf } from '../helpers/jdk';
import { writeFixture } from '../helpers/workspace';
import { tempDir } from '../helpers/tempDir';

const LEDGER = {
  'com/acme/platform/ledger/AuditLedger.java': `package com.acme.platform.ledger;

/** The platform's append-only audit ledger. Every money movement is recorded here exactly once. */
public interface AuditLedger {
  /**
   * Records a chargeback: the disputed amount is reversed against the merchant account and the
   * dispute reference is kept for the card network.
   */
  LedgerReceipt recordChargeback(String merchantAccount, long amountCents, String disputeReference);

  /** Records a settled capture. */
  LedgerReceipt recordCapture(String merchantAccount, long amountCents);
}
`,
  'com/acme/platform/ledger/LedgerAdmin.java': `package com.acme.platform.ledger;

/** Operations tooling; nothing in the service reaches it, so it is not read. */
public final class LedgerAdmin {
  public static LedgerAdmin open() { return new LedgerAdmin(); }
}
`,
  'com/acme/platform/ledger/LedgerReceipt.java': `package com.acme.platform.ledger;

/** What the ledger hands back for a recorded movement. */
public final class LedgerReceipt {
  private final String entryId;
  public LedgerReceipt(String entryId) { this.entryId = entryId; }
  /** The ledger entry's id, to be stored with the payment. */
  public String entryId() { return entryId; }
}
`,
};

const SERVICE = {
  'pom.xml': `<project>
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme.payments</groupId>
  <artifactId>payments-service</artifactId>
  <version>1.0.0</version>
  <dependencies>
    <dependency><groupId>com.acme.platform</groupId><artifactId>ledger</artifactId><version>2.3.0</version></dependency>
  </dependencies>
</project>
`,
  'src/main/java/com/acme/payments/Payment.java': `package com.acme.payments;

public class Payment {
  private final String merchantAccount;
  private final long amountCents;
  private String ledgerEntry;
  public Payment(String merchantAccount, long amountCents) { this.merchantAccount = merchantAccount; this.amountCents = amountCents; }
  public String merchantAccount() { return merchantAccount; }
  public long amountCents() { return amountCents; }
  public void markLedgerEntry(String id) { this.ledgerEntry = id; }
}
`,
  'src/main/java/com/acme/payments/DisputeService.java': `package com.acme.payments;

import com.acme.platform.ledger.AuditLedger;

public class DisputeService {
  private final AuditLedger ledger;

  public DisputeService(AuditLedger ledger) { this.ledger = ledger; }

  /** Records a chargeback for the disputed payment in the platform ledger and keeps the entry id on the payment. */
  public void chargeback(Payment payment, String disputeReference) {
    $0
  }
}
`,
};

/** Publishes the ledger (jar, -sources.jar, pom) into a fresh local repository. */
export function publishLedger(repo: string, withSources: boolean): void {
  const dir = join(repo, 'com', 'acme', 'platform', 'ledger', '2.3.0');
  mkdirSync(dir, { recursive: true });
  jarOf(compile(LEDGER), join(dir, 'ledger-2.3.0.jar'));
  if (withSources) sourcesJarOf(LEDGER, join(dir, 'ledger-2.3.0-sources.jar'));
  writeFileSync(join(dir, 'ledger-2.3.0.pom'), '<project><groupId>com.acme.platform</groupId><artifactId>ledger</artifactId><version>2.3.0</version></project>');
}

async function indexed(repo: string | false) {
  const ws = writeFixture(SERVICE);
  const ix = new Indexer({ cacheDir: tempDir('needle-cache-'), dependencies: repo === false ? false : { ...defaultDependencySettings(), mavenRepositories: [repo] } });
  await ix.addFolder(ws.root);
  const result = await retrieveAt(ix, { textDocument: { uri: uriOfPath(ws.cursor!.path) }, position: ws.cursor! }, defaultSettings());
  return { ix, ws, result };
}

const ledgerItems = (items: { uri: string; symbol?: string; text: string }[]) => items.filter((i) => /ledger/.test(fileURLToPath(i.uri)) && /platform/.test(i.uri));

for (const withSources of [true, false]) {
  test(`the ledger library (${withSources ? 'with' : 'without'} sources) is in the context of the chargeback method; without it the gate was falsely sure`, async (t) => {
    const skip = jdkMissing();
    if (skip) return t.skip(skip);
    const repo = tempDir('needle-m2-');
    publishLedger(repo, withSources);

    // Before: dependency jars unread, as Needle was. The gate is sure and nothing of the ledger is shown.
    const before = await indexed(false);
    // The "sufficient, confidence 1.00": confidence is now a calibrated probability, so "sure" is ≥ τ, not exactly 1.
    assert.ok(before.result.confidence >= before.result.threshold, `confidence ${before.result.confidence} ≥ τ ${before.result.threshold}`);
    assert.equal(before.result.review, false);
    assert.equal(ledgerItems(before.result.items).length, 0);

    const { ix, result } = await indexed(repo);
    const status = ix.status();
    const ledger = status.dependencies?.find((d) => d.name === 'com.acme.platform:ledger:2.3.0');
    assert.ok(ledger, JSON.stringify(status.dependencies));
    assert.equal(ledger.internal, true, 'com.acme.platform shares the organisation prefix of com.acme.payments');
    assert.equal(ledger.sourcesFound, withSources);
    assert.ok(ledger.typesLoaded >= 1);
    const surface = result.dependencySurface.map((e) => e.symbol);
    assert.ok(surface.some((s) => s.startsWith('com.acme.platform.ledger.AuditLedger')), `surface: ${surface.join(', ')}`);
    const shown = ledgerItems(result.items).map((i) => i.text).join('\n');
    if (withSources) {
      assert.match(shown, /recordChargeback\(String merchantAccount, long amountCents, String disputeReference\)/);
      // The Javadoc travels with the sources: it is in the file the item points to, and the item
      // shows its first sentence or marks it (packing prices the sentence on its own, fitted.ts docValue).
      const sources = ledgerItems(result.items).map((i) => ix.textOf(fileURLToPath(i.uri)) ?? '').join('\n');
      assert.match(sources, /Records a chargeback/, 'the Javadoc travels with the sources');
      assert.match(shown, /(Records a chargeback[^\n]*|\/\*\* … \*\/)\n\s*LedgerReceipt recordChargeback\(/);
    } else {
      // javac keeps no parameter names by default: the class file gives types only.
      assert.match(shown, /LedgerReceipt recordChargeback\(String arg0, long arg1, String arg2\);/);
    }
    // Either the context now holds the API, or the gate says it is unsure; never sure and empty-handed.
    assert.ok(result.review || shown.length > 0);
    // The item's URI is a read-only file an editor can open.
    for (const i of ledgerItems(result.items)) assert.ok(ix.textOf(fileURLToPath(i.uri)) !== undefined);

    // check_code: the real API is confirmed, a hallucinated one is flagged with the real name nearby.
    const path = join(before.ws.root, 'src/main/java/com/acme/payments/DisputeService.java').replace(before.ws.root, ix.folders[0]);
    const ok = await checkAt(ix, { path, code: `public void chargeback(Payment payment, String disputeReference) {
    payment.markLedgerEntry(ledger.recordChargeback(payment.merchantAccount(), payment.amountCents(), disputeReference).entryId());
  }` }, { vetWithRetrieval: false });
    // (An information-level "unused surface" note about the AuditLedger type itself is not about the calls.)
    assert.deepEqual(ok.findings.filter((f) => f.code !== 'unused-surface'), [], JSON.stringify(ok.findings));
    const bad = await checkAt(ix, { path, code: `public void chargeback(Payment payment, String disputeReference) {
    ledger.recordDispute(payment.merchantAccount(), payment.amountCents(), disputeReference);
  }` }, { vetWithRetrieval: false });
    const finding = bad.findings.find((f) => /recordDispute/.test(f.message));
    assert.ok(finding, JSON.stringify(bad.findings));
    assert.match(JSON.stringify(finding), /recordChargeback|recordCapture/);
    // A real jar type the index did not read (nothing reached it) is not reported missing; a misspelt one is.
    assert.equal(ix.index.symbol('com.acme.platform.ledger.LedgerAdmin'), undefined);
    const unread = await checkAt(ix, { path, code: `public void chargeback(Payment payment, String disputeReference) {
    com.acme.platform.ledger.LedgerAdmin.open();
  }` }, { vetWithRetrieval: false });
    assert.deepEqual(unread.findings.filter((f) => f.code !== 'unused-surface'), [], JSON.stringify(unread.findings));
    const misspelt = await checkAt(ix, { path, code: `public void chargeback(Payment payment, String disputeReference) {
    com.acme.platform.ledger.LedgerAdmn.open();
  }` }, { vetWithRetrieval: false });
    assert.ok(misspelt.findings.some((f) => /has no type `LedgerAdmn`/.test(f.message)), JSON.stringify(misspelt.findings));
  });
}
