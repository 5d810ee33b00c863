package com.acme.shop.billing;

import com.acme.platform.audit.AuditLedger;
import com.acme.platform.audit.AuditedOperation;
import com.acme.platform.config.AcmeSettings;
import com.acme.platform.core.AcmeError;
import com.acme.platform.core.Outcome;
import com.acme.platform.ids.SnowflakeIds;
import com.acme.platform.money.Money;
import com.acme.platform.resilience.RetryBudget;
import com.acme.platform.tenant.TenantScope;
import com.acme.platform.time.TimeSource;
import com.acme.shop.order.Order;
import com.acme.shop.order.OrderId;
import com.acme.shop.order.PaymentMethod;

import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static com.acme.platform.audit.AuditedOperation.Sensitivity.FINANCIAL;
import static com.acme.platform.core.Guard.requireNonNull;
import static com.acme.platform.core.Guard.requireText;

/** Issues invoices for orders and collects payment for them. */
public class InvoiceService {

    private final InvoiceRepository invoices;
    private final PaymentGateway gateway;
    private final TaxPolicy taxPolicy;
    private final SnowflakeIds ids;
    private final TimeSource time;
    private final AuditLedger audit;
    private final RetryBudget paymentBudget;
    private final int paymentTermDays;
    private final Map<String, AtomicLong> numberSequences = new ConcurrentHashMap<>();

    public InvoiceService(InvoiceRepository invoices, PaymentGateway gateway, TaxPolicy taxPolicy,
                          SnowflakeIds ids, TimeSource time, AuditLedger audit, AcmeSettings settings) {
        this.invoices = invoices;
        this.gateway = gateway;
        this.taxPolicy = taxPolicy;
        this.ids = ids;
        this.time = time;
        this.audit = audit;
        this.paymentBudget = RetryBudget.fromSettings(settings, "payments");
        this.paymentTermDays = settings.integer("acme.billing.payment-term-days", 14);
    }

    /**
     * Issues the invoice for an order that is ready to settle. Idempotent: if the order
     * already has an active invoice, that invoice is returned unchanged.
     *
     * @return the invoice, or {@code CONFLICT} when the order is not settleable
     */
    @AuditedOperation(value = "invoice.issue", sensitivity = FINANCIAL)
    public Outcome<Invoice> issueFor(Order order) {
        requireNonNull(order, "order");
        Optional<Invoice> existing = invoices.findActiveByOrder(order.orderId());
        if (existing.isPresent()) {
            return Outcome.ok(existing.get());
        }
        if (!order.status().isSettleable()) {
            return Outcome.fail(AcmeError.conflict("order " + order.orderId() + " is " + order.status()));
        }
        Money tax = taxPolicy.taxFor(order);
        Invoice invoice = new Invoice(ids.nextId(), nextNumber(), order.orderId(), order.customerId(),
                order.netTotal(), tax, taxPolicy.code(), time.now(),
                time.todayUtc().plusDays(paymentTermDays));
        invoices.save(invoice);
        audit.record(InvoiceService.class, "issueFor", invoice.number(),
                Map.of("order", order.orderId().toString(), "gross", invoice.gross().toString()));
        return Outcome.ok(invoice);
    }

    /**
     * Charges the invoice's gross amount through the PSP under the {@code payments} retry
     * budget. Immediate methods mark the invoice paid; bank transfers leave it issued.
     *
     * @return the invoice, {@code PAYMENT_DECLINED}, or {@code RETRY_BUDGET_EXHAUSTED}
     */
    @AuditedOperation(value = "invoice.collect", sensitivity = FINANCIAL)
    public Outcome<Invoice> collect(Invoice invoice, PaymentMethod method) {
        requireNonNull(method, "method");
        if (invoice.status() != Invoice.Status.ISSUED) {
            return Outcome.fail(AcmeError.conflict("invoice " + invoice.number() + " is " + invoice.status()));
        }
        return gateway.chargeWithin(paymentBudget, invoice.orderId(), invoice.gross(), method)
                .map(capture -> {
                    if (!capture.pending()) {
                        invoice.markPaid(capture.reference(), capture.capturedAt());
                        invoices.save(invoice);
                    }
                    audit.record(InvoiceService.class, "collect", invoice.number(),
                            Map.of("capture", capture.reference(), "method", method.kind(),
                                    "amount", capture.amount().toString()));
                    return invoice;
                });
    }

    @AuditedOperation(value = "invoice.void", sensitivity = FINANCIAL)
    public Outcome<Invoice> voidInvoice(String number, String reason) {
        requireText(reason, "reason");
        return invoices.requireNumber(number)
                .flatMap(invoice -> Outcome.attempt(() -> {
                    invoice.markVoided(reason);
                    return invoices.save(invoice);
                }))
                .peek(invoice -> audit.record(InvoiceService.class, "voidInvoice", number, Map.of("reason", reason)));
    }

    public Outcome<Invoice> findByNumber(String number) {
        return invoices.requireNumber(number);
    }

    public Optional<Invoice> findForOrder(OrderId orderId) {
        return invoices.findActiveByOrder(orderId);
    }

    private String nextNumber() {
        String tenant = TenantScope.current().toUpperCase(Locale.ROOT);
        int year = time.now().atZone(ZoneOffset.UTC).getYear();
        long seq = numberSequences.computeIfAbsent(tenant + year, k -> new AtomicLong()).incrementAndGet();
        return String.format(Locale.ROOT, "INV-%s-%d-%06d", tenant, year, seq);
    }
}
