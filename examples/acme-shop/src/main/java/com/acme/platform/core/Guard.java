package com.acme.platform.core;

import com.acme.platform.money.Money;

import java.util.Collection;

/**
 * Precondition checks used at every Acme service boundary.
 *
 * <p>Each check throws {@link AcmeException} with {@link AcmeError.Code#VALIDATION_FAILED}
 * (unless stated otherwise) and returns the checked value, so it can be used inline:
 * {@code this.name = Guard.requireText(name, "name");}. Field names end up in the
 * error details and in API responses, so use the public (JSON) field name.
 */
public final class Guard {

    private Guard() {}

    public static <T> T requireNonNull(T value, String field) {
        if (value == null) {
            throw violation(field, "is required");
        }
        return value;
    }

    /** Requires non-blank text and returns it stripped of surrounding whitespace. */
    public static String requireText(String value, String field) {
        if (value == null || value.isBlank()) {
            throw violation(field, "must not be blank");
        }
        return value.strip();
    }

    /** Like {@link #requireText(String, String)} and additionally limits the stripped length. */
    public static String requireText(String value, String field, int maxLength) {
        String text = requireText(value, field);
        if (text.length() > maxLength) {
            throw violation(field, "must be at most " + maxLength + " characters");
        }
        return text;
    }

    public static int requirePositive(int value, String field) {
        if (value <= 0) {
            throw violation(field, "must be positive but was " + value);
        }
        return value;
    }

    public static long requirePositive(long value, String field) {
        if (value <= 0) {
            throw violation(field, "must be positive but was " + value);
        }
        return value;
    }

    /** Requires a strictly positive amount. Zero-value invoices and charges are not allowed. */
    public static Money requirePositive(Money value, String field) {
        requireNonNull(value, field);
        if (!value.isPositive()) {
            throw violation(field, "must be positive but was " + value);
        }
        return value;
    }

    public static long requireNonNegative(long value, String field) {
        if (value < 0) {
            throw violation(field, "must not be negative but was " + value);
        }
        return value;
    }

    public static <C extends Collection<?>> C requireNotEmpty(C values, String field) {
        requireNonNull(values, field);
        if (values.isEmpty()) {
            throw violation(field, "must not be empty");
        }
        return values;
    }

    /** Generic state check with an explicit error code, e.g. {@code CONFLICT} for illegal transitions. */
    public static void requireThat(boolean condition, AcmeError.Code code, String message) {
        if (!condition) {
            throw new AcmeException(AcmeError.of(code, message));
        }
    }

    private static AcmeException violation(String field, String reason) {
        return new AcmeException(AcmeError.validation(field, reason));
    }
}
