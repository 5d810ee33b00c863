package com.acme.shop.customer;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;
import com.acme.platform.core.Guard;

/** Typed customer id. Displayed and accepted by the API as {@code C-<number>}. */
public record CustomerId(long value) {

    public CustomerId {
        Guard.requirePositive(value, "customerId");
    }

    public static CustomerId of(long value) {
        return new CustomerId(value);
    }

    /** Parses {@code "C-123"} or {@code "123"}. */
    public static CustomerId parse(String text) {
        String raw = Guard.requireText(text, "customerId");
        try {
            return new CustomerId(Long.parseLong(raw.startsWith("C-") ? raw.substring(2) : raw));
        } catch (NumberFormatException e) {
            throw new AcmeException(AcmeError.validation("customerId", "not an id: " + raw), e);
        }
    }

    @Override
    public String toString() {
        return "C-" + value;
    }
}
