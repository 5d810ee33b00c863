package com.acme.shop.order;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.money.Money;
import com.acme.platform.money.MoneyMath;
import com.acme.platform.persistence.Entity;
import com.acme.platform.tenant.TenantScope;
import com.acme.shop.customer.CustomerId;

import java.time.Instant;
import java.util.Currency;
import java.util.List;
import java.util.Optional;

/** Order aggregate. Lines are fixed once the order is created; status moves per {@link OrderStatus}. */
public class Order extends Entity {

    private final OrderId orderId;
    private final CustomerId customerId;
    private final Currency currency;
    private final List<OrderLine> lines;
    private final Instant createdAt;
    private OrderStatus status = OrderStatus.DRAFT;
    private Money discount;
    private String invoiceNumber;
    private String cancelReason;

    public Order(OrderId orderId, CustomerId customerId, Currency currency, List<OrderLine> lines, Instant createdAt) {
        this(orderId, TenantScope.current(), customerId, currency, lines, createdAt);
    }

    public Order(OrderId orderId, String tenantId, CustomerId customerId, Currency currency,
                 List<OrderLine> lines, Instant createdAt) {
        super(orderId.value(), tenantId);
        this.orderId = orderId;
        this.customerId = Guard.requireNonNull(customerId, "customerId");
        this.currency = Guard.requireNonNull(currency, "currency");
        this.lines = List.copyOf(Guard.requireNotEmpty(lines, "lines"));
        this.createdAt = Guard.requireNonNull(createdAt, "createdAt");
        this.discount = Money.zero(currency);
        for (OrderLine line : this.lines) {
            Guard.requireThat(line.unitPrice().currency().equals(currency), AcmeError.Code.VALIDATION_FAILED,
                    "line " + line.sku() + " is priced in " + line.unitPrice().currency() + ", order in " + currency);
        }
    }

    public OrderId orderId() {
        return orderId;
    }

    public CustomerId customerId() {
        return customerId;
    }

    public Currency currency() {
        return currency;
    }

    public List<OrderLine> lines() {
        return lines;
    }

    public Instant createdAt() {
        return createdAt;
    }

    public OrderStatus status() {
        return status;
    }

    public Money discount() {
        return discount;
    }

    public Optional<String> invoiceNumber() {
        return Optional.ofNullable(invoiceNumber);
    }

    public Money subtotal() {
        return MoneyMath.sumAll(lines.stream().map(OrderLine::lineTotal).toList(), currency);
    }

    /** Subtotal minus discount: the net amount that gets invoiced (tax is added by billing). */
    public Money netTotal() {
        return subtotal().minus(discount);
    }

    public void applyDiscount(Money discount) {
        Guard.requireThat(status == OrderStatus.DRAFT, AcmeError.Code.CONFLICT, "discounts only apply to draft orders");
        Guard.requireThat(!discount.isNegative() && !discount.isGreaterThan(subtotal()),
                AcmeError.Code.VALIDATION_FAILED, "discount out of range: " + discount);
        this.discount = discount;
    }

    /** @throws com.acme.platform.core.AcmeException with CONFLICT for an illegal transition */
    public void transitionTo(OrderStatus next) {
        Guard.requireThat(status.canTransitionTo(next), AcmeError.Code.CONFLICT,
                "order " + orderId + " cannot go from " + status + " to " + next);
        this.status = next;
    }

    public void attachInvoice(String invoiceNumber) {
        this.invoiceNumber = Guard.requireText(invoiceNumber, "invoiceNumber");
    }

    public void cancel(String reason) {
        transitionTo(OrderStatus.CANCELLED);
        this.cancelReason = Guard.requireText(reason, "reason", 500);
    }

    @Override
    public String naturalKey() {
        return orderId.toString();
    }
}
