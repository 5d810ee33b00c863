package com.acme.shop.billing;

import com.acme.platform.core.Outcome;
import com.acme.platform.money.Money;
import com.acme.platform.resilience.RetryBudget;
import com.acme.shop.order.OrderId;
import com.acme.shop.order.PaymentMethod;

import java.time.Instant;
import java.util.List;

/**
 * Port to the external payment service provider (PSP).
 *
 * <p>Charges are idempotent per key: repeating a charge with the same key returns the
 * original capture. Declines come back as {@code PAYMENT_DECLINED}; network and 5xx errors
 * as {@code UPSTREAM_UNAVAILABLE}, which is retryable.
 */
public interface PaymentGateway {

    /** A captured (or, for bank transfers, pending) payment as reported by the PSP. */
    record Capture(String reference, OrderId orderId, Money amount, String methodKind,
                   boolean pending, Instant capturedAt) {
    }

    Outcome<Capture> charge(OrderId orderId, Money amount, PaymentMethod method, String idempotencyKey);

    /** Captures with {@code from <= capturedAt < to} for the current tenant's merchant account. */
    List<Capture> capturesBetween(Instant from, Instant to);

    default boolean supports(PaymentMethod method) {
        return !(method instanceof PaymentMethod.StoreCredit);
    }

    /** Idempotency key convention: one settlement attempt series per order. */
    default String settlementKey(OrderId orderId) {
        return "settle-" + orderId.value();
    }

    /** {@link #charge} under a retry budget, using {@link #settlementKey(OrderId)}. */
    default Outcome<Capture> chargeWithin(RetryBudget budget, OrderId orderId, Money amount, PaymentMethod method) {
        String key = settlementKey(orderId);
        return budget.run("payment.charge", () -> charge(orderId, amount, method, key));
    }
}
