package com.acme.shop.order;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.AcmeException;
import com.acme.platform.core.Guard;
import com.acme.platform.ids.SnowflakeIds;

/** Typed order id; display form {@code O-<number>}. */
public record OrderId(long value) {

    public OrderId {
        Guard.requirePositive(value, "orderId");
    }

    public static OrderId next(SnowflakeIds ids) {
        return new OrderId(ids.nextId());
    }

    /** Parses {@code "O-123"} or {@code "123"}. */
    public static OrderId parse(String text) {
        String raw = Guard.requireText(text, "orderId");
        try {
            return new OrderId(Long.parseLong(raw.startsWith("O-") ? raw.substring(2) : raw));
        } catch (NumberFormatException e) {
            throw new AcmeException(AcmeError.validation("orderId", "not an id: " + raw), e);
        }
    }

    @Override
    public String toString() {
        return "O-" + value;
    }
}
