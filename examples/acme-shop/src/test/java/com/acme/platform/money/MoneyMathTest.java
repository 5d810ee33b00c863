package com.acme.platform.money;

import com.acme.platform.core.AcmeException;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.List;

/**
 * Plain tests (no JUnit): run with {@code java} directly, or by Surefire's POJO provider,
 * which calls every public {@code test*} method.
 */
public class MoneyMathTest {

    private static final Currency EUR = Currency.getInstance("EUR");

    public void testRoundsHalfEvenToCents() {
        check(MoneyMath.roundHalfEvenToCents(new BigDecimal("2.345")).equals(new BigDecimal("2.34")), "2.345 -> 2.34");
        check(MoneyMath.roundHalfEvenToCents(new BigDecimal("2.355")).equals(new BigDecimal("2.36")), "2.355 -> 2.36");
        check(Money.of("1000", "JPY").amount().scale() == 2, "JPY is booked with two decimals too");
    }

    public void testPercentOf() {
        check(MoneyMath.percentOf(Money.of("10.00", "EUR"), new BigDecimal("19")).equals(Money.of("1.90", "EUR")), "19% of 10");
        check(MoneyMath.percentOf(Money.of("0.05", "EUR"), new BigDecimal("50")).equals(Money.of("0.02", "EUR")),
                "half of 5 cents rounds to even");
    }

    public void testAllocateGivesRemainderToFirstParts() {
        List<Money> parts = MoneyMath.allocate(Money.of("10.00", "EUR"), 3);
        check(parts.equals(List.of(Money.ofCents(334, EUR), Money.ofCents(333, EUR), Money.ofCents(333, EUR))),
                "10.00 / 3 = 3.34 + 3.33 + 3.33 but was " + parts);
        check(MoneyMath.sumAll(parts, EUR).equals(Money.of("10.00", "EUR")), "parts add up");
    }

    public void testCurrencyMismatchIsRejected() {
        try {
            Money.of("1.00", "EUR").plus(Money.of("1.00", "CHF"));
            throw new AssertionError("expected AcmeException");
        } catch (AcmeException expected) {
            check(expected.error().details().get("field").equals("currency"), "field detail");
        }
    }

    private static void check(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    public static void main(String[] args) {
        MoneyMathTest t = new MoneyMathTest();
        t.testRoundsHalfEvenToCents();
        t.testPercentOf();
        t.testAllocateGivesRemainderToFirstParts();
        t.testCurrencyMismatchIsRejected();
        System.out.println("MoneyMathTest: all passed");
    }
}
