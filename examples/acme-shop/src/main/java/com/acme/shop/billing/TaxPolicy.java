package com.acme.shop.billing;

import com.acme.platform.money.Money;
import com.acme.platform.money.MoneyMath;
import com.acme.shop.order.Order;
import com.acme.shop.order.OrderLine;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Set;

/**
 * Computes the tax of an order. Subclasses only decide the rate of a line; the rounding
 * convention (per line, half-even, then pro-rata reduction for the order discount) is fixed
 * here so that all policies agree with the ledger.
 */
public abstract class TaxPolicy {

    /** Code printed on the invoice, e.g. {@code DE-VAT-19}. */
    public abstract String code();

    /** Rate in percent for one line, e.g. {@code 19}. */
    protected abstract BigDecimal ratePercentFor(OrderLine line);

    public final Money taxFor(Order order) {
        Money lineTax = MoneyMath.sumAll(order.lines().stream()
                .map(line -> MoneyMath.percentOf(line.lineTotal(), ratePercentFor(line)))
                .toList(), order.currency());
        if (order.discount().isZero()) {
            return lineTax;
        }
        BigDecimal share = order.netTotal().amount()
                .divide(order.subtotal().amount(), 10, RoundingMode.HALF_EVEN);
        return lineTax.times(share);
    }

    /** Policy for a tenant's country; unknown countries are taxed at zero with code {@code XX-EXEMPT}. */
    public static TaxPolicy forCountry(String countryCode) {
        return switch (countryCode) {
            case "DE" -> new Split("DE-VAT", new BigDecimal("19"), new BigDecimal("7"), Set.of("FOD", "BOK"));
            case "NL" -> new Split("NL-BTW", new BigDecimal("21"), new BigDecimal("9"), Set.of("FOD", "BOK"));
            case "CH" -> new Flat("CH-MWST", new BigDecimal("8.1"));
            default -> new Flat("XX-EXEMPT", BigDecimal.ZERO);
        };
    }

    /** One rate for everything. */
    public static final class Flat extends TaxPolicy {
        private final String code;
        private final BigDecimal rate;

        public Flat(String code, BigDecimal rate) {
            this.code = code;
            this.rate = rate;
        }

        @Override
        public String code() {
            return code + "-" + rate.stripTrailingZeros().toPlainString();
        }

        @Override
        protected BigDecimal ratePercentFor(OrderLine line) {
            return rate;
        }
    }

    /** Standard rate with a reduced rate for some SKU categories (food, books). */
    public static final class Split extends TaxPolicy {
        private final String code;
        private final BigDecimal standardRate;
        private final BigDecimal reducedRate;
        private final Set<String> reducedCategories;

        public Split(String code, BigDecimal standardRate, BigDecimal reducedRate, Set<String> reducedCategories) {
            this.code = code;
            this.standardRate = standardRate;
            this.reducedRate = reducedRate;
            this.reducedCategories = Set.copyOf(reducedCategories);
        }

        @Override
        public String code() {
            return code + "-MIXED";
        }

        @Override
        protected BigDecimal ratePercentFor(OrderLine line) {
            return reducedCategories.contains(line.sku().category()) ? reducedRate : standardRate;
        }
    }
}
