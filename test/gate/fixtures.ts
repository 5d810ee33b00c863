// Inline Java workspace for the gate tests: a service implementing an interface, with parameter,
// field and Javadoc-linked dependencies in other packages.
export const FILES: Record<string, string> = {
  '/ws/src/com/acme/text/Guard.java': `package com.acme.text;

/** Argument checks used across the platform. */
public final class Guard {
  private Guard() {}

  /** Fails when the text is null or blank. */
  public static String requireText(String s, String what) {
    if (s == null || s.trim().isEmpty()) throw new IllegalArgumentException(what);
    return s;
  }

  /** Fails when the text is null or blank, naming no field. */
  public static String requireText(String s) {
    return requireText(s, "value");
  }

  public static int requirePercent(int p) {
    if (p < 0 || p > 100) throw new IllegalArgumentException("percent");
    return p;
  }
}
`,
  '/ws/src/com/acme/money/MoneyMath.java': `package com.acme.money;

public final class MoneyMath {
  private MoneyMath() {}

  public static long roundHalfEvenToCents(double amount) {
    return Math.round(amount);
  }

  public static long zxScaleBasis(long cents, int percent) {
    return cents * (100 - percent);
  }
}
`,
  '/ws/src/com/acme/order/Order.java': `package com.acme.order;

public class Order {
  private final String id;
  private final long cents;

  public Order(String id, long cents) {
    this.id = id;
    this.cents = cents;
  }

  public String getId() { return id; }

  public long getCents() { return cents; }

  public Order withCents(long c) { return new Order(id, c); }

  public static Order of(String id) { return new Order(id, 0); }
}
`,
  '/ws/src/com/acme/order/OrderStore.java': `package com.acme.order;

public interface OrderStore {
  Order find(String id);
  void save(Order order);
}
`,
  '/ws/src/com/acme/order/Pricing.java': `package com.acme.order;

public interface Pricing {
  /** Applies a percentage discount; the result is persisted. */
  Order applyDiscount(Order order, int percent);

  String currency();
}
`,
  '/ws/src/com/acme/order/PricingService.java': `package com.acme.order;

import com.acme.money.MoneyMath;
import com.acme.text.Guard;

public class PricingService implements Pricing {
  private final OrderStore store;
  private int applied;

  public PricingService(OrderStore store) {
    this.store = store;
  }

  /**
   * Discounts the order. Rounds with {@link MoneyMath#roundHalfEvenToCents(double)} and checks the
   * percentage with Guard.requirePercent().
   */
  @Override
  public Order applyDiscount(Order order, int percent) {
    Guard.requireText(order.getId(), "id");

  }

  @Override
  public String currency() { return "EUR"; }

  private void audit(Order order) {
    applied++;
  }
}
`,
  '/ws/src/com/acme/report/ReportWriter.java': `package com.acme.report;

public class ReportWriter {
  public void write(Report report) {
  }
}
`,
  '/ws/src/com/acme/report/Report.java': `package com.acme.report;

public class Report {
  public String title() { return "r"; }
}
`,
};
