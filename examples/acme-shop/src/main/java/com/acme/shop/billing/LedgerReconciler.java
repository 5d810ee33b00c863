package com.acme.shop.billing;

import com.acme.platform.audit.AuditLedger;
import com.acme.platform.audit.AuditedOperation;
import com.acme.platform.config.AcmeSettings;
import com.acme.platform.core.Outcome;
import com.acme.platform.events.DomainEvent;
import com.acme.platform.events.DomainEventBus;
import com.acme.platform.money.Money;
import com.acme.platform.resilience.RetryBudget;
import com.acme.platform.time.TimeSource;
import com.acme.shop.customer.CustomerService;
import com.acme.shop.order.OrderRepository;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;

import static com.acme.platform.audit.AuditedOperation.Sensitivity.FINANCIAL;

/**
 * Nightly job comparing the invoices issued on a business day with the captures the PSP
 * reports for the same day. Finance signs off on the resulting report; discrepancies open
 * tickets in the back office.
 */
public class LedgerReconciler {

    /** One mismatch between the invoice ledger and the PSP. */
    public record Discrepancy(Kind kind, String invoiceNumber, String captureReference, Money expected, Money actual) {
        public enum Kind { MISSING_CAPTURE, ORPHAN_CAPTURE, AMOUNT_MISMATCH, CURRENCY_MISMATCH, SETTLED_ORDER_UNPAID }
    }

    /** Result of reconciling one day for one tenant. Totals are in the ledger currency. */
    public record Report(LocalDate day, String tenantId, int invoicesChecked, int capturesChecked,
                         Money totalInvoiced, Money totalCaptured, List<Discrepancy> discrepancies) {
        public boolean balanced() {
            return discrepancies.isEmpty();
        }
    }

    /** Published when a day does not balance. */
    public record LedgerOutOfBalance(String tenantId, LocalDate day, int discrepancies, Instant occurredAt)
            implements DomainEvent {
        @Override
        public String aggregateId() {
            return "ledger-" + day;
        }
    }

    private final InvoiceRepository invoices;
    private final PaymentGateway gateway;
    private final OrderRepository orders;
    private final CustomerService customers;
    private final AuditLedger audit;
    private final DomainEventBus events;
    private final TimeSource time;
    private final AcmeSettings settings;
    private final RetryBudget pspBudget;

    public LedgerReconciler(InvoiceRepository invoices, PaymentGateway gateway, OrderRepository orders,
                            CustomerService customers, AuditLedger audit, DomainEventBus events,
                            TimeSource time, AcmeSettings settings) {
        this.invoices = invoices;
        this.gateway = gateway;
        this.orders = orders;
        this.customers = customers;
        this.audit = audit;
        this.events = events;
        this.time = time;
        this.settings = settings;
        this.pspBudget = RetryBudget.fromSettings(settings, "psp-reporting");
    }

    /**
     * Reconciles one business day of the current tenant.
     *
     * <p>Rules (agreed with Finance, see FIN-412):
     * <ul>
     *   <li>Must run inside a {@code TenantScope}; the day is interpreted in the zone
     *       {@code acme.billing.ledger-zone} from {@link AcmeSettings}, and only days strictly
     *       before today (per {@link TimeSource}) may be reconciled.</li>
     *   <li>Invoices come from {@link InvoiceRepository#findIssuedBetween}, read page by page
     *       with {@code PageRequest}/{@code PageSlice} ({@code acme.billing.reconcile.page-size});
     *       voided invoices are skipped.</li>
     *   <li>Captures come from {@link PaymentGateway#capturesBetween}, called under the
     *       {@code psp-reporting} {@link RetryBudget}; pending bank-transfer captures count.</li>
     *   <li>Invoices and captures are matched on {@code OrderId}. Amounts are compared with
     *       {@code MoneyMath.withinTolerance} using {@code acme.billing.reconcile.tolerance-cents};
     *       different currencies are a {@code CURRENCY_MISMATCH}, never converted.</li>
     *   <li>An order in {@code OrderStatus.SETTLED} (via {@link OrderRepository}) whose invoice has
     *       no capture is {@code SETTLED_ORDER_UNPAID}; a capture without invoice is an orphan.</li>
     *   <li>Totals are summed with {@code MoneyMath.sumAll} in {@code acme.billing.ledger-currency};
     *       invoices of customers billed in other currencies (see {@link CustomerService#find})
     *       are reported but excluded from the totals.</li>
     *   <li>The run is written to the {@link AuditLedger} as {@code ledger.reconcile}, and
     *       {@link LedgerOutOfBalance} is published on the {@link DomainEventBus} when
     *       the report is not balanced.</li>
     * </ul>
     *
     * @param day the business day to reconcile
     * @return the report; {@code VALIDATION_FAILED} for today or a future day,
     *         {@code RETRY_BUDGET_EXHAUSTED} if the PSP could not be reached
     */
    @AuditedOperation(value = "ledger.reconcile", sensitivity = FINANCIAL)
    public Outcome<Report> reconcileDay(LocalDate day) {
        // TODO
        throw new UnsupportedOperationException("TODO");
    }

    ZoneId ledgerZone() {
        return ZoneId.of(settings.text("acme.billing.ledger-zone", "Europe/Berlin"));
    }
}
