package com.acme.platform.money;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;
import com.acme.platform.core.Guard;

import java.math.BigDecimal;
import java.util.Currency;
import java.util.Objects;

/**
 * An amount of money in one currency, always held at ledger scale (two decimals).
 *
 * <p>Acme convention: every amount is rounded with
 * {@link MoneyMath#roundHalfEvenToCents(BigDecimal)} when a {@code Money} is created, for
 * every currency, including zero-decimal ones such as JPY (a constraint inherited from the
 * general ledger). Intermediate computations that must not round (rates, shares) are done
 * on {@link BigDecimal} inside {@link MoneyMath}.
 *
 * <p>Arithmetic between different currencies throws {@link AcmeException} with
 * {@code VALIDATION_FAILED}; there is no implicit FX conversion.
 */
public final class Money implements Comparable<Money> {

    private final BigDecimal amount;
    private final Currency currency;

    private Money(BigDecimal amount, Currency currency) {
        this.amount = MoneyMath.roundHalfEvenToCents(Guard.requireNonNull(amount, "amount"));
        this.currency = Guard.requireNonNull(currency, "currency");
    }

    public static Money of(BigDecimal amount, Currency currency) {
        return new Money(amount, currency);
    }

    /** Parses e.g. {@code Money.of("12.50", "EUR")}. */
    public static Money of(String amount, String currencyCode) {
        Guard.requireText(amount, "amount");
        Guard.requireText(currencyCode, "currency");
        try {
            return new Money(new BigDecimal(amount.strip()), Currency.getInstance(currencyCode.strip()));
        } catch (IllegalArgumentException e) {
            throw new AcmeException(AcmeError.validation("amount", "not a money value: " + amount + " " + currencyCode), e);
        }
    }

    public static Money ofCents(long cents, Currency currency) {
        return new Money(BigDecimal.valueOf(cents, MoneyMath.LEDGER_SCALE), currency);
    }

    public static Money zero(Currency currency) {
        return new Money(BigDecimal.ZERO, currency);
    }

    public BigDecimal amount() {
        return amount;
    }

    public Currency currency() {
        return currency;
    }

    public Money plus(Money other) {
        requireSameCurrency(other);
        return new Money(amount.add(other.amount), currency);
    }

    public Money minus(Money other) {
        requireSameCurrency(other);
        return new Money(amount.subtract(other.amount), currency);
    }

    public Money times(int factor) {
        return new Money(amount.multiply(BigDecimal.valueOf(factor)), currency);
    }

    /** Multiplies and rounds once, half-even, to cents. */
    public Money times(BigDecimal factor) {
        return new Money(amount.multiply(factor), currency);
    }

    public boolean isZero() {
        return amount.signum() == 0;
    }

    public boolean isPositive() {
        return amount.signum() > 0;
    }

    public boolean isNegative() {
        return amount.signum() < 0;
    }

    public boolean isGreaterThan(Money other) {
        return compareTo(other) > 0;
    }

    public boolean sameCurrencyAs(Money other) {
        return currency.equals(other.currency);
    }

    @Override
    public int compareTo(Money other) {
        requireSameCurrency(other);
        return amount.compareTo(other.amount);
    }

    private void requireSameCurrency(Money other) {
        Guard.requireNonNull(other, "money");
        if (!sameCurrencyAs(other)) {
            throw new AcmeException(AcmeError.validation("currency",
                    "currency mismatch " + currency.getCurrencyCode() + " vs " + other.currency.getCurrencyCode()));
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Money m && currency.equals(m.currency) && amount.compareTo(m.amount) == 0;
    }

    @Override
    public int hashCode() {
        return Objects.hash(amount.stripTrailingZeros(), currency);
    }

    /** Formats as {@code "EUR 12.50"}; this is also the audit-ledger representation. */
    @Override
    public String toString() {
        return currency.getCurrencyCode() + " " + amount.toPlainString();
    }
}
