package com.acme.shop.order;

/**
 * Order lifecycle:
 * {@code DRAFT -> PLACED -> SETTLED}, with {@code PAYMENT_FAILED} as a retryable detour
 * and {@code CANCELLED} reachable until settlement.
 */
public enum OrderStatus {
    DRAFT,
    PLACED,
    PAYMENT_FAILED,
    SETTLED,
    CANCELLED;

    public boolean canTransitionTo(OrderStatus next) {
        return switch (this) {
            case DRAFT -> next == PLACED || next == CANCELLED;
            case PLACED, PAYMENT_FAILED -> next == SETTLED || next == PAYMENT_FAILED || next == CANCELLED;
            case SETTLED, CANCELLED -> false;
        };
    }

    /** Whether {@code OrderService#settleOrder} accepts an order in this status. */
    public boolean isSettleable() {
        return this == PLACED || this == PAYMENT_FAILED;
    }
}
