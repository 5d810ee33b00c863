package com.acme.shop.order;

import com.acme.platform.events.DomainEvent;
import com.acme.platform.money.Money;
import com.acme.shop.customer.CustomerId;

import java.time.Instant;

/** Domain events of the order aggregate. */
public final class OrderEvents {

    private OrderEvents() {}

    public record OrderPlaced(String tenantId, OrderId orderId, CustomerId customerId, Money netTotal,
                              Instant occurredAt) implements DomainEvent {
        @Override
        public String aggregateId() {
            return orderId.toString();
        }
    }

    /** Published once per order, after the invoice is issued and the payment captured (or scheduled). */
    public record OrderSettled(String tenantId, OrderId orderId, String invoiceNumber, Money amountCharged,
                               String paymentKind, Instant occurredAt) implements DomainEvent {
        @Override
        public String aggregateId() {
            return orderId.toString();
        }
    }

    public record OrderCancelled(String tenantId, OrderId orderId, String reason,
                                 Instant occurredAt) implements DomainEvent {
        @Override
        public String aggregateId() {
            return orderId.toString();
        }
    }
}
