package com.acme.platform.money;

import com.acme.platform.core.Guard;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Currency;
import java.util.List;

/**
 * Ledger arithmetic. All rounding in Acme goes through this class so that invoices,
 * captures and reconciliation agree to the cent.
 *
 * <p>Rules: round half-even (banker's rounding) to two decimals; tax is computed per
 * line and rounded per line, never on the invoice total; remainders of splits go to the
 * first parts.
 */
public final class MoneyMath {

    /** Number of decimals every ledger amount has, regardless of currency. */
    public static final int LEDGER_SCALE = 2;

    private static final BigDecimal HUNDRED = BigDecimal.valueOf(100);

    private MoneyMath() {}

    /** Rounds half-even to {@link #LEDGER_SCALE} decimals: 2.345 becomes 2.34, 2.355 becomes 2.36. */
    public static BigDecimal roundHalfEvenToCents(BigDecimal value) {
        return value.setScale(LEDGER_SCALE, RoundingMode.HALF_EVEN);
    }

    /** Sums amounts; an empty collection yields zero in {@code currency}. */
    public static Money sumAll(Collection<Money> amounts, Currency currency) {
        Money total = Money.zero(currency);
        for (Money m : amounts) {
            total = total.plus(m);
        }
        return total;
    }

    /** {@code percent}% of {@code base}, rounded once. {@code percentOf(EUR 10.00, 19)} is EUR 1.90. */
    public static Money percentOf(Money base, BigDecimal percent) {
        BigDecimal raw = base.amount().multiply(percent).divide(HUNDRED, 10, RoundingMode.HALF_EVEN);
        return Money.of(raw, base.currency());
    }

    /**
     * Splits {@code total} into {@code parts} amounts that add up exactly to it; the
     * remainder cents are given one each to the first parts.
     */
    public static List<Money> allocate(Money total, int parts) {
        Guard.requirePositive(parts, "parts");
        long cents = toCents(total);
        long base = cents / parts;
        long remainder = cents % parts;
        List<Money> result = new ArrayList<>(parts);
        for (int i = 0; i < parts; i++) {
            long share = base + (i < Math.abs(remainder) ? Long.signum(remainder) : 0);
            result.add(Money.ofCents(share, total.currency()));
        }
        return result;
    }

    public static long toCents(Money money) {
        return money.amount().movePointRight(LEDGER_SCALE).longValueExact();
    }

    /** True if both amounts have the same currency and differ by at most {@code toleranceCents}. */
    public static boolean withinTolerance(Money a, Money b, long toleranceCents) {
        Guard.requireNonNegative(toleranceCents, "toleranceCents");
        return a.sameCurrencyAs(b) && Math.abs(toCents(a) - toCents(b)) <= toleranceCents;
    }
}
