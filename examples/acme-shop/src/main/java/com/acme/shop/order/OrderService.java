package com.acme.shop.order;

import com.acme.platform.audit.AuditLedger;
import com.acme.platform.audit.AuditedOperation;
import com.acme.platform.core.Outcome;
import com.acme.platform.events.DomainEventBus;
import com.acme.platform.ids.SnowflakeIds;
import com.acme.platform.money.Money;
import com.acme.platform.paging.PageRequest;
import com.acme.platform.paging.PageSlice;
import com.acme.platform.time.TimeSource;
import com.acme.shop.billing.Invoice;
import com.acme.shop.billing.InvoiceService;
import com.acme.shop.customer.Customer;
import com.acme.shop.customer.CustomerId;
import com.acme.shop.customer.CustomerService;
import com.acme.shop.inventory.InventoryService;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static com.acme.platform.audit.AuditedOperation.Sensitivity.FINANCIAL;
import static com.acme.platform.core.Guard.requireNonNull;
import static com.acme.platform.core.Guard.requireNotEmpty;
import static com.acme.platform.core.Guard.requireText;

/**
 * Application service of the order aggregate: placing, listing, cancelling and settling
 * orders. All methods require an active {@code TenantScope}.
 */
public class OrderService {

    /** Row of the order list view. */
    public record Summary(OrderId orderId, CustomerId customerId, OrderStatus status, Money netTotal) {
        static Summary of(Order order) {
            return new Summary(order.orderId(), order.customerId(), order.status(), order.netTotal());
        }
    }

    private final OrderRepository orders;
    private final CustomerService customers;
    private final InventoryService inventory;
    private final InvoiceService invoices;
    private final DomainEventBus events;
    private final AuditLedger audit;
    private final SnowflakeIds ids;
    private final TimeSource time;

    public OrderService(OrderRepository orders, CustomerService customers, InventoryService inventory,
                        InvoiceService invoices, DomainEventBus events, AuditLedger audit,
                        SnowflakeIds ids, TimeSource time) {
        this.orders = orders;
        this.customers = customers;
        this.inventory = inventory;
        this.invoices = invoices;
        this.events = events;
        this.audit = audit;
        this.ids = ids;
        this.time = time;
    }

    /** Convenience overload for orders built inline: {@code placeOrder(id, line1, line2)}. */
    public Outcome<Order> placeOrder(CustomerId customerId, OrderLine first, OrderLine... more) {
        List<OrderLine> lines = new ArrayList<>(List.of(first));
        lines.addAll(List.of(more));
        return placeOrder(customerId, lines);
    }

    /**
     * Places an order: applies the customer's tier discount, reserves stock for every line and
     * publishes {@link OrderEvents.OrderPlaced}. Lines must be priced in the customer's
     * billing currency.
     *
     * @return the placed order; {@code NOT_FOUND} for an unknown customer or SKU,
     *         {@code CONFLICT} for insufficient stock
     */
    @AuditedOperation("order.place")
    public Outcome<Order> placeOrder(CustomerId customerId, List<OrderLine> lines) {
        requireNonNull(customerId, "customerId");
        requireNotEmpty(lines, "lines");
        return customers.find(customerId)
                .flatMap(customer -> Outcome.attempt(() -> draftFor(customer, lines)))
                .flatMap(order -> inventory.reserveFor(order.orderId(), order.lines()).map(reservations -> {
                    order.transitionTo(OrderStatus.PLACED);
                    orders.save(order);
                    audit.record(OrderService.class, "placeOrder", order.orderId().toString(),
                            Map.of("customer", customerId.toString(),
                                    "lines", String.valueOf(order.lines().size()),
                                    "net", order.netTotal().toString()));
                    events.publish(new OrderEvents.OrderPlaced(order.tenantId(), order.orderId(),
                            customerId, order.netTotal(), time.now()));
                    return order;
                }));
    }

    public Outcome<Order> findOrder(OrderId orderId) {
        return orders.require(orderId);
    }

    public PageSlice<Summary> listOrders(PageRequest page) {
        return orders.findRecent(page).map(Summary::of);
    }

    /**
     * Cancels an order that is not settled yet and releases its stock reservations.
     *
     * @return the cancelled order, or {@code CONFLICT} if it is already settled or cancelled
     */
    @AuditedOperation("order.cancel")
    public Outcome<Order> cancelOrder(OrderId orderId, String reason) {
        requireText(reason, "reason");
        return orders.require(orderId)
                .flatMap(order -> Outcome.attempt(() -> {
                    order.cancel(reason);
                    return orders.save(order);
                }))
                .peek(order -> {
                    int released = inventory.releaseFor(orderId);
                    invoices.findForOrder(orderId).ifPresent(inv -> invoices.voidInvoice(inv.number(), reason));
                    audit.record(OrderService.class, "cancelOrder", orderId.toString(),
                            Map.of("reason", reason, "releasedItems", String.valueOf(released)));
                    events.publish(new OrderEvents.OrderCancelled(order.tenantId(), orderId, reason, time.now()));
                });
    }

    /**
     * Settles a placed order: issues its invoice, collects payment with the given method and
     * ships the reserved stock.
     *
     * <p>Runs in the caller's tenant scope; orders of other tenants are reported as not found.
     * Only orders whose status {@linkplain OrderStatus#isSettleable() is settleable} are
     * accepted, and the invoice's gross amount must be positive. Store credit may only be used
     * by the ordering customer. When payment succeeds the order becomes
     * {@link OrderStatus#SETTLED}, the invoice number is attached to it, the reservations are
     * committed, the settlement is audited and {@link OrderEvents.OrderSettled} is published
     * with the amount charged. A declined or failed payment moves the order to
     * {@link OrderStatus#PAYMENT_FAILED} (so it can be retried) and returns the payment error.
     *
     * @param orderId the order to settle
     * @param method  how the customer pays
     * @return the issued invoice (paid, unless the method captures later), or the first failure
     */
    @AuditedOperation(value = "order.settle", sensitivity = FINANCIAL)
    public Outcome<Invoice> settleOrder(OrderId orderId, PaymentMethod method) {
        // TODO
        throw new UnsupportedOperationException("TODO");
    }

    private Order draftFor(Customer customer, List<OrderLine> lines) {
        Order order = new Order(OrderId.next(ids), customer.customerId(), customer.billingCurrency(),
                lines, time.now());
        order.applyDiscount(customers.discountFor(customer, order.subtotal()));
        return order;
    }
}
