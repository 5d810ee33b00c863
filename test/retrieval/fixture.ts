// rust-analyzer-style fixtures: a small multi-file Java workspace written inline, one file
// holding the cursor as `$0`. Files are written to a temp dir (ripgrep searches disk) and indexed.

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { factsOfText } from '../../server/src/index/parseFile';
import { WorkspaceIndex } from '../../server/src/index/workspaceIndex';
import type { PipelineRequest } from '../../server/src/retrieval/request';
import { DEFAULTS } from '../../server/src/retrieval/request';
import { tempDir } from '../helpers/tempDir';

export interface Fixture { root: string; index: WorkspaceIndex; req: PipelineRequest; texts: Map<string, string> }

/** `files`: relative path -> text; exactly one text contains `$0`. */
export async function fixture(files: Record<string, string>, opts: Partial<PipelineRequest> = {}, roots?: string[]): Promise<Fixture> {
  const root = tempDir('needle-ret-');
  const texts = new Map<string, string>();
  let cursor: { path: string; line: number; character: number } | undefined;
  for (const [rel, raw] of Object.entries(files)) {
    const path = join(root, rel);
    let text = raw;
    const at = raw.indexOf('$0');
    if (at >= 0) {
      text = raw.slice(0, at) + raw.slice(at + 2);
      const before = raw.slice(0, at).split('\n');
      cursor = { path, line: before.length - 1, character: before[before.length - 1].length };
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    texts.set(path, text);
  }
  if (!cursor) throw new Error('fixture has no $0');
  const index = new WorkspaceIndex();
  const rootList = (roots ?? ['']).map((r) => join(root, r).replace(/\/$/, ''));
  for (const [path, text] of [...texts].sort()) {
    if (!path.endsWith('.java')) continue;
    const r = rootList.filter((x) => path.startsWith(x + '/')).sort((a, b) => b.length - a.length)[0] ?? root;
    index.put(path, r, String(text.length), await factsOfText(text));
  }
  index.resolveAll();
  const req: PipelineRequest = {
    index, roots: rootList, textOf: (p) => texts.get(p), openPaths: [], path: cursor.path,
    position: { line: cursor.line, character: cursor.character }, budgetTokens: DEFAULTS.budgetTokens,
    mode: 'rcl', maxRounds: DEFAULTS.maxRounds, threshold: 0.6, ...opts,
  };
  return { root, index, req, texts };
}

export const SHOP = {
  'src/com/acme/money/Money.java': `package com.acme.money;

/** An amount of money in cents. */
public final class Money {
  private final long cents;
  public Money(long cents) { this.cents = cents; }
  /** Adds two amounts. */
  public Money plus(Money other) { return new Money(cents + other.cents); }
  /** Multiplies by a quantity. */
  public Money times(int n) { return new Money(cents * n); }
  public long cents() { return cents; }
  /** Formats as a decimal string. */
  public String format() { return (cents / 100) + "." + (cents % 100); }
}
`,
  'src/com/acme/order/OrderLine.java': `package com.acme.order;

import com.acme.money.Money;

/** One line of an order. */
public class OrderLine {
  private final String sku;
  private final int quantity;
  private final Money unitPrice;
  public OrderLine(String sku, int quantity, Money unitPrice) { this.sku = sku; this.quantity = quantity; this.unitPrice = unitPrice; }
  public int quantity() { return quantity; }
  public Money unitPrice() { return unitPrice; }
  public String sku() { return sku; }
}
`,
  'src/com/acme/order/Discounts.java': `package com.acme.order;

import com.acme.money.Money;

/** Discount rules applied to order totals. */
public class Discounts {
  /** Applies the loyalty discount to a total. */
  public static Money applyLoyalty(Money total) { return total; }
  /** Unrelated: prints a banner. */
  public static void banner() { System.out.println("hi"); }
}
`,
  'src/com/acme/audit/AuditLog.java': `package com.acme.audit;

/** Writes audit records. */
public class AuditLog {
  /** Records an event. */
  public void record(String event) { }
  public void flush() { }
}
`,
  'src/com/acme/order/OrderService.java': `package com.acme.order;

import java.util.List;
import com.acme.money.Money;

/** Computes order totals. */
public class OrderService {
  private final Discounts discounts = new Discounts();
  private static final Money ZERO = new Money(0);

  /**
   * Sums the lines of an order and applies the loyalty discount, see {@link Discounts#applyLoyalty}.
   */
  public Money total(List<OrderLine> lines) {
    $0
  }

  /** Sums one line. */
  Money lineTotal(OrderLine line) {
    return line.unitPrice().times(line.quantity());
  }
}
`,
};
