package com.acme.shop.billing;

import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Guard;
import com.acme.platform.money.Money;
import com.acme.platform.persistence.Entity;
import com.acme.shop.customer.CustomerId;
import com.acme.shop.order.OrderId;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Optional;

/**
 * An invoice for exactly one order. Numbers look like {@code INV-EMEA-RETAIL-2024-000123}
 * and are unique per tenant and year. Amounts are immutable once issued; corrections are
 * made by voiding and re-issuing.
 */
public class Invoice extends Entity {

    public enum Status { ISSUED, PAID, VOIDED }

    private final String number;
    private final OrderId orderId;
    private final CustomerId customerId;
    private final Money net;
    private final Money tax;
    private final String taxCode;
    private final Instant issuedAt;
    private final LocalDate dueDate;
    private Status status = Status.ISSUED;
    private String captureReference;
    private Instant paidAt;
    private String voidReason;

    Invoice(long id, String number, OrderId orderId, CustomerId customerId, Money net, Money tax,
            String taxCode, Instant issuedAt, LocalDate dueDate) {
        super(id);
        this.number = Guard.requireText(number, "number");
        this.orderId = Guard.requireNonNull(orderId, "orderId");
        this.customerId = Guard.requireNonNull(customerId, "customerId");
        this.net = Guard.requirePositive(net, "net");
        this.tax = Guard.requireNonNull(tax, "tax");
        this.taxCode = Guard.requireText(taxCode, "taxCode");
        this.issuedAt = issuedAt;
        this.dueDate = dueDate;
    }

    public String number() {
        return number;
    }

    public OrderId orderId() {
        return orderId;
    }

    public CustomerId customerId() {
        return customerId;
    }

    public Money net() {
        return net;
    }

    public Money tax() {
        return tax;
    }

    /** Net plus tax: the amount charged to the customer. */
    public Money gross() {
        return net.plus(tax);
    }

    public String taxCode() {
        return taxCode;
    }

    public Instant issuedAt() {
        return issuedAt;
    }

    public LocalDate dueDate() {
        return dueDate;
    }

    public Status status() {
        return status;
    }

    public Optional<String> captureReference() {
        return Optional.ofNullable(captureReference);
    }

    void markPaid(String captureReference, Instant paidAt) {
        Guard.requireThat(status == Status.ISSUED, AcmeError.Code.CONFLICT, "invoice " + number + " is " + status);
        this.captureReference = Guard.requireText(captureReference, "captureReference");
        this.paidAt = Guard.requireNonNull(paidAt, "paidAt");
        this.status = Status.PAID;
    }

    void markVoided(String reason) {
        Guard.requireThat(status != Status.PAID, AcmeError.Code.CONFLICT, "paid invoices are refunded, not voided");
        this.voidReason = Guard.requireText(reason, "reason");
        this.status = Status.VOIDED;
    }

    @Override
    public String naturalKey() {
        return number;
    }
}
