// Four small repositories of one organisation: a platform library, two consumers of its API
// (billing is golden) and a workspace that calls it without having its sources.

import { writeFixture, type Fixture } from '../helpers/workspace';

export function orgFixtures(secret: string): Record<'platform' | 'billing' | 'reports' | 'app', Fixture> {
  const platform = writeFixture({
    'src/com/acme/platform/Money.java': `package com.acme.platform;

/** An amount of money in one currency. */
public final class Money {
  private final long cents;
  public Money(long cents) { this.cents = cents; }
  /** Zero in any currency. */
  public static Money zero() { return new Money(0); }
  /** Adds two amounts of the same currency. Both must share it. */
  public Money plus(Money other) {
    return new Money(cents + other.cents);
  }
  public Money twice() { return plus(this); }
}
`,
    'src/com/acme/platform/Ledger.java': `package com.acme.platform;

/** Where settled amounts are booked. */
public class Ledger {
  /** Books an amount under a reason. */
  public void record(Money amount, String reason) {}
}
`,
    'src/com/acme/platform/Fees.java': `package com.acme.platform;

public class Fees {
  private final Ledger ledger = new Ledger();
  public void charge(Money fee) { ledger.record(fee, "fee"); }
}
`,
    'config/payments.properties': `payments.gateway.url=https://pay.example.com\npayments.gateway.api-key=${secret}\n`,
    'api/openapi.yaml': `openapi: 3.0.0
info: { title: Ledger, version: "1" }
paths:
  /ledger/entries:
    post:
      summary: Book a ledger entry
      responses: { "200": { description: ok } }
`,
  });
  const consumer = (cls: string) => ({
    [`src/com/acme/${cls.toLowerCase()}/${cls}.java`]: `package com.acme.${cls.toLowerCase()};

import com.acme.platform.Money;

public class ${cls} {
  public Money sum(Money a, Money b) {
    return a.plus(b);
  }
}
`,
  });
  const billing = writeFixture(consumer('Invoices'));
  const reports = writeFixture(consumer('Totals'));
  const app = writeFixture({
    'src/com/acme/app/Checkout.java': `package com.acme.app;

import com.acme.platform.Ledger;
import com.acme.platform.Money;

public class Checkout {
  private final Ledger ledger = new Ledger();
  public Money settle(Money price, Money shipping) {
    Money total = price.plus(shipping);
    ledger.record(total, "checkout");
    $0return total;
  }
}
`,
  });
  return { platform, billing, reports, app };
}
